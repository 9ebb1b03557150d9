"""Sentences the pages share: a breach, an entry, a card's colour, why a trick was won.

Every one is translated when it is made (``flask_babel.gettext``); nothing here decides a rule.
"""

from __future__ import annotations

from flask_babel import gettext, lazy_gettext

from referee.rules import Breach
from referee.rules import events as ev
from referee.rules.breaches import MESSAGES
from referee.rules.cards import ALLES_COLOURS, EBBES_COLOURS, SUIT_NAMES, SUIT_SYMBOLS, Card
from referee.sheets.words import N_


def breach_text(breach: Breach) -> str:
    """A breach's sentence for people, translated (built from its code and parameters)."""
    return gettext(MESSAGES[breach.code]).format(
        player=breach.player, round=breach.round, trick=breach.trick, **breach.params
    )


#: The names of the suits and colours, and of ebbes' roles, in the reader's language (the
#: engine's are codes).
NAMES = {
    "spades": lazy_gettext("spades"),
    "hearts": lazy_gettext("hearts"),
    "diamonds": lazy_gettext("diamonds"),
    "clubs": lazy_gettext("clubs"),
    "red": lazy_gettext("red"),
    "yellow": lazy_gettext("yellow"),
    "green": lazy_gettext("green"),
    "blue": lazy_gettext("blue"),
    "purple": lazy_gettext("purple"),
    "trump": lazy_gettext("trump"),
    "plus": lazy_gettext("plus"),
    "ebbes": lazy_gettext("ebbes"),
    "minus": lazy_gettext("minus"),
    "nix": lazy_gettext("nix"),
}


def name_of(code: str) -> str:
    """A suit, colour or role code as its name in the reader's language ("red" → "rot"); a
    code without a name (a colour the table made up) as it is."""
    return str(NAMES.get(SUIT_NAMES.get(code, code), code))


#: The face cards' letters on a French card (J, Q, K, A), as the reader's language writes them.
RANK_LETTERS = {
    # TRANSLATORS: the letter of a jack on a card label (♥J).
    11: lazy_gettext("J"),
    # TRANSLATORS: the letter of a queen on a card label (♥Q).
    12: lazy_gettext("Q"),
    # TRANSLATORS: the letter of a king on a card label (♥K).
    13: lazy_gettext("K"),
    # TRANSLATORS: the letter of an ace on a card label (♥A).
    14: lazy_gettext("A"),
}


def card_label(card: Card) -> str:
    """A card's short label in the reader's language: ``♥Q`` for a French card, ``red 7``
    otherwise; a card that cannot have been played as the record spells it."""
    if not card.colour:
        return card.label()
    if card.french:
        return SUIT_SYMBOLS[card.colour] + str(RANK_LETTERS.get(card.value, card.value))
    return gettext("%(colour)s %(value)s", colour=name_of(card.colour), value=card.value)


def colour_label(colour: str | None) -> str:
    """A suit as ♥ hearts, a colour as its name; '—' for none."""
    if colour is None:
        return "—"
    if colour in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[colour]} {name_of(colour)}"
    return name_of(colour)


def colour_short(colour: str | None) -> str:
    """A suit as its symbol (♥), a colour as its name; '—' for none (for narrow sheet cells)."""
    if colour is None:
        return "—"
    return SUIT_SYMBOLS.get(colour) or name_of(colour)


#: Why a card won its trick (translated where it is said).
WHY = {"highest-trump": N_("highest trump"), "highest-led": N_("highest card of the colour led")}


def code_word(code: str) -> str:
    """A colour word of an entry ("red") in the reader's language; any other code (a suit
    letter, a card such as ``QH`` or ``red-7``) as it was entered."""
    return str(NAMES[code]) if code in EBBES_COLOURS + ALLES_COLOURS else code


def describe_event(event: ev.Event, turned_up: bool = False) -> str:
    """An entry in a short sentence, for the history and the undo message. A sealed secret bid
    is told only when its round is over (``turned_up``)."""
    return gettext("Round %(n)s: %(what)s", n=event.round, what=what_happened(event, turned_up))


def what_happened(event: ev.Event, turned_up: bool) -> str:
    """What ``event`` entered, in a few words (``describe_event`` says its round)."""
    if isinstance(event, ev.Trump):
        return gettext("trump %(card)s", card=code_word(event.card))
    if isinstance(event, ev.Bid):
        return gettext("%(player)s bid %(bid)s", player=event.player, bid=event.bid)
    if isinstance(event, ev.Declare):
        if event.open:
            return gettext(
                "%(player)s declared open, bid %(bid)s", player=event.player, bid=event.bid
            )
        if event.bid is None:
            return gettext("%(player)s declared secret", player=event.player)
        if turned_up:
            return gettext(
                "%(player)s declared secret, bid sealed before play: %(bid)s",
                player=event.player,
                bid=event.bid,
            )
        return gettext(
            "%(player)s declared secret, bid sealed until the round is over", player=event.player
        )
    if isinstance(event, ev.Reveal):
        return gettext("%(player)s's secret bid was %(bid)s", player=event.player, bid=event.bid)
    if isinstance(event, ev.Tricks):
        counts = ", ".join(f"{p} {n}" for p, n in event.tricks.items())
        return gettext("tricks %(counts)s", counts=counts)
    if isinstance(event, ev.Starter):
        if event.chosen_by:
            return gettext(
                "%(player)s starts (chosen by %(chooser)s)",
                player=event.player,
                chooser=event.chosen_by,
            )
        return gettext("%(player)s starts", player=event.player)
    if isinstance(event, ev.Number):
        return gettext("number card %(number)s", number=event.number)
    if isinstance(event, ev.Designators):
        return gettext("designators %(cards)s", cards=", ".join(event.cards))
    if isinstance(event, ev.Designate):
        return gettext("next role to %(colour)s", colour=code_word(event.colour))
    if isinstance(event, ev.Won):
        counts = "; ".join(
            f"{p}: " + " ".join(f"{code_word(c)} {n}" for c, n in won.items())
            for p, won in event.won.items()
        )
        return gettext("cards won %(counts)s", counts=counts)
    if isinstance(event, ev.Discard):
        return gettext("%(player)s laid aside %(card)s", player=event.player, card=event.card)
    if isinstance(event, ev.Play):
        if event.player:
            return gettext("%(player)s played %(card)s", player=event.player, card=event.card)
        return gettext("next player played %(card)s", card=event.card)
    return event.type
