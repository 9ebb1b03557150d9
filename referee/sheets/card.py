"""What a blank scorecard is for: the game, how many play, and what is filled in beforehand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.rules import Setup

#: A name nobody types at a table stands in for a seat left blank (never printed). It is still a
#: name the rules accept: they refuse private-use and other hidden characters in names.
_SEAT = "⸢seat {}⸣"


@dataclass(frozen=True)
class BlankCard:
    """What a blank card is for: the game, how many play, and what to fill in beforehand.

    ``names`` by seat ('' or none: written in by hand); ``first`` the seat (from 1) that deals
    (ebbes: starts) round 1, or None to leave the dealers blank; ``options`` the game's options.
    """

    game: str
    players: int
    names: Sequence[str] = ()
    first: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def seat_names(self) -> tuple[str, ...]:
        """The name of every seat as printed: '' for a seat left blank."""
        given = [name.strip() for name in self.names]
        if len(given) > self.players and any(given[self.players :]):
            raise ValueError(f"{len(given)} names for a card of {self.players} players")
        given = given[: self.players]
        return tuple(given) + ("",) * (self.players - len(given))

    def setup(self) -> Setup:
        """The card as a table setup (a blank seat gets a stand-in name) for the rules to check."""
        names = tuple(name or _SEAT.format(seat) for seat, name in enumerate(self.seat_names(), 1))
        if self.first is not None and not 1 <= self.first <= self.players:
            raise ValueError(f"seat {self.first} is not at a table of {self.players}")
        first = names[self.first - 1] if self.first is not None else None
        return Setup(self.game, names, dict(self.options), first)
