"""Starting a table: pick the game, seat the players, choose who deals first, set the options.

One Flask-WTF form, usable without JavaScript: every game's options are on the page in their own
fieldset and only the chosen game's are read; the seats are reordered with "move up"/"move down"
submit buttons that show the form again with the names swapped (nothing is created). Whether the
players and options are allowed is the rules engine's decision (``referee.rules.start``), so its
sentence is what the page shows.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, RadioField, SelectChoice, SelectField, StringField

from referee.records import OPTION_TEXT
from referee.rules import GAMES, Breach, OptionError, Setup, start
from referee.rules.cards import ALLES_COLOURS
from referee.rules.names import LONGEST_NAME, quote
from referee.store.tables import create_table
from referee.web.access import creator, may_create, open_new_table, too_many_tables
from referee.web.errors import breach_text, on_stale

bp = Blueprint("newtable", __name__)

#: Name rows on the form; blank rows are ignored. No game seats more (Blackout: 8).
SEATS = 8

#: The games in the order the page offers them.
GAME_ORDER = ("blackout", "alles-oder-nichts", "ebbes")

#: Form field name prefix of each game's options.
PREFIX = {"blackout": "blackout", "alles-oder-nichts": "alles", "ebbes": "ebbes"}

SEQUENCE_LABELS = {
    "up-down": lazy_gettext("Up and down: 1…most…1"),
    "up-down-double": lazy_gettext("Up and down, most twice"),
    "down-up": lazy_gettext("Down and up: most…1…most"),
    "up": lazy_gettext("Up only: 1…most"),
    "down": lazy_gettext("Down only: most…1"),
}
SCORING_LABELS = {
    "prefix-one": lazy_gettext("1 in front: 3 → 13, 10 → 110"),
    "ten-plus-bid": lazy_gettext("10 + bid: 3 → 13, 10 → 20"),
}
VARIANT_LABELS = {
    "standard": lazy_gettext("Standard: a number card"),
    "placed-designators": lazy_gettext("Placed designators"),
}
TRUMP_FROM_LABELS = {
    "now": lazy_gettext("In the trick that fixes it"),
    "next-trick": lazy_gettext("From the next trick"),
}


def choices(game: str, option: str, labels: dict[str, Any]) -> list[SelectChoice]:
    """The engine's allowed values of an option (default first), with the page's labels."""
    return [
        SelectChoice(value, labels.get(value, value))
        for value in GAMES[game].option_choices[option]
    ]


def default(game: str, option: str) -> Any:
    """The engine's default of an option: the first of its allowed values."""
    return GAMES[game].option_choices[option][0]


def game_label(name: str) -> str:
    game = GAMES[name]
    return gettext(
        "%(game)s · %(low)d–%(high)d players",
        game=game.title,
        low=game.min_players,
        high=game.max_players,
    )


