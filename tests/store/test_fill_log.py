"""``fill_log``: a loaded record's whole log written at once, as it is — kinds, payloads and
times — or nothing at all; on SQLite and on PostgreSQL."""

from datetime import UTC, datetime

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.rules import Setup
from referee.rules import events as ev
from referee.store import db
from referee.store.models import Entry
from referee.store.tables import (
    LogEntry,
    StaleTable,
    UnknownTable,
    append_entry,
    create_table,
    fill_log,
    get_table,
    table_state,
)

THEN = datetime(2024, 12, 31, 23, 59, 58, 123456, tzinfo=UTC)
LOG = (
    LogEntry(1, "event", ev.Trump(1, "H").to_dict(), THEN),
    LogEntry(2, "event", ev.Bid(1, "Ben", 1).to_dict(), THEN.replace(second=59)),
    LogEntry(3, "undo", {"target": 2}, THEN.replace(year=2025, month=1, day=1, second=0)),
    LogEntry(4, "amend", {"target": 1, "event": ev.Trump(1, "S").to_dict()}, THEN),
)


def new_table() -> str:
    return create_table(Setup("blackout", ("Ann", "Ben")))


def test_the_log_is_stored_as_given_times_and_all(store_app: Flask) -> None:
    table = new_table()
    fill_log(table, LOG)
    stored = get_table(table)
    assert stored is not None
    assert stored.entries == LOG
    state = table_state(table)
    assert state is not None and state.current is not None
    assert state.current.trump_colour == "S" and state.current.bids == {}
    # The table goes on from there like any other.
    append_entry(table, 4, "event", ev.Bid(1, "Ben", 0).to_dict())


@pytest.mark.parametrize(
    "entries",
    [
        (*LOG[:3], LogEntry(4, "amend", {"target": 9, "event": LOG[0].payload}, THEN)),
        (*LOG[:2], LogEntry(3, "event", {"type": "shuffle", "round": 1}, THEN)),
        (LOG[0], LOG[2]),  # entry 3 where entry 2 goes
    ],
    ids=["target-ahead", "not-an-event", "gap"],
)
def test_a_log_that_does_not_fit_writes_nothing(store_app: Flask, entries) -> None:
    table = new_table()
    with pytest.raises(ValueError):
        fill_log(table, entries)
    assert db.session.scalar(select(func.count()).select_from(Entry)) == 0
    stored = get_table(table)
    assert stored is not None and stored.last_seq == 0


def test_only_an_empty_log_is_filled(store_app: Flask) -> None:
    table = new_table()
    append_entry(table, 0, "event", LOG[0].payload)
    with pytest.raises(StaleTable):
        fill_log(table, LOG)
    stored = get_table(table)
    assert stored is not None and len(stored.entries) == 1
    with pytest.raises(UnknownTable):
        fill_log("nope", LOG)
