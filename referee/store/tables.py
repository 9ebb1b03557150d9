"""Game tables in the database: create one, read it back, append to its log, replay it.

They work on ``db.session`` and need an app context; the ones that write commit their own
transaction. They hand out plain frozen records (``TableRecord``, ``LogEntry``), not ORM
objects, so callers never depend on the session's state. The log is append-only:
``append_entry`` only inserts, and an undo or an amendment is itself an entry that
``effective_events`` folds over the ones it names (``referee.records.log``). A table loaded
from a record gets its whole log at once, times as the record gives them (``fill_log``). A page
of a group's thousands of tables reads their positions and logs in batches (``current_seqs``,
``get_tables``: ``BATCH`` tables a statement), the same rows as one table's read.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import (
    BindParameter,
    ColumnElement,
    CompoundSelect,
    CursorResult,
    Insert,
    Row,
    Update,
    bindparam,
    exists,
    func,
    insert,
    literal,
    null,
    select,
    type_coerce,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from referee.records.log import LogEntry as LogEntry
from referee.records.log import effective_events as effective_events
from referee.records.log import in_force as in_force
from referee.rules import Setup, State, replay, start
from referee.rules.events import event_from_dict
from referee.store.db import autocommits, db, run
from referee.store.links import (
    LINKS,
    TABLES_OF_A_CREATOR,
    NoAccess,
    access,
    one_at_a_time,
    token_hash,
)
from referee.store.models import Entry, GroupImport, Table, utcnow
from referee.store.moves import told

#: Random bytes in a table id: 128 bits, 22 URL-safe characters. Knowing the link is the key.
TABLE_ID_BYTES = 16

#: The keys of an undo's and an amendment's payload (an event's are the event's own).
PAYLOAD_KEYS = {"undo": {"target"}, "amend": {"target", "event"}}


#: The statements every request runs, built once on the plain (Core) tables: building a query
#: and going through the ORM cost more than SQLite running it (``bench/run.py``'s writes).
TABLES = Table.__table__
ENTRIES = Entry.__table__
IMPORTS = GroupImport.__table__
#: What ``get_table`` reads of a table's row.
_TABLE_FIELDS = ("game", "players", "options", "first_player", "created_at", "updated_at")
#: How many tables one batch read names (``current_seqs``, ``get_tables``): well within every
#: database's limit of parameters in a statement, and one batch of logs at a time in memory.
BATCH = 500


def _table_and_log(table: ColumnElement[bool], entry: ColumnElement[bool]) -> CompoundSelect[Any]:
    """Tables and their whole logs in one read, each table's row (seq 0, no entry) followed by
    its entries in order (seq 1, 2 …, no table columns): ``table`` chooses the tables' rows,
    ``entry`` their entries. One statement, so one round trip to the database and one snapshot
    of the tables; a join would repeat a table's columns, and decode them, on every entry's
    row. ``_records`` reads the rows back."""
    return union_all(
        select(
            TABLES.c.id.label("table_id"),
            literal(0).label("seq"),
            type_coerce(null(), ENTRIES.c.kind.type).label("kind"),
            type_coerce(null(), ENTRIES.c.payload.type).label("payload"),
            type_coerce(null(), ENTRIES.c.created_at.type).label("entry_at"),
            *(TABLES.c[name] for name in _TABLE_FIELDS),
        ).where(table),
        select(
            ENTRIES.c.table_id,
            ENTRIES.c.seq,
            ENTRIES.c.kind,
            ENTRIES.c.payload,
            ENTRIES.c.created_at,
            *(type_coerce(null(), TABLES.c[name].type) for name in _TABLE_FIELDS),
        ).where(entry),
    ).order_by("table_id", "seq")


#: One table and its log (``get_table``), and the tables of a batch of ids (``get_tables``).
_TABLE_AND_LOG = _table_and_log(
    TABLES.c.id == bindparam("id"), ENTRIES.c.table_id == bindparam("id")
)
_IDS: BindParameter[list[str]] = bindparam("ids", expanding=True)
_TABLES_AND_LOGS = _table_and_log(TABLES.c.id.in_(_IDS), ENTRIES.c.table_id.in_(_IDS))
_ENTRIES_AFTER = (
    select(ENTRIES.c.seq, ENTRIES.c.kind, ENTRIES.c.payload, ENTRIES.c.created_at)
    .where(ENTRIES.c.table_id == bindparam("id"), ENTRIES.c.seq > bindparam("after"))
    .order_by(ENTRIES.c.seq)
)
_CURRENT_SEQ = select(TABLES.c.last_seq).where(TABLES.c.id == bindparam("id"))
_CURRENT_SEQS = select(TABLES.c.id, TABLES.c.last_seq).where(TABLES.c.id.in_(_IDS))
_ADVANCE = (
    update(TABLES)
    .where(TABLES.c.id == bindparam("table"), TABLES.c.last_seq == bindparam("expected"))
    .values(last_seq=bindparam("new_seq"), updated_at=bindparam("now"))
)
#: The same UPDATE, only while the writer's link (its token's hash) still opens the table: the
#: write authorises itself, in the same statement, so a link revoked a moment ago never writes.
_ADVANCE_BY_LINK = _ADVANCE.where(
    exists().where(
        LINKS.c.token_hash == bindparam("link"),
        LINKS.c.table_id == TABLES.c.id,
        LINKS.c.revoked_at.is_(None),
    )
)
_INSERT_ENTRY = insert(ENTRIES)


def _append(advance: Update) -> Insert:
    """``advance`` and ``_INSERT_ENTRY`` in one statement, for PostgreSQL (an UPDATE in a WITH):
    the entry goes in only if the UPDATE moved the table's position, and the move is told to
    every listening server when it commits (``referee.store.moves.told``). Its parameters are
    the UPDATE's, ``kind`` and ``payload`` (a parameter named like a column of ``tables`` would
    join the UPDATE's SET)."""
    moved = advance.returning(TABLES.c.id, told(TABLES)).cte("moved")
    values = select(
        moved.c.id,
        bindparam("new_seq"),
        bindparam("kind"),
        bindparam("payload", type_=ENTRIES.c.payload.type),
        bindparam("now", type_=ENTRIES.c.created_at.type),
    )
    columns = ["table_id", "seq", "kind", "payload", "created_at"]
    return insert(ENTRIES).from_select(columns, values).execution_options(preserve_rowcount=True)


