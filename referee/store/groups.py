"""Groups in the database: create one, read it back, change its roster, seasons and tables, and
the links that open it (``docs/group-format.md`` says what a group is).

Like ``referee.store.tables``, these work on ``db.session`` in an app context, the ones that
write commit their own transaction, and they hand out the group's model (``Group``).

Every change of a group raises its ``version`` first, in one conditional UPDATE of the group's
row (``_change``): it holds the row (PostgreSQL) or the database (SQLite) until the change
commits, so two phones changing one group take turns, and what a change checks (a name not
taken, a seat not yet on an id) is read after the other's commit. The UPDATE also carries the
change's conditions: the version the asking form was shown at (``expected``: a change from a
page the group has moved on from writes nothing, ``GroupChanged``), and the asking phone's
keeper link (``by``: a link revoked a moment ago writes nothing, ``NoAccess``), as a table's
entry checks its link in the statement that writes it.

What a group may hold is the group's own to say (``referee.groups.model``): a change reads the
group as it is once its version is raised, asks it (``Group.new_member``, ``Group.seating`` …),
and writes the answer; a refusal (``GroupRefused``) rolls the change back and goes on to the
caller, who says it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from flask import current_app
from sqlalchemy import CursorResult, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from referee.groups.model import (
    DEFAULT_TIME_ZONE,
    Group,
    GroupRefused,
    KeptTable,
    Member,
    Season,
    check_seats,
    checked_name,
    checked_time_zone,
    in_offset,
    new_group,
    new_roster,
    offset_minutes,
)
from referee.rules import Setup
from referee.store.db import db
from referee.store.links import (
    LINKS_OF_A_GROUP,
    TABLES_OF_A_CREATOR,
    Capabilities,
    NoAccess,
    one_at_a_time,
)
from referee.store.models import (
    GROUP_LINK_KINDS,
    Entry,
    GroupExport,
    GroupLink,
    GroupPlayer,
    GroupSeason,
    GroupTable,
    Table,
    utcnow,
)
from referee.store.models import Group as GroupRow
from referee.store.tables import (
    LogEntry,
    as_utc,
    create_table,
    create_tables,
    fill_log,
    get_table,
)

#: Random bytes in a group id: 128 bits, as a table's.
GROUP_ID_BYTES = 16

GROUPS = GroupRow.__table__
PLAYERS = GroupPlayer.__table__
SEASONS = GroupSeason.__table__
KEPT = GroupTable.__table__
EXPORTS = GroupExport.__table__
TABLES = Table.__table__
ENTRIES = Entry.__table__

#: A group's links, made, looked up and revoked as a table's are.
GROUP_LINKS = Capabilities(GroupLink.__table__, "group_id", [], LINKS_OF_A_GROUP)


class UnknownGroup(LookupError):
    """No group has this id."""


class GroupChanged(Exception):
    """The group changed since the asking page was shown (``expected``); nothing was written."""

    def __init__(self, group_id: str, expected: int, current: int) -> None:
        self.group_id = group_id
        self.expected = expected
        self.current = current
        super().__init__(f"group {group_id} is at version {current}, not {expected}")


class TooManyGroups(Exception):
    """The creator has made as many groups lately as the app allows; none was created."""


@dataclass(frozen=True)
class GroupAccess:
    """What a group link opens: the group and the kind of link."""

    group_id: str
    kind: str

    @property
    def keeps(self) -> bool:
        return self.kind == "keeper"


# --- creating and reading ------------------------------------------------------------------------


def groups_created_since(creator: str, since: datetime) -> int:
    """How many groups ``creator`` made since ``since`` (an indexed count)."""
    query = select(func.count()).where(GROUPS.c.creator == creator, GROUPS.c.created_at >= since)
    return int(db.session.scalar(query) or 0)


def may_create_group(creator: str) -> bool:
    """Whether ``creator`` may make another group now: as many as tables in the window
    (``TABLE_LIMIT`` in ``TABLE_LIMIT_SECONDS``)."""
    config = current_app.config
    window = timedelta(seconds=int(config["TABLE_LIMIT_SECONDS"]))
    return groups_created_since(creator, utcnow() - window) < int(config["TABLE_LIMIT"])


@dataclass(frozen=True)
class Attached:
    """A table to keep in a new group: its id and seats (names → the ids of the roster's
    players made with the group, by their place in ``players``, or None)."""

    table_id: str
    seats: Mapping[str, int | None]


def create_group(
    name: str,
    time_zone: str = DEFAULT_TIME_ZONE,
    players: Sequence[str] = (),
    creator: str | None = None,
    table: Attached | None = None,
) -> str:
    """Store a new group with a roster of ``players`` (ids ``p1``, ``p2`` … in that order) and
    return its id; ``table``: a table to keep in it at once, its seats naming players by their
    place in ``players``. ``GroupRefused`` for what a group may not hold; ``TooManyGroups`` when
    ``creator`` made too many lately (counted, one creation of a creator at a time, in the
    transaction that inserts)."""
    group_id = _new_id()
    now = utcnow()
    group = new_group(group_id, name, time_zone, new_roster(players), (), now)
    if creator is not None:
        one_at_a_time(TABLES_OF_A_CREATOR, creator)
        if not may_create_group(creator):
            db.session.rollback()
            raise TooManyGroups(creator)
    _insert_group(group, creator)
    if table is not None:
        seats = {
            seat: None if place is None else group.players[place].id
            for seat, place in table.seats.items()
        }
        keep_table(group_id, table.table_id, seats, group.by_id, group.time_zone)
    db.session.commit()
    return group_id


def _new_id() -> str:
    """A new group's id: random, never starting with "-" (it reads as an option to commands)."""
    group_id = secrets.token_urlsafe(GROUP_ID_BYTES)
    while group_id.startswith("-"):
        group_id = secrets.token_urlsafe(GROUP_ID_BYTES)
    return group_id


