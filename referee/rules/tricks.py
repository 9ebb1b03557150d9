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

A trick the cards cannot settle (one of them is a ``BadCard``, it was not led by the one who had
to lead, whose card is whose is not known, or the trump is not known and the trick holds more
than one colour) has no winner from its cards: the next trick's leader won it (``why`` is
``"next-leader"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.rules.cards import Card

#: The trump of a round whose record lacks what fixes it (no trump turned up, no number card),
#: or garbles it: any colour may be trump.
UNKNOWN_TRUMP = "?"


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
    in the middle of a trick); ``winner`` and ``why`` are set once the trick is settled. ``full``:
    all its cards are in (a trick recorded with the wrong number of cards is full too). ``loose``:
    whose card is whose is not known (its leader is not a player, or it has the wrong number of
    cards, or was led by someone other than the one who had to lead), so it shows nothing about
    following suit. ``misled``: it was led by someone other than the one who had to lead, so its
    cards are counted from that leader but do not settle it.
    """

    leader: str
    cards: tuple[tuple[str, Card], ...] = ()
    trump_before: str | None = None
    winner: str | None = None
    why: str | None = None
    trump: str | None = None
    full: bool = False
    loose: bool = False
    misled: bool = False

    def with_card(self, player: str, card: Card) -> PlayedTrick:
        """This trick with ``player``'s ``card`` added (made directly: ``dataclasses.replace``
        would cost more than the rest of a card's checks, hundreds of times in a record)."""
        return PlayedTrick(
            self.leader,
            (*self.cards, (player, card)),
            self.trump_before,
            self.winner,
            self.why,
            self.trump,
            self.full,
            self.loose,
            self.misled,
        )

    def settled(self, winner: str | None, why: str | None, trump: str | None) -> PlayedTrick:
        """This trick with all its cards in, and its winner if its cards can tell it (made
        directly too: once a trick)."""
        return PlayedTrick(
            self.leader,
            self.cards,
            self.trump_before,
            winner,
            why,
            trump,
            True,
            self.loose,
            self.misled,
        )

    @property
    def led(self) -> str | None:
        """The colour led (None before the first card, or when it is a ``BadCard``)."""
        return (self.cards[0][1].colour or None) if self.cards else None
