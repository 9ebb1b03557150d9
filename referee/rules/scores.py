"""What a score is made of, so every number on the sheet can explain itself.

A ``Score`` is its points plus the terms that add up to them, each term a message code with
parameters (translatable like the breaches' sentences).

>>> s = Score(13, (Term("prefix-one", {"bid": 3, "tricks": 3}, 13),))
>>> s.explain()
'bid 3, took 3: a 1 written in front of the bid → 13'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TERM_TEXT: dict[str, str] = {
    "prefix-one": "bid {bid}, took {tricks}: a 1 written in front of the bid → {points}",
    "ten-plus-bid": "bid {bid}, took {tricks}: 10 + {bid} → {points}",
    "blacked-out": "bid {bid}, took {tricks}: blacked out → 0",
    "secret-tricks": "secret bid {bid}, took {tricks}: 1 per trick → {points}",
    "open-tricks": "open bid {bid}, took {tricks}: 2 per trick → {points}",
    "open-missed": "open bid {bid}, took {tricks}: missed, all or nothing → 0",
    "exact-bonus": "exact bid: bonus → +3",
    "plus": "{count} {colour} card(s), the plus colour: +1 each → {points:+d}",
    "minus": "{count} {colour} card(s), the minus colour: −1 each → {points:+d}",
    "ebbes-middle": (
        "{count} {colour} card(s), the ebbes colour: neither the most ({most}) nor the fewest "
        "({fewest}) → +3"
    ),
    "ebbes-edge": "{count} {colour} card(s), the ebbes colour: {edge} → 0",
    "nothing": "no cards of a scoring colour → 0",
}


@dataclass(frozen=True)
class Term:
    """One part of a score: what it is (a code and parameters) and its points."""

    code: str
    params: Mapping[str, object]
    points: int

    def explain(self) -> str:
        return TERM_TEXT[self.code].format(points=self.points, **self.params)


@dataclass(frozen=True)
class Score:
    """A player's score in one round and the terms it is made of."""

    points: int
    terms: tuple[Term, ...] = field(default=())

    def explain(self) -> str:
        """The terms in words, joined; the sum is the points."""
        return "; ".join(term.explain() for term in self.terms)
