"""What a page may tell of a sealed bid: never its number before its round is over.

A sealed secret bid (Alles oder Nichts' "Secret, sealed now") is in the log from the moment it is
declared, so every answer that compares, lists or warns about entries goes through here: a
sealed declaration is compared only by what anyone may know, notes about a sealed player are
left out until the round is over, and rounds whose sealed bids were shown early are named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from referee.rules import Breach, Setup, State, extend, replay
from referee.rules import events as ev
from referee.rules.events import event_from_dict
from referee.store.tables import LogEntry, in_force


def shown_notes(state: State, notes: Sequence[Breach]) -> list[Breach]:
    """The breaches and warnings a page may show: not one about a sealed bid (a warning that a
    bid is above the hand size would tell the bid) before its round is over."""
    sealed = {rnd.number: state.game.sealed(rnd) for rnd in state.rounds}
    return [n for n in notes if n.player is None or n.player not in sealed.get(n.round or 0, ())]


def sealed_bid(event: ev.Event) -> TypeGuard[ev.Declare]:
    """Whether ``event`` is a secret declaration with its bid given (sealed) at once."""
    return isinstance(event, ev.Declare) and not event.open and event.bid is not None


def public(event: ev.Event) -> object:
    """What anyone at the table may know of an entry, to compare a posted entry with the ones
    recorded: a sealed bid only by its round, its player and that it is sealed, so every guess at
    its number is answered alike."""
    if sealed_bid(event):
        return ("sealed", event.round, event.player)
    return event


def shown_early(setup: Setup, entries: Sequence[LogEntry]) -> list[int]:
    """The rounds whose sealed bids were shown before the round was over: the round's results
    turned them up (every page shows a round's bids once its results are in), then an undo or a
    correction took the results back, with the bids sealed again. So a scorekeeper who enters
    made-up tricks, reads the sheet and undoes them leaves a mark every phone sees.

    Walks the log entry by entry, keeping the state after each event in force: an undo of the
    newest one goes back a step, any other undo or a correction replays only what follows the
    first event it changes. Only a log with an undo or a correction and a sealed bid can hold
    such a round; any other is answered at once."""
    amended = [entry.payload["event"] for entry in entries if entry.kind == "amend"]
    events = [entry.payload for entry in entries if entry.kind == "event"]
    if len(events) == len(entries) or not any(
        sealed_bid(event_from_dict(payload)) for payload in (*events, *amended)
    ):
        return []
    #: Per event in force: its entry's seq, its payload, the state after it and the rounds with
    #: a sealed bid so far.
    steps: list[tuple[int, Mapping[str, Any], State, frozenset[int]]] = []
    first = replay(setup, [], lenient=True)

    def step(seq: int, payload: Mapping[str, Any]) -> None:
        state, sealed = (steps[-1][2], steps[-1][3]) if steps else (first, frozenset())
        event = event_from_dict(payload)
        if sealed_bid(event):
            sealed |= {event.round}
        steps.append((seq, payload, extend(state, event), sealed))

    shown: set[int] = set()  # the rounds whose sealed bids have been shown
    early: set[int] = set()
    for index, entry in enumerate(entries):
        if entry.kind == "event":
            step(entry.seq, entry.payload)
        else:
            force = list(in_force(entries[: index + 1]).items())
            kept = 0
            while kept < min(len(steps), len(force)) and steps[kept][:2] == force[kept]:
                kept += 1
            del steps[kept:]
            for seq, payload in force[kept:]:
                step(seq, payload)
        state, sealed = (steps[-1][2], steps[-1][3]) if steps else (first, frozenset())
        rounds = {rnd.number: rnd for rnd in state.rounds} if sealed else {}
        for number in sealed & rounds.keys():
            if state.game.results_in(rounds[number]):
                shown.add(number)
            elif number in shown:
                early.add(number)
    return sorted(early)


def rounds_over(state: State) -> set[int]:
    """The rounds whose results are in: their bids, sealed ones too, are anyone's to see."""
    return {rnd.number for rnd in state.rounds if state.game.results_in(rnd)}
