"""A table's score sheet as PDF: every round begun, with its entries, scores and running totals.

Everything printed comes from the replayed ``State`` (``referee.rules``), plus what the caller
knows about the table (``SheetInfo``: a title, the date, the corrections in its log). What each
game prints in its columns is its own (``referee/games/<package>/printed.py``); a hidden bid is
printed only once its round is over, as on the table's pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from gettext import NullTranslations

from reportlab.platypus import Flowable, Spacer

from referee.rules import State
from referee.rules.marks import N_
from referee.rules.wording import names_list, number_text, seat_change_lines
from referee.sheets import common, fonts
from referee.sheets.grid import Cell, Grid, Mark, Row
from referee.sheets.layout import Page, para
from referee.sheets.printed import printed
from referee.sheets.words import _, ngettext, speaking, translations

#: The mark after a round number whose entries were corrected or undone.
CORRECTED = "*"


@dataclass(frozen=True)
class Correction:
    """An undo or amendment in the table's log: the round it touched and a sentence about it."""

    round: int | None
    text: str


@dataclass(frozen=True)
class SheetInfo:
    """What the sheet prints besides the state: a title, the table's date, its corrections."""

    title: str | None = None
    date: date | None = None
    corrections: Sequence[Correction] = field(default_factory=tuple)


def table_sheet(
    state: State,
    info: SheetInfo | None = None,
    page: Page | None = None,
    words: NullTranslations | None = None,
) -> bytes:
    """The table's score sheet as PDF bytes, in the language of ``words`` (``speaking``)."""
    with speaking(words):
        return sheet(state, info, page)


@fonts.fitted
def sheet(state: State, info: SheetInfo | None, page: Page | None) -> bytes:
    """The table's score sheet as PDF bytes, in the language being spoken."""
    info = info or SheetInfo()
    page = page or Page()
    game = state.game
    part = printed(game.name)
    players = state.players
    corrected = {c.round for c in info.corrections if c.round is not None}
    rows: list[Row] = []
    running = dict.fromkeys(players, 0)
    seating = state.seating
    changes: list[str] = []  # who joined, left or sat out, before which round
    for rnd in state.rounds:
        scores = game.score_round(state, rnd)
        cells: list[Cell] = [f"{rnd.number}{CORRECTED if rnd.number in corrected else ''}"]
        before, strip = part.round_lead(state, rnd)
        cells += before
        if seating is not None:
            said = seat_change_lines(seating, rnd.number, translations())
            if said:
                changes.append(
                    _("Before round %(n)s: %(said)s", n=rnd.number, said="; ".join(said))
                )
            for player, start in seating.starts.items():
                if seating.joined[player] == rnd.number:
                    running[player] += start
        for player in players:
            if player not in rnd.seats:  # sat out (a dash) or not at the table (blank)
                out = seating is not None and player in seating.out.get(rnd.number, ())
                cells += ["–" if out else ""] + [""] * (len(part.score_columns) - 1)
                continue
            score = None if scores is None else scores[player].points
            if score is not None:
                running[player] += score
            cells += part.player_cells(state, rnd, player, score)
            cells.append("" if score is None else number_text(running[player]))
        rows.append(Row(cells, strip))
    coming = len(state.rounds) + 1  # changes made before a round not begun yet
    said = seat_change_lines(seating, coming, translations()) if seating is not None else []
    if said and seating is not None:
        changes.append(_("Before round %(n)s: %(said)s", n=coming, said="; ".join(said)))
        for player, start in seating.starts.items():
            if seating.joined[player] == coming:
                running[player] += start
    totals = running  # state.totals(), without scoring every round again
    best = max(totals.values())
    winners = [p for p in players if totals[p] == best] if state.complete else []
    per_player = list(part.score_columns)
    lead = part.lead_columns(players)
    foot: list[Cell] = [_("Total")]
    foot += [""] * (len(lead) - 1)
    for player in players:
        foot += [""] * (len(per_player) - 1)
        foot.append(Mark(number_text(totals[player]), "boxed" if player in winners else "bold"))
    grid = Grid(
        lead=lead,
        per_player=per_player,
        names=players,
        rows=rows,
        foot=foot,
        stripes=True,
    )
    title = info.title or _("%(game)s — score sheet", game=game.title)
    lines = [
        " · ".join(
            part
            for part in (
                game.title if info.title else "",
                info.date.isoformat() if info.date else "",
                ngettext("%(num)s player", "%(num)s players", len(players)),
                progress(state),
            )
            if part
        ),
        common.seats_line(state.ring),  # as they sit, newcomers where they sat down
        _(part.first_line, player=state.setup.first_player),
    ]
    head = common.heading(title, lines)
    head += result(winners, best)
    notes = [
        *common.column_legend([*lead, *per_player]),
        *part.legend(state),
        *seat_notes(changes),
        *footnotes(info.corrections),
        *breaches(state),
        *common.glyph_note([title, *players]),
    ]
    return common.pdf(grid, page, title, head, notes, game.title, game.options, part.option_words)


