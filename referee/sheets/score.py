"""A table's score sheet as PDF: every round begun, with its entries, scores and running totals.

Everything printed comes from the replayed ``State`` (``referee.rules``), plus what the caller
knows about the table (``SheetInfo``: a title, the date, the corrections in its log). A secret
Alles oder Nichts bid is printed only once its round is over, as on the table's pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from reportlab.platypus import Flowable, Spacer

from referee.rules import RoundState, State
from referee.rules.alles import AllesRound
from referee.rules.blackout import Blackout, BlackoutRound
from referee.rules.ebbes import Ebbes, EbbesRound
from referee.sheets import common, fonts
from referee.sheets.grid import Cell, Column, Grid, Mark, Row, key
from referee.sheets.layout import Page, own, para

#: What a blacked-out (missed) Blackout bid prints as, white on black.
BLACKED = "×0"

#: The mark after a round number whose entries were corrected or undone.
CORRECTED = "*"

PER_PLAYER: dict[str, list[Column]] = {
    "blackout": [
        Column("bid", 18),
        Column("took", 20),
        Column("pts", 24),
        Column("total", 28, mark="bold"),
    ],
    "alles-oder-nichts": [
        Column("bid", 18),
        Column("o/s", 16),
        Column("took", 20),
        Column("pts", 22),
        Column("total", 26, mark="bold"),
    ],
    "ebbes": [
        Column("plus", 22),
        Column("ebbes", 25),
        Column("minus", 25),
        Column("nix", 18),
        Column("pts", 22),
        Column("total", 26, mark="bold"),
    ],
}

#: ebbes' colour roles whose cards are counted on the sheet, in column order.
COUNTED_ROLES = ("plus", "ebbes", "minus", "nix")


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


@fonts.fitted
def table_sheet(state: State, info: SheetInfo | None = None, page: Page | None = None) -> bytes:
    """The table's score sheet as PDF bytes."""
    info = info or SheetInfo()
    page = page or Page()
    game = state.game
    players = state.setup.players
    corrected = {c.round for c in info.corrections if c.round is not None}
    rows: list[Row] = []
    running = dict.fromkeys(players, 0)
    for rnd in state.rounds:
        scores = game.score_round(state, rnd)
        cells: list[Cell] = [f"{rnd.number}{CORRECTED if rnd.number in corrected else ''}"]
        strip: list[tuple[str, str]] = []
        if isinstance(rnd, EbbesRound):
            strip = ebbes_strip(rnd)
        else:
            cells += [str(rnd.hand_size), common.dealer_text(rnd.dealer), trump_text(state, rnd)]
        tricks = None if isinstance(rnd, EbbesRound) else rnd.tricks_won()
        for player in players:
            score = None if scores is None else scores[player].points
            if score is not None:
                running[player] += score
            cells += player_cells(state, rnd, tricks, player, score)
            cells.append("" if score is None else str(running[player]))
        rows.append(Row(cells, strip))
    totals = running  # state.totals(), without scoring every round again
    best = max(totals.values())
    winners = [p for p in players if totals[p] == best] if state.complete else []
    per_player = PER_PLAYER[state.setup.game]
    lead = common.lead_columns(game.name, players)
    foot: list[Cell] = ["Total"]
    foot += [""] * (len(lead) - 1)
    for player in players:
        foot += [""] * (len(per_player) - 1)
        foot.append(Mark(str(totals[player]), "boxed" if player in winners else "bold"))
    grid = Grid(
        lead=lead,
        per_player=per_player,
        names=players,
        rows=rows,
        foot=foot,
        stripes=True,
    )
    title = info.title or f"{game.title} — score sheet"
    lines = [
        " · ".join(
            part
            for part in (
                game.title if info.title else "",
                info.date.isoformat() if info.date else "",
                f"{len(players)} players",
                progress(state),
            )
            if part
        ),
        common.seats_line(players),
        f"{'Starts' if isinstance(game, Ebbes) else 'Deals'} round 1: {state.setup.first_player}",
    ]
    head = common.heading(title, lines)
    head += result(winners, best)
    notes = [
        *legend(state),
        *footnotes(info.corrections),
        *breaches(state),
        *common.glyph_note([title, *players]),
    ]
    return common.pdf(grid, page, title, head, notes, game.title, game.options)


def trump_text(state: State, rnd: RoundState) -> str:
    """The round's trump as a word; "no trump" for a round that deals the whole deck."""
    if isinstance(state.game, Blackout) and state.game.whole_deck(rnd.number):
        return "no trump"
    return common.colour_word(rnd.trump_colour)


