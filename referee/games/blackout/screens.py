"""Blackout on the web pages: its options on the new-table and scorecard forms."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext
from wtforms import BooleanField, Form, SelectField, StringField

from referee.rules.cards import blackout_deck
from referee.web.forms import choices, default, whole_number
from referee.web.screens import ScreensGame

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


class Options(Form):
    sequence = SelectField(
        lazy_gettext("Hand sizes"),
        choices=choices("blackout", "sequence", SEQUENCE_LABELS),
        default=default("blackout", "sequence"),
    )
    max_cards = StringField(lazy_gettext("Most cards in a hand"))
    hook = BooleanField(lazy_gettext("Hook"), default=default("blackout", "hook"))
    scoring = SelectField(
        lazy_gettext("Scoring"),
        choices=choices("blackout", "scoring", SCORING_LABELS),
        default=default("blackout", "scoring"),
    )


class BlackoutScreens(ScreensGame):
    trick_deck = blackout_deck(4, 13)
    prefix = "blackout"
    options_form = Options
    card_options = ("sequence", "max_cards")

    def read_options(self, form: Form) -> dict[str, Any] | None:
        options: dict[str, Any] = {
            name: form[name].data for name in ("sequence", "hook", "scoring") if name in form
        }
        if "hook" in options:
            options["hook"] = bool(options["hook"])
        max_cards = whole_number(
            form["max_cards"],
            gettext("Most cards in a hand must be a whole number, or blank for the most."),
        )
        if form["max_cards"].errors:
            return None
        if max_cards is not None:
            options["max_cards"] = max_cards
        return options


PART = BlackoutScreens()
