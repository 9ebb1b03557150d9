"""Blank scorecards to print: the form (game, players, names, first dealer, paper) and the PDF.

The scorecard page is a Flask-WTF form; whether its players and options are allowed is the rules
engine's decision, so its sentence is what the page shows. The PDF is made by
``referee.sheets.blank_card``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import Field, RadioField, SelectChoice, SelectField, StringField

from referee.rules import GAMES, Breach, OptionError, start
from referee.sheets import BlankCard, Page, blank_card
from referee.web.downloads import ORIENTATION_LABELS, PAPER_LABELS, attachment, safe_file_name
from referee.web.errors import breach_text, on_stale
from referee.web.newtable import GAME_ORDER, SEQUENCE_LABELS, choices, game_label, whole_number

bp = Blueprint("scorecards", __name__)

#: Name rows on the form; no game seats more (Blackout: 8).
SEATS = 8


class ScorecardForm(FlaskForm):
    """The blank scorecard form; the name rows ``player_1`` … ``player_8`` are added below."""

    game = RadioField(lazy_gettext("Game"), default="blackout")
    players = SelectField(
        lazy_gettext("Players"),
        choices=[str(n) for n in range(2, SEATS + 1)],
        default="4",
    )
    first = SelectField(lazy_gettext("Deals first"), default="")
    blackout_sequence = SelectField(
        lazy_gettext("Hand sizes"),
        choices=choices("blackout", "sequence", SEQUENCE_LABELS),
        default=GAMES["blackout"].option_choices["sequence"][0],
    )
    blackout_max_cards = StringField(lazy_gettext("Most cards in a hand"))
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(name, game_label(name)) for name in GAME_ORDER]
        self.first.choices = [SelectChoice("", gettext("Leave the dealers blank"))] + [
            SelectChoice(str(n), gettext("Seat %(seat)d", seat=n)) for n in range(1, SEATS + 1)
        ]

    def seat(self, number: int) -> Field:
        """The name row of seat ``number`` (1 … SEATS)."""
        return self[f"player_{number}"]


for _seat in range(1, SEATS + 1):
    setattr(
        ScorecardForm,
        f"player_{_seat}",
        StringField(lazy_gettext("Seat %(seat)d", seat=_seat)),
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
            form.seat(n).errors.append(
                gettext(
                    "Seat %(seat)d has a name, but the card is for %(count)d players.",
                    seat=n,
                    count=count,
                )
            )
    first = int(form.first.data) if form.first.data else None
    if first is not None and first > count:
        form.first.errors.append(
            gettext("There is no seat %(seat)d at a table of %(count)d.", seat=first, count=count)
        )
    options: dict[str, Any] = {}
    if game == "blackout":
        options["sequence"] = form.blackout_sequence.data
        max_cards = whole_number(
            form.blackout_max_cards,
            gettext("Most cards in a hand must be a whole number, or blank for the most."),
        )
        if max_cards is not None:
            options["max_cards"] = max_cards
    if any(field.errors for field in form):
        return None
    card = BlankCard(game, count, tuple(names[:count]), first, options)
    try:
        start(card.setup())
    except Breach as breach:
        form.form_errors.append(breach_text(breach))
        return None
    except OptionError as error:
        name = f"blackout_{error.option}"
        (form[name].errors if name in form else form.form_errors).append(str(error))
        return None
    except ValueError as error:
        form.form_errors.append(str(error))
        return None
    return card


def render_form(form: ScorecardForm, status: int = 200, notice: str | None = None) -> Any:
    errors = list(form.form_errors)
    for field in form:
        if field.errors and isinstance(field.errors, list):
            errors += [f"{field.label.text}: {error}" for error in field.errors]
    return (
        render_template(
            "scorecards/form.html",
            form=form,
            seats=range(1, SEATS + 1),
            errors=errors,
            notice=notice,
        ),
        status,
    )


@bp.route("/scorecards", methods=["GET", "POST"])
def page() -> ResponseReturnValue:
    """The scorecard page; a valid POST downloads the card."""
    if request.method == "GET":
        game = request.args.get("game")
        return render_form(ScorecardForm(game=game if game in GAMES else "blackout"))
    form = ScorecardForm()
    if not form.validate():
        return render_form(form, 422)
    card = card_from(form)
    if card is None:
        return render_form(form, 422)
    body = blank_card(card, Page(form.paper.data, form.orientation.data))
    name = safe_file_name(card.game, str(card.players), "players", "scorecard.pdf")
    return attachment(body, "application/pdf", name)


@on_stale("scorecards.page")
def stale(message: str) -> ResponseReturnValue:
    """A stale scorecard form: shown again with everything chosen kept and a fresh token."""
    return render_form(ScorecardForm(), 400, notice=message)
