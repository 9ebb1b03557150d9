"""ebbes on the web pages: its options on the new-table form, its round screens (who starts, the
number card or the placed designators, the colours as they get their roles, the cards won), the
roles in the round header and on the sheet, and the discards recorded card by card."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext
from wtforms import BooleanField, Form, SelectField

from referee.rules import RoundState, State, Step
from referee.rules.cards import EBBES_COLOURS, coloured_deck
from referee.rules.ebbes import EbbesRound
from referee.web.forms import choices, default
from referee.web.screens import Cell, ScreensGame
from referee.web.words import colour_label

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


#: The roles the designating cards give, in order; the fifth colour is nix.
ROLES = ("trump", "plus", "ebbes", "minus")
ORDINALS = ("1st", "2nd", "3rd", "4th")


class EbbesScreens(ScreensGame):
    own_steps = frozenset({"starter", "number", "designators", "play"})
    has_bids = False
    who_heading = lazy_gettext("Starts")
    trump_heading = lazy_gettext("Roles")
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

    def trump(self, state: State, rnd: RoundState) -> str:
        assert isinstance(rnd, EbbesRound)
        trump = rnd.role_map()["trump"]
        return colour_label(trump) if trump else gettext("not fixed yet")

    def facts(self, state: State, rnd: RoundState) -> list[tuple[str, str]]:
        assert isinstance(rnd, EbbesRound)
        facts = [
            (gettext("Leads"), rnd.leader or gettext("chosen by the nix majority")),
            (gettext("Number card"), "—" if rnd.number_card is None else str(rnd.number_card)),
        ]
        facts += [(role, colour or "—") for role, colour in rnd.role_map().items()]
        return facts

    def step_text(self, step: Step) -> str | None:
        if step.action == "play":
            return gettext(
                "Play the round: tap each colour as it gets its role, then count the cards won"
            )
        return None

    def settled(self, before: RoundState, after: RoundState) -> list[str]:
        """A colour's role fixed by a designating card; nix with the fourth."""
        assert isinstance(before, EbbesRound) and isinstance(after, EbbesRound)
        said = []
        for index in range(len(before.derived), len(after.derived)):
            said.append(
                gettext(
                    "%(colour)s is %(role)s (the %(nth)s designating card).",
                    colour=after.derived[index],
                    role=gettext(ROLES[index]),
                    nth=ORDINALS[index],
                )
            )
            if index == 3:
                said.append(gettext("%(colour)s is nix.", colour=after.role_map()["nix"]))
        return said

    def discarder(self, state: State, rnd: RoundState) -> str | None:
        assert isinstance(rnd, EbbesRound)
        if not state.game.options.get("discard") or rnd.plays:
            return None
        return next((p for p in state.setup.players if p not in rnd.discards), None)

    def who(self, rnd: RoundState) -> str | None:
        """Who started the round (ebbes has no dealer on the sheet)."""
        return rnd.leader

    def sheet_trump(self, rnd: RoundState) -> str:
        return ""

    def roles(self, rnd: RoundState) -> dict[str, str | None]:
        assert isinstance(rnd, EbbesRound)
        return rnd.role_map()

    def fill_cell(self, state: State, rnd: RoundState, player: str, cell: Cell) -> None:
        """Only the score: the cards won are counted on the round screen."""


PART = EbbesScreens()
