"""The typed events a table records, one per entry at the table.

A table is its setup plus a list of these; its state is their replay (``referee.rules.replay``).
Each event names its round (counted from 1), which lets the engine refuse an entry made on a stale
page. Cards and colours are carried as the text the table entered; the engine reads and checks
them. ``to_dict``/``from_dict`` give the plain form the app stores.

>>> Bid(round=3, player="Ann", bid=2).to_dict()
{'type': 'bid', 'round': 3, 'player': 'Ann', 'bid': 2}
>>> event_from_dict({'type': 'bid', 'round': 3, 'player': 'Ann', 'bid': 2})
Bid(round=3, player='Ann', bid=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, repr=False, eq=False)
class Event:
    """Something the table recorded in round ``round``."""

    type: ClassVar[str] = ""
    round: int

    # One __repr__, __eq__ and __hash__ for every kind of event, from its fields (each event
    # class says repr=False, eq=False): sixteen generated ones would each be compiled whenever
    # the engine is imported, a fifth of what the command-line referee's start costs.

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Event)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def to_dict(self) -> dict[str, Any]:
        # Field by field rather than ``dataclasses.asdict``, which copies every value through
        # its general deep copy: a group's import stores a hundred thousand entries.
        data: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            data[f.name] = _plain(getattr(self, f.name))
        return data


def _plain(value: Any) -> Any:
    """A field's value in the stored form: a tuple (or list) as a new list, a map as a new dict
    (and so inside them); names, numbers, flags and None as they are."""
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


@dataclass(frozen=True, repr=False, eq=False)
class BeginRound(Event):
    """A record's round begins (a no-op when the round is already the current one)."""

    type: ClassVar[str] = "begin-round"


@dataclass(frozen=True, repr=False, eq=False)
class Dealer(Event):
    """The record says who dealt: it must be the dealer the rotation gives."""

    type: ClassVar[str] = "dealer"
    player: str


@dataclass(frozen=True, repr=False, eq=False)
class Trump(Event):
    """Blackout and Alles oder Nichts: the turned card (``"QH"``) or just its colour."""

    type: ClassVar[str] = "trump"
    card: str


@dataclass(frozen=True, repr=False, eq=False)
class Bid(Event):
    """Blackout: a player's bid, in bidding order."""

    type: ClassVar[str] = "bid"
    player: str
    bid: int


@dataclass(frozen=True, repr=False, eq=False)
class Declare(Event):
    """Alles oder Nichts: open (bid shown) or secret; a secret bid may come sealed with it."""

    type: ClassVar[str] = "declare"
    player: str
    open: bool
    bid: int | None = None


@dataclass(frozen=True, repr=False, eq=False)
class Reveal(Event):
    """Alles oder Nichts: a secret bid turned up at the end of the round."""

    type: ClassVar[str] = "reveal"
    player: str
    bid: int


@dataclass(frozen=True, repr=False, eq=False)
class Starter(Event):
    """ebbes: who leads the round's first trick, and optionally who chose them."""

    type: ClassVar[str] = "starter"
    player: str
    chosen_by: str | None = None


@dataclass(frozen=True, repr=False, eq=False)
class Number(Event):
    """ebbes: the number-designation card revealed (1–5)."""

    type: ClassVar[str] = "number"
    number: int


@dataclass(frozen=True, repr=False, eq=False)
class Designators(Event):
    """ebbes ``placed-designators``: the five designator cards, one per colour."""

    type: ClassVar[str] = "designators"
    cards: tuple[str, ...]


@dataclass(frozen=True, repr=False, eq=False)
class Discard(Event):
    """ebbes ``discard``: the card a player laid aside face down."""

    type: ClassVar[str] = "discard"
    player: str
    card: str


@dataclass(frozen=True, repr=False, eq=False)
class Designate(Event):
    """ebbes: the next role (trump, plus, ebbes, minus) went to this colour."""

    type: ClassVar[str] = "designate"
    colour: str


@dataclass(frozen=True, repr=False, eq=False)
class Play(Event):
    """One card played; ``player`` (optional) guards against a stale page."""

    type: ClassVar[str] = "play"
    card: str
    player: str | None = None


@dataclass(frozen=True, repr=False, eq=False)
class Trick(Event):
    """A whole trick from a record: its leader and its cards in the order played."""

    type: ClassVar[str] = "trick"
    leader: str
    cards: tuple[str, ...]


@dataclass(frozen=True, repr=False, eq=False)
class Tricks(Event):
    """Blackout and Alles oder Nichts: tricks won per player at the end of the round."""

    type: ClassVar[str] = "tricks"
    tricks: Mapping[str, int]


@dataclass(frozen=True, repr=False, eq=False)
class Won(Event):
    """ebbes: cards won per colour per player at the end of the round."""

    type: ClassVar[str] = "won"
    won: Mapping[str, Mapping[str, int]]


@dataclass(frozen=True, repr=False, eq=False)
class End(Event):
    """The table ends the game after round ``round``, complete, before its last round (people
    stop early): the totals after it are final (``docs/rules.md``, "Ending early")."""

    type: ClassVar[str] = "end"


@dataclass(frozen=True, repr=False, eq=False)
class Join(Event):
    """A player sits down from round ``round`` on, to the left of ``after`` (None: after the
    last seat), starting with the points ``start`` names: ``"lowest"`` (the lowest total of
    those seated), ``"zero"`` or ``"average"`` (``docs/rules.md``, "Joining, leaving, sitting
    out"). A player who left and comes back keeps their total."""

    type: ClassVar[str] = "join"
    player: str
    after: str | None = None
    start: str = "lowest"


@dataclass(frozen=True, repr=False, eq=False)
class Leave(Event):
    """A player leaves the table before round ``round``: their total stands."""

    type: ClassVar[str] = "leave"
    player: str


@dataclass(frozen=True, repr=False, eq=False)
class SitOut(Event):
    """A player sits out round ``round``: not dealt in, no bid, no points for it."""

    type: ClassVar[str] = "sit-out"
    player: str


#: The entries that change who sits at the table, made between rounds.
SEAT_CHANGES = (Join, Leave, SitOut)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        BeginRound,
        Dealer,
        Trump,
        Bid,
        Declare,
        Reveal,
        Starter,
        Number,
        Designators,
        Discard,
        Designate,
        Play,
        Trick,
        Tricks,
        Won,
        End,
        Join,
        Leave,
        SitOut,
    )
}


_FIELDS: dict[type[Event], frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event stored as ``data`` (inverse of ``Event.to_dict``); KeyError/TypeError if not."""
    cls = EVENT_TYPES[data["type"]]
    kwargs = {key: value for key, value in data.items() if key != "type"}
    unexpected = kwargs.keys() - _FIELDS[cls]
    if unexpected:
        raise TypeError(f"unexpected fields for {cls.type}: {sorted(unexpected)}")
    if isinstance(kwargs.get("cards"), list):
        kwargs["cards"] = tuple(kwargs["cards"])
    return cls(**kwargs)
