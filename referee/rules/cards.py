"""Cards and decks of the three games, and how cards are spelled.

Blackout uses French cards spelled rank-then-suit (``"QH"``, ``"10S"``, also ``"TS"``); the other
games use coloured cards spelled ``"red-7"``. Parsing is case-insensitive and ignores surrounding
spaces; ``str(card)`` gives the canonical spelling. A card a record shows but no player can have
played (``"1S"``, a card not in the deck, one already played) is a ``BadCard``: some card of its
player that the record does not show.

>>> deck = blackout_deck(players=4, max_cards=3)
>>> len(deck), Card("H", 12) in deck, Card("H", 10) in deck
(12, True, False)
>>> str(deck.parse_card(" th ")), str(deck.parse_card("qh"))
('10H', 'QH')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property

from referee.rules.marks import N_

#: Suits from the lowest to the highest when trimming a Blackout deck (♣, ♦, ♥, ♠).
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
_RANK_LETTERS = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_VALUES = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}

#: ebbes' five colours and Alles oder Nichts' default four.
EBBES_COLOURS = ("red", "yellow", "green", "blue", "purple")
ALLES_COLOURS = ("red", "yellow", "green", "blue")


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its colour (a suit letter for French cards) and its value (Blackout: 2–14)."""

    colour: str
    value: int

    @property
    def french(self) -> bool:
        return self.colour in SUITS

    def __str__(self) -> str:
        if self.french:
            return _RANK_LETTERS.get(self.value, str(self.value)) + self.colour
        return f"{self.colour}-{self.value}"

    def label(self) -> str:
        """A short label for people: ``♥Q`` for French cards, ``red 7`` otherwise."""
        if self.french:
            return SUIT_SYMBOLS[self.colour] + _RANK_LETTERS.get(self.value, str(self.value))
        return f"{self.colour} {self.value}"


@dataclass(frozen=True, slots=True)
class BadCard(Card):
    """A card that cannot have been played: it spells no card, is not in the deck, was already
    played or is out of play. It stands for some card of its player that nobody knows: it has no
    colour (``""``), equals no real card, and prints as what the record says (``text``).

    >>> card = BadCard.of("1S")
    >>> str(card), card.colour, card == Card("S", 1)
    ('1S', '', False)
    """

    text: str = ""

    @classmethod
    def of(cls, text: object) -> BadCard:
        """The bad card a record spells as ``text`` (a ``Card``: its spelling)."""
        return cls("", 0, text if isinstance(text, str) else str(text))

    def __str__(self) -> str:
        return self.text

    def label(self) -> str:
        return self.text


@dataclass(frozen=True)
class Deck:
    """The cards of one game's deck, and how to read a card or colour of it."""

    colours: tuple[str, ...]
    cards: frozenset[Card]
    french: bool

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._in_order)

    @cached_property
    def _in_order(self) -> tuple[Card, ...]:
        """The cards colour by colour in the deck's order, lowest first, sorted once (a card
        picker walks the deck on every card)."""
        return tuple(sorted(self.cards, key=lambda c: (self.colours.index(c.colour), c.value)))

    def count(self, colour: str) -> int:
        """How many cards of ``colour`` the deck holds."""
        return self._counts.get(colour, 0)

    @cached_property
    def _counts(self) -> dict[str, int]:
        """How many cards of each colour the deck holds, counted once (ebbes checks each
        colour's total in every round)."""
        return Counter(card.colour for card in self.cards)

    @cached_property
    def _colour_keys(self) -> dict[str, str]:
        return {colour.casefold(): colour for colour in self.colours}

    def parse_colour(self, text: str) -> str | None:
        """The canonical colour (or suit letter) for ``text``, or None if it is not one.

        Case-insensitive beyond ASCII too: ``"WEISS"`` reads as the colour ``"weiß"``.
        """
        return self._colour_keys.get(text.strip().casefold())

    @cached_property
    def _spellings(self) -> dict[str, Card]:
        """Each card of the deck by its own spelling (``"QH"``, ``"red-7"``), as records write
        it: a card is looked up, not read letter by letter."""
        return {str(card): card for card in self.cards}

    def parse_card(self, text: str) -> Card | None:
        """The card spelled by ``text`` (in this deck or not), or None if it spells no card."""
        known = self._spellings.get(text)
        if known is not None:
            return known
        word = text.strip()
        if self.french:
            word = word.upper()
            if len(word) < 2 or word[-1] not in SUITS:
                return None
            rank, suit = word[:-1], word[-1]
            if rank in _RANK_VALUES:
                return Card(suit, _RANK_VALUES[rank])
            if rank.isdigit() and rank.isascii() and 2 <= int(rank) <= 10 and rank[0] != "0":
                return Card(suit, int(rank))
            return None
        name, sep, value = word.rpartition("-")
        colour = self.parse_colour(name)
        value = value.strip()
        if not sep or colour is None or not (value.isdigit() and value.isascii()):
            return None
        if value[0] == "0" or len(value) > 3:
            return None
        return Card(colour, int(value))


@cache  # a deck never changes: every table of a kind shares one (and its card lookup)
def blackout_deck(players: int, max_cards: int) -> Deck:
    """``players × max_cards`` cards of a 52-card deck, the lowest removed first.

    Lowest first means all 2s, then the 3s, …; within one rank ♣, then ♦, then ♥, then ♠.
    """
    full = sorted(
        (Card(suit, value) for value in range(2, 15) for suit in SUITS),
        key=lambda c: (c.value, SUITS.index(c.colour)),
    )
    kept = full[len(full) - players * max_cards :]
    return Deck(colours=("S", "H", "D", "C"), cards=frozenset(kept), french=True)


@cache  # a deck never changes: every table of a kind shares one (and its card lookup)
def coloured_deck(colours: tuple[str, ...], values: int) -> Deck:
    """One card of each value 1…``values`` in each colour."""
    cards = frozenset(Card(colour, value) for colour in colours for value in range(1, values + 1))
    return Deck(colours=colours, cards=cards, french=False)
