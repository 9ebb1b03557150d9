"""A table's moves told to every server as they are committed: PostgreSQL's LISTEN/NOTIFY.

Every statement that raises a table's log position (``tables.last_seq``: an entry, an undo, a
correction, a whole log filled in; ``referee.store.tables``) also sends ``NOTIFY`` on
``CHANNEL`` with the table's id and its new position (``told``, in the UPDATE's ``RETURNING``),
so it is part of the write's transaction: PostgreSQL delivers it when that commits, and never
for a write rolled back or refused (no row moved, nothing told). A server process that listens
(``listen``, ``heard``; ``referee.web.speed.wake``) learns of an entry written through any other
process or server a moment after its commit, instead of at its next sweep.

Only PostgreSQL has such a channel: on SQLite nothing is told, and servers learn of each
other's entries by sweeping (``referee.web.speed.kept.Positions``).
"""

from __future__ import annotations

from typing import Any

import psycopg
from sqlalchemy import ColumnElement, Engine, String, Table, cast, func

#: The one channel every table's moves are told on (per database: the servers sharing it).
CHANNEL = "referee_table_moved"

#: TCP keepalives for the listening connection, which otherwise only ever reads: a server or
#: network gone without a word shows as a broken connection within about a minute.
KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10}


def told(tables: Table) -> ColumnElement[Any]:
    """What an UPDATE of ``tables`` returns to tell its move: ``pg_notify(CHANNEL, '<id>
    <last_seq>')``, one per row it moved, with the row's new position."""
    payload = tables.c.id + " " + cast(tables.c.last_seq, String)
    return func.pg_notify(CHANNEL, payload)


def listen(engine: Engine, name: str) -> psycopg.Connection[Any]:
    """A new connection of its own (outside ``engine``'s pool, which it would hold forever),
    listening on ``CHANNEL``; ``name``: its ``application_name`` (``pg_stat_activity`` shows
    who listens). Close it when done."""
    _none, settings = engine.dialect.create_connect_args(engine.url)  # as the pool connects
    own = KEEPALIVES | {"application_name": name}
    connection = psycopg.connect(**{**settings, **own}, autocommit=True)
    try:
        connection.execute(f"LISTEN {CHANNEL}")
    except BaseException:
        connection.close()
        raise
    return connection


def heard(connection: psycopg.Connection[Any], timeout: float = 0.0) -> list[tuple[str, int]]:
    """The moves told to ``connection`` (``listen``) since the last call: (table id, position).
    Waits up to ``timeout`` seconds for the first; 0 only reads what has arrived (the caller
    waits until the connection is readable: ``connection.fileno()``). A broken connection
    raises ``psycopg.OperationalError``."""
    moves = []
    for notify in connection.notifies(timeout=timeout, stop_after=1):
        table_id, _, seq = notify.payload.partition(" ")
        if notify.channel == CHANNEL and seq.isdigit():
            moves.append((table_id, int(seq)))
    return moves
