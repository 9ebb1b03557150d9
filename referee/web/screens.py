"""What a game adds to the web pages: the base class of each game's ``screens.py``.

The pages are shared: the new-table form, the blank scorecard form, the round screen, the score
sheet, the rules pages and the trick tool. A game says what is its own by subclassing
``ScreensGame`` in ``referee/games/<package>/screens.py`` (``PART``): its options on the forms (a
WTForms form and a fieldset template, ``templates/games/<package>/options.html``), the facts of
its round header, its cells on the score sheet and its columns on the sheet's spreadsheet (CSV),
the round screens of its own entries (``templates/games/<package>/steps/<action>.html``) with
what each shows (``step_view``: the templates only read it), what its entries settle in words,
and its rules page. The defaults here are those of the games that deal and turn a trump.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask_babel import lazy_gettext
from wtforms import Form

from referee.parts import package, part
from referee.rules import GAMES, Deck, RoundState, Score, State, Step
from referee.rules import events as ev
from referee.web.i18n import gettext as _
from referee.web.words import card_label, colour_label, colour_short

#: What a cell of the score sheet's spreadsheets (CSV, .xlsx) holds: a number, text, or nothing.
Value = int | str | None

#: What reads a posted entry form: the table's state, the round number and the form's fields
#: give the entry, or an ``EntryError`` (``referee.web.round.entries``) saying what is wrong.
Builder = Callable[[State, int, Mapping[str, str]], ev.Event]


@dataclass
class BidLine:
    """One bid of the round as the round screen lists it: the number (None: not shown) and a
    mark ("open", "secret")."""

    player: str
    bid: int | str | None
    mark: str | None = None


@dataclass
class Bids:
    """The round's bids so far, and for a game whose bids add up against the tricks, the total
    of those shown, how many players are still to bid and how many bids are made but not shown
    (secret until the round is over): the round screen's bid line, "Bids add up to 3 of 5 tricks
    · 1 player still to bid"."""

    lines: list[BidLine]
    total: int | None = None
    still: int = 0
    hidden: int = 0


@dataclass
class Cell:
    """One player's cell in one round of the score sheet: their entries, the score and how it
    was made."""

    bid: int | None = None
    open: bool | None = None
    tricks: int | None = None
    score: int | None = None
    blacked: bool = False
    explain: str = ""
    #: The score's parts in short, for the round's summary ("" where the sentence of bid and
    #: tricks says it all).
    parts: str = ""
    #: Not dealt in the round: "out" (sat it out) or "away" (not at the table: not yet joined,
    #: or gone); "" when dealt in.
    away: str = ""


@dataclass
class SheetRow:
    """One round of the sheet: its number, tricks, who dealt (or started), its trump (or the
    colours' roles), each player's cell, the running totals, and whether it is scored."""

    number: int
    hand_size: int
    who: str | None
    trump: str
    cells: dict[str, Cell]
    running: dict[str, int]
    complete: bool
    roles: dict[str, str | None] = field(default_factory=dict)
    #: Who joined, left or sat out before the round, in sentences (docs/rules.md).
    seat_changes: list[str] = field(default_factory=list)


