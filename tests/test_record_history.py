"""A record's ``history`` (docs/record-history.md): read and written whole, refused naming the
field, scored by its entries in force, and taken entry by entry as the app takes them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jsonschema
import pytest

from referee.records import SCHEMA_FILE, RecordError, export_record, parse_record
from referee.records import history as record_history
from referee.records.check import check_text
from referee.records.history import EntryRefused, as_entered
from referee.records.log import LogEntry, effective_events
from referee.rules import Setup, replay
from referee.rules import events as ev

SCHEMA = json.loads(SCHEMA_FILE.read_text())
SETUP = Setup("blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
START = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


def log(*entries: tuple[str, dict]) -> tuple[LogEntry, ...]:
    """A log of ``(kind, payload)``, a minute apart; an event's payload may be an ``Event``."""
    return tuple(
        LogEntry(
            seq,
            kind,
            payload.to_dict() if isinstance(payload, ev.Event) else payload,
            START + timedelta(minutes=seq, microseconds=seq),
        )
        for seq, (kind, payload) in enumerate(entries, start=1)
    )


def document(entries: tuple[LogEntry, ...], setup: Setup = SETUP) -> dict:
    """The record the app writes of a table with this log."""
    state = replay(setup, effective_events(entries), lenient=True)
    return json.loads(json.dumps(export_record(state, entries)))


def bid(player: str, bid: int, round: int = 1) -> ev.Bid:
    return ev.Bid(round, player, bid)


# Round 1 of SETUP (1 card each, Ann deals): Ben's bid is corrected, so Ann's 0 breaks the hook.
CORRECTED = log(
    ("event", ev.Trump(1, "H")),
    ("event", bid("Ben", 1)),
    ("event", bid("Cho", 1)),
    ("event", bid("Ann", 0)),
    ("event", ev.Tricks(1, {"Ann": 0, "Ben": 1, "Cho": 0})),
    ("amend", {"target": 3, "event": bid("Cho", 0).to_dict()}),
    ("event", ev.Trump(2, "S")),
    ("undo", {"target": 7}),
)


def test_a_table_with_undos_and_corrections_writes_its_whole_log():
    doc = document(CORRECTED)
    jsonschema.validate(doc, SCHEMA)
    assert doc["history"][5] == {
        "seq": 6,
        "at": "2025-03-01T19:06:00.000006Z",
        "amend": 3,
        "event": {"type": "bid", "round": 1, "player": "Cho", "bid": 0},
    }
    assert doc["history"][7] == {"seq": 8, "at": "2025-03-01T19:08:00.000008Z", "undo": 7}
    record = parse_record(doc)
    assert record.log == CORRECTED  # every entry back, its time to the microsecond
    assert export_record(record.replay(), record.log) == doc


def test_a_record_with_history_is_scored_by_its_entries_in_force():
    status, output = check_text(json.dumps(document(CORRECTED)), as_json=True)
    report = json.loads(output)
    assert status == 1
    assert [(v["rule"], v["round"], v["player"]) for v in report["violations"]] == [
        ("hook", 1, "Ann")
    ]
    assert report["totals"] == {"Ann": 10, "Ben": 11, "Cho": 10}  # Cho's corrected 0 made


def test_an_undone_entry_that_broke_a_rule_is_no_breach():
    entries = log(
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 7)),  # no table takes it, but a log may hold it undone
        ("undo", {"target": 2}),
        ("event", bid("Ben", 1)),
    )
    status, output = check_text(json.dumps(document(entries)), as_json=True)
    assert status == 0, output


def test_rounds_that_the_history_does_not_give_make_the_record_unreadable():
    doc = document(CORRECTED)
    doc["rounds"][0]["bids"]["Cho"] = 1  # edited by hand, the history left as it was
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "history"
    assert "round 1 differs" in str(caught.value)
    del doc["history"]
    assert parse_record(doc).log == ()  # without it, the rounds are read as ever


def test_a_sealed_bid_is_written_without_its_number_until_its_round_is_over():
    setup = Setup("alles-oder-nichts", ("Ann", "Ben", "Cho"))
    entries = log(
        ("event", ev.Trump(1, "red")),
        ("event", ev.Declare(1, "Ben", True, 2)),
        ("event", ev.Declare(1, "Cho", False, 4)),  # sealed
    )
    doc = document(entries, setup)
    assert doc["history"][2]["event"] == {
        "type": "declare",
        "round": 1,
        "player": "Cho",
        "open": False,
        "bid": None,
    }
    assert parse_record(doc).log[2].payload["bid"] is None
    done = log(
        *[(e.kind, e.payload) for e in entries],
        ("event", ev.Declare(1, "Ann", True, 0)),
        ("event", ev.Tricks(1, {"Ann": 0, "Ben": 2, "Cho": 4})),
    )
    assert document(done, setup)["history"][2]["event"]["bid"] == 4  # the round is over


def good() -> dict:
    return document(CORRECTED)


