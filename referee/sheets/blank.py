"""Blank scorecards, as good as the pads in the box: to print, take to the table and fill in.

Blackout: the ladder of hand sizes (by the ``sequence`` and ``max_cards`` options), the rounds
without a trump marked, and a small "1" printed in every score box, so an exact bid is scored by
writing the bid after it. Alles oder Nichts: 6-5-4-3-4-5-6 with an "o  s" to circle for an open
or secret bid. ebbes: a strip per round to write in the number card and the colour of each role,
and a box per player for the cards won of each scoring colour. Names and the first dealer are
optional; given them, the card prints who deals (ebbes: starts) each round.

Whether the players and options are allowed is the rules engine's decision (``start``): a
``Breach`` or ``OptionError`` from ``blank_card`` says why not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.platypus import Spacer

from referee.rules import Game, Setup, start
from referee.rules.blackout import Blackout
from referee.rules.ebbes import Ebbes
from referee.sheets import common, fonts
from referee.sheets.grid import Cell, Column, Grid, Row
from referee.sheets.layout import Page, own

#: What the Blackout score box has printed in it: the 1 the bid is written after.
PREFIX = "1"

#: What an Alles oder Nichts bid box offers to circle: open or secret.
OPEN_OR_SECRET = "o   s"

PER_PLAYER: dict[str, list[Column]] = {
    "blackout": [Column("bid", 24), Column("score", 34, mark="prefix"), Column("total", 34)],
    "alles-oder-nichts": [
        Column("bid", 22),
        Column("o / s", 24, mark="tick"),
        Column("took", 22),
        Column("pts", 24),
        Column("total", 30),
    ],
    "ebbes": [
        Column("plus", 22),
        Column("ebbes", 25),
        Column("minus", 25),
        Column("nix", 20),
        Column("pts", 24),
        Column("total", 30),
    ],
}

#: Row heights in points: room for handwriting.
ROW_HEIGHT = 20.0
EBBES_ROW_HEIGHT = 24.0
NAME_HEIGHT = 30.0

#: A name nobody types at a table stands in for a seat left blank (never printed). It is still a
#: name the rules accept: they refuse private-use and other hidden characters in names.
_SEAT = "⸢seat {}⸣"

LEGENDS = {
    "blackout": (
        "Write each bid in “bid”. An exact bid scores the bid written after the printed 1 "
        "(bid 3 scores 13, bid 0 scores 10); black out the “score” box of a missed bid, "
        "it scores 0. Keep the running “total”. The dealer may not make the bids add up to "
        "the number of cards (the hook), unless the table plays without it."
    ),
    "alles-oder-nichts": (
        "Circle “o” for an open bid or “s” for a secret one; write a secret bid in "
        "once the round is over. Secret: 1 per trick, +3 if exact. Open: 2 per trick +3 if "
        "exact, else 0."
    ),
    "ebbes": (
        "Write in the number card, then the colour of each role as its cards fall: the 1st "
        "card of the number is trump, the 2nd plus, the 3rd ebbes, the 4th minus; the fifth "
        "colour is nix. Count each player's cards won of plus (+1 each), ebbes (+3 to each "
        "player with neither the most nor the fewest), minus (-1 each) and nix (the most "
        "chooses who starts the next round)."
    ),
}


@dataclass(frozen=True)
class BlankCard:
    """What a blank card is for: the game, how many play, and what to fill in beforehand.

    ``names`` by seat ('' or none: written in by hand); ``first`` the seat (from 1) that deals
    (ebbes: starts) round 1, or None to leave the dealers blank; ``options`` the game's options.
    """

    game: str
    players: int
    names: Sequence[str] = ()
    first: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def seat_names(self) -> tuple[str, ...]:
        """The name of every seat as printed: '' for a seat left blank."""
        given = [name.strip() for name in self.names]
        if len(given) > self.players and any(given[self.players :]):
            raise ValueError(f"{len(given)} names for a card of {self.players} players")
        given = given[: self.players]
        return tuple(given) + ("",) * (self.players - len(given))

    def setup(self) -> Setup:
        """The card as a table setup (a blank seat gets a stand-in name) for the rules to check."""
        names = tuple(name or _SEAT.format(seat) for seat, name in enumerate(self.seat_names(), 1))
        if self.first is not None and not 1 <= self.first <= self.players:
            raise ValueError(f"seat {self.first} is not at a table of {self.players}")
        first = names[self.first - 1] if self.first is not None else None
        return Setup(self.game, names, dict(self.options), first)


@fonts.fitted
def blank_card(card: BlankCard, page: Page | None = None) -> bytes:
    """The blank scorecard as PDF bytes (``Breach``/``OptionError``/``ValueError`` if the rules
    or the card do not allow it)."""
    page = page or Page()
    game = start(card.setup()).game
    names = card.seat_names()
    rows = [blank_row(game, card, number) for number in range(1, game.round_count + 1)]
    per_player = PER_PLAYER[card.game]
    dealers = [who(card, game, n) for n in range(1, game.round_count + 1)]
    lead = common.lead_columns(card.game, dealers)
    grid = Grid(
        lead=lead,
        per_player=per_player,
        names=names,
        captions=[f"seat {seat}" for seat in range(1, card.players + 1)],
        rows=rows,
        foot=["Total"] + [""] * (len(lead) - 1 + len(per_player) * card.players),
        row_height=EBBES_ROW_HEIGHT if isinstance(game, Ebbes) else ROW_HEIGHT,
        name_height=None if all(names) else NAME_HEIGHT,
        fill=True,
    )
    title = f"{game.title} — scorecard"
    lines = [
        f"{card.players} players · {game.round_count} rounds · {ladder(game)}",
        "Date: ______________________    Place: ______________________",
    ]
    head = common.heading(title, lines)
    notes = [Spacer(0, 4), own(LEGENDS[card.game], 8), *common.glyph_note(names)]
    return common.pdf(grid, page, title, head, notes, game.title, game.options)


def who(card: BlankCard, game: Game, number: int) -> str:
    """Who deals round ``number`` (ebbes: starts round 1 only), as printed; '' if not known."""
    if card.first is None or (isinstance(game, Ebbes) and number > 1):
        return ""
    first = card.first - 1
    seat = first if isinstance(game, Ebbes) else (first + number - 1) % card.players
    return card.seat_names()[seat] or f"seat {seat + 1}"


def blank_row(game: Game, card: BlankCard, number: int) -> Row:
    """Round ``number``'s row: what is known beforehand filled in, room for the rest."""
    group: list[Cell]
    if isinstance(game, Ebbes):
        strip = [(role, "") for role in ("number", "trump", "plus", "ebbes", "minus", "nix")]
        strip.append(("starts", who(card, game, number)))
        return Row([str(number)] + [""] * (6 * card.players), strip)
    if isinstance(game, Blackout):
        trump = "no trump" if game.whole_deck(number) else ""
        group = ["", PREFIX, ""]
    else:
        trump = ""
        group = ["", OPEN_OR_SECRET, "", "", ""]
    lead: list[Cell] = [
        str(number),
        str(game.schedule[number - 1]),
        common.dealer_text(who(card, game, number)),
        trump,
    ]
    return Row(lead + group * card.players)


def ladder(game: Game) -> str:
    """The hand sizes in words: ``1 up to 13 and back down to 1 card``, ``6-5-4-3-4-5-6``."""
    sizes = game.schedule
    if isinstance(game, Blackout):
        top = game.options["max_cards"]
        return {
            "up-down": f"1 up to {top} and back down to 1 card",
            "up-down-double": f"1 up to {top}, {top} twice, back down to 1 card",
            "down-up": f"{top} down to 1 and back up to {top} cards",
            "up": f"1 up to {top} cards",
            "down": f"{top} down to 1 card",
        }[game.options["sequence"]]
    if len(set(sizes)) == 1:
        return f"{sizes[0]} cards each"
    return "-".join(str(s) for s in sizes) + " cards"
