"""Seat changes from two phones at once, on a running server (gunicorn, 2 gevent workers), on
SQLite and on PostgreSQL, each race run in several trials: two scorekeepers seating two
newcomers from the same page, and one ending the game while the other sits a player out.
Exactly one change is recorded each time; the other phone is told the table moved on
(docs/rules.md, "Joining, leaving, sitting out")."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask import Flask

from referee.rules import Setup
from referee.store.tables import append_entry, create_table, get_table, table_state
from tests.durability.conftest import Answer, Phone, Server
from tests.durability.legal import next_entry
from tests.durability.test_links_race import at_once
from tests.links import new_link

pytestmark = pytest.mark.durability

#: Races run per test and database.
TRIALS = 6

FOUR = ("Ann", "Ben", "Cho", "Dee")


def between_rounds(store: Flask) -> tuple[str, int]:
    """A Blackout table with round 1 complete, round 2 not begun: its id and log position."""
    rng = random.Random(3)
    with store.app_context():
        table_id = create_table(Setup("blackout", FOUR))
        seq, state = 0, table_state(table_id)
        assert state is not None
        while not state.rounds or state.game.upcoming(state) is state.current:
            found = next_entry(state, rng)
            assert found is not None
            seq = append_entry(table_id, seq, "event", found[0].to_dict())
            state = found[1]
    return table_id, seq


def keepers(server: Server, store: Flask, table_id: str, count: int) -> list[Phone]:
    """``count`` phones each holding a scorekeeper link of the table, its page shown."""
    phones = []
    for _ in range(count):
        phone = Phone(server)
        assert phone.open_link(new_link(store, table_id)) == f"/t/{table_id}"
        assert phone.get(f"/t/{table_id}")[0] == 200
        phones.append(phone)
    return phones


def posting(phone: Phone, table_id: str, form: dict[str, str]) -> Callable[[], Answer]:
    return lambda: phone.post(f"/t/{table_id}/entry", form)


def entries(store: Flask, table_id: str) -> list[str]:
    with store.app_context():
        record = get_table(table_id)
        assert record is not None
        return [entry.payload["type"] for entry in record.entries]


def test_two_phones_seating_two_newcomers_at_once_seat_one(server, store):
    for trial in range(TRIALS):
        table_id, seq = between_rounds(store)
        first, second = keepers(server, store, table_id, 2)
        form = {"seq": str(seq), "round": "2", "action": "join", "after": "4", "start": "lowest"}
        answers = at_once(
            [
                posting(first, table_id, form | {"name": "Eve"}),
                posting(second, table_id, form | {"name": "Fay"}),
            ]
        )
        assert sorted(a.status for a in answers) == [303, 409], (trial, answers)
        assert entries(store, table_id).count("join") == 1, f"trial {trial}"
        with store.app_context():
            state = table_state(table_id)
        assert state is not None and len(state.players) == 5, f"trial {trial}"


def test_an_end_and_a_sit_out_at_once_record_one(server, store):
    for trial in range(TRIALS):
        table_id, seq = between_rounds(store)
        first, second = keepers(server, store, table_id, 2)
        base = {"seq": str(seq), "round": "2"}
        answers = at_once(
            [
                posting(first, table_id, base | {"action": "end", "round": "1"}),
                posting(second, table_id, base | {"action": "sit-out", "player": "2"}),
            ]
        )
        assert sorted(a.status for a in answers) == [303, 409], (trial, answers)
        made = entries(store, table_id)
        assert made.count("end") + made.count("sit-out") == 1, f"trial {trial}: {made}"