_APPEND = _append(_ADVANCE)
_APPEND_BY_LINK = _append(_ADVANCE_BY_LINK)
#: ``_ADVANCE`` (and ``_ADVANCE_BY_LINK``) telling its move on PostgreSQL, in the caller's
#: transaction (``fill_log``).
_ADVANCE_TOLD = _ADVANCE.returning(told(TABLES))
_ADVANCE_BY_LINK_TOLD = _ADVANCE_BY_LINK.returning(told(TABLES))
#: What a creator made since ``since``: its tables, and its group files uploaded to be loaded
#: (each one, whether it was loaded or not: a group file's tables are the group's).
_CREATED_SINCE = select(
    select(func.count())
    .where(
        TABLES.c.creator == bindparam("creator"),
        TABLES.c.created_at >= bindparam("since", type_=TABLES.c.created_at.type),
    )
    .scalar_subquery()
    + select(func.count())
    .where(
        IMPORTS.c.creator == bindparam("creator"),
        IMPORTS.c.created_at >= bindparam("since", type_=IMPORTS.c.created_at.type),
    )
    .scalar_subquery()
)
_INSERT_TABLE = insert(TABLES)
_TABLE_COLUMNS = [
    "id",
    "game",
    "players",
    "options",
    "first_player",
    "creator",
    "last_seq",
    "created_at",
    "updated_at",
]
_INSERT_TABLE_WITHIN_LIMIT = (
    insert(TABLES)
    .from_select(
        _TABLE_COLUMNS,
        select(*(bindparam(name, type_=TABLES.c[name].type) for name in _TABLE_COLUMNS)).where(
            _CREATED_SINCE.scalar_subquery() < bindparam("limit")
        ),
    )
    .execution_options(preserve_rowcount=True)
)
#: The log positions of tables changed since a moment: run on a connection of its own (not the
#: request's session), since the "has anything changed?" answers rest on it.
_CHANGED_SINCE = select(TABLES.c.id, TABLES.c.last_seq).where(
    TABLES.c.updated_at >= bindparam("since")
)


class StaleTable(Exception):
    """The table moved on since the caller saw it at ``expected_seq``; nothing was written.

    ``current_seq`` is where the table is now, so the page can reload and show what changed.
    """

    def __init__(self, table_id: str, expected_seq: int, current_seq: int) -> None:
        self.table_id = table_id
        self.expected_seq = expected_seq
        self.current_seq = current_seq
        super().__init__(f"table {table_id} is at entry {current_seq}, not {expected_seq}")


class TooManyTables(Exception):
    """The creator has made as many tables lately as the app allows; none was created."""


class UnknownTable(LookupError):
    """No table has this id."""


