"""``referee.store.moves``: on PostgreSQL, every write that raises a table's log position tells
the listening connections its table and new position when it commits, and a write rolled back
or refused tells nothing. Only on PostgreSQL (SQLite has no such channel): these fail, not skip,
when ``REQUIRE_POSTGRES=1`` and there is none."""

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask

from app import create_app
from referee.rules import Setup
from referee.rules import events as ev
from referee.store import db
from referee.store.db import upgrade_to_head
from referee.store.links import make_link
from referee.store.models import utcnow
from referee.store.moves import heard, listen
from referee.store.tables import LogEntry, StaleTable, append_entry, create_table, fill_log
from tests.databases import empty_database

#: How long a told move may take to arrive (a loaded machine); and how long nothing must.
ARRIVES = 5.0
QUIET = 0.5


@pytest.fixture
def postgres_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty PostgreSQL schema at the newest migration, in an app context."""
    with empty_database("postgresql", tmp_path) as url:
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade_to_head()
            yield app
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def listener(postgres_app: Flask) -> Iterator[psycopg.Connection[Any]]:
    connection = listen(db.engine, "referee-test")
    yield connection
    connection.close()


def moves_of(listener: psycopg.Connection[Any], table_id: str, wait: float) -> list[int]:
    """The positions told for ``table_id`` within ``wait`` seconds, stopping at the first batch
    that has any (other tests on the same database tell their own tables' moves)."""
    deadline = time.monotonic() + wait
    while (left := deadline - time.monotonic()) > 0:
        found = [seq for moved, seq in heard(listener, timeout=left) if moved == table_id]
        if found:
            return found
    return []


def test_an_entry_tells_its_table_and_position_when_it_commits(postgres_app, listener) -> None:
    table_id = create_table(Setup("blackout", ("Ann", "Ben")))
    append_entry(table_id, 0, "event", ev.Trump(1, "H").to_dict())
    assert moves_of(listener, table_id, ARRIVES) == [1]
    append_entry(table_id, 1, "event", ev.Bid(1, "Ben", 1).to_dict())
    assert moves_of(listener, table_id, ARRIVES) == [2]
    # An undo and a correction move the position as an entry does, and are told alike.
    append_entry(table_id, 2, "undo", {"target": 2})
    assert moves_of(listener, table_id, ARRIVES) == [3]
    append_entry(table_id, 3, "amend", {"target": 1, "event": ev.Trump(1, "S").to_dict()})
    assert moves_of(listener, table_id, ARRIVES) == [4]
    # A phone's write through its link (the statement that checks the link) as well.
    link = make_link(table_id, "keeper")
    append_entry(table_id, 4, "event", ev.Bid(1, "Ben", 0).to_dict(), link=link)
    assert moves_of(listener, table_id, ARRIVES) == [5]


def test_a_refused_write_tells_nothing(postgres_app, listener) -> None:
    table_id = create_table(Setup("blackout", ("Ann", "Ben")))
    append_entry(table_id, 0, "event", ev.Trump(1, "H").to_dict())
    assert moves_of(listener, table_id, ARRIVES) == [1]
    with pytest.raises(StaleTable):
        append_entry(table_id, 0, "event", ev.Trump(1, "S").to_dict())
    assert moves_of(listener, table_id, QUIET) == []


def test_a_write_rolled_back_tells_nothing_and_its_commit_tells_once(
    postgres_app, listener
) -> None:
    """A whole log filled in (a loaded record) in the caller's transaction: told only when
    that commits, never when it is rolled back."""
    log = (
        LogEntry(1, "event", ev.Trump(1, "H").to_dict(), utcnow()),
        LogEntry(2, "event", ev.Bid(1, "Ben", 1).to_dict(), utcnow()),
    )
    table_id = create_table(Setup("blackout", ("Ann", "Ben")))
    fill_log(table_id, log, commit=False)
    assert moves_of(listener, table_id, QUIET) == []  # written, not yet committed
    db.session.rollback()
    assert moves_of(listener, table_id, QUIET) == []
    fill_log(table_id, log, commit=False)
    db.session.commit()
    assert moves_of(listener, table_id, ARRIVES) == [2]
