"""Replaying a table step by step gives what replaying it whole gives (the app's cache relies
on it), for every golden record: valid games, games in progress and each kind of breach."""

from pathlib import Path

import pytest

from referee.records import load_record
from referee.records.check import report
from referee.rules import State, extend, replay, start

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
        assert state.totals() == totals_from_scratch(state)  # as a page after each entry
    rounds = sum(1 for e in record.events if e.type == "begin-round")
    assert report(record, state, rounds) == report(record, whole, rounds)


def totals_from_scratch(state: State) -> dict[str, int]:
    totals = dict.fromkeys(state.setup.players, 0)
    for number in range(1, len(state.rounds) + 1):
        for player, score in (state.scores(number) or {}).items():
            totals[player] += score.points
    return totals


def test_a_page_after_an_entry_scores_only_the_round_being_played(monkeypatch):
    record = load_record((RECORDS / "blackout" / "default-4p.json").read_bytes())
    events = list(record.events)
    state = replay(record.setup, events[:-1], lenient=True)
    assert len(state.rounds) == 25 and state.totals() == totals_from_scratch(state)
    scored = []
    score_round = type(state.game).score_round
    monkeypatch.setattr(
        type(state.game),
        "score_round",
        lambda game, s, rnd: scored.append(rnd) or score_round(game, s, rnd),
    )
    state = extend(state, events[-1])
    totals = state.totals()
    assert scored == [state.rounds[-1]]
    monkeypatch.undo()
    assert totals == totals_from_scratch(state) == record.replay().totals()
