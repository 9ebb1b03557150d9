"""The history page's lines and a correction's prefilled form, as plain data for the templates:
which event each entry is about, what became of it (in force, replaced by a correction, undone),
and when it was made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee.records.log import LogEntry, read
from referee.rules import State
from referee.rules import events as ev

#: The entries the correction form has fields for (``templates/history/amend.html``); a card
#: played or laid aside, or an uploaded record's dealer, is taken back with undo instead.
CORRECTABLE = frozenset(
    {"trump", "bid", "reveal", "declare", "tricks", "starter", "number", "designators"}
    | {"designate", "won", "join", "leave", "sit-out"}
)


def target_event(by_seq: Mapping[int, LogEntry], seq: int) -> LogEntry | None:
    """The event entry that entry ``seq`` is about, following undos and corrections back to it
    (None: the log names an entry it does not have)."""
    entry = by_seq.get(seq)
    while entry is not None and entry.kind != "event":
        entry = by_seq.get(entry.payload["target"])
    return entry


@dataclass(frozen=True)
class Fate:
    """What became of an entry: ``undone`` or ``replaced`` by the entry ``by``; ``current`` the
    entry whose version of an event is in force (its event's seq: what a correction targets)."""

    undone_by: int | None = None
    replaced_by: int | None = None
    current: int | None = None


def fates(entries: Sequence[LogEntry]) -> dict[int, Fate]:
    """Each entry's fate, as ``referee.records.log.read`` reads the log."""
    reading = read(entries)
    out = {seq: Fate(undone_by=by) for seq, by in reading.undone_by.items()}
    out |= {seq: Fate(replaced_by=by) for seq, by in reading.replaced_by.items()}
    out |= {entry.seq: Fate(current=seq) for seq, entry in reading.current.items()}
    return out


def iso_utc(when: datetime) -> str:
    """A time as ISO 8601 in UTC (a stored time without a zone is UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds")


def form_values(state: State, event: ev.Event) -> dict[str, Any]:
    """The form fields that would post ``event`` again (to prefill a correction)."""
    seat = {p: str(i) for i, p in enumerate(state.players, start=1)}
    if isinstance(event, ev.Trump):
        return {"trump": event.card}
    if isinstance(event, (ev.Bid, ev.Reveal)):
        return {"player": seat.get(event.player, ""), "bid": str(event.bid)}
    if isinstance(event, ev.Declare):
        choice = f"open-{event.bid}" if event.open else "secret"
        return {"player": seat.get(event.player, ""), "choice": choice}
    if isinstance(event, ev.Tricks):
        return {f"tricks-{seat[p]}": str(n) for p, n in event.tricks.items() if p in seat}
    if isinstance(event, ev.Starter):
        return {
            "player": seat.get(event.player, ""),
            "chosen_by": seat.get(event.chosen_by or "", ""),
        }
    if isinstance(event, ev.Number):
        return {"number": str(event.number)}
    if isinstance(event, ev.Designators):
        return {f"designator-{c.split('-')[0]}": c.split("-")[-1] for c in event.cards}
    if isinstance(event, ev.Designate):
        return {"colour": event.colour}
    if isinstance(event, ev.Join):
        start = {"name": event.player, "start": event.start}
        return start | ({"after": seat.get(event.after, "")} if event.after else {})
    if isinstance(event, (ev.Leave, ev.SitOut)):
        return {"player": seat.get(event.player, "")}
    if isinstance(event, ev.Won):
        return {
            f"won-{seat[p]}-{c}": str(n)
            for p, counts in event.won.items()
            if p in seat
            for c, n in counts.items()
        }
    return {}
