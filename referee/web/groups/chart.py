"""The rating chart: each player's rating in one game after every complete table they played, as
an SVG drawn on the server (no script), the way the score chart is (``referee.web.evening.chart``:
its ticks, its label spreading, its dashes and markers, so that no line is told by colour alone).

Along the bottom are the game's rated tables in the order played (1, 2, 3 …: the rating's
``history`` names them), up the side the rating (openskill's ``mu``); a line starts at the
starting rating (25) just before the player's first table. A profile's chart has one line with
its uncertainty (``mu`` ± ``sigma``) as a band around it. The numbers are on the page as text too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.groups.figures import PlayerFigures, TableKey
from referee.groups.rating import MODEL_PARAMETERS
from referee.sheets.season import rated_tables as rated_tables  # the report's, for both
from referee.web.evening.chart import (
    BOTTOM,
    DASHES,
    HEIGHT,
    LEFT,
    MARKERS,
    RIGHT,
    TOP,
    WIDTH,
    nice_step,
    short,
    spread,
)

#: The most lines one chart draws (the players rated highest): one dash and marker each.
MOST_LINES = len(MARKERS)

#: Where every rating starts.
START = MODEL_PARAMETERS["mu"]


@dataclass
class RatingLine:
    """One player's line: its points (x, y), the dash, the marker, and its end label."""

    seat: int
    label: str
    points: list[tuple[float, float]]
    dash: str
    marker: tuple[str, bool]
    label_y: float

    @property
    def path(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)


@dataclass
class RatingChart:
    """What the chart's template draws: the lines, the band (a profile's: ``mu`` ± ``sigma``
    as an SVG ``points`` attribute, or ''), the value axis' ticks (value, y), the tables' ticks
    (number, x) and the corners of the plot."""

    lines: list[RatingLine]
    band: str
    ticks: list[tuple[int, float]]
    tables: list[tuple[int, float]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def rating_chart(
    players: Sequence[tuple[str, PlayerFigures]],
    tables: Sequence[TableKey],
    shown: Mapping[str, tuple[str, str]],
    band: bool = False,
) -> RatingChart | None:
    """The chart of ``players`` (id, figures with a ``rating``), each line's end labelled with
    the name and the rating ``shown`` gives (by id: the name, the rating in the reader's
    language); ``tables``: the game's rated tables
    in order (``rated_tables``); ``band``: draw the first player's uncertainty. None when no one
    has a rating."""
    rated = [(pid, f.rating) for pid, f in players if f.rating is not None][:MOST_LINES]
    if not rated or not tables:
        return None
    place = {key: index for index, key in enumerate(tables, start=1)}
    series: list[list[tuple[int, float, float]]] = []  # (x index, mu, sigma)
    for _pid, rating in rated:
        history = rating.history
        first = place[history[0].table]
        points = [(first - 1, START, MODEL_PARAMETERS["sigma"])]
        points += [(place[e.table], e.mu, e.sigma) for e in history]
        series.append(points)
    values = [mu for points in series for _, mu, _ in points]
    if band:
        values += [mu + s for _, mu, s in series[0]] + [mu - s for _, mu, s in series[0]]
    low, high = math.floor(min(values)), math.ceil(max(values))
    step = nice_step(max(high - low, 1))
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return LEFT + (right - LEFT) * index / max(len(tables), 1)

    def y(value: float) -> float:
        return bottom - (bottom - TOP) * (value - low) / (high - low)

    ends = spread([y(points[-1][1]) + 4 for points in series], TOP + 8, bottom + 4)
    lines = [
        RatingLine(
            seat,
            f"{short(shown[pid][0])} {shown[pid][1]}",
            [(x(i), y(mu)) for i, mu, _ in points],
            DASHES[seat % len(DASHES)],
            MARKERS[seat % len(MARKERS)],
            ends[seat],
        )
        for seat, ((pid, _figures), points) in enumerate(zip(rated, series, strict=True))
    ]
    polygon = ""
    if band:
        upper = [(x(i), y(mu + s)) for i, mu, s in series[0]]
        lower = [(x(i), y(mu - s)) for i, mu, s in reversed(series[0])]
        polygon = " ".join(f"{px:.1f},{py:.1f}" for px, py in upper + lower)
    ticks = [(value, y(value)) for value in range(low, high + 1, step)]
    every = max(1, -(-len(tables) // 8))  # at most about eight numbers along the bottom
    numbers = [(i, x(i)) for i in range(1, len(tables) + 1) if i % every == 0]
    return RatingChart(lines, polygon, ticks, numbers)