def progress(state: State) -> str:
    """How far the game is: complete, ended early, or the round being played."""
    if state.ended is not None:
        return _("ended after round %(n)s of %(of)s", n=state.ended, of=state.game.round_count)
    number = state.round_to_play
    if number is None:
        return _("complete")
    return _("round %(n)s of %(of)s to play", n=number, of=state.game.round_count)


def result(winners: Sequence[str], best: int) -> list[Flowable]:
    """The winner or winners of a complete game, in large print."""
    if not winners:
        return []
    names = names_list(winners, translations())
    if len(winners) == 1:
        line = ngettext(
            "Winner: %(players)s with %(num)s point",
            "Winner: %(players)s with %(num)s points",
            best,
            players=names,
        )
    else:
        line = ngettext(
            "Shared win: %(players)s with %(num)s point",
            "Shared win: %(players)s with %(num)s points",
            best,
            players=names,
        )
    return [para(line, 12, bold=True), Spacer(0, 6)]


def seat_notes(lines: Sequence[str]) -> list[Flowable]:
    """Who joined, left or sat out, round by round (docs/rules.md, "Joining, leaving, sitting
    out"): a dash on the sheet is a round sat out, a blank one not at the table."""
    if not lines:
        return []
    heading = _("Who came and went (– a round sat out)")
    return [Spacer(0, 6), para(heading, 9, bold=True), *(para(line, 8) for line in lines)]


def footnotes(corrections: Sequence[Correction]) -> list[Flowable]:
    """The corrections of the log, round by round, under the rounds they marked."""
    if not corrections:
        return []
    out: list[Flowable] = [
        Spacer(0, 6),
        para(_("Corrections (%(mark)s on a round number)", mark=CORRECTED), 9, bold=True),
    ]
    for c in sorted(corrections, key=lambda c: c.round or 0):
        if c.round is None:
            out.append(para(c.text, 8))
        else:
            line = _("%(mark)s Round %(n)s: %(text)s", mark=CORRECTED, n=c.round, text=c.text)
            out.append(para(line, 8))
    return out


def breaches(state: State) -> list[Flowable]:
    """Every breach of the rules the replay noted, and apart from them what the round under way
    still waits for (a secret bid to turn up: a step to come, not a breach)."""
    t = translations()
    pending = {id(b) for b in state.provisional}
    out: list[Flowable] = []
    for heading, notes in (
        (N_("Breaches noted"), [b for b in state.violations if id(b) not in pending]),
        (N_("Still to be entered"), state.provisional),
    ):
        if notes:
            out += [Spacer(0, 6), para(t.gettext(heading), 9, bold=True)]
        for breach in notes:
            sentence = breach.sentence(t, symbols=False)
            if breach.round is not None:
                sentence = t.gettext(ROUND_NOTE) % {"round": breach.round, "sentence": sentence}
            out.append(para(sentence, 8))
    return out


#: A breach with the round it is in.
ROUND_NOTE = N_("Round %(round)s: %(sentence)s")
