"""Who sits at the table round by round: late joins, leaves and sit-outs (``docs/rules.md``,
"Joining, leaving, sitting out").

A table starts with its setup's players. Between two rounds the scorekeeper may seat a newcomer
(``ev.Join``), let a player go (``ev.Leave``) or have one sit out the next round (``ev.SitOut``).
``Seating`` is what those entries add up to, kept on the ``State``; ``change`` checks one entry
against the rules and applies it. Each game says whether it allows them at all (ebbes, dealt from
a deck made for its players, does not) and what a new count does to its rounds
(``Game.reseated``: Blackout's hands follow 52 ÷ players). The deal passes left among the players
seated in the round (``next_seated``).

>>> next_seated(("Ann", "Ben", "Cho", "Dee"), "Ben", ("Ann", "Dee"))
'Dee'
>>> start_points("average", [10, 13, 0])
8
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.rules import events as ev
from referee.rules import names
from referee.rules.breaches import Breach, IllegalEntry, OutOfTurn

if TYPE_CHECKING:
    from referee.rules.engine import Game, Run, State

#: How a newcomer's starting points are chosen; the first is the default.
START_CHOICES = ("lowest", "zero", "average")


@dataclass(frozen=True)
class Seating:
    """The seats after the table's seat changes so far."""

    #: Everyone who has sat at the table, clockwise.
    ring: tuple[str, ...]
    #: Those at the table now, in ring order.
    seated: tuple[str, ...]
    #: The sheet's columns: the setup's players, then each newcomer as they first joined.
    columns: tuple[str, ...]
    #: Round number → who sits it out.
    out: Mapping[int, frozenset[str]] = field(default_factory=dict)
    #: Newcomer → the points they started with.
    starts: Mapping[str, int] = field(default_factory=dict)
    #: Newcomer → the round they first joined in.
    joined: Mapping[str, int] = field(default_factory=dict)
    #: Player who has left → the first round they were no longer at the table for.
    left: Mapping[str, int] = field(default_factory=dict)
    #: The seat changes made, in order (``ev.Join``, ``ev.Leave``, ``ev.SitOut``).
    changes: tuple[ev.Event, ...] = ()

    @classmethod
    def of(cls, players: tuple[str, ...]) -> Seating:
        return cls(players, players, players)

    def seats_in(self, number: int) -> tuple[str, ...]:
        """The players dealt in round ``number``: those seated, but for any sitting it out."""
        gone = self.out.get(number)
        return tuple(p for p in self.seated if p not in gone) if gone else self.seated

    def applied(self, event: ev.Event, points: int = 0) -> Seating:
        """The seats after ``event`` (checked already: ``seat_breach``), a newcomer starting
        with ``points``."""
        number, name = event.round, getattr(event, "player", "")
        changes = (*self.changes, event)
        if isinstance(event, ev.Leave):
            seated = tuple(p for p in self.seated if p != name)
            return replace(self, seated=seated, left={**self.left, name: number}, changes=changes)
        if isinstance(event, ev.SitOut):
            out = {**self.out, number: self.out.get(number, frozenset()) | {name}}
            return replace(self, out=out, changes=changes)
        assert isinstance(event, ev.Join)
        ring = [p for p in self.ring if p != name]
        if event.after is not None:
            ring.insert(ring.index(event.after) + 1, name)
        elif name in self.ring:
            ring.insert(self.ring.index(name), name)  # back at their old seat
        else:
            ring.append(name)
        seated = tuple(p for p in ring if p in self.seated or p == name)
        left = {p: n for p, n in self.left.items() if p != name}
        new = replace(self, ring=tuple(ring), seated=seated, left=left, changes=changes)
        if name in self.columns:  # back again: their total stands
            return new
        return replace(
            new,
            columns=(*self.columns, name),
            starts={**self.starts, name: points},
            joined={**self.joined, name: number},
        )


def next_seated(ring: Sequence[str], after: str, seats: Sequence[str]) -> str:
    """The first of ``seats`` clockwise from ``after`` (not ``after`` itself unless nobody else
    is seated): where the deal passes to. ``after`` not in ``ring``: the first seat."""
    if after not in ring:
        return seats[0]
    start = ring.index(after)
    for step in range(1, len(ring) + 1):
        name = ring[(start + step) % len(ring)]
        if name in seats:
            return name
    return seats[0]


def start_points(choice: str, totals: Sequence[int]) -> int:
    """A newcomer's starting points by ``choice``, from the totals of those seated: the lowest,
    zero, or their average rounded half up (``docs/rules.md``)."""
    if choice == "zero" or not totals:
        return 0
    if choice == "lowest":
        return min(totals)
    return (2 * sum(totals) + len(totals)) // (2 * len(totals))


