"""Sentences the pages share: a breach, an entry, a card's colour, why a trick was won.

Every one is translated when it is made (``flask_babel.gettext``); nothing here decides a rule.
"""

from __future__ import annotations

from flask_babel import gettext

from referee.rules import Breach
from referee.rules import events as ev
from referee.rules.breaches import MESSAGES
from referee.rules.cards import SUIT_NAMES, SUIT_SYMBOLS


def breach_text(breach: Breach) -> str:
    """A breach's sentence for people, translated (built from its code and parameters)."""
    return gettext(MESSAGES[breach.code]).format(
        player=breach.player, round=breach.round, trick=breach.trick, **breach.params
    )


def colour_label(colour: str | None) -> str:
    """A suit as ♥ hearts, a colour as its name; '—' for none."""
    if colour is None:
        return "—"
    if colour in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[colour]} {SUIT_NAMES[colour]}"
    return colour


def colour_short(colour: str | None) -> str:
    """A suit as its symbol (♥), a colour as its name; '—' for none (for narrow sheet cells)."""
    if colour is None:
        return "—"
    return SUIT_SYMBOLS.get(colour, colour)


WHY = {"highest-trump": "highest trump", "highest-led": "highest card of the colour led"}


def describe_event(event: ev.Event, turned_up: bool = False) -> str:
    """An entry in a short sentence, for the history and the undo message. A sealed secret bid
    is told only when its round is over (``turned_up``)."""
    at = f"Round {event.round}: "
    if isinstance(event, ev.Trump):
        return at + f"trump {event.card}"
    if isinstance(event, ev.Bid):
        return at + f"{event.player} bid {event.bid}"
    if isinstance(event, ev.Declare):
        if event.open:
            return at + f"{event.player} declared open, bid {event.bid}"
        if event.bid is None:
            return at + f"{event.player} declared secret"
        if turned_up:
            return at + f"{event.player} declared secret, bid sealed before play: {event.bid}"
        return at + f"{event.player} declared secret, bid sealed until the round is over"
    if isinstance(event, ev.Reveal):
        return at + f"{event.player}'s secret bid was {event.bid}"
    if isinstance(event, ev.Tricks):
        return at + "tricks " + ", ".join(f"{p} {n}" for p, n in event.tricks.items())
    if isinstance(event, ev.Starter):
        chosen = f" (chosen by {event.chosen_by})" if event.chosen_by else ""
        return at + f"{event.player} starts{chosen}"
    if isinstance(event, ev.Number):
        return at + f"number card {event.number}"
    if isinstance(event, ev.Designators):
        return at + "designators " + ", ".join(event.cards)
    if isinstance(event, ev.Designate):
        return at + f"next role to {event.colour}"
    if isinstance(event, ev.Won):
        return (
            at
            + "cards won "
            + "; ".join(
                f"{p}: " + " ".join(f"{c} {n}" for c, n in counts.items())
                for p, counts in event.won.items()
            )
        )
    if isinstance(event, ev.Play):
        return at + f"{event.player or 'next player'} played {event.card}"
    return at + event.type
