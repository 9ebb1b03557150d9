"""A record's ``history``: the table's whole log, an extension of ``table-referee/1``
(``docs/record-history.md``).

A record's rounds say what a table holds; its history says how it came to: every entry in the
order it was made, each undo and correction, each with its time. ``read_history`` reads one
(``RecordError`` naming the field), ``write_history`` writes a table's log, and ``as_entered``
takes a record's entries one by one as the app takes them, giving the log a table loaded from
the record holds (``docs/record-format.md``, "Loading a record into the app").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from referee.records.log import LogEntry, in_force
from referee.records.parts import RecordError, is_int, need
from referee.rules import GAMES, Breach, Missing, Setup, State, extend, start
from referee.rules import events as ev
from referee.rules.engine import Run

#: How many entries checking a history may replay for its corrections and undos of earlier
#: entries (each replays what follows the entry it changes): a table correcting entries of the
#: round under way needs a few hundred, a long game corrected often far fewer than this; a
#: record made to cost is refused before it costs half a second.
REPLAY_BUDGET = 50_000

#: The longest text a time may be (``2025-03-01T19:02:03.123456+01:00`` is 32).
TIME_TEXT = 40

_TIME_HINT = "must be a time with its offset from UTC, such as 2025-03-01T19:02:03.123456Z"

#: The earliest time a history may hold and the first it may not (UTC): well inside the years
#: 1 to 9999 that ``datetime`` holds, so that the time in any time zone (a database session's, a
#: page's) is one too, and its year has the four digits ``write_time`` gives it.
EARLIEST, BEYOND = datetime(1000, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC)

_TIME_RANGE = "must be a time from the year 1000 to the year 9998 (in UTC)"


def write_time(moment: datetime) -> str:
    """A time as a history writes it: UTC, to the microsecond.

    >>> write_time(datetime(2025, 3, 1, 19, 2, 3, 45, tzinfo=UTC))
    '2025-03-01T19:02:03.000045Z'
    """
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def read_time(value: object, field: str) -> datetime:
    """A time in ISO 8601 with its offset, in UTC, from ``EARLIEST`` to before ``BEYOND``."""
    return read_offset_time(value, field).astimezone(UTC)


def read_offset_time(value: object, field: str) -> datetime:
    """A time in ISO 8601 with its offset, as ``read_time`` reads one, but in the offset it was
    given in (its date is the date there: a group's table is played on the evening it names).

    >>> read_offset_time("2026-11-27T19:30:00+01:00", "played").isoformat()
    '2026-11-27T19:30:00+01:00'
    """
    need(isinstance(value, str) and len(value) <= TIME_TEXT, field, _TIME_HINT)
    assert isinstance(value, str)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(field, _TIME_HINT) from None
    need(moment.tzinfo is not None, field, _TIME_HINT)
    try:
        in_utc = moment.astimezone(UTC)
    except OverflowError:  # before the year 1 or after 9999 in UTC
        raise RecordError(field, _TIME_RANGE) from None
    need(EARLIEST <= in_utc < BEYOND, field, _TIME_RANGE)
    return moment


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
    # A map names at most everyone the game seats (a newcomer too) or every colour.
    most = max(len(setup.players), GAMES[setup.game].max_players, colours)
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


# --- taking a record's entries as the app takes them ------------------------------------------


class EntryRefused(ValueError):
    """An entry of a record that the app would not have taken: ``breach`` says why; ``seq`` is
    its place in the record's history (None for an entry of the rounds)."""

    def __init__(self, breach: Breach, seq: int | None = None) -> None:
        self.breach = breach
        self.seq = seq
        super().__init__(str(breach))


class _AsEntered(Run):
    """The app's order of entry (a strict step), keeping an entry that only breaks a rule a
    table keeps an entry with (``Run.flag``: a revoke, a hook bid …) and noting the breach, as
    a table whose earlier entry was corrected holds it. Results that leave a player out (the
    one ``missing`` breach flagged) are refused: the app asks for every player's, and the round
    could not be completed from them."""

    def __init__(self, state: State) -> None:
        super().__init__(state, lenient=False)

    def flag(self, breach: Breach) -> None:
        if isinstance(breach, Missing):
            raise breach
        self.state.violations.append(breach)


def _entered(state: State, event: ev.Event, seq: int | None = None) -> State:
    """The state after ``event`` as the app takes it; ``EntryRefused`` if it would not."""
    new = state.copy()
    try:
        new.game.step(_AsEntered(new), event)
    except Breach as breach:
        raise EntryRefused(breach, seq) from None
    return new


def as_entered(
    setup: Setup, events: Sequence[ev.Event], log: Sequence[LogEntry], now: datetime
) -> tuple[LogEntry, ...]:
    """The log a table loaded from a record holds: its ``history`` (``log``), or else the
    entries of its rounds (``events``), each at ``now``.

    Each entry is taken as the app takes it: in the app's order of entry, a breach of a rule a
    table keeps an entry with noted, any other breach refusing it (``EntryRefused``). In a
    history, a correction is checked against the table as it was before the entry it corrects,
    as the correction page checks it, and the entries after it (or after an undone one) are
    replayed as the table replays them; ``RecordError`` once that would replay more than
    ``REPLAY_BUDGET`` entries. Players no table can seat are refused too.
    """
    try:
        first = start(setup)
    except Breach as breach:  # players no table can seat
        raise EntryRefused(breach) from None
    if not log:
        state = first
        run = _AsEntered(state)
        out: list[LogEntry] = []
        for event in events:
            try:
                state.game.step(run, event)
            except Breach as breach:
                raise EntryRefused(breach) from None
            if not isinstance(event, ev.BeginRound):
                out.append(LogEntry(len(out) + 1, "event", event.to_dict(), now))
        return tuple(out)
    states = [first]  # the state after each event in force: states[i] after force[:i]
    force: list[tuple[int, Mapping[str, Any]]] = []  # (seq, event) in force, in log order
    budget = REPLAY_BUDGET

    def index_of(seq: int) -> int | None:
        index = bisect_left(force, seq, key=lambda item: item[0])
        return index if index < len(force) and force[index][0] == seq else None

    def replay_from(index: int) -> None:
        nonlocal budget
        budget -= len(force) - index
        if budget < 0:
            raise RecordError(
                "history",
                "corrects or undoes so many earlier entries that checking it would replay "
                f"more than {REPLAY_BUDGET} entries",
            )
        del states[index + 1 :]
        for _, payload in force[index:]:
            states.append(extend(states[-1], ev.event_from_dict(payload)))

    for entry in log:
        if entry.kind == "event":
            states.append(_entered(states[-1], ev.event_from_dict(entry.payload), entry.seq))
            force.append((entry.seq, entry.payload))
            continue
        target = entry.payload["target"]
        index = index_of(target)
        if entry.kind == "undo" and index == len(force) - 1:  # the newest: the app's undo
            force.pop()
            states.pop()
        elif entry.kind == "undo" and index is not None:  # an earlier event
            del force[index]
            replay_from(index)
        elif entry.kind == "amend" and index is not None:
            new = entry.payload["event"]
            _entered(states[index], ev.event_from_dict(new), entry.seq)
            force[index] = (target, new)
            replay_from(index)
        elif entry.kind == "undo" and log[target - 1].kind != "event":  # of an undo or amend
            budget -= entry.seq
            now_in_force = list(in_force(log[: entry.seq]).items())
            same = 0
            while same < min(len(force), len(now_in_force)) and force[same] == now_in_force[same]:
                same += 1
            force = now_in_force
            replay_from(same)
        # else an undo or a correction of an entry undone already: it changes nothing
    return tuple(log)