def seating_of(state: State) -> Seating:
    return state.seating if state.seating is not None else Seating.of(state.setup.players)


def dealer_after(ring: Sequence[str], before: str | None, first: str, seats: Sequence[str]) -> str:
    """Who deals to ``seats``: the next of them left of the last round's dealer ``before``; in
    round 1 (``before`` None) the first dealer, or the next left of them if they sit out."""
    if before is None and first in seats:
        return first
    return next_seated(ring, before if before is not None else first, seats)


def bidding_order(seats: Sequence[str], dealer: str | None) -> list[str]:
    """``seats`` from left of the ``dealer`` to the dealer: the order bids are made in."""
    after = seats.index(dealer) + 1 if dealer in seats else 0
    return [*seats[after:], *seats[:after]]


def change(game: Game[Any], run: Run, event: ev.Event) -> None:
    """Check the seat change ``event`` and apply it to ``run.state``. Strict: a breach is
    raised and nothing changes. Lenient: it is noted and the change left out."""
    state = run.state
    seating = seating_of(state)
    # A game that allows no change says so first; then where the change comes, then what it does.
    breach = seat_breach(game, seating, event) if not game.seats_change else None
    if breach is None:
        breach = why_not(game, state, event, run.lenient) or seat_breach(game, seating, event)
    if breach is not None:
        run.flag(breach)
        return
    points = 0
    if isinstance(event, ev.Join) and event.player not in seating.columns:
        totals = state.totals()
        points = start_points(event.start, [totals.get(p, 0) for p in seating.seated])
    new = seating.applied(event, points)
    state.seating = new
    if new.seated != seating.seated:
        state.game = game.reseated(new.seated, event.round)


def why_not(game: Game[Any], state: State, event: ev.Event, lenient: bool) -> Breach | None:
    """Why a seat change may not come now (mid-round, for another round, after the last);
    None if it may."""
    rounds = state.rounds
    current = rounds[-1] if rounds else None
    if current is not None and not game.round_complete(current):
        over = lenient and game.results_given(current)  # a record's round with bad results
        if not over:
            return OutOfTurn("seats", "seats-mid-round", round=current.number)
    coming = len(rounds) + 1
    if coming > game.round_count:
        return OutOfTurn("turn", "game-over", round=event.round, rounds=game.round_count)
    if event.round != coming:
        return OutOfTurn("seats", "seats-other-round", round=event.round, next=coming)
    return None


def seat_breach(game: Game[Any], seating: Seating, event: ev.Event) -> Breach | None:
    """The rule the seat change ``event`` breaks at ``seating`` (a name, a count), or None."""
    if not game.seats_change:
        return IllegalEntry("seats", "seats-fixed", game=game.title)
    if isinstance(event, ev.Join):
        return _why_not_join(game, seating, event)
    name = getattr(event, "player", None)
    if not isinstance(name, str) or name not in seating.ring:
        return IllegalEntry("players", "unknown-player", round=event.round, name=name)
    if name not in seating.seated:
        return IllegalEntry("seats", "has-left", round=event.round, player=name)
    if isinstance(event, ev.Leave):
        if len(seating.seated) - 1 < game.min_players:
            return IllegalEntry(
                "seats", "leave-too-few", player=name, game=game.title, low=game.min_players
            )
        return None
    seats = seating.seats_in(event.round)
    if name not in seats:
        return IllegalEntry("seats", "sits-out-already", round=event.round, player=name)
    if len(seats) - 1 < game.min_players:
        return IllegalEntry(
            "seats",
            "sit-out-too-few",
            round=event.round,
            player=name,
            game=game.title,
            low=game.min_players,
        )
    return None


def _why_not_join(game: Game[Any], seating: Seating, event: ev.Join) -> Breach | None:
    name = event.player
    if not isinstance(name, str):
        return IllegalEntry("players", "empty-name", seat=len(seating.seated) + 1)
    fault = names.name_fault(name)
    if fault == "empty-name":
        return IllegalEntry("players", fault, seat=len(seating.seated) + 1)
    if fault is not None:
        return IllegalEntry("players", fault, name=name)
    if name in seating.seated:
        return IllegalEntry("seats", "join-seated", player=name)
    key = names.same_name_key(name)
    if any(names.same_name_key(p) == key and p != name for p in seating.ring):
        return IllegalEntry("players", "duplicate-name", name=name)
    if event.after is not None and event.after not in seating.seated:
        return IllegalEntry("players", "unknown-player", round=event.round, name=event.after)
    if event.start not in START_CHOICES:
        return IllegalEntry("seats", "join-start", start=event.start)
    if len(seating.seated) + 1 > game.max_players:
        return IllegalEntry(
            "seats", "join-full", player=name, game=game.title, high=game.max_players
        )
    return None
