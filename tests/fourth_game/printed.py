"""Plain Whist on paper: the tricks each player took in a round, and the running total."""

from __future__ import annotations

from reportlab.platypus import Flowable

from referee.rules import RoundState, State
from referee.rules.marks import N_
from referee.sheets.grid import Cell, Column
from referee.sheets.printed import PrintedGame, tricks_taken


class PrintedPlainWhist(PrintedGame):
    score_columns = (Column(N_("took"), 20), Column(N_("total"), 28, mark="bold"))
    blank_columns = (Column(N_("took"), 24), Column(N_("total"), 34))
    blank_legend = N_("Write the tricks each player took; each is a point.")

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        return [tricks_taken(rnd, player)]

    def legend(self, state: State) -> list[Flowable]:
        return []


PART = PrintedPlainWhist()
