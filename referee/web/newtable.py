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
from wtforms import Field, RadioField, SelectField, StringField

from referee.parts import ORDER
from referee.rules import GAMES, Breach, OptionError, Setup, start
from referee.rules.names import LONGEST_NAME, quote
from referee.store.tables import create_table
from referee.web.errors import on_stale
from referee.web.forms import (
    SelectChoice,
    WithGameOptions,
    add_error,
    every_error,
    game_label,
    note_option_error,
)
from referee.web.screens import screens
from referee.web.sharing.access import creator, may_create, open_new_table, too_many_tables
from referee.web.words import breach_text

bp = Blueprint("newtable", __name__)

#: Name rows on the form; blank rows are ignored. No game seats more (Blackout: 8).
SEATS = 8


class NewTableForm(WithGameOptions):
    """The new-table form; the name rows ``player_1`` … ``player_8`` are added below."""

    game = RadioField(lazy_gettext("Game"), default=ORDER[0])
    first = SelectField(lazy_gettext("Deals first"), default="1")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(name, game_label(name)) for name in ORDER]
        self.first.choices = self.seat_choices()

    def seat(self, number: int) -> Field:
        """The name row of seat ``number`` (1 … SEATS)."""
        return self[f"player_{number}"]

    def names_by_row(self) -> list[str]:
        """Each row's name with surrounding spaces removed ('' for a blank row)."""
        return [(self.seat(n).data or "").strip() for n in range(1, SEATS + 1)]

    def seat_choices(self) -> list[tuple[str, str]]:
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


def setup_from(form: NewTableForm) -> Setup | None:
    """The table the form describes if the rules allow it; else None with the errors noted."""
    game = form.game.data
    options = screens(game).read_options(form.options(game))
    rows = form.names_by_row()
    names = tuple(name for name in rows if name)
    first_row = int(form.first.data)
    first = rows[first_row - 1] or None
    if first is None and names:
        add_error(
            form.first,
            gettext(
                "Seat %(seat)d has no name: choose a seat with a player in it.", seat=first_row
            ),
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
        note_option_error(form, game, error)
        return None
    return None if form.first.errors else setup


def render_form(
    form: NewTableForm, status: int = 200, notice: str | None = None
) -> tuple[str, int]:
    errors = every_error(form)
    return (
        render_template(
            "newtable/new.html",
            form=form,
            seats=range(1, SEATS + 1),
            games=[(name, GAMES[name].title, screens(name)) for name in ORDER],
            errors=errors,
            notice=notice,
        ),
        status,
    )


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    if request.method == "GET":
        game = request.args.get("game")
        form = NewTableForm(game=game if game in GAMES else ORDER[0])
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
    return redirect(url_for("round.show", table_id=table_id), 303)


@on_stale("newtable.new")
def stale(message: str) -> ResponseReturnValue:
    """A stale new-table form: shown again with everything typed kept and a fresh token."""
    form = NewTableForm()
    move = request.form.get("move")
    if move is not None:  # a move creates nothing, so it needs no token: just do it
        form.move(move)
        return render_form(form)
    return render_form(form, 400, notice=message)
