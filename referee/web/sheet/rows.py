"""The score sheet's rows as plain data for its templates: each round begun, each player's
entries, score and its explanation, and the running totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.rules import State
from referee.rules.alles import AllesRound
from referee.rules.blackout import BlackoutRound
from referee.rules.ebbes import Ebbes, EbbesRound
from referee.web.round.screen import (
    round_header,
)
from referee.web.words import colour_short


@dataclass
class Cell:
    """One player's cell in one round of the sheet."""

    bid: int | None = None
    open: bool | None = None
    tricks: int | None = None
    score: int | None = None
    missed: bool = False
    explain: str = ""
    won: dict[str, int] = field(default_factory=dict)


@dataclass
class SheetRow:
    number: int
    hand_size: int
    who: str | None
    trump: str
    cells: dict[str, Cell]
    running: dict[str, int]
    complete: bool
    roles: dict[str, str | None] = field(default_factory=dict)


def sheet(state: State) -> list[SheetRow]:
    """One row per round begun: entries, scores with their explanations, running totals."""
    rows: list[SheetRow] = []
    running = dict.fromkeys(state.setup.players, 0)
    for rnd in state.rounds:
        scores = state.game.score_round(state, rnd)
        tricks = rnd.tricks_won()
        cells: dict[str, Cell] = {}
        for player in state.setup.players:
            cell = Cell()
            if isinstance(rnd, (BlackoutRound, AllesRound)):
                cell.bid = rnd.bids.get(player)
                if isinstance(rnd, AllesRound):
                    cell.open = rnd.open.get(player)
                    if cell.open is False and not state.game.results_in(rnd):
                        cell.bid = None  # a secret bid stays hidden until the round is over
                cell.tricks = None if tricks is None else tricks.get(player)
            if isinstance(rnd, EbbesRound):
                won = state.game.won_of(rnd) if isinstance(state.game, Ebbes) else None
                cell.won = dict((won or {}).get(player, {}))
            if scores is not None and player in scores:
                cell.score = scores[player].points
                cell.explain = scores[player].explain()
                running[player] += cell.score
                cell.missed = (
                    cell.bid is not None and cell.tricks is not None and (cell.bid != cell.tricks)
                )
            cells[player] = cell
        header = round_header(state, rnd)
        who = rnd.leader if isinstance(rnd, EbbesRound) else rnd.dealer
        trump = "" if isinstance(rnd, EbbesRound) else colour_short(rnd.trump_colour)
        rows.append(
            SheetRow(
                rnd.number,
                rnd.tricks_total,
                who,
                trump,
                cells,
                dict(running),
                scores is not None,
                header.roles,
            )
        )
    return rows
