"""The score sheet for other apps: a spreadsheet (CSV) of it.

The spreadsheet has a header row, a row per round begun and the totals last. A round's row holds
its number, hand size and who deals (or starts), then the game's own columns of the round (the
trump; ebbes: a column per role), then for each player the game's own columns of their entries
(the bid and the tricks taken; Alles oder Nichts adds open or secret; ebbes has none), the
round's score and the running total. It shows what the score sheet page shows (``rows.sheet``),
so a sealed bid is not in it before its round is over. It is UTF-8 with a byte order mark, which
Excel needs to read an accent or a ♥ right, and a text cell that a spreadsheet would run as a
formula starts with ``'``.
"""

from __future__ import annotations

import csv
import io

from flask_babel import gettext as _

from referee.rules import State
from referee.web.screens import Value, screens
from referee.web.sheet.rows import sheet as sheet_rows

#: What a spreadsheet takes a cell of text starting with for a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell_text(value: Value) -> int | str:
    """One cell of the spreadsheet: nothing as an empty cell, a number as itself, and text that
    would run as a formula with ``'`` in front (a player called ``=1+2`` stays a name)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(state: State) -> bytes:
    """The score sheet as a spreadsheet (CSV, UTF-8 with a byte order mark)."""
    part = screens(state.setup.game)
    players = state.setup.players
    own = [*part.entry_headings(), _("score"), _("total")]
    meta: list[Value] = [_("Round"), _("Cards"), str(part.who_heading), *part.round_headings()]
    header = list(meta)
    for player in players:
        header += [_("%(player)s: %(column)s", player=player, column=column) for column in own]
    lines = [header]
    for row in sheet_rows(state):
        line: list[Value] = [row.number, row.hand_size, row.who, *part.round_values(row)]
        for player in players:
            cell = row.cells[player]
            running = None if cell.score is None else row.running[player]
            line += [*part.entry_values(cell), cell.score, running]
        lines.append(line)
    totals = state.totals()
    last: list[Value] = [_("Total"), *[None] * (len(meta) - 1)]
    for player in players:
        last += [*[None] * (len(own) - 1), totals[player]]
    lines.append(last)
    out = io.StringIO()
    csv.writer(out).writerows([cell_text(value) for value in line] for line in lines)
    return out.getvalue().encode("utf-8-sig")
