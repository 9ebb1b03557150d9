"""The story of the evening as plain data for the pages: the summary of the round just scored,
the standings (rank, total, gap to the leader, bids made) and each player's running totals.

Everything is read off the score sheet's rows (``referee.web.sheet.rows``), so a sealed bid is
shown here exactly when the sheet shows it: only rounds whose results are in are told, and the
sheet's cells hide a sealed bid until then. Sentences are translated when they are made.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules import RoundState, State
from referee.rules.wording import number_text
from referee.web.i18n import gettext as _
from referee.web.language import language
from referee.web.memo import memo
from referee.web.screens import Cell, SheetRow, screens
from referee.web.sheet.rows import sheet as sheet_rows
from referee.web.words import names_text, points_text


@dataclass
class SummaryLine:
    """One player's round in a sentence, and whether they made their bid (None: no bids) or
    blacked out."""

    player: str
    text: str
    made: bool | None
    blacked: bool


@dataclass
class RoundSummary:
    """What the round just scored did: a line per player, and who leads after it."""

    number: int
    lines: list[SummaryLine]
    leader: str


@dataclass
class Standing:
    """A player's place: rank (shared on equal totals), total, points behind the leader, and
    for a game with bids how many of the scored rounds they made their bid in."""

    rank: int
    player: str
    total: int
    gap: int
    made: int | None
    rate: str | None


@dataclass
class Evening:
    """The evening so far: the scored rows, the summary of the last one, the standings."""

    rows: list[SheetRow]
    summary: RoundSummary | None
    standings: list[Standing]
    has_bids: bool


def made_bid(cell: Cell) -> bool | None:
    """Whether a scored cell's player took exactly the tricks they bid (None: no bid)."""
    if cell.bid is None or cell.tricks is None:
        return None
    return cell.bid == cell.tricks


def leader_text(totals: dict[str, int], over: bool = False) -> str:
    """Who leads on ``totals``, in a sentence (a shared lead names everyone in it); once the
    game is ``over``, who won it (nobody leads a game that has ended)."""
    best = max(totals.values())
    ahead = [player for player, total in totals.items() if total == best]
    if over and len(ahead) == 1:
        return _("%(player)s wins with %(total)s.", player=ahead[0], total=number_text(best))
    if over:
        return _(
            "%(players)s share the win with %(total)s.",
            players=names_text(ahead),
            total=number_text(best),
        )
    if len(ahead) == 1:
        return _("%(player)s leads with %(total)s.", player=ahead[0], total=number_text(best))
    return _(
        "%(players)s share the lead with %(total)s.",
        players=names_text(ahead),
        total=number_text(best),
    )


def player_line(cell: Cell, player: str, has_bids: bool) -> SummaryLine:
    """``player``'s scored ``cell`` in a sentence: bid and tricks, made or not, the score; or
    the score's parts, where the game gives them (ebbes: plus, minus, the ebbes bonus)."""
    score = cell.score or 0
    made = made_bid(cell) if has_bids else None
    points = points_text(score)
    if cell.parts:
        text = _(
            "%(player)s: %(parts)s → %(points)s.", player=player, parts=cell.parts, points=points
        )
    elif made is None or cell.bid is None or cell.tricks is None:
        text = _("%(player)s scored %(points)s.", player=player, points=points)
    elif cell.blacked:
        text = _(
            "%(player)s bid %(bid)s, took %(took)s and blacked out: %(points)s.",
            player=player, bid=cell.bid, took=cell.tricks, points=points,
        )  # fmt: skip
    elif made:
        text = _(
            "%(player)s bid %(bid)s, took %(took)s and made it: %(points)s.",
            player=player, bid=cell.bid, took=cell.tricks, points=points,
        )  # fmt: skip
    else:
        text = _(
            "%(player)s bid %(bid)s, took %(took)s and missed: %(points)s.",
            player=player, bid=cell.bid, took=cell.tricks, points=points,
        )  # fmt: skip
    return SummaryLine(player, text, made, cell.blacked)


def summary(
    row: SheetRow, players: tuple[str, ...], has_bids: bool, over: bool = False
) -> RoundSummary:
    """The summary of the scored ``row``: each player's round, then the leader after it (the
    winner, when ``row`` is the game's last round, ``over``)."""
    lines = [player_line(row.cells[player], player, has_bids) for player in players]
    return RoundSummary(row.number, lines, leader_text(row.running, over))


def last_summary(state: State) -> RoundSummary | None:
    """The summary of the last scored round, for the round screen: only that round is scored
    here (the sheet's rows would score every round on every entry). The totals after it are
    the table's: a round not scored yet adds nothing to them.

    The round before the last never changes again (entries go to the last one), so while the
    last is in play, its summary is told once per language and kept (``Speed.summaries``):
    every card of a round showed the same summary of the round before. The key holds the
    round's identity, which is its own while the memo keeps the round with the summary."""
    last = state.rounds[-1] if state.rounds else None
    told = None if last is None else round_summary(state, last)
    if told is not None or len(state.rounds) < 2:
        return told
    earlier = state.rounds[-2]
    totals = state.totals()
    key = (id(earlier), tuple(totals.items()), language())
    kept = memo("summaries", key, lambda: (earlier, round_summary(state, earlier, totals)))
    return kept[1]


def round_summary(
    state: State, rnd: RoundState, totals: dict[str, int] | None = None
) -> RoundSummary | None:
    """The summary of ``rnd`` with the table's totals, or None while it is not scored."""
    scores = state.game.score_round(state, rnd)
    if scores is None:
        return None
    part = screens(state.setup.game)
    lines = []
    for player in rnd.seats:
        cell = Cell(score=scores[player].points if player in scores else None)
        if player in scores:
            cell.parts = part.score_parts(scores[player])
        part.fill_cell(state, rnd, player, cell)
        lines.append(player_line(cell, player, part.has_bids))
    over = state.complete and rnd is state.rounds[-1]
    return RoundSummary(
        rnd.number, lines, leader_text(state.totals() if totals is None else totals, over)
    )


def standings(rows: list[SheetRow], players: tuple[str, ...], has_bids: bool) -> list[Standing]:
    """Every player by total, highest first (seat order on equal totals, which share a rank)."""
    totals = rows[-1].running if rows else dict.fromkeys(players, 0)
    best = max(totals.values()) if totals else 0
    order = sorted(players, key=lambda p: -totals[p])
    out: list[Standing] = []
    for place, player in enumerate(order, start=1):
        rank = out[-1].rank if out and out[-1].total == totals[player] else place
        made = rate = None
        if has_bids:  # over the rounds the player was dealt in (docs/rules.md: sitting out)
            played = [row for row in rows if not row.cells[player].away]
            made = sum(made_bid(row.cells[player]) is True for row in played)
            rate = f"{round(100 * made / len(played))} %" if played else "—"
        out.append(Standing(rank, player, totals[player], best - totals[player], made, rate))
    return out


def evening(state: State, sheet: list[SheetRow] | None = None) -> Evening:
    """The evening so far for ``state``'s table: only its scored rounds count. ``sheet``: its
    score sheet's rows, where the page has them already."""
    players = state.players
    has_bids = screens(state.setup.game).has_bids
    rows = [row for row in (sheet_rows(state) if sheet is None else sheet) if row.complete]
    told = summary(rows[-1], players, has_bids, state.complete) if rows else None
    return Evening(rows, told, standings(rows, players, has_bids), has_bids)
