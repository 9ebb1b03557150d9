"""The charts, as SVGs drawn on the server (no script), one drawing for both: the score chart of
a table (each player's running total after every scored round, ``score_chart``) and a group's
rating chart (each player's rating in one game after every complete table they played,
``rating_chart``). ``templates/_chart.html`` draws a ``Chart``.

The lines take their colours from the page's CSS variables and differ in dash and marker too,
and each ends in its player's name and number, so no line is told by colour alone; the same
numbers are on the page as text for a screen reader.

The rating chart: along the bottom are the game's rated tables in the order played (1, 2, 3 …:
the rating's ``history`` names them), up the side the rating (openskill's ``mu``); a line starts
at the starting rating (25) just before the player's first table. A profile's chart has one line
with its uncertainty (``mu`` ± ``sigma``) as a band around it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.groups.figures import PlayerFigures, TableKey
from referee.groups.rating import MODEL_PARAMETERS
from referee.rules.wording import number_text
from referee.sheets.season import rated_tables as rated_tables  # the report's, for both
from referee.web.screens import SheetRow

#: The drawing's size in its own units (the page scales it to its width).
WIDTH, HEIGHT = 400, 240
#: Room around the plot: left for the axis numbers, right for the names, top and bottom.
LEFT, RIGHT, TOP, BOTTOM = 36, 112, 12, 28
#: The smallest distance between two names at the lines' ends (a text line).
LABEL_GAP = 16
#: The longest name the end of a line shows in full.
NAME_ROOM = 8
#: Dash patterns and end markers (shape, filled), one per seat (eight players at most): no two
#: seats share a marker, so lines that run together still end apart.
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
MARKERS = (
    *((shape, True) for shape in ("circle", "square", "diamond", "triangle")),
    *((shape, False) for shape in ("triangle", "diamond", "square", "circle")),
)
#: The most lines one chart draws: one dash and marker each (a rating chart shows the players
#: rated highest).
MOST_LINES = len(MARKERS)
#: Where every rating starts.
START = MODEL_PARAMETERS["mu"]


@dataclass
class Line:
    """One player's line: the player's name, its points (x, y), the dash, the marker shape, and
    its end label (the name, shortened, and the number) with its height."""

    seat: int
    player: str
    label: str
    points: list[tuple[float, float]]
    dash: str
    marker: tuple[str, bool]
    label_y: float

    @property
    def path(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)


@dataclass
class Chart:
    """What the chart's template draws: the lines, the band (a profile's: ``mu`` ± ``sigma``
    as an SVG ``points`` attribute, or ''), the value axis' ticks (value, y), the numbers along
    the bottom (rounds or tables: number, x), and the corners of the plot."""

    lines: list[Line]
    band: str
    ticks: list[tuple[int, float]]
    along: list[tuple[int, float]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def short(name: str) -> str:
    """A name as a line's end shows it: a long one cut to ``NAME_ROOM`` with "…"."""
    return name if len(name) <= NAME_ROOM else name[: NAME_ROOM - 1] + "…"


def nice_step(span: int) -> int:
    """A round step for at most five ticks over ``span`` points (1, 2, 5, 10, 20, 50 …)."""
    step, factors = 1, itertools.cycle((2, 2.5, 2))
    while span / step > 5:
        step = int(step * next(factors))
    return step


def spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Label heights as near ``wanted`` as they can be, at least ``LABEL_GAP`` apart, kept
    between ``low`` and ``high`` (a dense bunch is pushed up from the bottom)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = low - LABEL_GAP
    for i in order:
        last = max(wanted[i], last + LABEL_GAP)
        placed[i] = last
    overflow = (max(placed) - high) if placed else 0
    if overflow > 0:
        for i in order[::-1]:
            placed[i] -= overflow
            overflow = max(0.0, overflow - LABEL_GAP)
    return placed


def draw(
    series: Sequence[Sequence[tuple[int, float]]],
    names: Sequence[tuple[str, str]],
    along: Sequence[int],
    band: Sequence[tuple[int, float, float]] = (),
) -> Chart:
    """The chart of ``series`` (each line's points: the place along the bottom, from 0, and the
    value), each ending in its ``names`` (the player's name and the number shown after it);
    ``along``: the number of each place from 1 on (a round's, a table's); ``band``: points
    (place, value, half-width) of a band drawn around the first line."""
    values = [value for points in series for _, value in points]
    values += [v + s for _, v, s in band] + [v - s for _, v, s in band]
    low, high = math.floor(min(values)), math.ceil(max(values))
    step = nice_step(max(high - low, 1))
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return LEFT + (right - LEFT) * index / max(len(along), 1)

    def y(value: float) -> float:
        return bottom - (bottom - TOP) * (value - low) / (high - low)

    ends = spread([y(points[-1][1]) + 4 for points in series], TOP + 8, bottom + 4)
    lines = [
        Line(
            seat,
            name,
            f"{short(name)} {number}",
            [(x(i), y(value)) for i, value in points],
            DASHES[seat % len(DASHES)],
            MARKERS[seat % len(MARKERS)],
            ends[seat],
        )
        for seat, (points, (name, number)) in enumerate(zip(series, names, strict=True))
    ]
    upper = [(x(i), y(v + s)) for i, v, s in band]
    lower = [(x(i), y(v - s)) for i, v, s in reversed(band)]
    polygon = " ".join(f"{px:.1f},{py:.1f}" for px, py in upper + lower)
    ticks = [(value, y(value)) for value in range(low, high + 1, step)]
    every = max(1, -(-len(along) // 8))  # at most about eight numbers along the bottom
    numbers = [(number, x(i)) for i, number in enumerate(along, start=1) if i % every == 0]
    return Chart(lines, polygon, ticks, numbers)


def score_chart(rows: list[SheetRow], players: tuple[str, ...]) -> Chart:
    """The score chart of the scored ``rows``: from 0 before round 1 to each running total,
    each line ending in its player's name and total."""
    series = [[(0, 0.0), *((i, row.running[p]) for i, row in enumerate(rows, 1))] for p in players]
    names = [(p, number_text(rows[-1].running[p] if rows else 0)) for p in players]
    return draw(series, names, [row.number for row in rows])


def rating_chart(
    players: Sequence[tuple[str, PlayerFigures]],
    tables: Sequence[TableKey],
    shown: Mapping[str, tuple[str, str]],
    band: bool = False,
) -> Chart | None:
    """The rating chart of ``players`` (id, figures; those with a ``rating``), each line's end
    labelled with the name and the rating ``shown`` gives (by id: the name, the rating in the
    reader's language); ``tables``: the game's rated tables in order (``rated_tables``);
    ``band``: draw the first player's uncertainty. None when no one has a rating."""
    rated = [(pid, f.rating) for pid, f in players if f.rating is not None][:MOST_LINES]
    if not rated or not tables:
        return None
    place = {key: index for index, key in enumerate(tables, start=1)}
    series: list[list[tuple[int, float, float]]] = []  # (place, mu, sigma)
    for _pid, rating in rated:
        history = rating.history
        first = place[history[0].table]
        points = [(first - 1, START, MODEL_PARAMETERS["sigma"])]
        points += [(place[e.table], e.mu, e.sigma) for e in history]
        series.append(points)
    return draw(
        [[(i, mu) for i, mu, _ in points] for points in series],
        [shown[pid] for pid, _rating in rated],
        list(range(1, len(tables) + 1)),
        series[0] if band else (),
    )
