"""A record's ``history``: the table's whole log, an extension of ``table-referee/1``
(``docs/record-history.md``).

A record's rounds say what a table holds; its history says how it came to: every entry in the
order it was made, each undo and correction, each with its time. ``read_history`` reads one
(``RecordError`` naming the field) and ``write_history`` writes a table's log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from referee.log import LogEntry
from referee.record_parts import RecordError, is_int, need
from referee.rules import Setup, State
from referee.rules import events as ev

#: The longest text a time may be (``2025-03-01T19:02:03.123456+01:00`` is 32).
TIME_TEXT = 40

_TIME_HINT = "must be a time with its offset from UTC, such as 2025-03-01T19:02:03.123456Z"


def write_time(moment: datetime) -> str:
    """A time as a history writes it: UTC, to the microsecond.

    >>> write_time(datetime(2025, 3, 1, 19, 2, 3, 45, tzinfo=UTC))
    '2025-03-01T19:02:03.000045Z'
    """
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def read_time(value: object, field: str) -> datetime:
    """A time in ISO 8601 with its offset, in UTC."""
    need(isinstance(value, str) and len(value) <= TIME_TEXT, field, _TIME_HINT)
    assert isinstance(value, str)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(field, _TIME_HINT) from None
    need(moment.tzinfo is not None, field, _TIME_HINT)
    return moment.astimezone(UTC)


# --- reading -------------------------------------------------------------------------------------


def _is_names(value: object, most: int, item: Callable[[object], bool]) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= most
        and all(isinstance(key, str) and item(v) for key, v in value.items())
    )


#: What a field of an entry holds, by its annotation in ``referee.rules.events``; ``most`` is
#: how many items a list or map of it may hold (players or colours, whichever is more).
_FIELD_CHECKS: dict[str, Callable[[object, int], bool]] = {
    "int": lambda v, most: is_int(v),
    "str": lambda v, most: isinstance(v, str),
    "bool": lambda v, most: isinstance(v, bool),
    "int | None": lambda v, most: v is None or is_int(v),
    "str | None": lambda v, most: v is None or isinstance(v, str),
    "tuple[str, ...]": lambda v, most: (
        isinstance(v, list) and len(v) <= most and all(isinstance(i, str) for i in v)
    ),
    "Mapping[str, int]": lambda v, most: _is_names(v, most, is_int),
    "Mapping[str, Mapping[str, int]]": lambda v, most: _is_names(
        v, most, lambda inner: _is_names(inner, most, is_int)
    ),
}

#: The fields of each kind of entry a table's log holds (a record's round markers are not one).
_ENTRY_FIELDS = {
    name: {f.name: str(f.type) for f in fields(cls)}
    for name, cls in ev.EVENT_TYPES.items()
    if cls is not ev.BeginRound
}


def _read_event(value: object, field: str, most: int) -> dict[str, Any]:
    """An entry of the log (``Event.to_dict()``): its type, its round and its own fields."""
    need(isinstance(value, dict), field, 'must be an entry such as {"type": "bid", "round": 1, …}')
    assert isinstance(value, dict)
    kind = value.get("type")
    need(
        isinstance(kind, str) and kind in _ENTRY_FIELDS,
        f"{field}.type",
        f"must be one of {', '.join(sorted(_ENTRY_FIELDS))}",
    )
    assert isinstance(kind, str)
    own = _ENTRY_FIELDS[kind]
    for key in value:
        need(key == "type" or key in own, f"{field}.{key}", f"is not a field of a {kind} entry")
    for key, annotation in own.items():
        where = f"{field}.{key}"
        if key not in value:
            need(annotation.endswith("| None"), where, "is missing")
            continue
        if not _FIELD_CHECKS[annotation](value[key], most):
            raise RecordError(where, f"must be {annotation} (with at most {most} items)")
    return {"type": kind, **{key: value.get(key) for key in own}}


def read_history(value: object, setup: Setup, colours: int) -> tuple[LogEntry, ...]:
    """The log a record's ``history`` holds; ``RecordError`` naming what cannot be read.

    Each entry is ``{"seq": n, "at": time}`` with ``"event"`` (an entry), ``"undo"`` (the seq
    of the entry it cancels) or ``"amend"`` and ``"event"`` (the seq of the entry it corrects,
    and the entry of the same type and round that replaces it), numbered 1, 2, 3 …
    """
    need(isinstance(value, list), "history", "must be a list of entries")
    assert isinstance(value, list)
    most = max(len(setup.players), colours)
    out: list[LogEntry] = []
    for index, raw in enumerate(value):
        field, seq = f"history[{index}]", index + 1
        need(isinstance(raw, dict), field, 'an entry is {"seq": n, "at": time, "event": {…}}')
        assert isinstance(raw, dict)
        kind = "undo" if "undo" in raw else "amend" if "amend" in raw else "event"
        keys = {"seq", "at", kind} | ({"event"} if kind == "amend" else set())
        for key in raw:
            need(key in keys, f"{field}.{key}", f"is not a field of an {kind} entry")
        need(raw.get("seq") == seq and is_int(raw.get("seq")), f"{field}.seq", f"must be {seq}")
        at = read_time(raw.get("at"), f"{field}.at")
        if kind == "event":
            payload = _read_event(raw.get("event"), f"{field}.event", most)
        else:
            target = raw.get(kind)
            if not (isinstance(target, int) and is_int(target) and 1 <= target < seq):
                raise RecordError(f"{field}.{kind}", f"must name an earlier entry (1 to {seq - 1})")
            payload = {"target": target}
        if kind == "amend":
            corrected = out[payload["target"] - 1]
            need(
                corrected.kind == "event",
                f"{field}.amend",
                f"names entry {corrected.seq}, an {corrected.kind}; a correction names an event",
            )
            event = _read_event(raw.get("event"), f"{field}.event", most)
            need(
                (event["type"], event["round"])
                == (corrected.payload["type"], corrected.payload["round"]),
                f"{field}.event",
                f"must be a {corrected.payload['type']} of round {corrected.payload['round']}, "
                f"as entry {corrected.seq} it corrects",
            )
            payload["event"] = event
        out.append(LogEntry(seq, kind, payload, at))
    return tuple(out)


# --- writing -------------------------------------------------------------------------------------


def write_history(state: State, entries: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """A table's log (``state`` is its replay) as a record's ``history``. A sealed bid is written
    without its number until its round is over, as every page shows it."""
    over = {rnd.number for rnd in state.rounds if state.game.results_in(rnd)}

    def shown(payload: Mapping[str, Any]) -> dict[str, Any]:
        sealed = payload["type"] == ev.Declare.type and not payload["open"]
        if sealed and payload["round"] not in over:
            return {**payload, "bid": None}
        return dict(payload)

    out: list[dict[str, Any]] = []
    for entry in entries:
        written: dict[str, Any] = {"seq": entry.seq, "at": write_time(entry.created_at)}
        if entry.kind == "event":
            written["event"] = shown(entry.payload)
        else:
            written[entry.kind] = entry.payload["target"]
        if entry.kind == "amend":
            written["event"] = shown(entry.payload["event"])
        out.append(written)
    return out
