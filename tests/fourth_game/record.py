"""Plain Whist in a record: a round of a game that deals and turns a trump, without bids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.records.parts import DEALT_ROUND, RecordGame
from referee.rules import RoundState, State


class RecordPlainWhist(RecordGame):
    round_schema: ClassVar[Mapping[str, Any]] = DEALT_ROUND

    def export_bids(self, state: State, rnd: RoundState) -> dict[str, Any]:
        return {}


PART = RecordPlainWhist()
