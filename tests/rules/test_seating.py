"""Joining, leaving and sitting out (docs/rules.md, "Joining, leaving, sitting out"): each an
entry between rounds that the referee checks, in Blackout and Alles oder Nichts; refused in
ebbes; kept through a record's round trip and noted as a ``seats`` breach where a record breaks
the rules."""

from __future__ import annotations

import json
import random

import pytest

from referee.records import export_record, parse_record
from referee.records.check import check_text
from referee.rules import Breach, Setup, apply, replay
from referee.rules import events as ev
from referee.rules.engine import State, start
from tests.durability.legal import next_entry

FOUR = ("Ann", "Ben", "Cho", "Dee")


def through(state: State, rounds: int, seed: int = 5) -> State:
    """``state`` with legal entries until ``rounds`` rounds are complete."""
    rng = random.Random(seed)
    while sum(1 for r in state.rounds if state.game.round_complete(r)) < rounds or (
        state.game.upcoming(state) is state.current
    ):
        found = next_entry(state, rng)
        assert found is not None
        state = found[1]
    return state


def refused(state: State, event: ev.Event) -> Breach:
    with pytest.raises(Breach) as caught:
        apply(state, event)
    return caught.value


def test_a_late_player_joins_from_the_next_round_seated_where_they_sit() -> None:
    state = through(start(Setup("blackout", FOUR)), 2)  # Ann and Ben have dealt
    before = state.totals()
    state = apply(state, ev.Join(3, "Eve", after="Ben"))
    assert state.players == ("Ann", "Ben", "Cho", "Dee", "Eve")  # the sheet: a new column
    assert state.ring == ("Ann", "Ben", "Eve", "Cho", "Dee")  # the table: left of Ben
    assert state.totals()["Eve"] == min(before.values())  # the lowest total, by default
    rnd = state.game.upcoming(state)
    assert rnd is not None and rnd.seats == state.ring
    assert rnd.dealer == "Eve"  # the deal passes left of Ben, the last dealer: to her
    assert state.game.bidding_order(rnd) == ["Cho", "Dee", "Ann", "Ben", "Eve"]


def test_blackouts_hands_follow_the_new_count_from_the_next_round() -> None:
    state = through(start(Setup("blackout", FOUR)), 2)
    state = apply(state, ev.Join(3, "Eve"))
    # Five players: 52 ÷ 5 = 10 cards at most. Rounds 1–2 dealt 1 and 2 stand; then 3 … 10 … 1.
    assert state.game.schedule == [1, 2, *range(3, 11), *range(9, 0, -1)]
    assert state.game.round_count == 19 and len(state.game.deck) == 50
    assert state.game.whole_deck(10) and not state.game.whole_deck(11)
    state = through(state, 3)
    state = apply(state, ev.Leave(4, "Cho"))  # back to four: up to 13 again
    assert state.game.schedule[3:13] == list(range(4, 14))
    assert state.game.round_count == 25


@pytest.mark.parametrize(("choice", "points"), [("lowest", 0), ("zero", 0), ("average", 8)])
def test_the_table_chooses_the_newcomers_start(choice: str, points: int) -> None:
    state = start(Setup("blackout", FOUR))
    for event in (
        ev.Trump(1, "H"),
        ev.Bid(1, "Ben", 1),
        ev.Bid(1, "Cho", 0),
        ev.Bid(1, "Dee", 0),
        ev.Bid(1, "Ann", 1),
        ev.Tricks(1, {"Ann": 0, "Ben": 1, "Cho": 0, "Dee": 0}),
    ):
        state = apply(state, event)
    assert state.totals() == {"Ann": 0, "Ben": 11, "Cho": 10, "Dee": 10}
    joined = apply(state, ev.Join(2, "Eve", start=choice))
    # The lowest: Ann's 0 (she missed); the average of 0, 11, 10 and 10 is 7.75, so 8.
    assert joined.totals()["Eve"] == points
    assert joined.start_points() == {"Eve": points}


def test_a_player_who_leaves_keeps_their_total_and_the_deal_passes_them_by() -> None:
    state = through(start(Setup("alles-oder-nichts", (*FOUR, "Eve"))), 3)  # Ann, Ben, Cho dealt
    kept = state.totals()["Dee"]
    state = apply(state, ev.Leave(4, "Dee"))
    rnd = state.game.upcoming(state)
    assert rnd is not None and rnd.seats == ("Ann", "Ben", "Cho", "Eve")
    assert rnd.dealer == "Eve"  # Dee, next in turn, has gone: the next seated deals
    state = through(state, 5)
    assert state.totals()["Dee"] == kept
    assert all("Dee" not in r.seats for r in state.rounds[3:])
    assert state.game.schedule == [6, 5, 4, 3, 4, 5, 6]  # the deck holds any count


