"""Blackout in a record: a round's ``bids`` are player → bid, a whole number."""

from __future__ import annotations

from typing import Any

from referee.record_parts import RecordGame, by_order, name_map
from referee.rules import RoundState, State
from referee.rules import events as ev
from referee.rules.blackout import BlackoutRound


class RecordBlackout(RecordGame):
    def bid_events(self, bids: object, number: int, field: str, order: list[str]) -> list[ev.Event]:
        read = name_map(bids, field, "int", len(order))
        return [ev.Bid(number, p, read[p]) for p in by_order(read, order)]

    def export_bids(self, state: State, rnd: RoundState) -> dict[str, Any]:
        assert isinstance(rnd, BlackoutRound)
        return dict(rnd.bids)


PART = RecordBlackout()
