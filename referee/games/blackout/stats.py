"""Blackout in the group statistics: each round's bid, tricks taken and whether the player
dealt; the bid keys (``referee.groups.facts.BID_KEYS``) and the dealer's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.groups.facts import (
    BID_EXPLANATIONS,
    BID_HEADINGS,
    BID_KEYS,
    BID_LABELS,
    StatsGame,
    Value,
    bid_counts,
)
from referee.rules import RoundState, Score, State
from referee.rules.blackout import BlackoutRound
from referee.rules.marks import N_


class StatsBlackout(StatsGame):
    keys: ClassVar[tuple[str, ...]] = (*BID_KEYS, "dealer_rounds", "dealer_made")
    headings: ClassVar[Mapping[str, str]] = {
        **BID_HEADINGS,
        "dealer_rounds": N_("Dealt"),
        "dealer_made": N_("Dealt, made"),
    }
    labels: ClassVar[Mapping[str, str]] = {
        **BID_LABELS,
        "dealer_rounds": N_("Rounds dealt"),
        "dealer_made": N_("Dealt and made"),
    }
    explanations: ClassVar[Mapping[str, str]] = {
        **BID_EXPLANATIONS,
        "dealer_rounds": N_("Rounds %(name)s dealt (the dealer bids last)."),
        "dealer_made": N_("Of the rounds %(name)s dealt, those where their bid was made."),
    }

    def round_values(
        self, state: State, rnd: RoundState, scores: Mapping[str, Score]
    ) -> dict[str, dict[str, Value]]:
        assert isinstance(rnd, BlackoutRound)
        tricks = rnd.tricks_won() or {}
        return {
            p: {"bid": rnd.bids[p], "tricks": tricks[p], "dealer": p == rnd.dealer}
            for p in rnd.seats
        }

    def counts(self, values: Mapping[str, Value]) -> dict[str, int]:
        counts = bid_counts(values["bid"], values["tricks"])
        dealer = 1 if values["dealer"] else 0
        counts["dealer_rounds"] = dealer
        counts["dealer_made"] = dealer * counts["bids_made"]
        return counts


PART = StatsBlackout()
