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

from flask import Blueprint, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from wtforms import SelectField

from referee.rules import GAMES, Breach, OptionError, Setup, start
from referee.rules.names import quote
from referee.store.tables import create_table
from referee.web.errors import on_stale
from referee.web.forms import (
    SEATS,
    SelectChoice,
    WithGameOptions,
    add_error,
    note_option_error,
    render_form,
)
from referee.web.i18n import gettext
from referee.web.screens import first_game, screens
from referee.web.sharing.access import creator, may_create, open_new_table, too_many_tables
from referee.web.words import breach_text

bp = Blueprint("newtable", __name__)

#: The page of the form.
PAGE = "newtable/new.html"


class NewTableForm(WithGameOptions):
    """The new-table form."""

    first = SelectField(lazy_gettext("Deals first"), default="1")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first.choices = self.seat_choices()

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


def setup_from(form: NewTableForm) -> Setup | None:
    """The table the form describes if the rules allow it; else None with the errors noted."""
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
    setup = checked_setup(form, names, first)
    return None if form.first.errors else setup


def checked_setup(form: WithGameOptions, names: tuple[str, ...], first: str | None) -> Setup | None:
    """The table of the form's game and options with ``names`` in seat order, ``first``
    dealing (or leading) first, if the rules allow it (``referee.rules.start``); else None
    with the engine's sentence noted on the form. Every way to start a table goes through here
    (the new-table form, and a group's)."""
    game = form.game.data
    options = screens(game).read_options(form.options(game))
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
    return setup


def start_table(setup: Setup) -> str:
    """Create the table (counted toward this address's limit on new tables) and give this
    browser its scorekeeper link; its id. ``TooManyTables`` past the limit."""
    table_id = create_table(setup, creator())
    open_new_table(table_id)
    return table_id


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    if request.method == "GET":
        game = request.args.get("game")
        form = NewTableForm(game=game if game in GAMES else first_game())
        return render_form(PAGE, form)
    form = NewTableForm()
    move = request.form.get("move")
    if move is not None:
        form.move(move)
        return render_form(PAGE, form)
    if not form.validate():
        return render_form(PAGE, form, 422)
    setup = setup_from(form)
    if setup is None:
        return render_form(PAGE, form, 422)
    if not may_create():
        return render_form(PAGE, form, 429, notice=too_many_tables())
    table_id = start_table(setup)
    return redirect(url_for("round.show", table_id=table_id), 303)


@on_stale("newtable.new")
def stale(message: str) -> ResponseReturnValue:
    """A stale new-table form: shown again with everything typed kept and a fresh token."""
    form = NewTableForm()
    move = request.form.get("move")
    if move is not None:  # a move creates nothing, so it needs no token: just do it
        form.move(move)
        return render_form(PAGE, form)
    return render_form(PAGE, form, 400, notice=message)
