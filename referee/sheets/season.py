"""A group's season report as PDF: for each game, its standings (by rating, as the table for
people of ``python -m referee stats`` lists them), each player's profile line, and the chart of
the players' ratings over the season.

Everything printed is a value of the statistics document of ``referee.groups.statistics`` (the
``--json`` of ``python -m referee stats``), handed in as plain data with the words the sheets
cannot know (each game's title and its own keys' names, marked for the catalog where the game
keeps them): nothing here adds anything up, knows Flask or the database. Printed in black, the
chart's lines told apart by their dash and their end label, so it reads on any printer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from gettext import NullTranslations

from reportlab.graphics.shapes import Drawing, Line, PolyLine, String
from reportlab.lib import colors
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from referee.groups.figures import GameFigures, PlayerFigures, Rating, Statistics, TableKey
from referee.groups.rating import placed, shown_rating
from referee.sheets import common, fonts
from referee.sheets.layout import Page, frame_width, para, render
from referee.sheets.words import _, ngettext, speaking

__all__ = ["GameWords", "rated_tables", "season_report"]

#: The chart's height and the room at its right for the names (points).
CHART_HEIGHT = 150.0
LABEL_ROOM = 90.0
#: The most lines a chart draws (the players rated highest), and their dashes.
MOST_LINES = 8
DASHES: tuple[tuple[float, ...], ...] = (
    (),
    (4, 2),
    (1, 2),
    (6, 2, 1, 2),
    (),
    (4, 2),
    (1, 2),
    (6, 2, 1, 2),
)
WIDTHS = (1.6, 1.6, 1.6, 1.6, 0.8, 0.8, 0.8, 0.8)
#: The widest a player's name is printed in the standings.
NAME_ROOM = 130.0
TABLE_SIZE = 8.5


@dataclass(frozen=True)
class GameWords:
    """What the report prints of a game beside the document's numbers: its title, its own keys
    with their names (marked for the catalog: translated as they are printed) and the order of
    its players (their ids, by rating: ``referee.groups.report.ranked``)."""

    title: str
    keys: Sequence[tuple[str, str]] = ()
    order: Sequence[str] = ()


def rated_tables(players: Mapping[str, PlayerFigures]) -> list[TableKey]:
    """A game's rated tables (their keys) in the order they were played: every table some
    player's rating ``history`` names, by when it was played, then by key."""
    seen: dict[TableKey, datetime] = {}
    for figures in players.values():
        for point in figures.rating.history if figures.rating is not None else ():
            seen[point.table] = point.played
    return sorted(seen, key=lambda key: (seen[key], str(key).zfill(12)))


def decimal(value: float | None, places: int = 1) -> str:
    """A number with its decimals in the document's language; "–" for none."""
    if value is None:
        return "–"
    whole, _sep, decimals = f"{abs(value):.{places}f}".partition(".")
    text = _("%(whole)s.%(decimals)s", whole=whole, decimals=decimals)
    return "-" + text if value < 0 and text.strip("0.,") else text


def percent(rate: float | None) -> str:
    return "–" if rate is None else _("%(percent)s%%", percent=round(rate * 100))


def rating_text(rating: Rating | None) -> str:
    """A rating as every page shows it (``referee.groups.rating.shown_rating``): "26.6 ± 8.0"."""
    pair = shown_rating(rating)
    return "–" if pair is None else f"{decimal(pair[0])} ± {decimal(pair[1])}"


def season_report(
    doc: Statistics,
    games: Mapping[str, GameWords],
    page: Page | None = None,
    words: NullTranslations | None = None,
) -> bytes:
    """The report of ``doc`` (a statistics document) as PDF bytes, in the language of
    ``words``; ``games`` names each game of the document."""
    with speaking(words):
        return report(doc, games, page or Page())


@fonts.fitted
def report(doc: Statistics, games: Mapping[str, GameWords], page: Page) -> bytes:
    size = page.size(0)
    width = frame_width(size)
    group = doc.group
    scope = (
        _("Season %(name)s", name=doc.season)
        if doc.season is not None
        else _("All time: every counted table")
    )
    title = _("%(group)s — season report", group=group)
    story: list[Flowable] = common.heading(title, [scope])
    names: list[str] = [
        group,
        *(p.name for g in doc.games.values() for p in g.players.values()),
    ]
    if not doc.games:
        story.append(para(_("No table counts in this season yet."), 10))
    for game, figures in doc.games.items():
        story += game_part(figures, games[game], width)
    story += notes(doc)
    story += common.glyph_note(names)
    return render(story, size, title, _("%(group)s · %(scope)s", group=group, scope=scope))


def game_part(figures: GameFigures, words: GameWords, width: float) -> list[Flowable]:
    """A game's standings, its players' lines and its rating chart."""
    players = [(pid, figures.players[pid]) for pid in words.order]
    head = [
        para(words.title, 13, bold=True),
        para(ngettext("%(num)s counted table", "%(num)s counted tables", figures.tables), 9),
        Spacer(0, 4),
    ]
    out: list[Flowable] = [KeepTogether([*head, standings(players, width)]), Spacer(0, 6)]
    for _pid, p in players:
        out.append(para(profile_line(p, words), 8))
    chart = rating_chart(players, rated_tables(figures.players), width)
    if chart is not None:
        out += [
            Spacer(0, 6),
            KeepTogether(
                [
                    para(_("Ratings after each finished table, in the order played"), 9, bold=True),
                    chart,
                ]
            ),
        ]
    out.append(Spacer(0, 14))
    return out


