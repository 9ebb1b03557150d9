"""What a game adds to the printed sheets: the base class of each game's ``printed.py``.

The score sheet (``referee.sheets.score``) and the blank scorecard (``referee.sheets.blank``)
lay out the same grid for every game: a few lead columns per round, then a group of columns per
player ending in the running total. A game says what goes in them by subclassing
``PrintedGame`` in ``referee/games/<package>/printed.py`` (``PART``); the defaults here are those
of the games that deal and turn a trump (round, cards, dealer, trump).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from reportlab.platypus import Flowable

from referee.parts import part
from referee.rules import Game, RoundState, State
from referee.rules.marks import N_
from referee.sheets import common
from referee.sheets.grid import Cell, Column, Row
from referee.sheets.words import _, ngettext

if TYPE_CHECKING:
    from referee.sheets.card import BlankCard


class PrintedGame:
    """One game's part of the printed sheets (the defaults: a game that deals and turns a
    trump)."""

    #: The player's columns on a table's score sheet, the running total last.
    score_columns: Sequence[Column] = ()
    #: The player's columns on a blank scorecard, the running total last.
    blank_columns: Sequence[Column] = ()
    #: How the blank card says how to fill it in (marked for the catalog, printed translated).
    blank_legend = ""
    #: How the readable card (``referee.sheets.readable``) says how to fill it in.
    readable_legend = ""
    #: Who begins round 1 (marked for the catalog, printed translated).
    first_line = N_("Deals round 1: %(player)s")
    #: The game's option names and values, marked for the catalog: the footer prints them
    #: translated (in English, as the record has them).
    option_words: ClassVar[tuple[str, ...]] = ()
    #: A blank card's row height in points: room for handwriting.
    blank_row_height = 20.0

    def lead_columns(self, names: Sequence[str]) -> list[Column]:
        """The columns left of the players (``names``: the dealers as printed, for the width)."""
        return [
            Column(N_("Rd"), 20, meaning=N_("Round")),
            Column(N_("Cards"), 26),
            Column(N_("Dealer"), common.dealer_width(names)),
            Column(N_("Trump"), 46),
        ]

    def round_lead(self, state: State, rnd: RoundState) -> tuple[list[Cell], list[tuple[str, str]]]:
        """A played round's lead cells after its number, and the strip above its row (none)."""
        return [str(rnd.hand_size), common.dealer_text(rnd.dealer), self.trump_text(state, rnd)], []

    def trump_text(self, state: State, rnd: RoundState) -> str:
        """The round's trump as a word."""
        return common.colour_word(rnd.trump_colour)

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        """A player's cells in one played round, before the running total."""
        raise NotImplementedError

    def legend(self, state: State) -> list[Flowable]:
        """How to read the score sheet's cells."""
        raise NotImplementedError

    def dealer(self, card: BlankCard, game: Game[Any], number: int) -> str:
        """Who deals round ``number`` on a blank card, as printed; '' if not known."""
        if card.first is None:
            return ""
        seat = (card.first - 1 + number - 1) % card.players
        return card.seat_names()[seat] or _("seat %(n)s", n=seat + 1)

    def blank_row(self, card: BlankCard, game: Game[Any], number: int) -> Row:
        """Round ``number``'s row on a blank card: what is known beforehand, room for the rest."""
        lead: list[Cell] = [
            str(number),
            str(game.schedule[number - 1]),
            common.dealer_text(self.dealer(card, game, number)),
            self.blank_trump(game, number),
        ]
        return Row(lead + self.blank_group() * card.players)

    def blank_trump(self, game: Game[Any], number: int) -> str:
        """What a blank card prints in a round's trump box before the game."""
        return ""

    def blank_group(self) -> list[Cell]:
        """A player's cells in a round of a blank card, as printed beforehand."""
        return [""] * len(self.blank_columns)

    def ladder(self, game: Game[Any]) -> str:
        """The hand sizes in words: ``6-5-4-3-4-5-6 cards``, ``8 cards each``."""
        sizes = game.schedule
        if len(set(sizes)) == 1:
            return ngettext("%(num)s card each", "%(num)s cards each", sizes[0])
        return _("%(sizes)s cards", sizes="-".join(str(s) for s in sizes))


def printed(game: str) -> PrintedGame:
    """The printed part of ``game`` (by its record name)."""
    return part(game, "printed", PrintedGame)


def tricks_taken(rnd: RoundState, player: str) -> str:
    """A player's tricks in the round as printed ('' while not known)."""
    tricks: Mapping[str, int] | None = rnd.tricks_won()
    return "" if tricks is None or player not in tricks else str(tricks[player])
