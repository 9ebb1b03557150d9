"""Tables replayed and pages rendered once per change, then served from memory.

A table only changes by a new entry in its log, which raises its sequence number; so whatever is
computed from the log is kept with the number it was computed at. One indexed read of
``tables.last_seq`` tells whether it is still current, whichever worker process wrote last. A
replayed table that is behind catches up by replaying only the newer entries (``extend``), unless
one of them is an undo or a correction, which changes the past: then the whole log is replayed.
Rendered pages (the score sheet) are kept under ``(page, table id, sequence number)``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Generic, TypeVar

from flask import abort

from referee.rules import State, extend, replay
from referee.rules.events import event_from_dict
from referee.store.tables import (
    LogEntry,
    TableRecord,
    current_seq,
    effective_events,
    entries_after,
    get_table,
)

V = TypeVar("V")


class LRU(Generic[V]):
    """A small thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        return None

    def put(self, key: Hashable, value: V) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value


_tables: LRU[tuple[TableRecord, State]] = LRU(256)
pages: LRU[str] = LRU(256)


def seq_or_404(table_id: str) -> int:
    """The table's current sequence number, or a 404 page for an unknown table."""
    seq = current_seq(table_id)
    if seq is None:
        abort(404)
    return seq


def load(table_id: str) -> tuple[TableRecord, State]:
    """The stored table and its replayed state (lenient: breaches are shown, not hidden)."""
    seq = seq_or_404(table_id)
    known = _tables.get(table_id)
    if known is not None and known[0].last_seq == seq:
        return known
    if known is not None and known[0].last_seq < seq:
        newer = entries_after(table_id, known[0].last_seq)
        if newer and all(entry.kind == "event" for entry in newer):
            record, state = known
            for entry in newer:
                state = extend(state, event_from_dict(entry.payload))
            caught_up = (replace(record, entries=(*record.entries, *newer)), state)
            _tables.put(table_id, caught_up)
            return caught_up
    record = get_table(table_id)
    if record is None:
        abort(404)
    loaded = (record, replay(record.setup, effective_events(record.entries), lenient=True))
    _tables.put(table_id, loaded)
    return loaded


#: How long this process answers "has anything changed?" from memory before asking the database.
SEQ_MAX_AGE = 1.0

_seqs: LRU[tuple[int, float]] = LRU(16384)


def recent_seq(table_id: str) -> int | None:
    """The table's log position as this process saw it at most ``SEQ_MAX_AGE`` seconds ago (or
    wrote it itself), else as the database has it now; None for an unknown table.

    Many phones poll each table every few seconds: this spares the database all but about one
    read per table and second, and a change shows up at most a second later.
    """
    now = time.monotonic()
    known = _seqs.get(table_id)
    if known is not None and now - known[1] < SEQ_MAX_AGE:
        return known[0]
    seq = current_seq(table_id)
    if seq is not None:
        _seqs.put(table_id, (seq, now))
    return seq


def remember_after(record: TableRecord, entry: LogEntry, state: State) -> None:
    """Keep the table as it is after ``entry``, so the page that follows needs no replay.

    ``state`` must be the lenient replay of the new log: ``extend`` of the old state gives it.
    """
    _tables.put(record.id, (replace(record, entries=(*record.entries, entry)), state))
    _seqs.put(record.id, (entry.seq, time.monotonic()))
