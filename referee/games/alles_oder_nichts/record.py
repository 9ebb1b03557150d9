"""Alles oder Nichts in a record: a round's ``bids`` are player → ``{"bid": 0-6, "open": true
or false}``; a secret bid not yet turned up is ``{"open": false}`` without ``bid``, and is
written so while the round is not over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.records import OPTION_TEXT
from referee.records.parts import (
    DEALT_ROUND,
    RecordError,
    RecordGame,
    by_order,
    is_int,
    name_map,
    subfield,
)
from referee.rules import RoundState, State
from referee.rules import events as ev
from referee.rules.alles import AllesRound


class RecordAlles(RecordGame):
    round_schema: ClassVar[Mapping[str, Any]] = {
        **DEALT_ROUND,
        "trump": {"type": ["string", "null"], "description": "a card (red-7) or a colour (red)"},
        "bids": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["open"],
                "properties": {"bid": {"type": "integer"}, "open": {"type": "boolean"}},
                "additionalProperties": False,
                "description": "an open bid always has its bid; a secret one not yet turned up "
                "may lack it",
            },
        },
    }
    option_schema: ClassVar[Mapping[str, Any]] = {
        "colours": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "string", "pattern": "^[^-]+$", "maxLength": OPTION_TEXT},
        },
        "values": {"type": "integer", "minimum": 1},
    }

    def bid_events(self, bids: object, number: int, field: str, order: list[str]) -> list[ev.Event]:
        read = name_map(bids, field, "any", len(order))
        out: list[ev.Event] = []
        for p in by_order(read, order):
            entry = read[p]
            # The field is named only for a bid that cannot be read: a group file has thousands.
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("open"), bool)
                and set(entry) <= {"bid", "open"}
            ):
                raise RecordError(subfield(field, p), 'must be {"bid": 0-6, "open": true or false}')
            if not (is_int(entry.get("bid")) or ("bid" not in entry and not entry["open"])):
                raise RecordError(f"{subfield(field, p)}.bid", "must be a whole number")
            out.append(ev.Declare(number, p, entry["open"], entry.get("bid")))
        return out

    def export_bids(self, state: State, rnd: RoundState) -> dict[str, Any]:
        assert isinstance(rnd, AllesRound)
        sealed = state.game.sealed(rnd)  # never exported before the round is over
        return {
            p: (
                {"bid": rnd.bids[p], "open": o}
                if p in rnd.bids and p not in sealed
                else {"open": o}
            )
            for p, o in rnd.open.items()
        }


PART = RecordAlles()
