"""The score sheet for other apps: a spreadsheet of it, as CSV and as ``.xlsx``, and a finished
game as a play to log in BG Stats.

The spreadsheet has a header row, a row per round begun and the totals last; the CSV and the
``.xlsx`` write the same rows (``sheet_table``). A round's row holds its number, hand size and
who deals (or starts), then the game's own columns of the round (the trump; ebbes: a column per
role), then for each player the game's own columns of their entries (the bid and the tricks
taken; Alles oder Nichts adds open or secret; ebbes has none), the round's score and the running
total. It shows what the score sheet page shows (``rows.sheet``), so a sealed bid is not in it
before its round is over.

The CSV is UTF-8 with a byte order mark, which Excel needs to read an accent or a ♥ right, and
its cells are separated as the reader's spreadsheet splits a row: ``;`` in a language whose
decimal mark is a comma (German and most of Europe, where Excel splits at ``;``), ``,``
otherwise. Every number in it is whole, so no decimal mark is written. Nothing in it runs as a
formula, whichever of the two a spreadsheet splits at: every text cell is quoted, and a text
that would start a formula, at its start or after a ``;`` or ``,`` inside it (where a
spreadsheet splitting at the other separator starts a cell), gets a ``'`` there; a number, below
zero too, stays a number.

The ``.xlsx`` has none of these questions: its cells need no separator, its text is Unicode and
a text cell is never a formula, so it keeps every name as typed and opens right on a
double-click whatever the spreadsheet's settings (``downloads.spreadsheet``: a bold header,
columns as wide as they need, the sheet named in the reader's language).

The play for BG Stats is the link BG Stats documents on its support page "Push plays to BG Stats
from other apps or websites",
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ :
``https://app.bgstatsapp.com/createPlay.html?data=`` and the play as URL-encoded JSON. That
link is 1-2 KB long, so the pages link to ``/t/<id>/bgstats`` instead (``finished_play``), which
sends the browser on to it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC
from typing import Any
from urllib.parse import quote

from babel.numbers import get_decimal_symbol

from referee.rules import State
from referee.store.tables import TableRecord
from referee.web.downloads import spreadsheet
from referee.web.i18n import gettext as _
from referee.web.language import language
from referee.web.screens import Value, screens
from referee.web.sheet.rows import sheet as sheet_rows

#: What a spreadsheet takes a cell of text starting with for a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A ``;`` or ``,`` inside a text followed by what would start a formula in a cell that a
#: spreadsheet splitting there begins (a ``"`` too: such a cell may lose it as quoting).
_SPLIT_FORMULA = re.compile(r'([;,])(?=["=+\-@\t\r])')

#: The link that takes a play to BG Stats (its format: see the module's docstring).
BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"

#: Who made the play, as BG Stats shows it (its ``sourceName``).
SOURCE_NAME = "Table Referee"


def cell_text(value: Value) -> int | str:
    """One cell of the spreadsheet: nothing as an empty cell, a number as itself, and text that
    would run as a formula, at its start or after a ``;`` or ``,``, with ``'`` there (a player
    called ``=1+2`` stays a name, and so does ``x;=1+1``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        value = _SPLIT_FORMULA.sub(r"\1'", value)
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return value


def separator() -> str:
    """What the reader's spreadsheet splits a row at: ``;`` where the page's language writes a
    decimal comma (Excel's list separator there), else ``,``."""
    return ";" if get_decimal_symbol(language()) == "," else ","


def sheet_table(state: State) -> list[list[Value]]:
    """The score sheet's rows as its spreadsheets have them, in the request's language: the
    header, a row per round begun, the totals."""
    part = screens(state.setup.game)
    players = state.players
    own = [*part.entry_headings(), _("Points"), _("Total")]
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
    return lines


def sheet_csv(state: State, delimiter: str = ",") -> bytes:
    """The score sheet as a spreadsheet (CSV, UTF-8 with a byte order mark), its cells separated
    by ``delimiter`` and every text quoted."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerows([cell_text(value) for value in line] for line in sheet_table(state))
    return out.getvalue().encode("utf-8-sig")


def sheet_xlsx(state: State) -> bytes:
    """The score sheet as a spreadsheet (``.xlsx``): the CSV's rows, on a sheet named in the
    request's language."""
    return spreadsheet(_("Score sheet"), sheet_table(state))


def finished_play(record: TableRecord, state: State) -> bool:
    """Whether the table is a play to log in BG Stats: a game finished, with its entries."""
    return state.complete and bool(record.entries)


def bgstats_link(record: TableRecord, state: State) -> str | None:
    """The finished game as a play to log in BG Stats: its ``createPlay`` link (None while the
    game goes on).

    The play is built to the format of BG Stats' support page (see the module's docstring):
    the game (its name; the highest total wins, as ``State.winners`` has it), when it began, how
    long it took (from the first entry to the last, in whole minutes; none when the clock went
    back so far that the last entry's time is before the first's), and each player with their
    total, place (players on the same total share it), whether they won and whether they began
    the game (led round 1). Times are UTC: a table keeps no time zone. Left out: the game's
    BoardGameGeek id (none is known), the board, a comment, and the location, which BG Stats sets
    to the app itself.
    """
    if not finished_play(record, state):
        return None
    totals = state.totals()
    winners = state.winners()
    starter = state.rounds[0].leader
    began, ended = record.entries[0].created_at, record.entries[-1].created_at
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.id,
        "playDate": began.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(0, round((ended - began).total_seconds() / 60)),
        "game": {
            "name": state.game.title,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": state.setup.game,
        },
        "players": [
            {
                "name": player,
                "sourcePlayerId": player,
                "score": totals[player],
                "rank": 1 + sum(total > totals[player] for total in totals.values()),
                "winner": player in winners,
                "startPlayer": player == starter,
                "role": "",
            }
            for player in state.players
        ],
    }
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_CREATE_PLAY}?data={quote(data, safe='')}"
