"""The score sheet's rows as plain data for its templates: each round begun, each player's
entries, score and its explanation, and the running totals.
"""

from __future__ import annotations

from referee.rules import State
from referee.web.screens import Cell, SheetRow, screens
from referee.web.words import score_text, seat_change_lines


def sheet(state: State) -> list[SheetRow]:
    """One row per round begun: entries, scores with their explanations, running totals."""
    part = screens(state.setup.game)
    rows: list[SheetRow] = []
    running = dict.fromkeys(state.players, 0)
    seating = state.seating
    for rnd in state.rounds:
        scores = state.game.score_round(state, rnd)
        cells: dict[str, Cell] = {}
        if seating is not None:  # a newcomer's starting points count from their first round
            for player, start in seating.starts.items():
                if seating.joined[player] == rnd.number:
                    running[player] += start
        for player in state.players:
            cell = cells[player] = Cell()
            if player not in rnd.seats:
                out = seating is not None and player in seating.out.get(rnd.number, ())
                cell.away = "out" if out else "away"
                continue
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
                seat_change_lines(state, rnd.number),
            )
        )
    return rows


#: How many characters of a name fit a column of the sheet's head at 360 px, by the number of
#: players (the head's names are 0.7–0.8 rem bold; an ellipsis counts as one).
NAME_FITS = {2: 16, 3: 14, 4: 11, 5: 8, 6: 6, 7: 3, 8: 3}


def short_names(players: tuple[str, ...]) -> dict[str, str]:
    """Each player's name as the sheet's head shows it: whole where it fits, else its start
    and an ellipsis ("Be…"), and where two starts are alike, their start and end
    ("H…r", "H…i"); different for every player, so no name need break inside a word.

    >>> short_names(("Benedikt", "Hans-Peter", "Hansi", "Ann", "Bo", "Cy", "Di", "Ed"))
    {'Benedikt': 'Be…', 'Hans-Peter': 'H…r', 'Hansi': 'H…i', 'Ann': 'Ann', 'Bo': 'Bo', \
'Cy': 'Cy', 'Di': 'Di', 'Ed': 'Ed'}
    """
    fits = NAME_FITS.get(len(players), 16)

    def start(name: str) -> str:
        return name if len(name) <= fits else name[: fits - 1].rstrip(" -") + "…"

    def start_and_end(name: str) -> str:
        return name if len(name) <= fits else name[: fits - 2].rstrip(" -") + "…" + name[-1]

    shown = {player: start(player) for player in players}
    for way in (start_and_end, lambda name: name[: fits - 2] + str(players.index(name) + 1)):
        alike = [p for p in players if list(shown.values()).count(shown[p]) > 1]
        for player in alike:
            shown[player] = way(player)
    return shown
