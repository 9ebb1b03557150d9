"""The group statistics as typed values (docs/group-format.md, "Statistics"): what
``referee.groups.stats`` adds up, and what every page, report and command shows.

``Statistics`` holds a game's ``GameFigures`` by game, each with a ``PlayerFigures`` per roster
player who sat at one of its counted tables: their counts, rates, best game (``BestGame``),
streaks (``Streaks``), head-to-head (``Tally`` by the other's id) and rating (``Rating``, with
its ``RatingPoint`` history, ``referee.groups.rating``). ``document()`` gives each as the
``--json`` document of ``python -m referee stats`` (and ``/g/<id>/stats.json``) writes it, key
for key in the documented order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

__all__ = [
    "JSON",
    "BestGame",
    "GameFigures",
    "PlayerFigures",
    "Rating",
    "RatingPoint",
    "Statistics",
    "Streaks",
    "TableKey",
    "Tally",
]

#: A value of a JSON document.
JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
#: How the statistics name a table: the command line by its number in the group's file (from
#: 1), as the web does too; a table's id where a caller gives that.
TableKey = int | str


@dataclass(frozen=True)
class RatingPoint:
    """A rating after one complete table: the table, when it was played, and ``mu``, ``sigma``
    and ``ordinal`` to the document's decimals."""

    table: TableKey
    played: datetime
    mu: float
    sigma: float
    ordinal: float

    def document(self) -> dict[str, JSON]:
        where: dict[str, JSON] = {"table": self.table, "played": self.played.isoformat()}
        return where | {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game now, and after each complete table they sat at."""

    mu: float
    sigma: float
    ordinal: float
    history: tuple[RatingPoint, ...]

    def document(self) -> dict[str, JSON]:
        figures: dict[str, JSON] = {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}
        return figures | {"history": [point.document() for point in self.history]}


@dataclass(frozen=True)
class BestGame:
    """A player's highest total in a complete game, and where."""

    table: TableKey
    played: datetime
    total: int

    def document(self) -> dict[str, JSON]:
        return {"table": self.table, "played": self.played.isoformat(), "total": self.total}


@dataclass(frozen=True)
class Streaks:
    """Wins in a row: the most ever, and up to the latest complete game."""

    longest: int
    current: int

    def document(self) -> dict[str, JSON]:
        return {"longest": self.longest, "current": self.current}


@dataclass(frozen=True)
class Tally:
    """One player against another over the complete games both sat at."""

    tables: int
    ahead: int
    behind: int
    level: int

    def document(self) -> dict[str, JSON]:
        return {
            "tables": self.tables,
            "ahead": self.ahead,
            "behind": self.behind,
            "level": self.level,
        }


@dataclass(frozen=True)
class PlayerFigures:
    """A roster player's figures in one game. ``counts``: the game's own keys (its stats part's
    ``keys``, in that order); ``win_rate`` and ``average_place`` None before a complete game;
    ``head_to_head`` by the other roster player's id, in roster order; ``rating`` None before a
    rated game."""

    name: str
    tables: int
    complete: int
    wins: int
    rounds: int
    points: int
    counts: Mapping[str, int]
    win_rate: float | None
    average_place: float | None
    best_game: BestGame | None
    streaks: Streaks
    head_to_head: Mapping[str, Tally]
    rating: Rating | None

    def document(self) -> dict[str, JSON]:
        doc: dict[str, JSON] = {
            "name": self.name,
            "tables": self.tables,
            "complete": self.complete,
            "wins": self.wins,
            "rounds": self.rounds,
            "points": self.points,
        }
        doc |= self.counts
        return doc | {
            "win_rate": self.win_rate,
            "average_place": self.average_place,
            "best_game": None if self.best_game is None else self.best_game.document(),
            "streaks": self.streaks.document(),
            "head_to_head": {other: t.document() for other, t in self.head_to_head.items()},
            "rating": None if self.rating is None else self.rating.document(),
        }


@dataclass(frozen=True)
class GameFigures:
    """One game's statistics: how many tables count, and each player's figures by roster id
    (in roster order)."""

    tables: int
    players: Mapping[str, PlayerFigures]

    def document(self) -> dict[str, JSON]:
        players: dict[str, JSON] = {pid: p.document() for pid, p in self.players.items()}
        return {"tables": self.tables, "players": players}


@dataclass(frozen=True)
class Statistics:
    """A group's statistics for a season (its name; None: every counted table): each game with
    counted tables, in the games' order, and the keys of the counted tables that break a
    rule."""

    group: str
    season: str | None
    games: Mapping[str, GameFigures]
    breaking: tuple[TableKey, ...]

    def document(self) -> dict[str, JSON]:
        games: dict[str, JSON] = {game: g.document() for game, g in self.games.items()}
        return {
            "group": self.group,
            "season": self.season,
            "games": games,
            "breaking": list(self.breaking),
        }