class NewTableForm(FlaskForm):
    """The new-table form; the name rows ``player_1`` … ``player_8`` are added below."""

    game = RadioField(lazy_gettext("Game"), default="blackout")
    first = SelectField(lazy_gettext("Deals first"), default="1")

    blackout_sequence = SelectField(
        lazy_gettext("Hand sizes"),
        choices=choices("blackout", "sequence", SEQUENCE_LABELS),
        default=default("blackout", "sequence"),
    )
    blackout_max_cards = StringField(lazy_gettext("Most cards in a hand"))
    blackout_hook = BooleanField(lazy_gettext("Hook"), default=default("blackout", "hook"))
    blackout_scoring = SelectField(
        lazy_gettext("Scoring"),
        choices=choices("blackout", "scoring", SCORING_LABELS),
        default=default("blackout", "scoring"),
    )
    alles_colours = StringField(lazy_gettext("Colours"), default=", ".join(ALLES_COLOURS))
    alles_values = StringField(
        lazy_gettext("Values per colour"), default=str(48 // len(ALLES_COLOURS))
    )
    ebbes_extended = BooleanField(
        lazy_gettext("Extended deck"), default=default("ebbes", "extended")
    )
    ebbes_variant = SelectField(
        lazy_gettext("Colour roles"),
        choices=choices("ebbes", "variant", VARIANT_LABELS),
        default=default("ebbes", "variant"),
    )
    ebbes_discard = BooleanField(lazy_gettext("Discard"), default=default("ebbes", "discard"))
    ebbes_trump_from = SelectField(
        lazy_gettext("Trump counts"),
        choices=choices("ebbes", "trump_from", TRUMP_FROM_LABELS),
        default=default("ebbes", "trump_from"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(name, game_label(name)) for name in GAME_ORDER]
        self.first.choices = self.seat_choices()

    def seat(self, number: int) -> Field:
        """The name row of seat ``number`` (1 … SEATS)."""
        return self[f"player_{number}"]

    def names_by_row(self) -> list[str]:
        """Each row's name with surrounding spaces removed ('' for a blank row)."""
        return [(self.seat(n).data or "").strip() for n in range(1, SEATS + 1)]

    def seat_choices(self) -> list[SelectChoice]:
        names = self.names_by_row()
        return [
            SelectChoice(
                str(n),
                gettext("Seat %(seat)d: %(name)s", seat=n, name=quote(name))
                if name
                else gettext("Seat %(seat)d", seat=n),
            )
            for n, name in enumerate(names, start=1)
        ]

    def move(self, command: str) -> None:
        """Swap a row with its neighbour: ``up-3`` swaps seats 3 and 2, ``down-3`` 3 and 4.

        The first-dealer choice follows the name it points at. Anything else does nothing.
        """
        found = re.fullmatch(r"(up|down)-([1-9])", command)
        if not found:
            return
        row = int(found.group(2))
        other = row - 1 if found.group(1) == "up" else row + 1
        if not (1 <= row <= SEATS and 1 <= other <= SEATS):
            return
        a, b = self.seat(row), self.seat(other)
        a.data, b.data = b.data, a.data
        a.raw_data, b.raw_data = b.raw_data, a.raw_data
        if self.first.data == str(row):
            self.first.data = str(other)
        elif self.first.data == str(other):
            self.first.data = str(row)
        self.first.choices = self.seat_choices()


for _seat in range(1, SEATS + 1):
    setattr(
        NewTableForm,
        f"player_{_seat}",
        StringField(
            lazy_gettext("Seat %(seat)d", seat=_seat), render_kw={"maxlength": LONGEST_NAME}
        ),
    )


def whole_number(field: Field, message: str) -> int | None:
    """The field's whole number, None when blank; ``message`` on the field when it is not one."""
    text = (field.data or "").strip()
    if not text:
        return None
    if re.fullmatch(r"[+-]?\d{1,6}", text):
        return int(text)
    field.errors.append(message)
    return None


def read_options(form: NewTableForm, game: str) -> dict[str, Any] | None:
    """The chosen game's options from its fieldset, or None after noting a field error.

    Only what the page must parse (a number, a list) is checked here; whether a value is
    allowed is left to the engine.
    """
    if game == "blackout":
        options: dict[str, Any] = {
            "sequence": form.blackout_sequence.data,
            "hook": bool(form.blackout_hook.data),
            "scoring": form.blackout_scoring.data,
        }
        max_cards = whole_number(
            form.blackout_max_cards,
            gettext("Most cards in a hand must be a whole number, or blank for the most."),
        )
        if form.blackout_max_cards.errors:
            return None
        if max_cards is not None:
            options["max_cards"] = max_cards
        return options
    if game == "alles-oder-nichts":
        colours = [c.strip() for c in re.split(r"[,;]", form.alles_colours.data or "")]
        values = whole_number(
            form.alles_values, gettext("Values per colour must be a whole number.")
        )
        for colour in colours:
            if len(colour) > OPTION_TEXT:
                form.alles_colours.errors.append(
                    gettext(
                        "A colour's name is at most %(n)d characters, not “%(name)s”.",
                        n=OPTION_TEXT,
                        name=quote(colour),
                    )
                )
                break
        if form.alles_values.errors or form.alles_colours.errors:
            return None
        options = {"colours": [c for c in colours if c]}
        if values is not None:
            options["values"] = values
        return options
    return {
        "extended": bool(form.ebbes_extended.data),
        "variant": form.ebbes_variant.data,
        "discard": bool(form.ebbes_discard.data),
        "trump_from": form.ebbes_trump_from.data,
    }


def setup_from(form: NewTableForm) -> Setup | None:
    """The table the form describes if the rules allow it; else None with the errors noted."""
    game = form.game.data
    options = read_options(form, game)
    rows = form.names_by_row()
    names = tuple(name for name in rows if name)
    first_row = int(form.first.data)
    first = rows[first_row - 1] or None
    if first is None and names:
        form.first.errors.append(
            gettext("Seat %(seat)d has no name: choose a seat with a player in it.", seat=first_row)
        )
    if options is None:
        return None
    setup = Setup(game, names, options, first)
    try:
        start(setup)
    except Breach as breach:
        form.form_errors.append(breach_text(breach))
        return None
    except OptionError as error:
        name = f"{PREFIX[game]}_{error.option}"
        (form[name].errors if name in form else form.form_errors).append(str(error))
        return None
    return None if form.first.errors else setup


def render_form(form: NewTableForm, status: int = 200, notice: str | None = None) -> Any:
    errors = list(form.form_errors)
    for field in form:
        if field.errors and isinstance(field.errors, list):
            errors += [f"{field.label.text}: {error}" for error in field.errors]
    return (
        render_template(
            "newtable/new.html",
            form=form,
            seats=range(1, SEATS + 1),
            games=[(name, GAMES[name].title) for name in GAME_ORDER],
            errors=errors,
            notice=notice,
        ),
        status,
    )


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    if request.method == "GET":
        game = request.args.get("game")
        form = NewTableForm(game=game if game in GAMES else "blackout")
        return render_form(form)
    form = NewTableForm()
    move = request.form.get("move")
    if move is not None:
        form.move(move)
        return render_form(form)
    if not form.validate():
        return render_form(form, 422)
    setup = setup_from(form)
    if setup is None:
        return render_form(form, 422)
    if not may_create():
        return render_form(form, 429, notice=too_many_tables())
    table_id = create_table(setup, creator())
    open_new_table(table_id)
    return redirect(url_for("tables.show", table_id=table_id), 303)


@on_stale("newtable.new")
def stale(message: str) -> ResponseReturnValue:
    """A stale new-table form: shown again with everything typed kept and a fresh token."""
    form = NewTableForm()
    move = request.form.get("move")
    if move is not None:  # a move creates nothing, so it needs no token: just do it
        form.move(move)
        return render_form(form)
    return render_form(form, 400, notice=message)
