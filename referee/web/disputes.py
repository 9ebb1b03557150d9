"""Settling disputes: the rules in plain words, and "who wins this trick?".

The rules pages have an anchor per rule id of ``record-format.md``, so every breach on a table
links to the rule it cites. The trick tool asks the engine's shared ``trick_winner``; nothing
here decides a rule itself.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from referee.parts import ORDER
from referee.rules import GAMES
from referee.rules.cards import Card
from referee.rules.tricks import trick_winner
from referee.web.screens import game_titles, screens
from referee.web.words import WHY, card_text, colour_label

bp = Blueprint("disputes", __name__)

MAX_CARDS = 8


@bp.get("/rules/<game>")
def rules(game: str) -> str:
    """A game's rules for players, one section (and anchor) per rule the referee checks."""
    if game not in GAMES:
        abort(404)
    return render_template(screens(game).rules_template(game), title=GAMES[game].title, game=game)


@bp.get("/tools/trick")
def trick() -> tuple[str, int]:
    """Who wins this trick: the game, the trump, the cards in the order played."""
    game = request.args.get("game", ORDER[0])
    if game not in GAMES:
        game = ORDER[0]
    deck = screens(game).trick_deck
    texts = [request.args.get(f"card{i}", "").strip()[:20] for i in range(1, MAX_CARDS + 1)]
    trump_text = request.args.get("trump", "")
    answer = error = None
    if any(texts):
        trump = deck.parse_colour(trump_text) if trump_text else None
        cards: list[Card] = []
        for i, text in enumerate(t for t in texts if t):
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
                    "%(card)s is in the trick twice: every card exists once.",
                    card=card_text(str(card)),
                )
                break
            cards.append(card)
        if error is None and len(cards) < 2:
            error = _("Enter at least two cards: the led card first.")
        if error is None:
            index, why = trick_winner(cards, trump)
            answer = _(
                "Card %(n)s, %(card)s, wins: %(why)s.",
                n=index + 1,
                card=card_text(str(cards[index])),
                why=_(WHY[why]),
            )
    return render_template(
        "disputes/trick.html",
        games=dict(game_titles()),
        game=game,
        deck=deck,
        texts=texts,
        trump=trump_text,
        answer=answer,
        error=error,
        colour_label=colour_label,
    ), (422 if error else 200)
