"""Blackout on paper: bid, tricks and score per player, a missed bid blacked out; the blank
card's ladder of hand sizes, the rounds without trump marked, and the "1" printed in every score
box so an exact bid is scored by writing the bid after it."""

from __future__ import annotations

from typing import Any, ClassVar

from reportlab.platypus import Flowable, Spacer

from referee.rules import Game, RoundState, State
from referee.rules.blackout import Blackout, BlackoutRound
from referee.rules.marks import N_
from referee.rules.wording import number_text
from referee.sheets.grid import Cell, Column, Mark, key
from referee.sheets.layout import own
from referee.sheets.printed import PrintedGame, tricks_taken
from referee.sheets.words import _

#: What a blacked-out (missed) bid prints as, white on black.
BLACKED = "×0"

#: What the blank card's score box has printed in it: the 1 the bid is written after.
PREFIX = "1"


class PrintedBlackout(PrintedGame):
    score_columns = (
        Column(N_("bid"), 18, meaning=N_("Bid")),
        Column(N_("took"), 20, meaning=N_("Tricks won")),
        Column(N_("pts"), 24, meaning=N_("Points")),
        Column(N_("total"), 28, mark="bold", meaning=N_("Total")),
    )
    blank_columns = (
        Column(N_("bid"), 24, meaning=N_("Bid")),
        Column(N_("score"), 34, mark="prefix", meaning=N_("Points")),
        Column(N_("total"), 34, meaning=N_("Total")),
    )
    # TRANSLATORS: the option names and values the PDF's footer prints, as the record has them.
    option_words: ClassVar[tuple[str, ...]] = (
        N_("sequence"),
        N_("max_cards"),
        N_("hook"),
        N_("scoring"),
        N_("up-down"),
        N_("up-down-double"),
        N_("down-up"),
        N_("up"),
        N_("down"),
        N_("prefix-one"),
        N_("ten-plus-bid"),
    )
    blank_legend = N_(
        "Write each bid in “bid”. An exact bid scores the bid written after the printed 1 "
        "(bid 3 scores 13, bid 0 scores 10); black out the “score” box of a missed bid, "
        "it scores 0. Keep the running “total”. The dealer may not make the bids add up to "
        "the number of cards (the hook), unless the table plays without it."
    )
    readable_legend = N_(
        "Tick the trump. Write each bid and each player's tricks, one digit a box, as plain "
        "digits. Keep the running total as you like: the app adds up the scores itself."
    )

    def trump_text(self, state: State, rnd: RoundState) -> str:
        """ "no trump" for a round that deals the whole deck."""
        game = state.game
        if isinstance(game, Blackout) and game.whole_deck(rnd.number):
            return _("no trump")
        return super().trump_text(state, rnd)

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        assert isinstance(rnd, BlackoutRound)
        took = tricks_taken(rnd, player)
        bid = str(rnd.bids[player]) if player in rnd.bids else ""
        missed = score is not None and bid != took
        shown = "" if score is None else number_text(score)
        return [bid, took, Mark(BLACKED, "blacked") if missed else shown]

    def legend(self, state: State) -> list[Flowable]:
        if state.game.options["scoring"] == "ten-plus-bid":
            meaning = _(
                "blacked out: the bid was missed and scores 0. An exact bid scores 10 + the bid."
            )
        else:
            meaning = _(
                "blacked out: the bid was missed and scores 0. An exact bid scores a 1 written "
                "in front of the bid (bid 3 scores 13)."
            )
        return [Spacer(0, 6), key(Mark(BLACKED, "blacked"), own(meaning, 8))]

    def blank_trump(self, game: Game[Any], number: int) -> str:
        return _("no trump") if isinstance(game, Blackout) and game.whole_deck(number) else ""

    def blank_group(self) -> list[Cell]:
        return ["", PREFIX, ""]

    def ladder(self, game: Game[Any]) -> str:
        top = game.options["max_cards"]
        return _(
            {
                "up-down": N_("1 up to %(top)s and back down to 1 card"),
                "up-down-double": N_("1 up to %(top)s, %(top)s twice, back down to 1 card"),
                "down-up": N_("%(top)s down to 1 and back up to %(top)s cards"),
                "up": N_("1 up to %(top)s cards"),
                "down": N_("%(top)s down to 1 card"),
            }[game.options["sequence"]],
            top=top,
        )


PART = PrintedBlackout()
