"""Replaying a table step by step gives what replaying it whole gives (the app's cache relies
on it), for every golden record: valid games, games in progress and each kind of breach."""

from pathlib import Path

import pytest

from referee.check import report
from referee.records import load_record
from referee.rules import extend, start

RECORDS = Path(__file__).parents[1] / "records"
READABLE = sorted(
    p
    for p in RECORDS.rglob("*.json")
    if not p.name.endswith(".expect.json") and p.parent.name != "unreadable"
)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_extending_one_event_at_a_time_equals_a_whole_replay(path):
    record = load_record(path.read_bytes())
    whole = record.replay()
    state = start(record.setup, lenient=True)
    for event in record.events:
        state = extend(state, event)
    rounds = sum(1 for e in record.events if e.type == "begin-round")
    assert report(record, state, rounds) == report(record, whole, rounds)
