"""A table's log: its entries in order, and which of them are in force.

A table is its setup plus this log, which only ever grows: an ``event`` entry is an entry made
at the table (``Event.to_dict()``), an ``undo`` names an earlier entry it cancels, an ``amend``
names an earlier event and the event that corrects it. ``read`` folds the undos and amendments
over the events, ``in_force`` gives the events that stand, ``effective_events`` what to replay.

Pure (no database, no web): the store keeps the log (``referee.store.tables``), a record carries
it whole in its ``history`` (``referee.records.history``), and both read it with these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from referee.rules.events import Event, event_from_dict


@dataclass(frozen=True)
class LogEntry:
    """One entry of a table's log: ``payload`` is the event for an ``event``, ``{"target": seq}``
    for an ``undo`` and ``{"target": seq, "event": {...}}`` for an ``amend``."""

    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class Reading:
    """How the log's undos and amendments apply (``read``), by seq: ``undone_by``, each entry an
    undo in force cancels, with that undo; ``current``, each event in force, with the entry whose
    version of it is in force (itself, or the latest amendment in force); ``replaced_by``, each
    version an amendment in force replaced, with that amendment."""

    undone_by: dict[int, int]
    current: dict[int, LogEntry]
    replaced_by: dict[int, int]


def read(entries: Sequence[LogEntry]) -> Reading:
    """The log read once, in order (see ``Reading``).

    An undo cancels the entry it targets: an event is then gone, an amendment no longer applies,
    an undone undo brings its target back (redo). An amendment replaces the event of the
    ``event`` entry it targets, in that event's place; the latest one in force wins. An entry
    whose target is not of the kind it expects changes nothing.
    """
    undone = undone_by(entries)
    current: dict[int, LogEntry] = {}
    replaced: dict[int, int] = {}
    for entry in entries:
        if entry.seq in undone:
            continue
        if entry.kind == "event":
            current[entry.seq] = entry
        elif entry.kind == "amend" and entry.payload["target"] in current:
            target = entry.payload["target"]
            replaced[current[target].seq] = entry.seq
            current[target] = entry
    return Reading(undone, current, replaced)


def in_force(entries: Sequence[LogEntry]) -> dict[int, Mapping[str, Any]]:
    """The log's events with its undos and amendments applied (``read``), by the seq of their
    entry, in the log's order."""
    return {
        seq: entry.payload if entry.kind == "event" else entry.payload["event"]
        for seq, entry in read(entries).current.items()
    }


def undone_by(entries: Sequence[LogEntry]) -> dict[int, int]:
    """Each entry an undo in force cancels, with that undo's seq. An entry can only be undone by
    a later one, so the log is read backwards: an undo that is itself undone cancels nothing."""
    undone: dict[int, int] = {}
    for entry in reversed(entries):
        if entry.kind == "undo" and entry.seq not in undone:
            undone[entry.payload["target"]] = entry.seq
    return undone


def clock_went_back(entries: Sequence[LogEntry]) -> list[int]:
    """The entries made at a time before the entry before them: a clock set back at the table.
    They count in the log's order, the order they were made in (``docs/record-history.md``)."""
    return [b.seq for a, b in pairwise(entries) if b.created_at < a.created_at]


def effective_events(entries: Sequence[LogEntry]) -> list[Event]:
    """The events to replay, in order (see ``in_force``)."""
    return [event_from_dict(payload) for payload in in_force(entries).values()]
