"""Tables replayed and pages rendered once per change, then served from memory.

A table only changes by a new entry in its log, which raises its sequence number; so whatever is
computed from the log — the replayed state, a rendered score sheet — is kept under
``(table id, sequence number)`` and stays right for as long as that number is current. Each
worker process keeps its own small LRU; one indexed read of ``tables.last_seq`` tells whether an
entry is still current, whichever process wrote last.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Generic, TypeVar

from flask import abort

from referee.rules import State, replay
from referee.store.tables import (
    LogEntry,
    TableRecord,
    current_seq,
    effective_events,
    get_table,
)

V = TypeVar("V")


class LRU(Generic[V]):
    """A small thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, V] = OrderedDict()
        self.lock = threading.Lock()

    def put(self, key: Hashable, value: V) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        self.put(key, value)
        return value


_tables: LRU[tuple[TableRecord, State]] = LRU(256)
pages: LRU[str] = LRU(256)


def seq_or_404(table_id: str) -> int:
    """The table's current sequence number, or a 404 page for an unknown table."""
    seq = current_seq(table_id) if len(table_id) <= 64 else None
    if seq is None:
        abort(404)
    return seq


def load(table_id: str) -> tuple[TableRecord, State]:
    """The stored table and its replayed state (lenient: breaches are shown, not hidden)."""
    seq = seq_or_404(table_id)

    def make() -> tuple[TableRecord, State]:
        record = get_table(table_id)
        if record is None:
            abort(404)
        return record, replay(record.setup, effective_events(record.entries), lenient=True)

    return _tables.get_or_make((table_id, seq), make)


def remember_after(record: TableRecord, entry: LogEntry, state: State) -> None:
    """Keep the table as it is after ``entry``, so the page that follows needs no replay.

    ``state`` must be the lenient replay of the new log: ``extend`` of the old state gives it.
    """
    new = replace(record, entries=(*record.entries, entry))
    _tables.put((record.id, entry.seq), (new, state))
