"""Sentences from codes and parameters, in the language of the translations given.

Breaches (``breaches.MESSAGES``) and score terms (``scores.TERM_TEXT``) hold English sentences with
named placeholders; what fills them is language-free: numbers, players' names, card codes
(``8S``, ``blue-5``), colour codes (``S``, ``red``), text as an entry typed it. ``say`` looks the
sentence up in a catalog (anything with ``gettext`` and ``ngettext``: ``gettext.NullTranslations``,
``babel.support.Translations``, Flask-Babel's; ``ENGLISH`` for the source text) and shows each
parameter as its name says: a card as the table names it (♠8, ♥10, blue 5), a colour as a suit
symbol or the colour's name (on paper, ``symbols`` false, a suit by its name too: the PDF's
faces have no suit symbols), typed text quoted. A translation that does not fit its placeholders
falls back to the English sentence: a slip in a catalog never hides a breach.

>>> say("%(player)s played %(card)s.", {"player": "Ann", "card": "10H"}, ENGLISH)
'Ann played ♥10.'
>>> card_name("blue-5", ENGLISH), colour_name("S", ENGLISH), card_name("1S", ENGLISH)
('blue 5', '♠', "'1S'")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from referee.rules import events as ev
from referee.rules.cards import ALLES_COLOURS, EBBES_COLOURS, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from referee.rules.marks import N_, Plural

if TYPE_CHECKING:
    from referee.rules.seating import Seating


class Translations(Protocol):
    """What a catalog offers (the standard library's and Babel's translations have both)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The source sentences themselves (English plural rule: one, or more)."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


#: The sentences as written, for ``Breach.message`` and ``--json``.
ENGLISH: Translations = _English()

#: The coloured games' colours by name (a colour an Alles oder Nichts table named itself is
#: shown as typed).
COLOUR_NAMES = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
}
assert set(COLOUR_NAMES) == set(EBBES_COLOURS) | set(ALLES_COLOURS)

#: ebbes' roles by name (the table's words: Trumpf, Plus, Ebbes, Minus, Nix).
ROLE_NAMES = {
    "trump": N_("trump"),
    "plus": N_("plus"),
    "ebbes": N_("ebbes"),
    "minus": N_("minus"),
    "nix": N_("nix"),
}

#: French cards' face ranks as printed on the card (a German table reads B, D, K, A).
RANKS = {"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")}

#: A coloured card: its colour's name and its value.
COLOURED_CARD = N_("%(colour)s %(value)s")
#: A French card on paper (the PDF's faces have no suit symbols).
PRINTED_CARD = N_("%(rank)s of %(suit)s")

#: How each parameter is shown, by its name; every other parameter is a number.
PLAYERS = frozenset({"player", "expected", "chosen_by", "after"})
#: Words a sentence was given already said in the catalog's language (shown as they are).
SAID = frozenset({"said"})
CARDS = frozenset({"card"})
COLOURS = frozenset({"colour", "trump", "fixed"})
TYPED = frozenset({"name", "text", "start"})
CODES = frozenset({"entry", "game"})
NAME_LISTS = frozenset({"majority"})
NUMBERS = frozenset(
    {
        "round",
        "trick",
        "seat",
        "low",
        "high",
        "count",
        "rounds",
        "ended",
        "next",
        "entry_round",
        "current",
        "players",
        "tricks",
        "bid",
        "total",
        "hand",
        "needed",
        "in_play",
        "number",
        "used_in",
        "index",
        "later",
        "derived",
        "given",
        "points",
        "most",
        "fewest",
    }
)


#: A list of names, its last joined with "and" ("Ann, Ben and Cho"; German "Ann, Ben und Cho").
AND_LAST = N_("%(names)s and %(last)s")


def names_list(names: Iterable[object], t: Translations) -> str:
    """Names as a sentence lists them, in the catalog's language: "Ann", "Ann and Ben",
    "Ann, Ben and Cho"."""
    shown = [str(name) for name in names]
    if len(shown) < 2:
        return "".join(shown)
    return t.gettext(AND_LAST) % {"names": ", ".join(shown[:-1]), "last": shown[-1]}


#: The minus sign numbers are shown to people with (U+2212): never a hyphen, in any language.
#: (A spreadsheet's cells and the JSON documents keep plain numbers.)
MINUS = "\u2212"


