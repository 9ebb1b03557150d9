"""Blackout in a record: a round's ``bids`` are player → bid, a whole number."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.records.parts import RecordGame, by_order, name_map
from referee.rules import RoundState, State
from referee.rules import events as ev
from referee.rules.blackout import Blackout, BlackoutRound


class RecordBlackout(RecordGame):
    option_schema: ClassVar[Mapping[str, Any]] = {
        "sequence": {"enum": list(Blackout.option_choices["sequence"])},
        "max_cards": {"type": "integer", "minimum": 1, "maximum": 52},
        "hook": {"type": "boolean"},
        "scoring": {"enum": list(Blackout.option_choices["scoring"])},
    }

    def bid_events(self, bids: object, number: int, field: str, order: list[str]) -> list[ev.Event]:
        read = name_map(bids, field, "int", len(order))
        return [ev.Bid(number, p, read[p]) for p in by_order(read, order)]

    def export_bids(self, state: State, rnd: RoundState) -> dict[str, Any]:
        assert isinstance(rnd, BlackoutRound)
        return dict(rnd.bids)


PART = RecordBlackout()
