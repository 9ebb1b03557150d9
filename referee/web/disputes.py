"""Settling disputes: the rules in plain words, and "who wins this trick?".

The rules pages have an anchor per rule id of ``docs/record-format.md``, so every breach on a table
links to the rule it cites. The trick tool asks the engine's shared ``trick_winner``; nothing
here decides a rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, render_template, request

from referee.rules import GAMES
from referee.rules.cards import Card
from referee.rules.tricks import trick_winner
from referee.web.i18n import gettext as _
from referee.web.language import language
from referee.web.round.looks import colour_chips, colour_class, picker_rows
from referee.web.screens import first_game, game_titles, screens
from referee.web.words import WHY, card_label

bp = Blueprint("disputes", __name__)

#: The most cards a trick can have (Blackout seats 8).
MAX_CARDS = 8

#: The language the rule ids (``follow-suit``, ``hook``) are written in, as the records and the
#: command line have them.
IDS_LANGUAGE = "en"


def rule_ids_shown() -> bool:
    """Whether a page shows rule ids as text (the templates' ``rule_ids_shown``): only in the
    language they are written in. A page in another language shows each rule by its heading
    in that language and keeps the id as the section's anchor, so links to it still work."""
    return language() == IDS_LANGUAGE


@bp.get("/rules/<game>")
def rules(game: str) -> str:
    """A game's rules for players, one section (and anchor) per rule the referee checks."""
    if game not in GAMES:
        abort(404)
    return render_template(screens(game).rules_template(game), title=GAMES[game].title, game=game)


@dataclass
class TrickCard:
    """A card of the trick so far: its name and style."""

    name: str
    css: str


@bp.get("/tools/trick")
def trick() -> tuple[str, int]:
    """Who wins this trick: the game, its trump, the cards in the order played, tapped on the
    card picker one by one (each tap a GET of the page with the cards so far, so it works
    without JavaScript). The cards also read as typed codes (``card1=QH``): a link to a trick."""
    game = request.args.get("game", "")
    if game not in GAMES:
        game = first_game()
    deck = screens(game).trick_deck
    texts = [t for t in (request.args.get(f"card{i}", "").strip()[:20] for i in range(1, 9)) if t]
    added = request.args.get("card", "").strip()[:20]  # a card tapped on the picker
    if added and len(texts) < MAX_CARDS:
        texts.append(added)
    if request.args.get("back") and texts:
        texts.pop()
    trump_text = request.args.get("trump", "")
    trump = deck.parse_colour(trump_text) if trump_text else None
    answer = error = None
    cards: list[Card] = []
    for i, text in enumerate(texts):
        card = deck.parse_card(text)
        if card is None or card not in deck:
            error = _(
                "Card %(n)s, “%(text)s”, is not a card of %(game)s.",
                n=i + 1,
                text=text,
                game=GAMES[game].title,
            )
            break
        if card in cards:
            error = _(
                "%(card)s is in the trick twice: every card exists once.", card=card_label(card)
            )
            break
        cards.append(card)
    asked = "card" not in request.args and "back" not in request.args  # "Who wins?" tapped
    if error is None and len(cards) < 2 and texts and asked:
        error = _("Enter at least two cards: the led card first.")
    if error is None and len(cards) >= 2:
        index, why = trick_winner(cards, trump)
        answer = _(
            "Card %(n)s, %(card)s, wins: %(why)s.",
            n=index + 1,
            card=card_label(cards[index]),
            why=_(WHY[why]),
        )
    return render_template(
        "disputes/trick.html",
        games=game_titles(),
        game=game,
        trumps=colour_chips(deck.colours),
        trump=trump,
        cards=[str(card) for card in cards],
        trick=[TrickCard(card_label(card), colour_class(card.colour)) for card in cards],
        card_rows=[] if len(cards) >= MAX_CARDS else picker_rows(deck, deck.cards - set(cards)),
        answer=answer,
        error=error,
    ), (422 if error else 200)
