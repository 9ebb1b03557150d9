"""The score sheet's rows as plain data for its templates: each round begun, each player's
entries, score and its explanation, and the running totals.
"""

from __future__ import annotations

from referee.rules import State
from referee.web.screens import Cell, SheetRow, screens
from referee.web.words import score_text


def sheet(state: State) -> list[SheetRow]:
    """One row per round begun: entries, scores with their explanations, running totals."""
    part = screens(state.setup.game)
    rows: list[SheetRow] = []
    running = dict.fromkeys(state.setup.players, 0)
    for rnd in state.rounds:
        scores = state.game.score_round(state, rnd)
        cells: dict[str, Cell] = {}
        for player in state.setup.players:
            cell = cells[player] = Cell()
            if scores is not None and player in scores:
                cell.score = scores[player].points
                cell.explain = score_text(scores[player])
                cell.parts = part.score_parts(scores[player])
                running[player] += cell.score
            part.fill_cell(state, rnd, player, cell)
        rows.append(
            SheetRow(
                rnd.number,
                rnd.tricks_total,
                part.who(rnd),
                part.sheet_trump(rnd),
                cells,
                dict(running),
                scores is not None,
                part.roles(rnd),
            )
        )
    return rows
