"""Blackout on the web pages: its options on the new-table and scorecard forms, its bid step
(the bids allowed, and why the others are not) and the bid it posts, its bids on the round
screen (with their total against the tricks), and a missed bid blacked out on the sheet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from flask_babel import lazy_gettext
from wtforms import BooleanField, Form, SelectField, StringField

from referee.rules import RoundState, State, Step
from referee.rules import events as ev
from referee.rules.blackout import Blackout, BlackoutRound
from referee.rules.cards import blackout_deck
from referee.web.forms import choices, default, whole_number
from referee.web.i18n import gettext
from referee.web.round import entries
from referee.web.screens import BidLine, Bids, Builder, Cell, ScreensGame
from referee.web.words import breach_text

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


@dataclass
class BidStep:
    """Its bid step: each bid the player may make now, with the reason a refused one is refused
    (None: allowed)."""

    choices: list[tuple[int, str | None]]


def bid(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = entries.seat(state, form)
    label = lazy_gettext("%(p)s's bid", p=player)
    return ev.Bid(number, player, entries.whole_number(form, "bid", label))


class BlackoutScreens(ScreensGame):
    own_steps = frozenset({"bid"})
    builders: ClassVar[Mapping[str, Builder]] = {"bid": bid}
    trump_hint = lazy_gettext(
        "The dealer turns up the top card of the rest of the deck; tap its suit."
    )
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

    def trump(self, state: State, rnd: RoundState) -> str:
        game = state.game
        if rnd.trump_colour is None and isinstance(game, Blackout) and game.whole_deck(rnd.number):
            return gettext("no trump")
        return super().trump(state, rnd)

    def bids(self, state: State, rnd: RoundState) -> Bids | None:
        assert isinstance(rnd, BlackoutRound)
        if not rnd.bids:
            return None
        lines = [BidLine(player, bid) for player, bid in rnd.bids.items()]
        still = len(rnd.seats) - len(rnd.bids)
        return Bids(lines, total=sum(rnd.bids.values()), still=still)

    def fill_cell(self, state: State, rnd: RoundState, player: str, cell: Cell) -> None:
        assert isinstance(rnd, BlackoutRound)
        super().fill_cell(state, rnd, player, cell)
        cell.bid = rnd.bids.get(player)
        cell.blacked = (
            cell.score is not None
            and cell.bid is not None
            and cell.tricks is not None
            and cell.bid != cell.tricks
        )

    def step_view(self, state: State, rnd: RoundState, step: Step) -> BidStep:
        game = state.game
        assert isinstance(game, Blackout) and step.action == "bid" and step.player is not None
        return BidStep(
            [
                (bid, None if breach is None else breach_text(breach))
                for bid, breach in game.allowed_bids(state, step.player)
            ]
        )


PART = BlackoutScreens()
