"""The group statistics: the facts of many tables added up for a roster (docs/group-format.md).

``statistics`` gives the ``--json`` document of ``python -m referee stats`` from the counted
tables, each a ``CountedTable`` (when it was played, who sat where, its facts from
``referee.groups.facts.table_facts``): the web gives it the tables it keeps, the command line
those of a group file (``counted_tables``: ``counts`` true and, with a season, played in it).
The command line reads and replays a large file's tables in as many processes as it has cores:
each table's reading and facts are its own, so only the time changes.

For each game with counted tables, each roster player who sat at one of them gets the keys of
docs/group-format.md (``tables`` … and the game's own) and the extensions documented there:
``win_rate``, ``average_place``, ``best_game``, ``streaks``, ``head_to_head`` and ``rating``
(``referee.groups.rating``). Guests are opponents, never profiled. A table's order is the order
it was played in: by ``played`` (the instant), tables played at the same instant in the order
they are given.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence

from referee.groups.document import GroupError, GroupFile, read_table
from referee.groups.facts import CountedTable, SeatFacts, stats_part, table_facts
from referee.groups.figures import (
    BestGame,
    GameFigures,
    PlayerFigures,
    Rating,
    Statistics,
    Streaks,
    Tally,
)
from referee.groups.model import Member, Season
from referee.groups.rating import ratings
from referee.records.parts import record_part
from referee.rules import GAMES

__all__ = [
    "DECIMALS",
    "CountedTable",
    "counted_tables",
    "in_order",
    "statistics",
]

#: The decimals a rate, an average or a rating is given to.
DECIMALS = 3


def counted_tables(
    group: GroupFile, tables: Sequence[object], season: Season | None = None, processes: int = 1
) -> list[CountedTable]:
    """The tables of a group file that count (``counts`` true, and not ended early where the
    group does not count such games; with ``season``, played in it),
    each replayed for its facts and named by its number in the file (from 1), in the file's
    order. The file comes in two parts (``read_group_head``): ``group`` without its tables, and
    the tables' documents. Every table is read, as ``read_group`` reads it (``GroupError`` for
    the first that cannot be).

    With ``processes`` > 1, at least ``FEWEST_SHARED`` tables and a system that forks, the
    tables are shared out in runs of neighbours to that many forked processes, which send back
    only what counts: the command line's way to use every core. (Not for a web worker: a
    forked process would share the connections of the one serving requests.)"""
    shared = (group, tables, season)
    if processes < 2 or len(tables) < FEWEST_SHARED or not _FORKS:
        runs = [_counted(shared, 0, len(tables))]
    else:
        size = -(-len(tables) // (4 * processes))  # four runs a process even out their lengths
        for game in GAMES:  # imported once here, not once in every process
            record_part(game), stats_part(game), GAMES[game]
        global _SHARED
        _SHARED = shared
        try:
            with multiprocessing.get_context("fork").Pool(processes) as pool:
                bounds = [(start, start + size) for start in range(0, len(tables), size)]
                runs = pool.starmap(_counted_shared, bounds, chunksize=1)
        finally:
            _SHARED = None
    for run in runs:
        if isinstance(run, tuple):  # the first table that cannot be read
            raise GroupError(*run)
    return [table for run in runs if isinstance(run, list) for table in run]


#: Below this many tables one process is as quick: starting the others costs about what
#: reading and replaying fifty tables does (measured at 25 to 200 tables; twice that, for a
#: margin).
FEWEST_SHARED = 100

_FORKS = "fork" in multiprocessing.get_all_start_methods()

_Shared = tuple[GroupFile, Sequence[object], Season | None]
#: What the processes ``counted_tables`` forks read (each gets a copy).
_SHARED: _Shared | None = None


def _counted(shared: _Shared, start: int, stop: int) -> list[CountedTable] | tuple[str, str]:
    """The counted tables among ``shared``'s tables ``start`` to ``stop`` (from 0), or where
    and why the first of them that cannot be read cannot be (a ``GroupError``'s field and
    message: they cross between processes as they are)."""
    group, tables, season = shared
    roster = {member.id: member for member in group.players}
    out = []
    for index in range(start, min(stop, len(tables))):
        try:
            table = read_table(tables[index], index, roster)
        except GroupError as exc:
            return exc.field, exc.message
        if table.counts and (season is None or group.season_of(table) == season):
            facts = table_facts(table.record.replay())
            if facts.counts_for(group.ended_early_counts):
                out.append(CountedTable(index + 1, table.played, table.seats, facts))
    return out


def _counted_shared(start: int, stop: int) -> list[CountedTable] | tuple[str, str]:
    """In a forked process: ``_counted`` of what ``counted_tables`` shared."""
    assert _SHARED is not None
    return _counted(_SHARED, start, stop)


def in_order(tables: Sequence[CountedTable]) -> list[CountedTable]:
    """``tables`` in the order they were played: by ``played``, the same instant in the order
    given (a stable sort)."""
    return sorted(tables, key=lambda table: table.played)


def _rounded(numerator: int, denominator: int) -> float | None:
    return None if denominator == 0 else round(numerator / denominator, DECIMALS)


class _Player:
    """One roster player's figures in one game, as the tables are added."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.tables = self.complete = self.wins = self.rounds = self.points = 0
        self.counts = dict.fromkeys(keys, 0)
        self.places = 0
        self.best: tuple[int, CountedTable] | None = None
        self.streak = self.longest = 0
        self.against: dict[str, list[int]] = {}  # another id → [ahead, behind, level]

    def add(self, table: CountedTable, seat: SeatFacts) -> None:
        self.tables += 1
        self.rounds += seat.rounds
        self.points += seat.points
        for key, count in seat.counts.items():
            self.counts[key] += count
        if seat.place is None:
            return
        self.complete += 1
        self.places += seat.place
        self.wins += seat.won
        self.streak = self.streak + 1 if seat.won else 0
        self.longest = max(self.longest, self.streak)
        if self.best is None or seat.points > self.best[0]:
            self.best = (seat.points, table)

    def meet(self, other: str, mine: int, theirs: int) -> None:
        tally = self.against.setdefault(other, [0, 0, 0])
        tally[0 if mine > theirs else 1 if mine < theirs else 2] += 1

    def figures(self, name: str, roster: Sequence[str], rating: Rating | None) -> PlayerFigures:
        best = self.best
        return PlayerFigures(
            name=name,
            tables=self.tables,
            complete=self.complete,
            wins=self.wins,
            rounds=self.rounds,
            points=self.points,
            counts=self.counts,
            win_rate=_rounded(self.wins, self.complete),
            average_place=_rounded(self.places, self.complete),
            best_game=None if best is None else BestGame(best[1].key, best[1].played, best[0]),
            streaks=Streaks(self.longest, self.streak),
            head_to_head={
                other: Tally(sum(t), *t) for other in roster if (t := self.against.get(other))
            },
            rating=rating,
        )


