"""Trick mechanics shared by all three games: who wins a trick, and a trick as played.

The leader plays any card; the others must follow the led colour if they can. The highest trump
wins; without trump in the trick the highest card of the led colour wins. A card that neither
follows nor trumps never wins.

>>> from referee.rules.cards import Card
>>> trick = [Card("H", 10), Card("H", 12), Card("S", 2), Card("C", 14)]
>>> trick_winner(trick, trump="S")
(2, 'highest-trump')
>>> trick_winner(trick, trump=None)
(1, 'highest-led')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.rules.cards import Card


def trick_winner(cards: Sequence[Card], trump: str | None) -> tuple[int, str]:
    """The index of the winning card and why: ``highest-trump`` or ``highest-led``."""
    led = cards[0].colour
    if trump is not None and any(card.colour == trump for card in cards):
        colour, why = trump, "highest-trump"
    else:
        colour, why = led, "highest-led"
    best = max(
        (i for i, card in enumerate(cards) if card.colour == colour), key=lambda i: cards[i].value
    )
    return best, why


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """One trick as played: its leader and the cards in the order played (seat order).

    ``trump_before`` is the trump in force when its first card was played (ebbes can fix trump
    in the middle of a trick); ``winner`` and ``why`` are set once the trick is settled.
    """

    leader: str
    cards: tuple[tuple[str, Card], ...] = ()
    trump_before: str | None = None
    winner: str | None = None
    why: str | None = None
    trump: str | None = None

    @property
    def led(self) -> str | None:
        return self.cards[0][1].colour if self.cards else None
