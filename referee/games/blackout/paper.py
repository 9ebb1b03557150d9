"""Blackout's readable card: the defaults (a tick box per suit, bids from 0 to the hand)."""

from __future__ import annotations

from referee.paper.parts import PaperGame


class PaperBlackout(PaperGame):
    pass


PART = PaperBlackout()
