"""Alles oder Nichts' readable card: a tick box per colour of the table's deck, bids 0–6
whatever the hand, and "o" or "s" to tick for an open or a secret bid."""

from __future__ import annotations

from typing import Any

from referee.paper.parts import PaperGame
from referee.rules import Game
from referee.rules.alles import HIGHEST_BID


class PaperAlles(PaperGame):
    declares = True

    def trump_codes(self, game: Game[Any]) -> tuple[str, ...]:
        return tuple(game.options["colours"])

    def bid_high(self, game: Game[Any], hand: int) -> int:
        return HIGHEST_BID


PART = PaperAlles()