def _insert_group(group: Group, creator: str | None) -> None:
    """Write a new group's row, roster and seasons, in the caller's transaction."""
    row = {"id": group.id, "name": group.name, "time_zone": group.time_zone, "version": 1}
    row["ended_early_counts"] = group.ended_early_counts
    db.session.execute(insert(GROUPS), row | {"creator": creator, "created_at": group.created_at})
    if group.players:
        db.session.execute(
            insert(PLAYERS),
            [
                {"group_id": group.id, "player_id": player.id, "number": number}
                | {"name": player.name, "retired": player.retired, "created_at": group.created_at}
                for number, player in enumerate(group.players, start=1)
            ],
        )
    if group.seasons:
        db.session.execute(
            insert(SEASONS),
            [
                {"group_id": group.id, "name": season.name, "starts_on": season.start}
                | {"created_at": group.created_at}
                for season in group.seasons
            ],
        )


@dataclass(frozen=True)
class NewTable:
    """A table to make from a record and keep in a group: its setup and whole log (as
    ``referee.records.history.as_entered`` gives a loaded record's), its seats (every player's
    name → a roster id, or None for a guest), whether it counts and when it was played (with
    the offset it is told in: its evening is its date there)."""

    setup: Setup
    entries: Sequence[LogEntry]
    seats: Mapping[str, str | None]
    counts: bool = True
    played: datetime | None = None


@contextmanager
def rolled_back_if_refused() -> Iterator[None]:
    """A refusal in the middle of a change rolls the change back (its lock on the group, its
    new version) before it goes on to the page that says it."""
    try:
        yield
    except GroupRefused:
        db.session.rollback()
        raise


