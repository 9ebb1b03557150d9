"""Blank scorecards to print: the form (game, players, names, first dealer, paper) and the PDF.

The scorecard page is a Flask-WTF form; whether its players and options are allowed is the rules
engine's decision, so its sentence is what the page shows. The PDF is made by
``referee.sheets.blank_card``; ticked "readable", the card the app reads back from a photo
(``referee.sheets.readable``, A4; ``docs/paper.md``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from wtforms import BooleanField, RadioField, SelectField

from referee.paper.layout import has_card
from referee.rules import GAMES, Breach, OptionError, start
from referee.sheets import BlankCard, Page, blank_card
from referee.sheets.readable import readable_card
from referee.web.downloads import ORIENTATION_LABELS, PAPER_LABELS, attachment, safe_file_name
from referee.web.errors import on_stale
from referee.web.forms import (
    SEATS,
    SelectChoice,
    WithGameOptions,
    add_error,
    note_option_error,
    render_form,
)
from referee.web.i18n import gettext, translations
from referee.web.screens import first_game, screens
from referee.web.words import breach_text

bp = Blueprint("scorecards", __name__)

#: The page of the form.
PAGE = "scorecards/form.html"


class ScorecardForm(WithGameOptions):
    """The blank scorecard form."""

    players = SelectField(
        lazy_gettext("Players"),
        choices=[SelectChoice(str(n), str(n)) for n in range(2, SEATS + 1)],
        default="4",
    )
    first = SelectField(lazy_gettext("Deals first"), default="")
    paper = RadioField(
        lazy_gettext("Paper"),
        choices=[SelectChoice(key, label) for key, label in PAPER_LABELS.items()],
        default="a4",
    )
    orientation = SelectField(
        lazy_gettext("Orientation"),
        choices=[SelectChoice(key, label) for key, label in ORIENTATION_LABELS.items()],
        default="auto",
    )
    readable = BooleanField(lazy_gettext("A card the app can read back from a photo"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first.choices = [SelectChoice("", gettext("Leave the dealers blank"))] + [
            SelectChoice(str(n), gettext("Seat %(seat)d", seat=n)) for n in range(1, SEATS + 1)
        ]

    def players_hint(self) -> str:
        """How many play each game."""
        return "; ".join(
            gettext(
                "%(game)s: %(low)d–%(high)d players",
                game=game.title,
                low=game.min_players,
                high=game.max_players,
            )
            for game in GAMES.values()
        )


def card_from(form: ScorecardForm) -> BlankCard | None:
    """The card the form asks for, or None with the reasons noted on the form.

    Only what the page must parse is checked here (names beyond the player count, the first
    dealer's seat, max cards as a number); the rest is the rules engine's to refuse.
    """
    game = form.game.data
    count = int(form.players.data)
    names = [(form.seat(n).data or "").strip() for n in range(1, SEATS + 1)]
    for n in range(count + 1, SEATS + 1):
        if names[n - 1]:
            add_error(
                form.seat(n),
                gettext(
                    "Seat %(seat)d has a name, but the card is for %(count)d players.",
                    seat=n,
                    count=count,
                ),
            )
    first = int(form.first.data) if form.first.data else None
    if first is not None and first > count:
        add_error(
            form.first,
            gettext("There is no seat %(seat)d at a table of %(count)d.", seat=first, count=count),
        )
    part = screens(game)
    read = part.read_options(form.options(game))
    options = {k: v for k, v in (read or {}).items() if k in part.card_options}
    if read is None or any(field.errors for field in form):
        return None
    card = BlankCard(game, count, tuple(names[:count]), first, options)
    try:
        start(card.setup())
    except Breach as breach:
        form.form_errors.append(breach_text(breach))
        return None
    except OptionError as error:
        note_option_error(form, game, error)
        return None
    except ValueError as error:
        form.form_errors.append(str(error))
        return None
    return card


@bp.route("/scorecards", methods=["GET", "POST"])
def page() -> ResponseReturnValue:
    """The scorecard page; a valid POST downloads the card."""
    if request.method == "GET":
        game = request.args.get("game")
        return render_form(PAGE, ScorecardForm(game=game if game in GAMES else first_game()))
    form = ScorecardForm()
    if not form.validate():
        return render_form(PAGE, form, 422)
    card = card_from(form)
    if card is None:
        return render_form(PAGE, form, 422)
    if form.readable.data:
        if not has_card(card.game, card.players, card.options):
            form.readable.errors = [
                gettext(
                    "This game or size has no card the app can read back: only games with a "
                    "trump and bids have one, for as many rounds as one page holds."
                )
            ]
            return render_form(PAGE, form, 422)
        body = readable_card(card, words=translations())
        name = safe_file_name(card.game, str(card.players), "players", "paper-card.pdf")
        return attachment(body, "application/pdf", name)
    body = blank_card(card, Page(form.paper.data, form.orientation.data), words=translations())
    name = safe_file_name(card.game, str(card.players), "players", "scorecard.pdf")
    return attachment(body, "application/pdf", name)


@on_stale("scorecards.page")
def stale(message: str) -> ResponseReturnValue:
    """A stale scorecard form: shown again with everything chosen kept and a fresh token."""
    return render_form(PAGE, ScorecardForm(), 400, notice=message)
