"""Alles oder Nichts in the group statistics: each round's bid, tricks taken and whether it was
declared open; the bid keys (``referee.groups.facts.BID_KEYS``) and the open and secret ones. A
round is read once it is complete, every secret bid turned up: never a sealed bid."""

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
from referee.rules.alles import AllesRound
from referee.rules.marks import N_


class StatsAlles(StatsGame):
    keys: ClassVar[tuple[str, ...]] = (
        *BID_KEYS,
        "open_declared",
        "open_made",
        "secret_declared",
        "secret_made",
    )
    headings: ClassVar[Mapping[str, str]] = {
        **BID_HEADINGS,
        "open_declared": N_("Open"),
        "open_made": N_("Open, made"),
        "secret_declared": N_("Secret"),
        "secret_made": N_("Secret, made"),
    }
    labels: ClassVar[Mapping[str, str]] = {
        **BID_LABELS,
        "open_declared": N_("Declared open"),
        "open_made": N_("Open and made"),
        "secret_declared": N_("Declared secret"),
        "secret_made": N_("Secret and made"),
    }
    explanations: ClassVar[Mapping[str, str]] = {
        **BID_EXPLANATIONS,
        "open_declared": N_("Rounds where %(name)s declared their bid open."),
        "open_made": N_("Of the rounds declared open, those where %(name)s made their bid."),
        "secret_declared": N_("Rounds where %(name)s sealed their bid secret."),
        "secret_made": N_("Of the rounds declared secret, those where %(name)s made their bid."),
    }

    def round_values(
        self, state: State, rnd: RoundState, scores: Mapping[str, Score]
    ) -> dict[str, dict[str, Value]]:
        assert isinstance(rnd, AllesRound)
        tricks = rnd.tricks_won() or {}
        return {
            p: {"bid": rnd.bids[p], "tricks": tricks[p], "open": rnd.open[p]} for p in rnd.seats
        }

    def counts(self, values: Mapping[str, Value]) -> dict[str, int]:
        counts = bid_counts(values["bid"], values["tricks"])
        made, shown = counts["bids_made"], 1 if values["open"] else 0
        counts["open_declared"] = shown
        counts["open_made"] = shown * made
        counts["secret_declared"] = 1 - shown
        counts["secret_made"] = (1 - shown) * made
        return counts


PART = StatsAlles()
