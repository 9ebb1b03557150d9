"""Sentences the pages share: a breach, a score's explanation, an entry, a card or colour, why a
trick was won.

Every one is said in the request's language (Flask-Babel's translations, through
``referee.rules.wording`` for what the engine holds as codes); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.rules import Breach, Score, State, wording
from referee.rules import events as ev
from referee.rules.cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from referee.rules.marks import N_
from referee.rules.names import quote
from referee.rules.wording import (
    ROLE_NAMES,
    card_name,
    colour_name,
    names_list,
    number_text,
    trump_name,
)
from referee.web.i18n import gettext, ngettext, translations
from referee.web.sealed import shown_notes


def breach_text(breach: Breach) -> str:
    """A breach's sentence for people, in the request's language."""
    return breach.sentence(translations())


def score_text(score: Score) -> str:
    """What a score is made of, in the request's language."""
    return score.explain(translations())


def points_text(points: int) -> str:
    """A score in points, singular or plural as the number asks (−1 point, 3 points)."""
    return ngettext(
        "%(signed)s point", "%(signed)s points", abs(points), signed=number_text(points)
    )


def names_text(names: Iterable[object]) -> str:
    """Names as a sentence lists them, in the request's language: "Ann, Ben and Cho" ("Ann,
    Ben und Cho"); the templates' ``listed`` filter."""
    return names_list(names, translations())


def hidden_name_text(name: str) -> str:
    """A name (a roster player's, a group's, a season's, a colour's) refused for a character that
    does not show, or for showing nothing at all (``referee.rules.names.name_fault``)."""
    return gettext(
        "“%(name)s” holds a character that does not show (a control, format or "
        "direction character). Type the name again with letters, digits and spaces.",
        name=quote(name),
    )


def card_text(code: str) -> str:
    """A card as the table names it (♠8, blue 5), in the request's language."""
    return card_name(code, translations())


def card_label(card: Card) -> str:
    """A card as the table names it (♥Q, blue 5), in the request's language."""
    return card_text(str(card))


def name_of(code: str) -> str:
    """A suit, colour or ebbes role code as its name in the reader's language ("red" → "rot");
    a colour the table made up as it is (the templates' ``named`` filter)."""
    if code in SUIT_NAMES:
        return gettext(SUIT_NAMES[code])
    if code in ROLE_NAMES:
        return gettext(ROLE_NAMES[code])
    return colour_name(code, translations())


def colour_label(colour: str | None) -> str:
    """A suit as ♥ hearts, a colour as its name; '—' for none."""
    if colour is None:
        return "—"
    if colour in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[colour]} {gettext(SUIT_NAMES[colour])}"
    return colour_name(colour, translations())


def colour_short(colour: str | None) -> str:
    """A suit as its symbol (♥), a colour as its name; '—' for none (for narrow sheet cells)."""
    if colour is None:
        return "—"
    return colour_name(colour, translations())


WHY = {"highest-trump": N_("highest trump"), "highest-led": N_("highest card of the colour led")}


def describe_event(event: ev.Event, turned_up: bool = False) -> str:
    """An entry in a short sentence with its round, for the history and the undo message."""
    entry = entry_text(event, turned_up)
    return gettext("Round %(round)s: %(entry)s", round=event.round, entry=entry)


def entry_text(event: ev.Event, turned_up: bool = False, symbols: bool = True) -> str:
    """An entry in a short sentence, cards named as the table sees them (on paper, ``symbols``
    false, suits as words). A sealed secret bid is told only when its round is over
    (``turned_up``)."""
    t = translations()
    if isinstance(event, ev.Trump):
        return gettext("trump %(trump)s", trump=trump_name(event.card, t, symbols))
    if isinstance(event, ev.Dealer):
        return gettext("%(player)s dealt", player=event.player)
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
        cards = ", ".join(card_name(c, t, symbols) for c in event.cards)
        return gettext("designators %(cards)s", cards=cards)
    if isinstance(event, ev.Designate):
        return gettext("next role to %(colour)s", colour=colour_name(event.colour, t, symbols))
    if isinstance(event, ev.Won):
        counts = "; ".join(
            f"{p}: " + " ".join(f"{colour_name(c, t, symbols)} {n}" for c, n in per_colour.items())
            for p, per_colour in event.won.items()
        )
        return gettext("cards won %(counts)s", counts=counts)
    if isinstance(event, ev.Discard):
        return gettext(
            "%(player)s discarded %(card)s",
            player=event.player,
            card=card_name(event.card, t, symbols),
        )
    if isinstance(event, ev.Play):
        card = card_name(event.card, t, symbols)
        if event.player:
            return gettext("%(player)s played %(card)s", player=event.player, card=card)
        return gettext("the next player played %(card)s", card=card)
    if isinstance(event, ev.Trick):
        cards = ", ".join(card_name(c, t, symbols) for c in event.cards)
        return gettext("trick led by %(player)s: %(cards)s", player=event.leader, cards=cards)
    if isinstance(event, ev.End):
        return gettext("the game ended after round %(round)s", round=event.round)
    if isinstance(event, ev.SEAT_CHANGES):
        return wording.seat_change_text(event, t)
    return event.type


def coming_changes(state: State) -> str | None:
    """Who joins, leaves or sits out before the round not begun yet, in one line (the sheet
    shows the rest above their rounds); None: nobody."""
    number = len(state.rounds) + 1
    said = seat_change_lines(state, number)
    return gettext("Before round %(n)s: %(said)s", n=number, said="; ".join(said)) if said else None


def seat_change_lines(state: State, number: int) -> list[str]:
    """The seat changes made before round ``number``, in sentences (the sheet)."""
    if state.seating is None:
        return []
    return wording.seat_change_lines(state.seating, number, translations())


@dataclass(frozen=True)
class Notes:
    """What a page lists under its own plain headings: breaches of the rules (with an intro that
    speaks of the breaches at hand), what the round under way still waits for (a secret bid to
    turn up: a step to come, not a breach), and warnings (legal, but can never be made)."""

    breaches: list[Breach]
    pending: list[Breach]
    warnings: list[Breach]
    intro: str | None


def ended_text(state: State) -> str | None:
    """Where the table ended the game early (docs/rules.md, "Ending early"); None: it did not."""
    if state.ended is None:
        return None
    return gettext("Ended after round %(n)s of %(of)s", n=state.ended, of=state.game.round_count)


def notes(state: State) -> Notes:
    """The notes of ``state`` as a page lists them (none that would tell a sealed bid)."""
    pending = {id(b) for b in state.provisional}
    breaches = [b for b in state.violations if id(b) not in pending]
    rules = {b.rule for b in breaches}
    if not breaches:
        intro = None
    elif rules == {"follow-suit"}:
        intro = gettext(
            "A revoke: the rules set no penalty, the table decides. Play on to keep the result "
            "(the breach stays on the record), or undo or correct the card below."
        )
    else:
        intro = ngettext(
            "An entry breaks a rule. The table decides what to do: play on to keep it (the "
            "breach stays on the record), or undo or correct the entry below.",
            "Entries break the rules. The table decides what to do: play on to keep them (the "
            "breaches stay on the record), or undo or correct the entries below.",
            len(breaches),
        )
    return Notes(
        breaches=breaches,
        pending=shown_notes(state, state.provisional),
        warnings=shown_notes(state, state.warnings),
        intro=intro,
    )
