"""ebbes on the web pages: its options on the new-table form."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from wtforms import BooleanField, Form, SelectField

from referee.rules.cards import EBBES_COLOURS, coloured_deck
from referee.web.forms import choices, default
from referee.web.screens import ScreensGame

VARIANT_LABELS = {
    "standard": lazy_gettext("Standard: a number card"),
    "placed-designators": lazy_gettext("Placed designators"),
}
TRUMP_FROM_LABELS = {
    "now": lazy_gettext("In the trick that fixes it"),
    "next-trick": lazy_gettext("From the next trick"),
}


class Options(Form):
    extended = BooleanField(lazy_gettext("Extended deck"), default=default("ebbes", "extended"))
    variant = SelectField(
        lazy_gettext("Colour roles"),
        choices=choices("ebbes", "variant", VARIANT_LABELS),
        default=default("ebbes", "variant"),
    )
    discard = BooleanField(lazy_gettext("Discard"), default=default("ebbes", "discard"))
    trump_from = SelectField(
        lazy_gettext("Trump counts"),
        choices=choices("ebbes", "trump_from", TRUMP_FROM_LABELS),
        default=default("ebbes", "trump_from"),
    )


class EbbesScreens(ScreensGame):
    trick_deck = coloured_deck(EBBES_COLOURS, 15)
    prefix = "ebbes"
    options_form = Options

    def read_options(self, form: Form) -> dict[str, Any] | None:
        return {
            "extended": bool(form["extended"].data),
            "variant": form["variant"].data,
            "discard": bool(form["discard"].data),
            "trump_from": form["trump_from"].data,
        }


PART = EbbesScreens()
