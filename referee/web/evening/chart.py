"""The score chart: each player's running total after every scored round, as an SVG drawn on
the server (no script). The lines take their colours from the page's CSS variables and differ
in dash and marker too, and each ends in its player's name and total, so no line is told by
colour alone; the same numbers are on the page as a table for a screen reader.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from referee.rules.wording import number_text
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


@dataclass
class Line:
    """One player's line: its points (x, y), the dash, the marker shape, and its end label."""

    seat: int
    player: str
    total: int
    points: list[tuple[float, float]]
    dash: str
    marker: tuple[str, bool]
    label_y: float

    @property
    def label(self) -> str:
        """The name and total at the line's end; a long name shortened (the table has it all)."""
        return f"{short(self.player)} {number_text(self.total)}"

    @property
    def path(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)


@dataclass
class Chart:
    """What the chart's template draws: the lines, the value axis' ticks (value, y), the
    rounds' ticks (number, x), and the corners of the plot."""

    lines: list[Line]
    ticks: list[tuple[int, float]]
    rounds: list[tuple[int, float]]
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


def chart(rows: list[SheetRow], players: tuple[str, ...]) -> Chart:
    """The chart of the scored ``rows``: from 0 before round 1 to each running total."""
    series = {p: [0, *(row.running[p] for row in rows)] for p in players}
    values = [v for totals in series.values() for v in totals]
    low, high = min(values), max(values)
    step = nice_step(max(high - low, 1))
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return LEFT + (right - LEFT) * index / max(len(rows), 1)

    def y(value: int) -> float:
        return bottom - (bottom - TOP) * (value - low) / (high - low)

    ends = spread([y(series[p][-1]) + 4 for p in players], TOP + 8, bottom + 4)
    lines = [
        Line(
            seat,
            player,
            series[player][-1],
            [(x(i), y(v)) for i, v in enumerate(series[player])],
            DASHES[seat % len(DASHES)],
            MARKERS[seat % len(MARKERS)],
            ends[seat],
        )
        for seat, player in enumerate(players)
    ]
    ticks = [(value, y(value)) for value in range(low, high + 1, step)]
    every = max(1, -(-len(rows) // 8))  # at most about eight round numbers along the bottom
    numbers = [(row.number, x(i)) for i, row in enumerate(rows, start=1) if i % every == 0]
    return Chart(lines, ticks, numbers)
