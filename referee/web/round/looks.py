"""How suits, colours and cards look on the pages: the style each is drawn in, and the card
picker's grid (a row per colour, a chip per value) that the round screen and the trick tool share.

Hearts and diamonds are drawn red, spades and clubs black (light in dark mode); a game's colours
(ebbes, Alles oder Nichts) as chips in their own colour that still say their name, for players
who cannot tell the colours apart. A colour the pages have no style for (a table may name its
Alles oder Nichts colours as it likes) is drawn plain. The styles are CSS classes of
``static/style.css`` ("Chips and cards"); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from referee.rules import Deck
from referee.rules.cards import SUIT_SYMBOLS, Card
from referee.web.words import card_labels, colour_label, colour_short

#: The colour names drawn in their own colour, by the style that draws them (English and German
#: names: an Alles oder Nichts table names its colours).
STYLES = {
    "red": ("red", "rot"),
    "yellow": ("yellow", "gelb"),
    "green": ("green", "grün", "gruen"),
    "blue": ("blue", "blau"),
    "purple": ("purple", "violet", "lila", "violett"),
    "orange": ("orange",),
    "black": ("black", "schwarz"),
    "white": ("white", "weiß", "weiss"),
}
_STYLE_OF = {name: style for style, names in STYLES.items() for name in names}
_SUIT_STYLES = {"H": "suit-red", "D": "suit-red", "S": "suit-black", "C": "suit-black"}


def colour_class(colour: str | None) -> str:
    """The CSS classes a suit or colour is drawn with: ``suit suit-red`` for ♥ and ♦,
    ``colour colour-blue`` for a blue chip, ``colour`` for a colour without a style of its own,
    ``""`` for none."""
    if colour is None:
        return ""
    if colour in _SUIT_STYLES:
        return f"suit {_SUIT_STYLES[colour]}"
    style = _STYLE_OF.get(colour.casefold())
    return f"colour colour-{style}" if style else "colour"


@dataclass
class ColourChip:
    """A colour (or suit) to tap: what it posts, what it says, and its style."""

    value: str
    label: str
    css: str


def colour_chips(colours: Iterable[str]) -> list[ColourChip]:
    """Each colour (or suit) as a chip: ♥ hearts, or its name, in its style."""
    return [ColourChip(c, colour_label(c), colour_class(c)) for c in colours]


@dataclass
class PickedCard:
    """A card on the picker: what it posts (``"QH"``, ``"red-7"``), what its chip shows (``Q``,
    ``7``), and its full name (``♥Q``, ``red 7``), which a screen reader says."""

    value: str
    face: str
    name: str


@dataclass
class PickerRow:
    """One colour's cards on the picker, highest first: the colour as its heading shows it (a
    suit by its symbol, in the grid's first cell; a colour by its name, above its cards), its
    full name, its style, the cards, and how many columns its grid has (the picker's rows
    all have as many)."""

    heading: str
    name: str
    css: str
    cards: list[PickedCard]
    columns: int


#: The most columns of the picker's grid (eight chips still fit a 360 px phone), and the
#: fewest (a row with a few cards left keeps chips the size of the others).
MOST_COLUMNS, FEWEST_COLUMNS = 8, 6


def columns(cells: int) -> int:
    """Columns for a grid of ``cells`` chips: as few lines as fit, filled evenly."""
    lines = -(-cells // MOST_COLUMNS)
    return max(FEWEST_COLUMNS, -(-cells // max(1, lines)))


def picked(card: Card, label: str) -> PickedCard:
    """A card's chip: its code, what it shows under its colour's heading (its rank, ``Q``, or
    value, ``7``) and its name ``label`` (``♥Q``, ``blue 7``: ``card_labels``)."""
    shown = label.removeprefix(SUIT_SYMBOLS[card.colour]) if card.french else str(card.value)
    return PickedCard(str(card), shown, label)


def picker_rows(deck: Deck, cards: Collection[Card]) -> list[PickerRow]:
    """The picker of ``cards`` (of ``deck``): a row per colour that has any, in the deck's order,
    each highest first, every row as wide as the longest needs."""
    found = {
        colour: sorted((c for c in cards if c.colour == colour), key=lambda c: -c.value)
        for colour in deck.colours
    }
    suit = int(deck.french)  # a suit's symbol takes a cell of the grid
    width = columns(max((len(row) for row in found.values()), default=0) + suit)
    return [
        PickerRow(
            colour_short(colour),
            colour_label(colour),
            colour_class(colour),
            [picked(c, label) for c, label in zip(row, card_labels(row), strict=True)],
            width,
        )
        for colour, row in found.items()
        if row
    ]