@dataclass(frozen=True)
class TableRecord:
    """A table as stored: its setup and its whole log in order. ``last_seq`` is 0 before any."""

    id: str
    setup: Setup
    entries: tuple[LogEntry, ...]
    created_at: datetime
    updated_at: datetime

    @property
    def last_seq(self) -> int:
        return self.entries[-1].seq if self.entries else 0


def create_table(setup: Setup, creator: str | None = None, commit: bool = True) -> str:
    """Store a new table and return its id. A setup the rules refuse raises (Breach, OptionError).
    ``commit`` False: in the caller's transaction (a table added to a group from its record).

    ``creator`` is who made it (an opaque key): a creator makes at most the app's
    ``TABLE_LIMIT`` tables in ``TABLE_LIMIT_SECONDS``, counted in the statement that inserts,
    one creation of a creator at a time (``one_at_a_time``), so the limit is exact however many
    arrive at once; ``TooManyTables`` beyond it.

    The options are stored with the game's defaults filled in, so a later change of a default
    never changes a table already being played.
    """
    row = _table_row(setup, creator)
    if creator is None:
        db.session.execute(_INSERT_TABLE, row)
    else:
        one_at_a_time(TABLES_OF_A_CREATOR, creator)
        config = current_app.config
        window = timedelta(seconds=int(config["TABLE_LIMIT_SECONDS"]))
        quota = {"since": row["created_at"] - window, "limit": int(config["TABLE_LIMIT"])}
        inserted = db.session.execute(_INSERT_TABLE_WITHIN_LIMIT, row | quota)
        assert isinstance(inserted, CursorResult)  # an INSERT's result, which counts its rows
        if inserted.rowcount != 1:
            db.session.rollback()
            raise TooManyTables(creator)
    if commit:
        db.session.commit()
    table_id: str = row["id"]
    return table_id


def create_tables(tables: Sequence[tuple[Setup, Sequence[LogEntry]]]) -> list[str]:
    """Store new tables, each with its whole log as it is (``fill_log``), in the caller's
    transaction; their ids, in order. For a group loaded from its file, a piece at a time:
    every row is made and checked first, then written in two statements, so that on SQLite,
    whose one write lock the first write takes until the commit, the lock is held only for the
    writing. Refuses as ``create_table`` and ``fill_log`` do (no creator: the upload counted)."""
    rows, logs = [], []
    for setup, entries in tables:
        row = _table_row(setup, None)
        log = _log_rows(row["id"], entries)
        rows.append(row | {"last_seq": len(log)})
        logs.extend(log)
    db.session.execute(_INSERT_TABLE, rows)
    if logs:
        db.session.execute(_INSERT_ENTRY, logs)
    return [row["id"] for row in rows]


def _table_row(setup: Setup, creator: str | None) -> dict[str, Any]:
    """The row of a new table of ``setup`` (``create_table``), its log empty, with a new id."""
    game = start(setup).game
    table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
    while table_id.startswith("-"):  # a command line would read it as an option (flask link)
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
    created = utcnow()
    return {
        "id": table_id,
        "game": setup.game,
        "players": list(setup.players),
        "options": game.options,
        "first_player": setup.first,
        "creator": creator,
        "last_seq": 0,
        "created_at": created,
        "updated_at": created,
    }


def created_since(creator: str, since: datetime) -> int:
    """How many tables ``creator`` made since ``since`` (an indexed count)."""
    return int(db.session.scalar(_CREATED_SINCE, {"creator": creator, "since": since}) or 0)


def could_be_id(table_id: str) -> bool:
    """Whether ``table_id`` can name a table at all (PostgreSQL refuses a NUL in a query)."""
    return len(table_id) <= 64 and table_id.isprintable()


def get_table(table_id: str) -> TableRecord | None:
    """The table with its log, or None when no table has this id."""
    if not could_be_id(table_id):
        return None
    return next(_records(run(_TABLE_AND_LOG, {"id": table_id}).all()), None)


def get_tables(table_ids: Iterable[str]) -> Iterator[TableRecord]:
    """The tables with these ids, each with its log (as ``get_table``), ``BATCH`` tables a read
    (a group's thousands in a few), in no particular order; an unknown id is left out. Lazily:
    one batch's logs in memory at a time."""
    for batch in _batches(table_ids):
        yield from _records(run(_TABLES_AND_LOGS, {"ids": batch}).all())


def _records(rows: Iterable[Row[Any]]) -> Iterator[TableRecord]:
    """The tables in the rows of ``_table_and_log``: each table's row, then its entries."""
    table: Row[Any] | None = None
    entries: list[LogEntry] = []
    for row in rows:
        if row.seq == 0:
            if table is not None:
                yield _record(table, entries)
            table, entries = row, []
        elif table is not None and row.table_id == table.table_id:
            entries.append(LogEntry(row.seq, row.kind, row.payload, as_utc(row.entry_at)))
    if table is not None:
        yield _record(table, entries)


