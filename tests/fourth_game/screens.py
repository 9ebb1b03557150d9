"""Plain Whist on the web pages: no options, no entries of its own (the trump, the cards or the
tricks won, as every game has them), a dealer and a trump in the round header, and the tricks
taken in each cell of the sheet."""

from __future__ import annotations

from flask_babel import lazy_gettext

from referee.rules import RoundState, State
from referee.rules.cards import blackout_deck
from referee.web.i18n import gettext
from referee.web.screens import Cell, ScreensGame, Value


class PlainWhistScreens(ScreensGame):
    prefix = "whist"
    has_bids = False
    trick_deck = blackout_deck(4, 13)
    trump_hint = lazy_gettext(
        "The dealer turns up the top card of the rest of the deck; tap its suit."
    )
    cell_note = lazy_gettext("Each cell: the tricks taken, then the running total.")

    def facts(self, state: State, rnd: RoundState) -> list[tuple[str, str]]:
        return [
            (gettext("Dealer"), rnd.dealer or "—"),
            (gettext("Leads"), rnd.leader or "—"),
            (gettext("Trump"), self.trump(state, rnd)),
        ]

    def entry_headings(self) -> list[str]:
        return [gettext("took")]

    def entry_values(self, cell: Cell) -> list[Value]:
        return [cell.tricks]


PART = PlainWhistScreens()