def player_cells(
    state: State,
    rnd: RoundState,
    tricks: Mapping[str, int] | None,
    player: str,
    score: int | None,
) -> list[Cell]:
    """A player's cells in one round (``tricks``: the round's tricks won, if known), before
    the running total."""
    shown = "" if score is None else str(score)
    if isinstance(rnd, EbbesRound):
        game = state.game
        assert isinstance(game, Ebbes)
        won = (game.won_of(rnd) or {}).get(player)
        roles = rnd.role_map()
        counts = [
            "" if won is None or roles[role] is None else str(won.get(roles[role] or "", 0))
            for role in COUNTED_ROLES
        ]
        return [*counts, shown]
    took = "" if tricks is None or player not in tricks else str(tricks[player])
    if isinstance(rnd, AllesRound):
        declared = rnd.open.get(player)
        hidden = declared is False and not state.game.results_in(rnd)
        bid = "" if hidden or player not in rnd.bids else str(rnd.bids[player])
        mark = "" if declared is None else ("o" if declared else "s")
        return [bid, mark, took, shown]
    assert isinstance(rnd, BlackoutRound)
    bid = str(rnd.bids[player]) if player in rnd.bids else ""
    missed = score is not None and bid != took
    return [bid, took, Mark(BLACKED, "blacked") if missed else shown]


def ebbes_strip(rnd: EbbesRound) -> list[tuple[str, str]]:
    """The round's designations as words: the number (or placed designators), each colour role
    and who started."""
    roles = rnd.role_map()
    if rnd.designators is not None:
        first = ("designators", ", ".join(card.label() for card in rnd.designators))
    else:
        first = ("number", "" if rnd.number_card is None else str(rnd.number_card))
    pairs = [first]
    pairs += [(role, common.colour_word(colour)) for role, colour in roles.items()]
    pairs.append(("starts", rnd.leader or ""))
    return pairs


def progress(state: State) -> str:
    """How far the game is: complete, or the round being played."""
    if state.complete:
        return "complete"
    upcoming = state.game.upcoming(state)
    if upcoming is None:
        return "complete"
    return f"round {upcoming.number} of {state.game.round_count} to play"


def result(winners: Sequence[str], best: int) -> list[Flowable]:
    """The winner or winners of a complete game, in large print."""
    if not winners:
        return []
    word = "Winner" if len(winners) == 1 else "Shared win"
    return [para(f"{word}: {', '.join(winners)} with {best} points", 12, bold=True), Spacer(0, 6)]


def legend(state: State) -> list[Flowable]:
    """How to read the game's cells."""
    game = state.game
    if isinstance(game, Blackout):
        exact = (
            "10 + the bid"
            if game.options["scoring"] == "ten-plus-bid"
            else "a 1 written in front of the bid (bid 3 scores 13)"
        )
        meaning = f"blacked out: the bid was missed and scores 0. An exact bid scores {exact}."
        return [Spacer(0, 6), key(Mark(BLACKED, "blacked"), own(meaning, 8))]
    elif isinstance(game, Ebbes):
        text = (
            "Cards won of the plus, ebbes, minus and nix colours. Plus +1 a card, minus -1 a "
            "card, ebbes +3 to each player with neither the most nor the fewest."
        )
    else:
        text = (
            "o = open bid, s = secret bid (printed once its round is over). Secret: 1 per trick, "
            "+3 if exact. Open: 2 per trick +3 if exact, else 0."
        )
    return [Spacer(0, 6), own(text, 8)]


def footnotes(corrections: Sequence[Correction]) -> list[Flowable]:
    """The corrections of the log, round by round, under the rounds they marked."""
    if not corrections:
        return []
    out: list[Flowable] = [
        Spacer(0, 6),
        para(f"Corrections ({CORRECTED} on a round number)", 9, bold=True),
    ]
    for c in sorted(corrections, key=lambda c: c.round or 0):
        where = f"{CORRECTED} Round {c.round}: " if c.round is not None else ""
        out.append(para(where + c.text, 8))
    return out


def breaches(state: State) -> list[Flowable]:
    """Every breach of the rules the replay noted."""
    if not state.violations:
        return []
    out: list[Flowable] = [Spacer(0, 6), para("Breaches noted", 9, bold=True)]
    for breach in state.violations:
        where = f"Round {breach.round}: " if breach.round is not None else ""
        out.append(para(where + breach.message, 8))
    return out
