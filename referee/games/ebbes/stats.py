"""ebbes in the group statistics: each round's points from the plus and the minus colour (as
its score's terms give them), whether the player earned the ebbes bonus, and whether they were
in the nix majority (ties included; a round without a nix colour has none)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.groups.facts import StatsGame, Value
from referee.rules import RoundState, Score, State
from referee.rules.ebbes import Ebbes, EbbesRound
from referee.rules.marks import N_


class StatsEbbes(StatsGame):
    keys: ClassVar[tuple[str, ...]] = ("plus_points", "minus_points", "ebbes_bonus", "nix_majority")
    headings: ClassVar[Mapping[str, str]] = {
        "plus_points": N_("Plus"),
        "minus_points": N_("Minus"),
        "ebbes_bonus": N_("Bonus"),
        "nix_majority": N_("Nix most"),
    }
    labels: ClassVar[Mapping[str, str]] = {
        "plus_points": N_("Plus points"),
        "minus_points": N_("Minus points"),
        "ebbes_bonus": N_("Ebbes bonus"),
        "nix_majority": N_("In the nix majority"),
    }
    explanations: ClassVar[Mapping[str, str]] = {
        "plus_points": N_("Points %(name)s scored from the plus colour."),
        "minus_points": N_("Points %(name)s lost to the minus colour (a negative number)."),
        "ebbes_bonus": N_(
            "Rounds where %(name)s earned the ebbes bonus: neither the most nor the fewest "
            "cards of the ebbes colour."
        ),
        "nix_majority": N_(
            "Rounds where %(name)s took the most cards of the nix colour (ties included)."
        ),
    }

    def round_values(
        self, state: State, rnd: RoundState, scores: Mapping[str, Score]
    ) -> dict[str, dict[str, Value]]:
        assert isinstance(rnd, EbbesRound) and isinstance(state.game, Ebbes)
        majority = state.game.nix_majority(state, rnd) or []
        out: dict[str, dict[str, Value]] = {}
        for p in rnd.seats:
            terms = scores[p].terms
            out[p] = {
                "plus_points": sum(t.points for t in terms if t.code == "plus"),
                "minus_points": sum(t.points for t in terms if t.code == "minus"),
                "ebbes_bonus": any(t.code == "ebbes-middle" for t in terms),
                "nix_majority": p in majority,
            }
        return out

    def counts(self, values: Mapping[str, Value]) -> dict[str, int]:
        return {key: int(values[key]) for key in self.keys}


PART = StatsEbbes()
