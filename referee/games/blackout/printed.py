"""Blackout on paper: bid, tricks and score per player, a missed bid blacked out; the blank
card's ladder of hand sizes, the rounds without trump marked, and the "1" printed in every score
box so an exact bid is scored by writing the bid after it."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable, Spacer

from referee.rules import Game, RoundState, State
from referee.rules.blackout import Blackout, BlackoutRound
from referee.sheets.grid import Cell, Column, Mark, key
from referee.sheets.layout import own
from referee.sheets.printed import PrintedGame, tricks_taken

#: What a blacked-out (missed) bid prints as, white on black.
BLACKED = "×0"

#: What the blank card's score box has printed in it: the 1 the bid is written after.
PREFIX = "1"


class PrintedBlackout(PrintedGame):
    score_columns = (
        Column("bid", 18),
        Column("took", 20),
        Column("pts", 24),
        Column("total", 28, mark="bold"),
    )
    blank_columns = (Column("bid", 24), Column("score", 34, mark="prefix"), Column("total", 34))
    blank_legend = (
        "Write each bid in “bid”. An exact bid scores the bid written after the printed 1 "
        "(bid 3 scores 13, bid 0 scores 10); black out the “score” box of a missed bid, "
        "it scores 0. Keep the running “total”. The dealer may not make the bids add up to "
        "the number of cards (the hook), unless the table plays without it."
    )

    def trump_text(self, state: State, rnd: RoundState) -> str:
        """ "no trump" for a round that deals the whole deck."""
        game = state.game
        if isinstance(game, Blackout) and game.whole_deck(rnd.number):
            return "no trump"
        return super().trump_text(state, rnd)

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        assert isinstance(rnd, BlackoutRound)
        took = tricks_taken(rnd, player)
        bid = str(rnd.bids[player]) if player in rnd.bids else ""
        missed = score is not None and bid != took
        shown = "" if score is None else str(score)
        return [bid, took, Mark(BLACKED, "blacked") if missed else shown]

    def legend(self, state: State) -> list[Flowable]:
        exact = (
            "10 + the bid"
            if state.game.options["scoring"] == "ten-plus-bid"
            else "a 1 written in front of the bid (bid 3 scores 13)"
        )
        meaning = f"blacked out: the bid was missed and scores 0. An exact bid scores {exact}."
        return [Spacer(0, 6), key(Mark(BLACKED, "blacked"), own(meaning, 8))]

    def blank_trump(self, game: Game[Any], number: int) -> str:
        return "no trump" if isinstance(game, Blackout) and game.whole_deck(number) else ""

    def blank_group(self) -> list[Cell]:
        return ["", PREFIX, ""]

    def ladder(self, game: Game[Any]) -> str:
        top = game.options["max_cards"]
        return {
            "up-down": f"1 up to {top} and back down to 1 card",
            "up-down-double": f"1 up to {top}, {top} twice, back down to 1 card",
            "down-up": f"{top} down to 1 and back up to {top} cards",
            "up": f"1 up to {top} cards",
            "down": f"{top} down to 1 card",
        }[game.options["sequence"]]


PART = PrintedBlackout()