class ScreensGame:
    """One game's part of the web pages."""

    #: The prefix of its option fields on the forms (``blackout`` → ``blackout_sequence``).
    prefix = ""
    #: Its options on the new-table form (field names without the prefix).
    options_form: type[Form] = Form
    #: The options the blank scorecard asks for too (they change what the card prints).
    card_options: tuple[str, ...] = ()
    #: The deck the trick tool reads this game's cards against (the largest it can have).
    trick_deck: Deck

    #: Whether its players bid (the sheet shows bid · tricks in each cell).
    has_bids = True
    #: Whether a player link lets a player seal their own bid (the share page offers them).
    player_links = False
    #: The actions whose round screens are its own (``templates/games/<package>/steps/``).
    own_steps: frozenset[str] = frozenset()
    #: What reads the form of each entry only it has, by the action that posts it (the trump,
    #: the tricks won and a card played: ``referee.web.round.entries.BUILDERS``).
    builders: ClassVar[Mapping[str, Builder]] = {}
    #: The numbers a player may declare (a game whose bids are tapped from a fixed row).
    bid_choices: Sequence[int] = ()
    #: How the trump step says which card to tap.
    trump_hint = ""
    #: The score sheet's headings of the columns before the players: who, and the trump.
    who_heading = lazy_gettext("Deals")
    trump_heading = lazy_gettext("Trump")
    #: What each cell of the score sheet holds, in a sentence.
    cell_note = lazy_gettext("Each cell: bid · tricks, the round's score, then the running total.")
    #: What the marked corner of a cell on the score sheet says: who the ``who`` column names.
    who_note = lazy_gettext("A marked corner shows who dealt.")

    def read_options(self, form: Form) -> dict[str, Any] | None:
        """The options posted in ``form`` (an ``options_form``), or None after noting a field
        error on it. Only what the page must parse (a number, a list) is checked here; whether
        a value is allowed is the engine's call."""
        return {name: field.data for name, field in form._fields.items()}

    def options_template(self, game: str) -> str | None:
        """The template of its options fieldset (None: it has no options)."""
        if self.options_form is Form:
            return None
        return f"games/{package(game)}/options.html"

    def rules_template(self, game: str) -> str:
        """The template of its rules page (an anchor per rule id the referee checks)."""
        return f"games/{package(game)}/rules.html"

    # --- the round screen -------------------------------------------------------------------

    def trump(self, state: State, rnd: RoundState) -> str:
        """The round's trump in words."""
        if rnd.trump_colour is None:
            return _("to be turned up")
        trump = colour_label(rnd.trump_colour)
        if rnd.trump_card is not None:
            trump += f" ({card_label(rnd.trump_card)})"
        return trump

    def facts(self, state: State, rnd: RoundState) -> list[tuple[str, str]]:
        """The round header's facts after the hand size: (label, value)."""
        facts = []
        if rnd.dealer:
            facts += [(_("Dealer"), rnd.dealer), (_("Bids first"), rnd.leader or "—")]
        facts += [(_("Leads"), rnd.leader or "—"), (_("Trump"), self.trump(state, rnd))]
        return facts

    def step_template(self, game: str, action: str) -> str:
        """The template of the round screen for ``action``: the game's own or the shared one."""
        if action in self.own_steps:
            return f"games/{package(game)}/steps/{action}.html"
        return f"round/steps/{action}.html"

    def step_view(self, state: State, rnd: RoundState, step: Step) -> object | None:
        """What the round screen of its own ``step`` shows beyond the round, the step and the
        players: a dataclass of that step, read by its template (None: nothing more)."""
        return None

    def step_text(self, step: Step, cards: bool = False) -> str | None:
        """What the table enters next in words, where the game says it its own way (``cards``:
        the round is entered card by card)."""
        return None

    def bids(self, state: State, rnd: RoundState) -> Bids | None:
        """The round's bids so far, or None where the game has none (yet)."""
        return None

    def settled(self, before: RoundState, after: RoundState) -> list[str]:
        """What an entry settled beyond a trick's winner, in words."""
        return []

    def discarder(self, state: State, rnd: RoundState) -> str | None:
        """Who still has to lay a card aside before the first trick (None: nobody)."""
        return None

    # --- the score sheet --------------------------------------------------------------------

    def who(self, rnd: RoundState) -> str | None:
        """Who the sheet names for a round: its dealer."""
        return rnd.dealer

    def sheet_trump(self, rnd: RoundState) -> str:
        """The round's trump in a narrow cell: its symbol."""
        return colour_short(rnd.trump_colour)

    def roles(self, rnd: RoundState) -> dict[str, str | None]:
        """The colour roles of a round, for a game that gives colours roles."""
        return {}

    def fill_cell(self, state: State, rnd: RoundState, player: str, cell: Cell) -> None:
        """A player's entries in the round on the sheet, after its score is in: the tricks won
        (each game adds its bids)."""
        tricks = rnd.tricks_won()
        cell.tricks = None if tricks is None else tricks.get(player)

    def score_parts(self, score: Score) -> str:
        """A score's parts in short, as the round's summary gives them after the player's name
        ("" for none: the summary says bid, tricks and points)."""
        return ""

    # --- the spreadsheet of the score sheet (CSV) -------------------------------------------

    def round_headings(self) -> list[str]:
        """The headings of the spreadsheet's columns of a round after its number, hand size and
        who deals: the trump."""
        return [str(self.trump_heading)]

    def round_values(self, row: SheetRow) -> list[Value]:
        """A row's values under ``round_headings``."""
        return [row.trump]

    def entry_headings(self) -> list[str]:
        """The headings of a player's columns of entries, before their score and running
        total: the bid and the tricks taken, in whole words."""
        return [_("Bid"), _("Tricks won")]

    def entry_values(self, cell: Cell) -> list[Value]:
        """A player's cell under ``entry_headings`` (what the sheet page shows of it, so a
        sealed bid is not there before its round is over)."""
        return [cell.bid, cell.tricks]


def first_game() -> str:
    """The game the pages offer first (``referee.rules.registry``)."""
    return next(iter(GAMES))


def game_titles() -> list[tuple[str, str]]:
    """Every game's record name and title, in the order the pages offer them."""
    return [(name, game.title) for name, game in GAMES.items()]


def screens(game: str) -> ScreensGame:
    """The web part of ``game`` (by its record name)."""
    return part(game, "screens", ScreensGame)