def number_text(value: int) -> str:
    """A whole number as people read it, a negative one with the minus sign: ``−2``."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed_text(value: int) -> str:
    """A whole number with its sign, as a change of score: ``+2``, ``−2``, ``0``."""
    return f"+{value}" if value > 0 else number_text(value)


class Number(int):
    """A whole number that a sentence's ``%(name)s`` shows with the minus sign (``−2``); as
    ``%(name)d`` and in arithmetic it is the number itself."""

    def __str__(self) -> str:
        return number_text(int(self))


def typed(value: object) -> str:
    """Text as an entry typed it, quoted (and shown escaped where it does not print)."""
    return repr(value)


def colour_name(colour: str, t: Translations, symbols: bool = True) -> str:
    """A suit as its symbol (♠; as its name on paper, ``symbols`` false: the PDF's faces have no
    suit symbols), a colour as its name, in the catalog's language."""
    if colour in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[colour] if symbols else t.gettext(SUIT_NAMES[colour])
    return t.gettext(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def card_name(code: object, t: Translations, symbols: bool = True) -> str:
    """A card as the table names it: ♠8, ♥10, ♠Q, blue 5 (on paper: 8 of spades); what spells
    no card, quoted."""
    if not isinstance(code, str):
        return typed(code)
    colour, dash, value = code.strip().rpartition("-")
    if dash and colour and value.isdigit() and value.isascii():
        shown = colour_name(colour.strip().lower(), t)
        return t.gettext(COLOURED_CARD) % {"colour": shown, "value": int(value)}
    word = code.strip().upper()
    rank, suit = ("10" if word[:-1] == "T" else word[:-1]), word[-1:]
    if suit in SUITS and (rank in RANKS or (rank.isdigit() and 2 <= int(rank) <= 10)):
        rank = t.gettext(RANKS[rank]) if rank in RANKS else rank
        if symbols:
            return SUIT_SYMBOLS[suit] + rank
        return t.gettext(PRINTED_CARD) % {"rank": rank, "suit": t.gettext(SUIT_NAMES[suit])}
    return typed(code)


def trump_name(code: str, t: Translations, symbols: bool = True) -> str:
    """A trump as entered: the turned card (♥Q) or just its colour (♥, red)."""
    shown = card_name(code, t, symbols)
    return colour_name(code, t, symbols) if shown == typed(code) else shown


def shown(name: str, value: object, t: Translations, symbols: bool = True) -> str:
    """A parameter as a sentence shows it (see the module docstring); a number as people read
    it, a negative one with the minus sign (``−2``)."""
    if value is None:
        return "?"
    if name in CARDS and isinstance(value, str):
        return card_name(value, t, symbols)
    if name in COLOURS and isinstance(value, str):
        return colour_name(value, t, symbols)
    if name in NAME_LISTS and isinstance(value, (list, tuple)):
        return names_list(value, t)
    if name in PLAYERS | CODES | SAID and isinstance(value, str):
        return value
    if name in NUMBERS and isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    return typed(value)


def say(
    message: str | Plural, params: Mapping[str, object], t: Translations, symbols: bool = True
) -> str:
    """``message`` in the catalog's language with ``params`` filled in (suits as words on paper,
    ``symbols`` false)."""
    values = {name: shown(name, value, t, symbols) for name, value in params.items()}
    if isinstance(message, tuple):
        singular, plural, counted = message
        n = params.get(counted)
        count = n if isinstance(n, int) else 2
        text = t.ngettext(singular, plural, count)
    else:
        text = t.gettext(message)
    try:
        return text % values
    except (KeyError, ValueError, TypeError):
        if t is ENGLISH:
            raise
        return say(message, params, ENGLISH, symbols)


#: How a newcomer's starting points are chosen, in words (docs/rules.md, "Joining, leaving,
#: sitting out").
START_WORDS = {"lowest": N_("the lowest total"), "zero": N_("zero"), "average": N_("the average")}

#: A seat change in a sentence, by what it is.
SEAT_WORDS = {
    "leave": N_("%(player)s left the table; their total stands"),
    "sit-out": N_("%(player)s sat out round %(round)s"),
    "back": N_("%(player)s came back; their total stands"),
    "join": N_("%(player)s joined, starting with %(said)s"),
    "join-after": N_("%(player)s joined left of %(after)s, starting with %(said)s"),
    "points": N_("%(points)s (%(how)s)"),
}


def seat_change_text(event: ev.Event, t: Translations, points: int | None = None) -> str:
    """A join, leave or sit-out in a short sentence in the catalog's language: a join with the
    ``points`` it gave the newcomer where they are known (the sheet), else how they were
    chosen (the history)."""
    player = getattr(event, "player", "")
    if not isinstance(event, ev.Join):
        return say(SEAT_WORDS[event.type], {"player": player, "round": event.round}, t)
    start = t.gettext(START_WORDS[event.start]) if event.start in START_WORDS else event.start
    if points is not None:
        start = t.gettext(SEAT_WORDS["points"]) % {"points": number_text(points), "how": start}
    if event.after is None:
        return say(SEAT_WORDS["join"], {"player": player, "said": start}, t)
    return say(SEAT_WORDS["join-after"], {"player": player, "after": event.after, "said": start}, t)


def seat_change_lines(seating: Seating, number: int, t: Translations) -> list[str]:
    """The seat changes made before round ``number``, in sentences for a sheet: a newcomer with
    their starting points, one who comes back without (their total stands)."""
    out = []
    for change in seating.changes:
        if change.round != number:
            continue
        player = getattr(change, "player", "")
        if isinstance(change, ev.Join) and seating.joined.get(player) != number:
            out.append(say(SEAT_WORDS["back"], {"player": player}, t))
            continue
        points = seating.starts.get(player) if isinstance(change, ev.Join) else None
        out.append(seat_change_text(change, t, points))
    return out
