"""Bounded waits of streams (``referee.web.speed.streams``): a stream waiting at a position the
database has moved past, or whose wake-up is missed, is woken within about a second, not at the
next change or beat. In process, with plain threads standing in for gevent's (each test's sweeper
thread lives on, idle, once its stream is woken)."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask

from referee.rules import Setup
from referee.store.tables import append_entry, create_table
from referee.web.speed import kept
from referee.web.speed import streams as held_streams
from referee.web.speed.kept import Positions
from referee.web.speed.lru import LRU
from referee.web.speed.streams import Streams

pytestmark = pytest.mark.speed_layer

#: How long a test waits for a stream to be woken (seconds): far longer than a bounded wait.
HOLD = 8.0


def waited(held: Streams, table_id: str, seq: int) -> tuple[threading.Thread, list[int], float]:
    """A stream of ``table_id`` waiting at ``seq`` in a thread: the thread, the list the position
    it is woken at goes into and when it started."""
    found: list[int] = []
    start = time.monotonic()
    thread = threading.Thread(target=lambda: found.append(held.wait(table_id, seq)))
    thread.start()
    return thread, found, start


def a_table(app: Flask) -> str:
    with app.app_context():
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
        append_entry(table_id, 0, "event", {"type": "trump", "round": 1, "card": "H"})
    return table_id


def test_a_missed_wake_up_costs_a_stream_at_most_a_second(app: Flask) -> None:
    positions = Positions(64, LRU(64), every=0.25)
    held = Streams(app, positions)
    held.start()
    positions.known.put("t", 1)
    thread, found, start = waited(held, "t", 1)
    time.sleep(0.2)
    positions.known.put("t", 2)  # the move, without the wake-up (``Positions.set`` wakes)
    thread.join(timeout=HOLD + 2)
    took = time.monotonic() - start
    assert found == [2]
    assert took < held_streams.RECHECK_EVERY + 1.0, took


def test_a_stream_waiting_at_a_position_the_database_moved_past_is_woken_soon(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept, "SWEEP_OVERLAP", kept.timedelta(0))  # no overlap to hide behind
    table_id = a_table(app)
    positions = Positions(64, LRU(64), every=0.25)
    positions.set(table_id, 1)  # noted as a table is read, before any sweep …
    time.sleep(0.05)
    with app.app_context():
        append_entry(table_id, 1, "event", {"type": "bid", "round": 1, "player": "Ben", "bid": 0})
    held = Streams(app, positions)  # … which then wrote nothing and swept nothing
    held.start()
    thread, found, start = waited(held, table_id, 1)  # a phone still at 1
    thread.join(timeout=HOLD + 2)
    took = time.monotonic() - start
    assert found == [2]
    assert took < held_streams.RECHECK_EVERY + 1.0, took  # a sweep finds it (40 ms) or a recheck


def test_every_stream_beats_once_a_beat_and_never_all_at_once(app: Flask) -> None:
    """Over a beat's rechecks each table's streams are woken for their beat exactly once, and
    no recheck wakes more than a small slice of them."""
    held = Streams(app, Positions(64, LRU(64), every=0.25))
    tables = [f"t{number}" for number in range(3000)]
    rechecks = round(held_streams.BEAT / held_streams.RECHECK_EVERY)
    beaten: dict[str, int] = dict.fromkeys(tables, 0)
    for _ in range(rechecks):
        beating = held.beats()
        woken = [table_id for table_id in tables if beating(table_id)]
        assert len(woken) < 3 * len(tables) / rechecks, len(woken)
        for table_id in woken:
            beaten[table_id] += 1
    assert set(beaten.values()) == {1}