def changed(path: str, value: object) -> dict:
    """The good record with one place in its history set (``None`` for a key left out)."""
    doc = good()
    *parents, last = path.split(".")
    where = doc["history"]
    for part in parents:
        where = where[int(part)] if part.isdigit() else where[part]
    key: int | str = int(last) if last.isdigit() else last
    if value is None:
        del where[key]
    else:
        where[key] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "field", "says"),
    [
        ({**good(), "history": {}}, "history", "must be a list of entries"),
        (changed("0", [1]), "history[0]", "an entry is"),
        (changed("1.seq", 3), "history[1].seq", "must be 2"),
        (changed("1.seq", True), "history[1].seq", "must be 2"),
        (changed("1.at", "19:01"), "history[1].at", "must be a time with its offset"),
        (changed("1.at", "2025-03-01T19:01:00"), "history[1].at", "with its offset"),
        (changed("1.at", None), "history[1].at", "must be a time"),
        # Times no clock shows, whose UTC is beyond what Python, a database or a page can hold.
        (changed("1.at", "0001-01-01T00:00:00+14:00"), "history[1].at", "from the year 1000"),
        (changed("1.at", "9999-12-31T23:59:59-14:00"), "history[1].at", "to the year 9998"),
        (changed("1.at", "0999-12-31T23:59:59Z"), "history[1].at", "from the year 1000"),
        (changed("1.at", "9999-01-01T00:00:00Z"), "history[1].at", "to the year 9998"),
        (changed("1.note", "x"), "history[1].note", "is not a field of an event entry"),
        (changed("7.undo", 8), "history[7].undo", "must name an earlier entry (1 to 7)"),
        (changed("7.undo", "7"), "history[7].undo", "must name an earlier entry"),
        (changed("5.amend", 6), "history[5].amend", "must name an earlier entry"),
        (changed("1.event.type", "begin-round"), "history[1].event.type", "must be one of"),
        (changed("1.event.type", "shuffle"), "history[1].event.type", "must be one of"),
        (changed("1.event.bid", "1"), "history[1].event.bid", "must be int"),
        (changed("1.event.bid", 1.0), "history[1].event.bid", "must be int"),
        (changed("1.event.player", None), "history[1].event.player", "is missing"),
        (changed("1.event.colour", "red"), "history[1].event.colour", "is not a field of a bid"),
        # A map may name everyone the game seats (a newcomer too: Blackout's 8), no more.
        (
            changed("4.event.tricks", dict.fromkeys("ABCDEFGHI", 0)),
            "history[4].event.tricks",
            "most 8",
        ),
        (changed("4.event.tricks", {"Ann": [1]}), "history[4].event.tricks", "Mapping"),
        (
            changed("5.event", ev.Trump(1, "S").to_dict()),
            "history[5].event",
            "must be a bid of round 1, as entry 3 it corrects",
        ),
        (changed("5.event.round", 2), "history[5].event", "must be a bid of round 1"),
    ],
)
def test_a_history_that_cannot_be_read_names_the_field(doc, field, says):
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == field
    assert says in str(caught.value)


def test_the_earliest_and_the_latest_time_read_back_as_written():
    doc = good()
    doc["history"][0]["at"] = "1000-01-01T00:00:00.000000Z"
    doc["history"][-1]["at"] = "9998-12-31T23:59:59.999999Z"
    record = parse_record(doc)
    assert export_record(record.replay(), record.log) == doc


def test_a_clock_that_went_back_is_a_line_of_the_table_and_changes_nothing_else():
    """The entries count in the log's order: a clock set back at the table breaks no rule."""
    doc = good()
    doc["history"][3]["at"] = doc["history"][6]["at"] = "2025-03-01T18:00:00.000000Z"
    status, output = check_text(json.dumps(doc))
    assert status == 1  # the hook, as ever
    lines = [line for line in output.splitlines() if "clock" in line]
    assert lines == [
        "Warning: the clock went back at entry 4 of the history; its entries count in the "
        "order they were made.",
        "Warning: the clock went back at entry 7 of the history; its entries count in the "
        "order they were made.",
    ]
    assert check_text(json.dumps(doc), as_json=True) == check_text(json.dumps(good()), True)
    assert "clock" not in check_text(json.dumps(good()))[1]


def test_a_correction_names_an_entry_not_an_undo():
    doc = good()
    doc["history"].append({"seq": 9, "at": doc["history"][0]["at"], "amend": 8, "event": {}})
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "history[8].amend"
    assert "names entry 8, an undo" in str(caught.value)


def test_an_entry_of_a_trick_with_a_number_for_its_cards_is_refused_not_replayed():
    entries = log(("event", ev.Trump(1, "H")))
    doc = document(entries)
    trick = {"type": "trick", "round": 1, "leader": "Ben", "cards": 5}
    doc["history"].append({"seq": 2, "at": doc["history"][0]["at"], "event": trick})
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "history[1].event.cards"


# --- as the app takes them ----------------------------------------------------------------------


