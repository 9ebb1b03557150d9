"""Alles oder Nichts on the web pages: its options on the new-table form (the colours and the
values per colour of the deck), its open and secret declarations on the round screen, the
sheet and its spreadsheet (a secret bid hidden until the round is over), and player links to
seal a bid."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from flask_babel import lazy_gettext
from wtforms import Form, StringField

from referee.records import OPTION_TEXT
from referee.rules import RoundState, State
from referee.rules import events as ev
from referee.rules.alles import HIGHEST_BID, AllesRound
from referee.rules.cards import ALLES_COLOURS, coloured_deck
from referee.rules.names import name_fault, quote, same_name_key
from referee.web.forms import add_error, whole_number
from referee.web.i18n import gettext
from referee.web.round import entries
from referee.web.screens import BidLine, Bids, Builder, Cell, ScreensGame, Value
from referee.web.words import hidden_name_text


class Options(Form):
    colours = StringField(lazy_gettext("Colours"), default=", ".join(ALLES_COLOURS))
    values = StringField(lazy_gettext("Values per colour"), default=str(48 // len(ALLES_COLOURS)))


def declare(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = entries.seat(state, form)
    choice = form.get("choice", "")
    if choice == "secret":  # the bid is turned up and entered after the round
        return ev.Declare(number, player, False, None)
    for prefix, shown in (("open-", True), ("sealed-", False)):  # sealed: secret, bid given now
        if choice.startswith(prefix):
            bid = entries.whole_number(
                {"b": choice[len(prefix) :]}, "b", lazy_gettext("%(p)s's bid", p=player)
            )
            return ev.Declare(number, player, shown, bid)
    raise entries.EntryError(gettext("Choose open with a bid, or secret."))


def reveal(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = entries.seat(state, form)
    label = lazy_gettext("%(p)s's secret bid", p=player)
    return ev.Reveal(number, player, entries.whole_number(form, "bid", label))


class AllesScreens(ScreensGame):
    own_steps = frozenset({"declare", "reveal"})
    builders: ClassVar[Mapping[str, Builder]] = {"declare": declare, "reveal": reveal}
    player_links = True
    bid_choices = range(HIGHEST_BID + 1)
    trump_hint = lazy_gettext(
        "The dealer turns up the top card of the rest of the deck; tap its colour."
    )
    trick_deck = coloured_deck(ALLES_COLOURS, 12)
    prefix = "alles"
    cell_note = lazy_gettext(
        "Each cell: the bid (o: open, s: secret) · tricks, the round's score, then the running "
        "total."
    )
    options_form = Options

    def read_options(self, form: Form) -> dict[str, Any] | None:
        colours = [c.strip() for c in re.split(r"[,;]", form["colours"].data or "")]
        values = whole_number(form["values"], gettext("Values per colour must be a whole number."))
        keys: set[str] = set()
        for colour in filter(None, colours):
            fault = name_fault(colour, OPTION_TEXT)
            if fault == "long-name":
                message = gettext(
                    "A colour's name is at most %(n)d characters, not “%(name)s”.",
                    n=OPTION_TEXT,
                    name=quote(colour),
                )
            elif fault is not None:  # a character that does not show, or nothing that shows
                message = hidden_name_text(colour)
            elif same_name_key(colour) in keys:
                message = gettext(
                    "“%(name)s” is the name of another colour: each colour needs a name of "
                    "its own.",
                    name=quote(colour),
                )
            else:
                keys.add(same_name_key(colour))
                continue
            add_error(form["colours"], message)
            break
        if form["values"].errors or form["colours"].errors:
            return None
        options: dict[str, Any] = {"colours": [c for c in colours if c]}
        if values is not None:
            options["values"] = values
        return options

    def bids(self, state: State, rnd: RoundState) -> Bids | None:
        assert isinstance(rnd, AllesRound)
        if not rnd.open:
            return None
        over = state.game.results_in(rnd)
        lines = []
        for player, shown in rnd.open.items():
            mark = gettext("open") if shown else gettext("secret")
            if not shown and not over:
                lines.append(BidLine(player, None, mark))  # hidden until the round is over
            else:
                lines.append(BidLine(player, rnd.bids.get(player, "?"), mark))
        # Added up: the bids shown, open ones and, once the round is over, the secret ones
        # (a sealed bid counts only then: nothing here depends on it before).
        known = [rnd.bids[p] for p, open_ in rnd.open.items() if (open_ or over) and p in rnd.bids]
        return Bids(
            lines,
            total=sum(known),
            still=len(rnd.seats) - len(rnd.open),
            hidden=len(rnd.open) - len(known),
        )

    def fill_cell(self, state: State, rnd: RoundState, player: str, cell: Cell) -> None:
        assert isinstance(rnd, AllesRound)
        super().fill_cell(state, rnd, player, cell)
        cell.open = rnd.open.get(player)
        hidden = cell.open is False and not state.game.results_in(rnd)
        cell.bid = None if hidden else rnd.bids.get(player)

    def entry_headings(self) -> list[str]:
        """The bid, whether it was declared open or secret, and the tricks taken."""
        return [gettext("Bid"), gettext("Open or secret"), gettext("Tricks won")]

    def entry_values(self, cell: Cell) -> list[Value]:
        shown = None if cell.open is None else gettext("open") if cell.open else gettext("secret")
        return [cell.bid, shown, cell.tricks]


PART = AllesScreens()
