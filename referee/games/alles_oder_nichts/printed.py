"""Alles oder Nichts on paper: bid, open or secret, tricks and points per player, a secret bid
printed only once its round is over; the blank card's "o  s" to circle."""

from __future__ import annotations

from typing import ClassVar

from reportlab.platypus import Flowable, Spacer

from referee.rules import RoundState, State
from referee.rules.alles import AllesRound
from referee.rules.marks import N_
from referee.rules.wording import number_text
from referee.sheets.common import COLOUR_WORDS
from referee.sheets.grid import Cell, Column
from referee.sheets.layout import own
from referee.sheets.printed import PrintedGame, tricks_taken
from referee.sheets.words import _

#: What a blank bid box offers to circle: open or secret.
OPEN_OR_SECRET = N_("o   s")


class PrintedAlles(PrintedGame):
    score_columns = (
        Column(N_("bid"), 18, meaning=N_("Bid")),
        Column(N_("o/s"), 16, meaning=N_("Open or secret")),
        Column(N_("took"), 20, meaning=N_("Tricks won")),
        Column(N_("pts"), 22, meaning=N_("Points")),
        Column(N_("total"), 26, mark="bold", meaning=N_("Total")),
    )
    blank_columns = (
        Column(N_("bid"), 22, meaning=N_("Bid")),
        Column(N_("o / s"), 24, mark="tick", meaning=N_("Open or secret")),
        Column(N_("took"), 22, meaning=N_("Tricks won")),
        Column(N_("pts"), 24, meaning=N_("Points")),
        Column(N_("total"), 30, meaning=N_("Total")),
    )
    # TRANSLATORS: the option names and values the PDF's footer prints, as the record has them.
    option_words: ClassVar[tuple[str, ...]] = (
        *COLOUR_WORDS,
        N_("colours"),
        N_("values"),
    )
    blank_legend = N_(
        "Circle “o” for an open bid or “s” for a secret one; write a secret bid in "
        "once the round is over. Secret: 1 per trick, +3 if exact. Open: 2 per trick +3 if "
        "exact, else 0."
    )
    readable_legend = N_(
        "Tick the trump and, per player, “o” for an open bid or “s” for a secret one. Write "
        "each bid (a secret one once the round is over) and the tricks won, one digit a box."
    )

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        assert isinstance(rnd, AllesRound)
        declared = rnd.open.get(player)
        hidden = declared is False and not state.game.results_in(rnd)
        bid = "" if hidden or player not in rnd.bids else str(rnd.bids[player])
        mark = "" if declared is None else (_("o") if declared else _("s"))
        shown = "" if score is None else number_text(score)
        return [bid, mark, tricks_taken(rnd, player), shown]

    def legend(self, state: State) -> list[Flowable]:
        text = _(
            "o = open bid, s = secret bid (printed once its round is over). Secret: 1 per trick, "
            "+3 if exact. Open: 2 per trick +3 if exact, else 0."
        )
        return [Spacer(0, 6), own(text, 8)]

    def blank_group(self) -> list[Cell]:
        return ["", _(OPEN_OR_SECRET), "", "", ""]


PART = PrintedAlles()