def standings(players: Sequence[tuple[str, PlayerFigures]], width: float) -> Table:
    """The standings: place by rating (players equal in what the standings rank by share it:
    ``referee.groups.rating.placed``), name, rating, tables, finished, wins, win rate, average
    place, best total, longest and current streak."""
    heads = [
        "#",
        _("Player"),
        _("Rating"),
        _("Tables"),
        _("Complete"),
        _("Wins"),
        _("Win rate"),
        _("Avg place"),
        _("Best"),
        _("Streak"),
        _("Now"),
    ]
    rows: list[list[str]] = [heads]
    for place, _pid, p in placed(players):
        best = p.best_game
        rows.append(
            [
                str(place),
                fonts.shorten(fonts.printable(p.name), NAME_ROOM, TABLE_SIZE),
                rating_text(p.rating),
                str(p.tables),
                str(p.complete),
                str(p.wins),
                percent(p.win_rate),
                decimal(p.average_place, 2),
                "–" if best is None else str(best.total),
                str(p.streaks.longest),
                str(p.streaks.current),
            ]
        )
    face = fonts.current()
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), face.regular, TABLE_SIZE),
                ("FONT", (0, 0), (-1, 0), face.bold, TABLE_SIZE),
                ("FONT", (1, 1), (1, -1), face.bold, TABLE_SIZE),
                ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


def profile_line(p: PlayerFigures, words: GameWords) -> str:
    """A player's profile in one line: their rounds, points and the game's own keys."""
    parts = [
        _("rounds: %(n)s", n=p.rounds),
        _("points: %(n)s", n=p.points),
        *(_("%(name)s: %(n)s", name=_(label), n=p.counts[key]) for key, label in words.keys),
    ]
    return f"{fonts.printable(p.name)} — " + " · ".join(parts)


def rating_chart(
    players: Sequence[tuple[str, PlayerFigures]], tables: Sequence[TableKey], width: float
) -> Drawing | None:
    """The players' ratings (``mu``) after each of the game's rated tables, from the starting
    rating just before each player's first; None when nobody has a rating."""
    rated = [(p, p.rating) for _pid, p in players if p.rating is not None][:MOST_LINES]
    if not rated or not tables:
        return None
    place = {key: index for index, key in enumerate(tables, start=1)}
    series = []
    for _p, rating in rated:
        history = rating.history
        start = place[history[0].table] - 1
        series.append([(start, 25.0), *((place[e.table], e.mu) for e in history)])
    values = [v for points in series for _x, v in points]
    low, high = int(min(values)) - 1, int(max(values)) + 2
    left, bottom, right = 28.0, 16.0, width - LABEL_ROOM
    top = CHART_HEIGHT - 6

    def x(index: int) -> float:
        return left + (right - left) * index / max(len(tables), 1)

    def y(value: float) -> float:
        return bottom + (top - bottom) * (value - low) / (high - low)

    face = fonts.current()
    drawing = Drawing(width, CHART_HEIGHT)
    step = max(1, (high - low) // 5)
    for value in range(low, high + 1, step):
        drawing.add(
            Line(left, y(value), right, y(value), strokeColor=colors.lightgrey, strokeWidth=0.4)
        )
        drawing.add(
            String(
                left - 3,
                y(value) - 3,
                str(value),
                fontName=face.regular,
                fontSize=7,
                textAnchor="end",
            )
        )
    every = max(1, -(-len(tables) // 10))
    for index in range(1, len(tables) + 1):
        if index % every == 0:
            drawing.add(
                String(
                    x(index), 4, str(index), fontName=face.regular, fontSize=7, textAnchor="middle"
                )
            )
    ends = sorted(range(len(series)), key=lambda i: y(series[i][-1][1]))
    label_y: dict[int, float] = {}
    last = -1e9
    for i in ends:
        last = max(y(series[i][-1][1]) - 3, last + 10)
        label_y[i] = last
    for i, ((p, rating), points) in enumerate(zip(rated, series, strict=True)):
        coords = [c for px, py in points for c in (x(px), y(py))]
        drawing.add(
            PolyLine(
                coords,
                strokeColor=colors.black,
                strokeWidth=WIDTHS[i],
                strokeDashArray=list(DASHES[i]) or None,
            )
        )
        name = fonts.shorten(fonts.printable(p.name), LABEL_ROOM - 46, 7)
        label = f"{name} {decimal((shown_rating(rating) or (0.0, 0.0))[0])}"
        drawing.add(String(right + 22, label_y[i], label, fontName=face.regular, fontSize=7))
        drawing.add(  # a piece of the line's own dash before its name
            Line(
                right + 4,
                label_y[i] + 2.5,
                right + 18,
                label_y[i] + 2.5,
                strokeColor=colors.black,
                strokeWidth=WIDTHS[i],
                strokeDashArray=list(DASHES[i]) or None,
            )
        )
    return drawing


def notes(doc: Statistics) -> list[Flowable]:
    """What the numbers count, in a few lines."""
    out: list[Flowable] = [Spacer(0, 6), para(_("What the numbers count"), 9, bold=True)]
    out += [
        para(
            _(
                "Rating: a skill estimate from the places of finished games (openskill's "
                "Weng-Lin rating), the rating ± its uncertainty; players are listed by the "
                "rating as printed, the highest first; of equal ratings, the smaller uncertainty "
                "first, then the more finished games (players equal in all three share a place). "
                "Complete: finished games; wins, win rate, average place, best total and streaks "
                "count finished games only. A table still in play counts its complete rounds; "
                "tables marked as not counting count nowhere."
            ),
            8,
        )
    ]
    if doc.breaking:
        tables = ", ".join(str(key) for key in doc.breaking)
        out.append(
            para(
                _(
                    "Tables of the group's file that break a rule, counted as they were kept: "
                    "%(tables)s.",
                    tables=tables,
                ),
                8,
            )
        )
    return out
