"""How suits, colours and cards look on the pages: the style each is drawn in, and the card
picker's grid (a row per colour, a chip per value) that the round screen and the trick tool share.

Hearts and diamonds are drawn red, spades and clubs black (light in dark mode); a game's colours
(ebbes, Alles oder Nichts) as chips in their own colour that still say their name, for players
who cannot tell the colours apart. A colour the pages have no style for (a table may name its
Alles oder Nichts colours as it likes) is drawn plain. The styles are CSS classes of
``static/style.css`` ("Chips and cards"); nothing here decides a rule.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from operator import attrgetter

from markupsafe import Markup

from referee.rules import Deck
from referee.rules.cards import SUIT_SYMBOLS, Card
from referee.web.language import language
from referee.web.words import card_label, colour_label, colour_short

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
class PickerRow:
    """One colour's cards on the picker, highest first: the colour as its heading shows it (a
    suit by its symbol, in the grid's first cell; a colour by its name, above its cards), its
    full name, its style, the cards' chips (``chip``), and how many columns its grid has (the
    picker's rows all have as many)."""

    heading: str
    name: str
    css: str
    chips: Markup
    columns: int


#: The most columns of the picker's grid (seven chips of 44 px, a thumb's width, fit a 360 px
#: phone), and the fewest (a row with a few cards left keeps chips the size of the others).
MOST_COLUMNS, FEWEST_COLUMNS = 7, 6


def columns(cells: int) -> int:
    """Columns for a grid of ``cells`` chips: as few lines as fit, filled evenly."""
    lines = -(-cells // MOST_COLUMNS)
    return max(FEWEST_COLUMNS, -(-cells // max(1, lines)))


#: A card's chip: a button that posts the card's code (``"QH"``, ``"red-7"``), shows what its
#: colour's row needs (its rank, ``Q``, or value, ``7``) and names the whole card (``♥Q``,
#: ``red 7``) for a screen reader.
CHIP = Markup(
    '<button type="submit" name="card" value="{}" class="card" aria-label="{}">{}</button>'
)


@functools.lru_cache(maxsize=4096)
def chip(card: Card, language: str) -> Markup:
    """``card``'s chip in ``language``, the request's (``card_label`` names it in that one). A
    chip is the same on every picker that offers its card, so it is built once: escaping a
    whole deck's codes, names and faces was a tenth of a card's round screen (``bench/run``)."""
    label = card_label(card)
    shown = label.removeprefix(SUIT_SYMBOLS[card.colour]) if card.french else str(card.value)
    return CHIP.format(str(card), label, shown)


def picker_rows(deck: Deck, cards: Collection[Card]) -> list[PickerRow]:
    """The picker of ``cards`` (of ``deck``): a row per colour that has any, in the deck's order,
    each highest first, every row as wide as the longest needs."""
    found: dict[str, list[Card]] = {colour: [] for colour in deck.colours}
    for card in cards:
        row = found.get(card.colour)
        if row is not None:
            row.append(card)
    for row in found.values():
        row.sort(key=attrgetter("value"), reverse=True)
    suit = int(deck.french)  # a suit's symbol takes a cell of the grid
    width = columns(max((len(row) for row in found.values()), default=0) + suit)
    spoken = language()
    return [
        PickerRow(
            colour_short(colour),
            colour_label(colour),
            colour_class(colour),
            Markup("".join([chip(card, spoken) for card in row])),  # chips are markup
            width,
        )
        for colour, row in found.items()
        if row
    ]