def _record(table: Row[Any], entries: list[LogEntry]) -> TableRecord:
    return TableRecord(
        id=table.table_id,
        setup=Setup(table.game, tuple(table.players), table.options, table.first_player),
        entries=tuple(entries),
        created_at=as_utc(table.created_at),
        updated_at=as_utc(table.updated_at),
    )


def _batches(table_ids: Iterable[str]) -> Iterator[list[str]]:
    """The ids that could name a table (``could_be_id``), each once, ``BATCH`` at a time."""
    chosen = list(dict.fromkeys(filter(could_be_id, table_ids)))
    for first in range(0, len(chosen), BATCH):
        yield chosen[first : first + BATCH]


def entries_after(table_id: str, seq: int) -> tuple[LogEntry, ...]:
    """The table's log entries after ``seq``, in order (to catch up a table already replayed)."""
    rows = run(_ENTRIES_AFTER, {"id": table_id, "after": seq})
    return tuple(LogEntry(seq, kind, payload, as_utc(at)) for seq, kind, payload, at in rows)


def current_seq(table_id: str) -> int | None:
    """The seq of the table's newest entry (0 before any), or None for an unknown table.

    One indexed read of one row: the cheap "has anything changed?" a page can poll.
    """
    if not could_be_id(table_id):
        return None
    return run(_CURRENT_SEQ, {"id": table_id}).scalar()


def current_seqs(table_ids: Iterable[str]) -> dict[str, int]:
    """Each table's ``current_seq``, ``BATCH`` tables a read (a group's thousands in a few); an
    unknown id is left out."""
    found: dict[str, int] = {}
    for batch in _batches(table_ids):
        found.update((table_id, seq) for table_id, seq in run(_CURRENT_SEQS, {"ids": batch}))
    return found


def changed_since(since: datetime) -> list[tuple[str, int]]:
    """Every table whose log changed at or after ``since``: (id, last_seq), one indexed read
    however many tables there are."""
    with db.engine.connect() as connection:
        return [
            (table_id, seq)
            for table_id, seq in connection.execute(_CHANGED_SINCE, {"since": since})
        ]


def append_entry(
    table_id: str,
    expected_seq: int,
    kind: str,
    payload: Mapping[str, Any],
    link: str | None = None,
) -> int:
    """Append an entry after ``expected_seq``, the last one the caller saw; return its seq.

    See ``add_entry`` for how two writers are kept apart, and for ``link``.
    """
    return add_entry(table_id, expected_seq, kind, payload, link).seq


def add_entry(
    table_id: str,
    expected_seq: int,
    kind: str,
    payload: Mapping[str, Any],
    link: str | None = None,
) -> LogEntry:
    """Append an entry after ``expected_seq``, the last one the caller saw; return it as stored.

    Optimistic concurrency, the same on SQLite and PostgreSQL: a conditional UPDATE moves
    ``tables.last_seq`` from ``expected_seq`` to ``expected_seq + 1`` and the entry is inserted
    with that seq, both or neither: in the session's transaction on SQLite, in one statement
    that commits by itself on PostgreSQL (``_APPEND``; see ``run``), which also tells every
    listening server of the new position (``referee.store.moves``). Of two writers on the same
    step, the second one's UPDATE waits for the first to commit (row lock on PostgreSQL, write
    lock on SQLite), then matches no row: it gets ``StaleTable`` and writes nothing. UNIQUE
    (table_id, seq) backs this up against any writer that bypasses ``last_seq``. ``ValueError``
    for a payload that does not fit ``kind`` (the log is forever, so nothing unreadable goes
    in); ``UnknownTable`` for a bad id.

    ``link``: the token of the link the writer holds. The UPDATE then also requires that link to
    open the table, unrevoked, so the write is authorised in the statement that makes it;
    ``NoAccess`` when it does not.
    """
    stored = checked_payload(kind, payload, expected_seq)
    seq = expected_seq + 1
    now = utcnow()
    moved = {"table": table_id, "expected": expected_seq, "new_seq": seq, "now": now}
    if link is not None:
        moved["link"] = token_hash(link)
    try:
        if autocommits():
            entry: dict[str, object] = {"kind": kind, "payload": stored}
            written = run(_APPEND if link is None else _APPEND_BY_LINK, moved | entry).rowcount
        else:
            written = run(_ADVANCE if link is None else _ADVANCE_BY_LINK, moved).rowcount
            if written == 1:
                entry = {"seq": seq, "kind": kind, "payload": stored, "created_at": now}
                run(_INSERT_ENTRY, {"table_id": table_id, **entry})
                db.session.commit()
        if written == 1:
            return LogEntry(seq, kind, stored, as_utc(now))
    except IntegrityError:
        pass  # the UNIQUE constraint: an entry with this seq is already there
    except BaseException:
        db.session.rollback()  # never leave last_seq moved without its entry
        raise
    db.session.rollback()
    current = current_seq(table_id)
    if current is None:
        raise UnknownTable(table_id)
    if link is not None and access(link, table_id) is None:
        raise NoAccess(f"the link does not open table {table_id}")
    raise StaleTable(table_id, expected_seq, current)


