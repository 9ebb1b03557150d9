"""What the group pages show of each table at a glance, and the group's evenings.

A table's glance (``TableGlance``: its totals, who won or leads, how far it is; the group's
numbers are made of another thing, ``referee.groups.facts``) is computed from
its replayed state (``referee.web.loading``) and kept through the app's memo by table and log
position (``referee.web.memo``'s ``groups`` shelf), so a group page asks each table only for its
position (from memory, with the speed layer) and replays none that did not change. None of them
depends on a sealed bid before its round is over: totals count scored rounds only, and a round
is scored once its results are in.

**The seam for the statistics, profiles, ratings and export pages**: ``kept_tables(group)``
gives each table the group keeps (``referee.groups.KeptTable``: its seats, ``counts`` and
``played``) with its stored record and replayed state, exactly what a group file's table and
``referee.groups``' per-table facts are made of; a page that keeps what it computes of a table
keys it, like ``table_glance``, by the table's id and log position (``recent_seq``), and what it
computes of the whole group by ``group.version`` and those positions.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from flask import current_app

from referee.groups import Group, KeptTable
from referee.rules import GAMES
from referee.web.live import Followed, followed
from referee.web.loading import Loaded, recent_seq, recent_seqs, table
from referee.web.memo import memo
from referee.web.standings import leaders


@dataclass(frozen=True)
class TableGlance:
    """A table as the group pages show it: ``totals`` in seat order; ``ahead``, the winners of
    a complete game or the players ahead so far (none before a score); ``round_to_play`` None
    once the game is complete."""

    table_id: str
    position: int
    game: str
    players: tuple[str, ...]
    totals: tuple[int, ...]
    complete: bool
    round_to_play: int | None
    round_count: int
    ahead: tuple[str, ...]
    #: The round the table ended the game after, early (docs/rules.md); None: it did not.
    ended: int | None = None


def glance_of(table_id: str, loaded: Loaded) -> TableGlance:
    """The facts of a loaded table."""
    record, state = loaded
    totals = state.totals()
    return TableGlance(
        table_id=table_id,
        position=record.last_seq,
        game=state.setup.game,
        players=state.players,
        totals=tuple(totals.get(name, 0) for name in state.players),
        complete=state.complete,
        round_to_play=state.round_to_play,
        round_count=state.game.round_count,
        ahead=tuple(state.winners() if state.complete else leaders(totals)),
        ended=state.ended,
    )


def table_glance(table_id: str) -> TableGlance | None:
    """The table's facts at its log position now, computed once per position (None: no such
    table, or one this version cannot replay)."""
    position = recent_seq(table_id)
    if position is None:
        return None
    return memo("groups", ("facts", table_id, position), lambda: make_glance(table_id))


def make_glance(table_id: str) -> TableGlance | None:
    try:
        found = table(table_id)
    except (ValueError, KeyError, TypeError):  # a stored log this version cannot replay
        current_app.logger.exception("table %s cannot be replayed", table_id)
        return None
    return None if found is None else glance_of(table_id, found)


def kept_tables(group: Group) -> Iterator[tuple[KeptTable, Loaded]]:
    """Each table the group keeps, in the order played, with its stored record and replayed
    state (see the module: the seam for the statistics and export pages)."""
    for kept in group.tables:
        found = table(kept.table_id)
        if found is not None:
            yield kept, found


@dataclass(frozen=True)
class Seat:
    """A player of a table as a group page shows them: the name at the table, the name shown
    (the roster's name now, for a roster player), the roster id (None: a guest), the total."""

    at_table: str
    shown: str
    player_id: str | None
    total: int
    ahead: bool


@dataclass(frozen=True)
class TableLine:
    """A table of an evening: what the group keeps of it and its glance (None: unreadable)."""

    kept: KeptTable
    glance: TableGlance | None
    seats: tuple[Seat, ...]

    @property
    def title(self) -> str:
        game = GAMES.get(self.kept.game)
        return game.title if game is not None else self.kept.game

    @property
    def ranked(self) -> tuple[Seat, ...]:
        """The seats by total, highest first (seat order among equals)."""
        return tuple(sorted(self.seats, key=lambda seat: -seat.total))

    @property
    def ahead(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.seats if seat.ahead)

    @property
    def placed(self) -> tuple[tuple[int, Seat], ...]:
        """``ranked`` with each seat's place: equal totals share a place (1, 1, 3 …)."""
        out: list[tuple[int, Seat]] = []
        for index, seat in enumerate(self.ranked):
            tied = out and out[-1][1].total == seat.total
            out.append((out[-1][0] if tied else index + 1, seat))
        return tuple(out)

    @property
    def guests(self) -> tuple[str, ...]:
        return tuple(seat.at_table for seat in self.seats if seat.player_id is None)


@dataclass(frozen=True)
class Evening:
    """The tables of one date (the group's local date they were started on) a page shows, in
    the order played, and how many more it does not show (``others``: played before them)."""

    day: date
    tables: tuple[TableLine, ...]
    others: int = 0

    @property
    def count(self) -> int:
        return len(self.tables) + self.others


#: An evening as it is shown: its date, the tables shown, how many others it has.
Day = tuple[date, tuple[KeptTable, ...], int]


def line(group: Group, kept: KeptTable) -> TableLine:
    glance = table_glance(kept.table_id)
    totals = dict(zip(glance.players, glance.totals, strict=True)) if glance is not None else {}
    ahead = set(glance.ahead) if glance is not None else set()
    seats = []
    # Everyone who played, a newcomer who joined late too (no roster seat: shown as named).
    for name in glance.players if glance is not None else kept.players:
        player_id = kept.seats.get(name)
        player = group.player(player_id)
        shown = player.name if player is not None else name
        seats.append(Seat(name, shown, player_id, totals.get(name, 0), name in ahead))
    return TableLine(kept, glance, tuple(seats))


def evening_days(group: Group) -> list[tuple[date, tuple[KeptTable, ...]]]:
    """The group's evenings, the newest first, each with its tables in the order played:
    computed once per group version (no table is read)."""

    def make() -> list[tuple[date, tuple[KeptTable, ...]]]:
        days: dict[date, list[KeptTable]] = {}
        for kept in group.tables:
            days.setdefault(kept.evening, []).append(kept)
        return [(day, tuple(days[day])) for day in sorted(days, reverse=True)]

    return memo("groups", ("days", group.id, group.version), make)


@dataclass(frozen=True)
class Shown:
    """The evenings a page shows: tonight's (None: no table yet tonight) and the earlier ones
    (at most ``limit``; ``more``: there are others), with the tables they show, before any
    table is read."""

    tonight: Day | None
    earlier: list[Day]
    more: bool

    @property
    def tables(self) -> list[KeptTable]:
        days = ([self.tonight] if self.tonight is not None else []) + self.earlier
        return [kept for _day, tables, _others in days for kept in tables]


def shown_evenings(group: Group, today: date, limit: int | None, most: int | None = None) -> Shown:
    """Tonight and at most ``limit`` earlier evenings, each with at most its ``most`` last
    tables (a group file of records without dates puts all its tables on one evening)."""

    def trimmed(day: date, tables: tuple[KeptTable, ...]) -> Day:
        if most is None or len(tables) <= most:
            return day, tables, 0
        return day, tables[-most:], len(tables) - most

    days = evening_days(group)
    tonight = days[0] if days and days[0][0] == today else None
    earlier = days[1:] if tonight is not None else days
    shown = earlier if limit is None else earlier[:limit]
    return Shown(
        None if tonight is None else trimmed(*tonight),
        [trimmed(*day) for day in shown],
        len(shown) < len(earlier),
    )


def evening(group: Group, day: Day) -> Evening:
    """One evening with what its tables show (each table's facts read or kept)."""
    date_, tables, others = day
    return Evening(date_, tuple(line(group, kept) for kept in tables), others)


def page_at(group: Group, tables: Sequence[KeptTable], *more: Hashable) -> Followed:
    """Where a page of the group that shows ``tables`` (and ``more``: its day, its screen)
    stands, for its stream (``referee.web.live.group_stream``)."""
    at = positions(group, tables, fresh=True)
    return followed(
        group.version, dict(zip((kept.table_id for kept in tables), at, strict=True)), *more
    )


def positions(
    group: Group, tables: Iterable[KeptTable] | None = None, fresh: bool = False
) -> tuple[int | None, ...]:
    """Each kept table's log position now (from memory, with the speed layer; those to read
    read together: a few reads for a group's thousands); with ``tables``, theirs only.
    ``fresh``: as the database has them, not a sweep old, for a page that follows the group
    (``page_at``): told by its stream that a table moved, it shows the move, whichever process
    or server answers it."""
    chosen = [kept.table_id for kept in (group.tables if tables is None else tables)]
    found = recent_seqs(chosen, fresh)
    return tuple(found.get(table_id) for table_id in chosen)