def _new_table(
    group_id: str,
    table: NewTable,
    roster: Mapping[str, Member],
    zone: str,
    creator: str | None = None,
) -> str:
    """Make the table and keep it in the group, in the caller's transaction; its id.
    ``creator``: who made it, counted for the limit on new tables (``create_table``)."""
    with rolled_back_if_refused():
        seats = check_seats(table.setup.players, table.seats, roster)
    table_id = create_table(table.setup, creator, commit=False)
    fill_log(table_id, table.entries, commit=False)
    db.session.execute(insert(KEPT), _kept_row(group_id, table_id, table, seats, zone))
    return table_id


def _kept_row(
    group_id: str, table_id: str, table: NewTable, seats: dict[str, str | None], zone: str
) -> dict[str, object]:
    """The row that keeps a new table in the group, its seats checked (``check_seats``).
    ``played`` None: its first entry's time (or now), told in the group's time zone ``zone``."""
    played = table.played
    if played is None:
        moment = min([utcnow(), *(entry.created_at for entry in table.entries[:1])])
        played = in_offset(moment, offset_minutes(zone, moment))
    offset = played.utcoffset() or timedelta()
    row = {"group_id": group_id, "table_id": table_id, "seats": seats, "counts": table.counts}
    row |= {"played_at": as_utc(played), "played_offset": int(offset.total_seconds() // 60)}
    return row | {"added_at": utcnow()}


def start_import(
    name: str,
    time_zone: str,
    players: Sequence[Member],
    seasons: Sequence[Season],
    creator: str | None = None,
    ended_early_counts: bool = True,
) -> Group:
    """The head of a group loaded from its file (``referee.groups.read_group``), committed: its
    name, time zone, roster with the file's ids and seasons; the group as stored. Its tables
    follow in pieces (``keep_imported``), each piece a short transaction, so that loading a
    large file never holds the database from the tables being played; no link opens the group
    until its loader has kept them all (``remove_group`` undoes a load that stopped).
    ``GroupRefused`` for what a group of this app may not hold (``new_group``: more players or
    seasons than it keeps, a name it refuses, a time zone it does not know); ``TooManyGroups``
    as for ``create_group``."""
    group = new_group(_new_id(), name, time_zone, players, seasons, utcnow())
    group = replace(group, ended_early_counts=ended_early_counts)
    if creator is not None:
        one_at_a_time(TABLES_OF_A_CREATOR, creator)
        if not may_create_group(creator):
            db.session.rollback()
            raise TooManyGroups(creator)
    try:
        _insert_group(group, creator)
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()
    return group


def keep_imported(
    group_id: str,
    tables: Sequence[NewTable],
    roster: Mapping[str, Member],
    time_zone: str,
) -> None:
    """Make ``tables`` and keep them in the group being loaded (``start_import``), in one
    transaction: one piece of its file, written in three statements once every row is made
    (``create_tables``)."""
    try:
        with rolled_back_if_refused():
            seats = [check_seats(t.setup.players, t.seats, roster) for t in tables]
        made = create_tables([(table.setup, table.entries) for table in tables])
        rows = [
            _kept_row(group_id, table_id, table, seated, time_zone)
            for table_id, table, seated in zip(made, tables, seats, strict=True)
        ]
        db.session.execute(insert(KEPT), rows)
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()


def remove_group(group_id: str) -> None:
    """Delete a group whose load stopped before it was done (``start_import``), with the tables
    it kept: no link ever opened it, so nobody saw it."""
    query = select(KEPT.c.table_id).where(KEPT.c.group_id == group_id)
    made = list(db.session.scalars(query))
    db.session.execute(delete(KEPT).where(KEPT.c.group_id == group_id))
    for start in range(0, len(made), 500):
        piece = made[start : start + 500]
        db.session.execute(delete(ENTRIES).where(ENTRIES.c.table_id.in_(piece)))
        db.session.execute(delete(TABLES).where(TABLES.c.id.in_(piece)))
    for rows in (PLAYERS, SEASONS, GroupLink.__table__):
        db.session.execute(delete(rows).where(rows.c.group_id == group_id))
    db.session.execute(delete(EXPORTS).where(EXPORTS.c.group_id == group_id))
    db.session.execute(delete(GROUPS).where(GROUPS.c.id == group_id))
    db.session.commit()


def kept_export(group_id: str, made_for: str) -> bytes | None:
    """The group's file (gzip-compressed) its last download wrote, if it was written from
    ``made_for`` (the group as it is now, ``referee.web.groups.transfer``); else None."""
    query = select(EXPORTS.c.body).where(
        EXPORTS.c.group_id == group_id, EXPORTS.c.made_for == made_for
    )
    body = db.session.scalar(query)
    db.session.commit()
    return body


def keep_export(group_id: str, made_for: str, body: bytes) -> None:
    """Keep ``body``, the group's file written from ``made_for``, in place of the one kept. Two
    downloads that write it at once both keep it: the later one stays."""
    db.session.execute(delete(EXPORTS).where(EXPORTS.c.group_id == group_id))
    row = {"group_id": group_id, "made_for": made_for, "body": body, "created_at": utcnow()}
    db.session.execute(insert(EXPORTS), row)
    try:
        db.session.commit()
    except IntegrityError:  # the other download's row came between: it is as good
        db.session.rollback()


def add_record(
    group_id: str,
    table: NewTable,
    by: str | None = None,
    creator: str | None = None,
    commit: bool = True,
) -> str:
    """Make a table from a record (``table``: its setup, log and seats) and keep it in the group,
    in one transaction (``commit`` False: the caller's); its id. Played when its first entry
    was made (now, for a record without times), told in the group's time zone. ``creator``
    made it: ``TooManyTables`` as for ``create_table``, since a table added to a group is a new
    table like any other."""
    group = _change(group_id, by=by)
    try:
        table_id = _new_table(group_id, table, group.by_id, group.time_zone, creator)
    except BaseException:
        db.session.rollback()
        raise
    if commit:
        db.session.commit()
    return table_id


def group_version(group_id: str) -> int | None:
    """The group's version (None: no such group): one read of one row."""
    if not could_be_id(group_id):
        return None
    version: int | None = db.session.scalar(select(GROUPS.c.version).where(GROUPS.c.id == group_id))
    return version


def group_versions(group_ids: Sequence[str]) -> dict[str, int]:
    """The versions of the groups named that exist, by id: one read."""
    query = select(GROUPS.c.id, GROUPS.c.version).where(GROUPS.c.id.in_(group_ids))
    return {row.id: row.version for row in db.session.execute(query)}


def could_be_id(group_id: str) -> bool:
    """Whether ``group_id`` can name a group at all (PostgreSQL refuses a NUL in a query)."""
    return 0 < len(group_id) <= 64 and group_id.isprintable()


_KEPT_TABLES = (
    select(
        KEPT.c.table_id,
        KEPT.c.seats,
        KEPT.c.counts,
        KEPT.c.played_at,
        KEPT.c.played_offset,
        TABLES.c.game,
        TABLES.c.players,
        TABLES.c.first_player,
        TABLES.c.options,
    )
    .join(TABLES, TABLES.c.id == KEPT.c.table_id)
    .order_by(KEPT.c.played_at, KEPT.c.id)
)


def get_group(group_id: str) -> Group | None:
    """The group with its roster, seasons and tables, or None when no group has this id."""
    if not could_be_id(group_id):
        return None
    row = db.session.execute(select(GROUPS).where(GROUPS.c.id == group_id)).first()
    if row is None:
        return None
    players = db.session.execute(
        select(PLAYERS.c.player_id, PLAYERS.c.name, PLAYERS.c.retired)
        .where(PLAYERS.c.group_id == group_id)
        .order_by(PLAYERS.c.number)
    )
    seasons = db.session.execute(
        select(SEASONS.c.name, SEASONS.c.starts_on)
        .where(SEASONS.c.group_id == group_id)
        .order_by(SEASONS.c.starts_on)
    )
    tables = db.session.execute(_KEPT_TABLES.where(KEPT.c.group_id == group_id))
    return Group(
        id=group_id,
        name=row.name,
        time_zone=row.time_zone,
        version=row.version,
        created_at=as_utc(row.created_at),
        players=tuple(Member(p.player_id, p.name, bool(p.retired)) for p in players),
        seasons=tuple(Season(s.name, s.starts_on) for s in seasons),
        ended_early_counts=bool(row.ended_early_counts),
        tables=tuple(
            KeptTable(
                table_id=t.table_id,
                game=t.game,
                players=tuple(t.players),
                first=t.first_player,
                options=t.options,
                seats=dict(t.seats),
                counts=bool(t.counts),
                played=in_offset(t.played_at, t.played_offset),
            )
            for t in tables
        ),
    )


def group_of_table(table_id: str) -> str | None:
    """The group that keeps the table, if one does."""
    if not could_be_id(table_id):
        return None
    found: str | None = db.session.scalar(
        select(KEPT.c.group_id).where(KEPT.c.table_id == table_id)
    )
    return found


# --- changes -------------------------------------------------------------------------------------


def _change(group_id: str, expected: int | None = None, by: str | None = None) -> Group:
    """Begin a change of the group: raise its version, only while it is at ``expected`` (when
    given) and ``by`` (when given) is an unrevoked keeper link of it, and read it as it is then.
    ``UnknownGroup``, ``GroupChanged`` or ``NoAccess`` (nothing written) otherwise."""
    query = update(GROUPS).where(GROUPS.c.id == group_id)
    params: dict[str, str] = {}
    if expected is not None:
        query = query.where(GROUPS.c.version == expected)
    if by is not None:
        query = query.where(GROUP_LINKS.by_keeper)
        params = GROUP_LINKS.keeper(by, group_id)
    moved = (
        db.session.execute(query.values(version=GROUPS.c.version + 1), params)
        if could_be_id(group_id)
        else None
    )
    assert moved is None or isinstance(moved, CursorResult)  # an UPDATE's, which counts rows
    if moved is None or moved.rowcount != 1:
        db.session.rollback()
        current = group_version(group_id)
        if current is None:
            raise UnknownGroup(group_id)
        if by is not None:
            found = group_access(by, group_id)
            if found is None or not found.keeps:
                raise NoAccess(f"the link does not keep group {group_id}")
        assert expected is not None
        raise GroupChanged(group_id, expected, current)
    group = get_group(group_id)
    assert group is not None
    return group


def add_player(group_id: str, name: str, by: str | None = None) -> str:
    """Add a player to the roster; return their new id."""
    checked_name(name)  # before the group is held: a name that can never be is refused at once
    group = _change(group_id, by=by)
    with rolled_back_if_refused():
        player = group.new_member(name)
    _insert_player(group, player)
    db.session.commit()
    return player.id


def _insert_player(group: Group, player: Member) -> None:
    """Add ``player`` (new: ``Group.new_member``) to the roster, in the caller's change."""
    row = {"group_id": group.id, "player_id": player.id, "number": len(group.players) + 1}
    row |= {"name": player.name, "retired": False, "created_at": utcnow()}
    db.session.execute(insert(PLAYERS), row)
    # (numbers 1 to the roster's length are taken: no player is ever removed)


def _update_player(group: Group, player: Member) -> None:
    """Write a roster player's name and whether they are retired, in the caller's change."""
    db.session.execute(
        update(PLAYERS)
        .where(PLAYERS.c.group_id == group.id, PLAYERS.c.player_id == player.id)
        .values(name=player.name, retired=player.retired)
    )


def rename_player(
    group_id: str, player_id: str, name: str, expected: int | None = None, by: str | None = None
) -> None:
    """Give a roster player a new name (their id, and so their history, stays)."""
    checked_name(name)
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        player = group.renamed(player_id, name)
    _update_player(group, player)
    db.session.commit()


def retire_player(
    group_id: str,
    player_id: str,
    retired: bool = True,
    expected: int | None = None,
    by: str | None = None,
) -> None:
    """Retire a roster player (kept in history, not offered for new tables), or bring one back
    (refused while a player on the roster has their name)."""
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        player = group.retiring(player_id, retired)
    _update_player(group, player)
    db.session.commit()


def keep_table(
    group_id: str,
    table_id: str,
    seats: Mapping[str, str | None],
    roster: Mapping[str, Member],
    time_zone: str,
    counts: bool = True,
) -> None:
    """Keep the table in the group (in the caller's transaction): its seats checked against the
    table's players and the roster, when it was played (its first entry or its creation,
    whichever is earlier) told in the group's time zone."""
    record = get_table(table_id)
    if record is None:
        db.session.rollback()
        raise GroupRefused("unknown-table")
    with rolled_back_if_refused():
        checked = check_seats(record.setup.players, seats, roster)
    if db.session.scalar(select(exists().where(KEPT.c.table_id == table_id))):
        db.session.rollback()
        raise GroupRefused("table-kept")
    played = min([record.created_at, *(entry.created_at for entry in record.entries[:1])])
    row = {"group_id": group_id, "table_id": table_id, "seats": checked, "counts": counts}
    row |= {"played_at": played, "played_offset": offset_minutes(time_zone, played)}
    db.session.execute(insert(KEPT), row | {"added_at": utcnow()})


def attach_table(
    group_id: str, table_id: str, seats: Mapping[str, str | None], by: str | None = None
) -> None:
    """Keep the table in the group with these seats (every player's name → a roster id or None
    for a guest). ``GroupRefused`` (``table-kept``) when a group keeps it already. Whether the
    asking phone may (it holds the table's scorekeeper link) is the caller's to check."""
    group = _change(group_id, by=by)
    keep_table(group_id, table_id, seats, group.by_id, group.time_zone)
    db.session.commit()


def detach_table(
    group_id: str, table_id: str, expected: int | None = None, by: str | None = None
) -> None:
    """Let the group keep the table no more (the table itself is not touched)."""
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        group.table(table_id)
    db.session.execute(delete(KEPT).where(KEPT.c.group_id == group_id, KEPT.c.table_id == table_id))
    db.session.commit()


def set_counts(
    group_id: str, table_id: str, counts: bool, expected: int | None = None, by: str | None = None
) -> None:
    """Mark a table of the group as counting, or not (kept, but out of every statistic)."""
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        group.table(table_id)
    db.session.execute(
        update(KEPT)
        .where(KEPT.c.group_id == group_id, KEPT.c.table_id == table_id)
        .values(counts=counts)
    )
    db.session.commit()


def set_ended_early_counts(
    group_id: str, counts: bool, expected: int | None = None, by: str | None = None
) -> None:
    """The group's choice whether a game its table ended early counts in its numbers."""
    _change(group_id, expected, by)
    db.session.execute(
        update(GROUPS).where(GROUPS.c.id == group_id).values(ended_early_counts=counts)
    )
    db.session.commit()


def set_seat(
    group_id: str,
    table_id: str,
    seat: str,
    player_id: str,
    expected: int | None = None,
    by: str | None = None,
    joined: Sequence[str] = (),
) -> None:
    """Merge a guest of a table into a roster player: the seat ``seat`` (a guest's) becomes the
    player's id, and so does the same guest's seat at the evening's other tables
    (``Group.merged_guest``). Refused when the seat is no guest's, or another seat of the table
    has the id. ``joined``: the table's newcomers, who may be merged as its guests are."""
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        group.guest_seat(table_id, seat, joined)
        changed = group.merged_guest(table_id, seat, group.member(player_id), joined)
    for table, seats in changed.items():
        _seat(group, table, seats)
    db.session.commit()


def seat_new_player(
    group_id: str,
    table_id: str,
    seat: str,
    expected: int | None = None,
    by: str | None = None,
    joined: Sequence[str] = (),
) -> str:
    """Merge a guest of a table into a new roster player of the guest's name, in one change:
    both or nothing (refused as ``set_seat`` and ``add_player`` refuse). The new player's id."""
    checked_name(seat)
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        group.guest_seat(table_id, seat, joined)
        player = group.new_member(seat)
        changed = group.merged_guest(table_id, seat, player, joined)
    _insert_player(group, player)
    for table, seats in changed.items():
        _seat(group, table, seats)
    db.session.commit()
    return player.id


def seat_newcomer(table_id: str, name: str, joined: Sequence[str]) -> bool:
    """After a newcomer joined a table under ``name`` (``joined``: every newcomer of the table):
    if a group keeps the table and a roster player of that name is free there, the newcomer's
    seat is theirs (``Group.seated_newcomer``), so the group counts their rounds. Whether it
    was. The table's own entry is the change: no keeper link is asked."""
    group_id = group_of_table(table_id)
    found = None if group_id is None else get_group(group_id)
    if group_id is None or found is None:
        return False
    if found.seated_newcomer(table_id, name, joined) is None:
        return False
    group = _change(group_id)
    with rolled_back_if_refused():
        seats = group.seated_newcomer(table_id, name, joined)
    if seats is None:  # another phone seated them meanwhile
        db.session.rollback()
        return False
    _seat(group, table_id, seats)
    db.session.commit()
    return True


def _seat(group: Group, table_id: str, seats: Mapping[str, str | None]) -> None:
    """Write a kept table's ``seats``, in the caller's change."""
    db.session.execute(
        update(KEPT)
        .where(KEPT.c.group_id == group.id, KEPT.c.table_id == table_id)
        .values(seats=dict(seats))
    )


def add_season(
    group_id: str, name: str, starts_on: date, expected: int | None = None, by: str | None = None
) -> None:
    """Start a season on ``starts_on`` (refused on a date or with a name another season has)."""
    checked_name(name, "season")
    group = _change(group_id, expected, by)
    with rolled_back_if_refused():
        season = group.new_season(name, starts_on)
    row = {"group_id": group_id, "name": season.name, "starts_on": season.start}
    db.session.execute(insert(SEASONS), row | {"created_at": utcnow()})
    db.session.commit()


def rename_group(
    group_id: str, name: str, time_zone: str, expected: int | None = None, by: str | None = None
) -> None:
    """Give the group a new name and time zone (the evenings of its tables stay as they were)."""
    name = checked_name(name, "group")
    time_zone = checked_time_zone(time_zone)
    _change(group_id, expected, by)
    db.session.execute(
        update(GROUPS).where(GROUPS.c.id == group_id).values(name=name, time_zone=time_zone)
    )
    db.session.commit()


# --- links ---------------------------------------------------------------------------------------


def make_group_link(group_id: str, kind: str, commit: bool = True, by: str | None = None) -> str:
    """A new link to the group; returns its token (shown once, never stored). ``by``: the
    token of the keeper link asking for it (``NoAccess`` unless it keeps the group)."""
    if kind not in GROUP_LINK_KINDS:
        raise ValueError(f"a group link is one of {', '.join(GROUP_LINK_KINDS)}, not {kind!r}")
    return GROUP_LINKS.make(group_id, kind, {}, commit, by)


def group_access(token: str, group_id: str | None = None) -> GroupAccess | None:
    """What ``token`` opens of groups (optionally: only if it opens ``group_id``); None for a
    token that is unknown, revoked, for another group, or a table's."""
    row = GROUP_LINKS.row(token)
    if row is None or (group_id is not None and row.group_id != group_id):
        return None
    return GroupAccess(row.group_id, row.kind)


def revoke_group_links(group_id: str, kind: str, by: str | None = None, commit: bool = True) -> int:
    """Revoke every ``kind`` link of the group but ``by``'s; return how many were revoked."""
    return GROUP_LINKS.revoke(group_id, kind, by, commit)
