"""Alles oder Nichts on the web pages: its options on the new-table form (the colours and the
values per colour of the deck)."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext, lazy_gettext
from wtforms import Form, StringField

from referee.rules.cards import ALLES_COLOURS, coloured_deck
from referee.web.forms import whole_number
from referee.web.screens import ScreensGame


class Options(Form):
    colours = StringField(lazy_gettext("Colours"), default=", ".join(ALLES_COLOURS))
    values = StringField(lazy_gettext("Values per colour"), default=str(48 // len(ALLES_COLOURS)))


class AllesScreens(ScreensGame):
    trick_deck = coloured_deck(ALLES_COLOURS, 12)
    prefix = "alles"
    options_form = Options

    def read_options(self, form: Form) -> dict[str, Any] | None:
        colours = [c.strip() for c in re.split(r"[,;]", form["colours"].data or "")]
        values = whole_number(form["values"], gettext("Values per colour must be a whole number."))
        if form["values"].errors:
            return None
        options: dict[str, Any] = {"colours": [c for c in colours if c]}
        if values is not None:
            options["values"] = values
        return options


PART = AllesScreens()