def _game(tables: list[CountedTable], roster: Sequence[Member]) -> GameFigures:
    """One game's statistics from its counted tables in the order they were played."""
    keys = stats_part(tables[0].facts.game).keys
    ids = [member.id for member in roster]
    players: dict[str, _Player] = {}
    for table in tables:
        seated = table.seated()
        for member, seat in seated:
            players.setdefault(member, _Player(keys)).add(table, seat)
        if table.facts.complete:
            for member, seat in seated:
                for other, theirs in seated:
                    if other != member:
                        players[member].meet(other, seat.points, theirs.points)
    rated = ratings(tables)
    figures = {
        member.id: players[member.id].figures(member.name, ids, rated.get(member.id))
        for member in roster
        if member.id in players
    }
    return GameFigures(len(tables), figures)


def statistics(
    name: str, roster: Sequence[Member], season: str | None, tables: Sequence[CountedTable]
) -> Statistics:
    """The statistics of the group ``name`` and ``season`` (its name, or None for every table),
    from its counted ``tables`` (any order) and its ``roster``: ``breaking`` lists the keys of
    the tables that break a rule, in the order given (``Statistics.document()``: the ``--json``
    document of docs/group-format.md)."""
    ordered = in_order(tables)
    games: dict[str, GameFigures] = {}
    for game in GAMES:
        played = [table for table in ordered if table.facts.game == game]
        if played:
            games[game] = _game(played, roster)
    breaking = tuple(table.key for table in tables if table.facts.breaches)
    return Statistics(name, season, games, breaking)
