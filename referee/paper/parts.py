"""What a game adds to its readable card: the base class of each game's ``paper.py``.

The readable card is the same for every game that deals and turns a trump and takes bids: a
row per round with a tick box per trump, then per player the digits of the bid and of the
tricks won. A game says what differs by subclassing ``PaperGame`` in
``referee/games/<package>/paper.py`` (``PART``); a game without that module has no readable
card (ebbes: ``docs/paper.md`` says why).
"""

from __future__ import annotations

from typing import Any

from referee.parts import part
from referee.rules import GAMES, Game
from referee.rules.cards import SUITS


class PaperGame:
    """One game's part of the readable card (the defaults: four suits, bids within the hand)."""

    #: Whether each player ticks "o" (open) or "s" (secret) beside the bid.
    declares = False

    def trump_codes(self, game: Game[Any]) -> tuple[str, ...]:
        """The trumps a round may have, as the engine's codes, in the card's order."""
        return tuple(reversed(SUITS))  # S H D C

    def bid_high(self, game: Game[Any], hand: int) -> int:
        """The highest bid in a round of ``hand`` cards."""
        return hand


def paper(game: str) -> PaperGame | None:
    """The paper part of ``game`` (by its record name), or None when it has no readable card."""
    try:
        return part(game, "paper", PaperGame)
    except ModuleNotFoundError as missing:
        if missing.name != f"{GAMES.entry(game).parts}.paper":
            raise  # the game's part is there, and something it imports is not
        return None