def test_a_correction_is_checked_against_the_table_before_the_entry_it_corrects():
    entries = log(
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 0)),
        ("amend", {"target": 1, "event": ev.Trump(1, "XX").to_dict()}),
    )
    with pytest.raises(EntryRefused) as caught:
        as_entered(SETUP, (), entries, START)
    assert caught.value.seq == 3
    assert caught.value.breach.code == "trump-unknown"


def test_each_entry_is_checked_against_the_table_as_the_undos_before_it_left_it():
    round_one = [
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 1)),
        ("event", bid("Cho", 1)),
        ("event", bid("Ann", 1)),
    ]
    tricks = ("event", ev.Tricks(1, {"Ann": 1, "Ben": 0, "Cho": 0}))
    assert as_entered(SETUP, (), log(*round_one, tricks), START)
    undone = log(*round_one, ("undo", {"target": 2}), tricks)  # Ben's bid, not the newest
    with pytest.raises(EntryRefused) as caught:
        as_entered(SETUP, (), undone, START)
    assert (caught.value.seq, caught.value.breach.code) == (6, "missing-bids-first")
    redone = log(*round_one, ("undo", {"target": 2}), ("undo", {"target": 5}), tricks)
    assert as_entered(SETUP, (), redone, START) == redone  # the undo undone: Ben's bid is back


def test_a_kept_breach_is_kept_and_an_entry_out_of_turn_refused():
    hook = log(
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 0)),
        ("event", bid("Cho", 0)),
        ("event", bid("Ann", 1)),  # the hook: kept, as a correction of Ben's bid would leave it
    )
    assert as_entered(SETUP, (), hook, START) == hook
    out_of_turn = log(("event", ev.Trump(1, "H")), ("event", bid("Cho", 0)))
    with pytest.raises(EntryRefused) as caught:
        as_entered(SETUP, (), out_of_turn, START)
    assert caught.value.breach.code == "bid-turn"


@pytest.mark.parametrize("amend", [False, True], ids=["entered", "corrected"])
def test_tricks_that_leave_a_player_out_are_refused(amend):
    """The app asks for every player's tricks, and a round without one is not complete: the
    table could not go on from it (its tricks are entered), so the entry is refused with the
    one breach the referee reports for it."""
    round_one = [
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 1)),
        ("event", bid("Cho", 1)),
        ("event", bid("Ann", 1)),
    ]
    lacking = ev.Tricks(1, {"Ann": 1, "Cho": 0})
    if amend:
        tricks = ev.Tricks(1, {"Ann": 1, "Ben": 0, "Cho": 0})
        amended = {"target": 5, "event": lacking.to_dict()}
        entries = log(*round_one, ("event", tricks), ("amend", amended))
    else:
        entries = log(*round_one, ("event", lacking))
    with pytest.raises(EntryRefused) as caught:
        as_entered(SETUP, (), entries, START)
    breach = caught.value.breach
    assert (caught.value.seq, breach.rule, breach.player) == (len(entries), "missing", "Ben")
    with pytest.raises(EntryRefused):  # a record's rounds without a history: the same
        as_entered(SETUP, [ev.BeginRound(1), *(e for _, e in round_one), lacking], (), START)


def test_a_record_without_history_becomes_the_entries_of_its_rounds_at_the_time_given():
    doc = document(CORRECTED)
    del doc["history"]
    record = parse_record(doc)
    entries = as_entered(record.setup, record.events, (), START)
    assert [e.payload for e in entries] == [
        e.to_dict() for e in record.events if not isinstance(e, ev.BeginRound)
    ]
    assert {e.created_at for e in entries} == {START} and {e.kind for e in entries} == {"event"}


def test_checking_a_history_costs_at_most_its_budget(monkeypatch):
    entries = log(
        ("event", ev.Trump(1, "H")),
        ("event", bid("Ben", 0)),
        ("event", bid("Cho", 0)),
        *[("amend", {"target": 2, "event": bid("Ben", n % 2).to_dict()}) for n in range(6)],
    )
    assert as_entered(SETUP, (), entries, START)  # each correction replays 2 entries: 12
    monkeypatch.setattr(record_history, "REPLAY_BUDGET", 11)
    with pytest.raises(RecordError) as caught:
        as_entered(SETUP, (), entries, START)
    assert caught.value.field == "history"
    assert "more than 11 entries" in str(caught.value)


def test_players_no_table_seats_are_refused():
    with pytest.raises(EntryRefused) as caught:
        as_entered(Setup("blackout", ("Ann",)), (), (), START)
    assert caught.value.breach.rule == "players" and caught.value.seq is None


def test_the_documented_example_reads_back_as_written():
    text = (Path(__file__).parents[1] / "docs" / "record-history.md").read_text()
    doc = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    jsonschema.validate(doc, SCHEMA)
    record = parse_record(doc)
    assert export_record(record.replay(), record.log) == doc
    status, output = check_text(json.dumps(doc), as_json=True)
    assert status == 1
    assert [v["rule"] for v in json.loads(output)["violations"]] == ["hook"]