def test_a_player_sits_out_one_round_and_is_dealt_in_again() -> None:
    state = through(start(Setup("blackout", FOUR)), 1)  # Ann dealt round 1
    state = apply(state, ev.SitOut(2, "Ben"))  # Ben would deal round 2
    rnd = state.game.upcoming(state)
    assert rnd is not None and rnd.seats == ("Ann", "Cho", "Dee") and rnd.dealer == "Cho"
    assert refused(state, ev.Bid(2, "Ben", 0)).code == "not-dealt"
    state = through(state, 2)
    assert state.scores(2) is not None and "Ben" not in state.scores(2)
    rnd = state.game.upcoming(state)
    assert rnd is not None and rnd.seats == FOUR and rnd.dealer == "Dee"


@pytest.mark.parametrize(
    ("setup_players", "event", "code"),
    [
        (("A", "B", "C", "D", "E", "F"), ev.Join(2, "G"), "join-full"),  # Alles: 3–6
        (("A", "B", "C"), ev.Leave(2, "A"), "leave-too-few"),
        (("A", "B", "C"), ev.SitOut(2, "A"), "sit-out-too-few"),
        (("A", "B", "C"), ev.Join(2, "B"), "join-seated"),
        (("A", "B", "C"), ev.Join(2, "b"), "duplicate-name"),
        (("A", "B", "C"), ev.Join(2, "Z", start="most"), "join-start"),
        (("A", "B", "C"), ev.Leave(2, "Z"), "unknown-player"),
        (("A", "B", "C"), ev.Join(3, "Z"), "seats-other-round"),
    ],
)
def test_a_seat_change_the_rules_forbid_is_refused_with_its_reason(
    setup_players, event, code
) -> None:
    state = through(start(Setup("alles-oder-nichts", setup_players)), 1)
    breach = refused(state, event)
    assert breach.code == code and breach.message
    assert code == "unknown-player" or breach.rule in ("seats", "players", "seats")


def test_no_seat_change_mid_round_after_the_end_or_in_ebbes() -> None:
    state = through(start(Setup("blackout", FOUR)), 1)
    state = apply(state, ev.Trump(2, "H"))
    assert refused(state, ev.Join(2, "Eve")).code == "seats-mid-round"
    ended = apply(through(start(Setup("blackout", FOUR)), 2), ev.End(2))
    assert refused(ended, ev.Join(3, "Eve")).code == "after-end"
    ebbes = start(Setup("ebbes", ("A", "B", "C")))
    breach = refused(ebbes, ev.Join(1, "D"))
    assert breach.code == "seats-fixed" and "deck" in breach.message


def test_a_player_who_left_comes_back_with_their_total() -> None:
    state = through(start(Setup("blackout", FOUR)), 1)
    state = apply(state, ev.Leave(2, "Cho"))
    state = through(state, 2)
    kept = state.totals()["Cho"]
    state = apply(state, ev.Join(3, "Cho"))
    assert state.ring == FOUR and state.totals()["Cho"] == kept
    assert state.players == FOUR  # no second column


def test_seat_changes_survive_a_records_round_trip_and_undo_is_a_replay_without_them() -> None:
    state = through(start(Setup("blackout", FOUR)), 2)
    events: list[ev.Event] = [ev.Join(3, "Eve", after="Ann", start="average"), ev.SitOut(3, "Cho")]
    for event in events:
        state = apply(state, event)
    state = through(state, 4)
    state = apply(state, ev.Leave(5, "Dee"))  # before a round not begun yet
    doc = export_record(state)
    assert doc["rounds"][2]["seats"] == [
        {"join": "Eve", "after": "Ann", "start": "average"},
        {"sit_out": "Cho"},
    ]
    assert doc["rounds"][-1] == {"seats": [{"leave": "Dee"}]}
    again = parse_record(doc).replay()
    assert again.totals() == state.totals() and not again.violations
    assert [r.dealer for r in again.rounds[:4]] == [r.dealer for r in state.rounds]
    assert export_record(again) == doc


def test_a_record_that_breaks_a_seat_rule_is_checked_with_the_rule_id() -> None:
    doc = export_record(through(start(Setup("alles-oder-nichts", ("A", "B", "C"))), 1))
    doc["rounds"].append({"seats": [{"leave": "A"}]})
    status, output = check_text(json.dumps(doc), as_json=True)
    report = json.loads(output)
    assert status == 1 and [b["rule"] for b in report["violations"]] == ["seats"]
    assert report["rounds"][-1]["seats"] == ["A", "B", "C"]


def test_a_lenient_replay_leaves_a_refused_change_out() -> None:
    setup = Setup("blackout", ("A", "B"))
    state = replay(setup, [ev.Leave(1, "A"), ev.Join(1, "C")], lenient=True)
    assert [b.code for b in state.violations] == ["leave-too-few"]
    assert state.ring == ("A", "B", "C")