def fill_log(
    table_id: str, entries: Sequence[LogEntry], commit: bool = True, link: str | None = None
) -> None:
    """Give a new table, its log still empty, the whole log ``entries`` as they are: kinds,
    payloads and times (a loaded record's history, a paper card's entries). All of them or
    none, in one transaction (``commit`` False: the caller's).

    ``ValueError`` for a payload that does not fit its kind (``checked_payload``) or entries not
    numbered 1, 2, 3 …; ``StaleTable`` when the table's log is not empty any more,
    ``UnknownTable`` for a bad id. ``link``: the writer's link, checked in the UPDATE as
    ``add_entry`` does (``NoAccess`` when it no longer opens the table).
    """
    rows = _log_rows(table_id, entries)
    if not rows:
        return
    moved = {"table": table_id, "expected": 0, "new_seq": len(rows), "now": utcnow()}
    if link is not None:
        moved["link"] = token_hash(link)
    tells = db.engine.dialect.name == "postgresql"  # the move, told when this commits
    if link is None:
        advance = _ADVANCE_TOLD if tells else _ADVANCE
    else:
        advance = _ADVANCE_BY_LINK_TOLD if tells else _ADVANCE_BY_LINK
    advanced = db.session.execute(advance, moved)
    assert isinstance(advanced, CursorResult)  # an UPDATE's result, which counts its rows
    if advanced.rowcount != 1:
        db.session.rollback()
        current = current_seq(table_id)
        if current is None:
            raise UnknownTable(table_id)
        if link is not None and access(link, table_id) is None:
            raise NoAccess(f"the link does not open table {table_id}")
        raise StaleTable(table_id, 0, current)
    db.session.execute(_INSERT_ENTRY, rows)
    if commit:
        db.session.commit()


def _log_rows(table_id: str, entries: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """The rows of ``entries``, a new table's whole log, each checked (see ``fill_log``)."""
    rows = []
    for seen, entry in enumerate(entries):
        if entry.seq != seen + 1:
            raise ValueError(f"entry {entry.seq} where entry {seen + 1} goes")
        payload = checked_payload(entry.kind, entry.payload, seen)
        row = {"seq": entry.seq, "kind": entry.kind, "payload": payload}
        rows.append({"table_id": table_id, **row, "created_at": entry.created_at})
    return rows


def checked_payload(kind: str, payload: Mapping[str, Any], expected_seq: int) -> dict[str, Any]:
    """``payload`` as it will be stored and read back (through JSON), if it fits ``kind``.

    ``ValueError`` unless it is plain JSON (no NaN: PostgreSQL refuses it) and has the shape
    ``kind`` needs: an event ``event_from_dict`` reads, or a target that is an earlier entry.

    >>> checked_payload("undo", {"target": 3}, expected_seq=2)
    Traceback (most recent call last):
    ...
    ValueError: not a valid undo entry after entry 2: {'target': 3}
    """
    try:
        stored: dict[str, Any] = json.loads(json.dumps(payload, allow_nan=False))
        if kind == "event":
            event_from_dict(stored)
            return stored
        if set(stored) != PAYLOAD_KEYS.get(kind):
            raise ValueError
        target = stored["target"]
        if type(target) is not int or not 1 <= target <= expected_seq:
            raise ValueError
        if kind == "amend":
            event_from_dict(stored["event"])
        return stored
    except (KeyError, TypeError, ValueError) as exc:
        message = f"not a valid {kind} entry after entry {expected_seq}: {payload!r}"
        raise ValueError(message) from exc


def table_state(table_id: str) -> State | None:
    """The table's state by replaying its effective events, or None for an unknown table.

    The replay is lenient: an amendment that makes a later entry break a rule shows that breach
    in ``state.violations`` instead of hiding the table.
    """
    record = get_table(table_id)
    if record is None:
        return None
    return replay(record.setup, effective_events(record.entries), lenient=True)


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC with its time zone (SQLite hands back the stored UTC time without one)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
