"""The table repository: create and read tables, append to the log, fold undos and amendments."""

import re
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from sqlalchemy import event, func, select

from referee.rules import Breach, OptionError, Setup, Step
from referee.rules import events as ev
from referee.store import db
from referee.store.links import Access, access, make_link, revoke, revoked_count, revoked_since
from referee.store.models import Entry, Link, Table, utcnow
from referee.store.tables import (
    LogEntry,
    NoAccess,
    StaleTable,
    TooManyTables,
    UnknownTable,
    append_entry,
    create_table,
    created_since,
    current_seq,
    effective_events,
    get_table,
    table_state,
)
from tests.databases import statements

FOUR = ("Ann", "Ben", "Cho", "Dee")
# Blackout round 1 (one card each, Ann deals): trump, then bids from Ben round to Ann.
ROUND_ONE = [
    ev.Trump(round=1, card="H"),
    ev.Bid(round=1, player="Ben", bid=1),
    ev.Bid(round=1, player="Cho", bid=0),
    ev.Bid(round=1, player="Dee", bid=0),
    ev.Bid(round=1, player="Ann", bid=1),
]


def new_table(events: list[ev.Event] = ROUND_ONE) -> str:
    table_id = create_table(Setup("blackout", FOUR))
    for seq, entry in enumerate(events):
        append_entry(table_id, seq, "event", entry.to_dict())
    return table_id


def entry_count() -> int:
    return db.session.execute(select(func.count()).select_from(Entry)).scalar_one()


def test_a_new_table_reads_back_with_its_setup(store_app: Flask) -> None:
    setup = Setup("ebbes", ("Ann", "Ben", "Cho"), {"discard": True}, first="Cho")
    table = get_table(create_table(setup))
    assert table is not None
    assert table.setup.game == "ebbes"
    assert table.setup.players == ("Ann", "Ben", "Cho")
    assert table.setup.first == "Cho"
    assert table.setup.options["discard"] is True
    assert table.entries == ()
    assert table.last_seq == 0
    assert table.created_at.tzinfo == UTC
    assert abs((datetime.now(UTC) - table.created_at).total_seconds()) < 60


def test_options_are_stored_with_the_defaults_filled_in(store_app: Flask) -> None:
    table = get_table(create_table(Setup("blackout", FOUR)))
    assert table is not None
    assert table.setup.options == {
        "sequence": "up-down",
        "hook": True,
        "scoring": "prefix-one",
        "max_cards": 13,
    }


@pytest.mark.parametrize(
    ("setup", "error"),
    [
        (Setup("blackout", ("Ann",)), Breach),
        (Setup("blackout", FOUR, {"no-such-option": 1}), OptionError),
        (Setup("chess", FOUR), OptionError),
    ],
)
def test_a_setup_the_rules_refuse_is_not_stored(
    store_app: Flask, setup: Setup, error: type[Exception]
) -> None:
    with pytest.raises(error):
        create_table(setup)
    assert db.session.scalar(select(func.count()).select_from(Table)) == 0


def test_table_ids_are_long_random_and_url_safe(store_app: Flask) -> None:
    ids = [create_table(Setup("blackout", FOUR)) for _ in range(20)]
    assert len(set(ids)) == len(ids)
    for table_id in ids:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", table_id)  # 22 base64 characters: 128 bits
    assert len(set("".join(ids))) > 40  # drawn from the whole alphabet, not a counter


def test_no_table_id_starts_with_a_dash(store_app: Flask, monkeypatch) -> None:
    """``flask link <id>`` would read an id that starts with "-" as an option (one table in 64
    had such an id): such a draw is drawn again."""
    from referee.store import tables

    draws = iter(["-starts-with-a-dash-000", "Aa0_-starts-with-a-let"])
    monkeypatch.setattr(tables.secrets, "token_urlsafe", lambda _n: next(draws))
    assert create_table(Setup("blackout", FOUR)) == "Aa0_-starts-with-a-let"


def test_an_unknown_id_finds_nothing(store_app: Flask) -> None:
    new_table()
    assert get_table("no-such-table") is None
    assert table_state("no-such-table") is None
    assert current_seq("no-such-table") is None
    with pytest.raises(UnknownTable):
        append_entry("no-such-table", 0, "event", ROUND_ONE[0].to_dict())
    assert entry_count() == len(ROUND_ONE)


def test_entries_are_numbered_from_one_without_gaps(store_app: Flask) -> None:
    table_id = new_table()
    table = get_table(table_id)
    assert table is not None
    assert [entry.seq for entry in table.entries] == [1, 2, 3, 4, 5]
    assert [entry.payload for entry in table.entries] == [e.to_dict() for e in ROUND_ONE]
    assert {entry.kind for entry in table.entries} == {"event"}
    assert table.last_seq == current_seq(table_id) == 5
    assert table.updated_at >= table.created_at


@pytest.mark.parametrize("expected_seq", [0, 1, 4, 6])
def test_a_stale_writer_gets_stale_table_and_writes_nothing(
    store_app: Flask, expected_seq: int
) -> None:
    table_id = new_table()
    before = get_table(table_id)
    with pytest.raises(StaleTable) as caught:
        append_entry(table_id, expected_seq, "event", ev.Dealer(round=1, player="Ann").to_dict())
    assert (caught.value.expected_seq, caught.value.current_seq) == (expected_seq, 5)
    assert get_table(table_id) == before
    assert entry_count() == 5


def test_a_write_with_a_link_lands_only_while_the_link_opens_the_table(store_app: Flask) -> None:
    table_id, other = new_table([]), new_table([])
    keeper, elsewhere = make_link(table_id, "keeper"), make_link(other, "keeper")
    trump = ROUND_ONE[0].to_dict()
    with pytest.raises(NoAccess):  # another table's link
        append_entry(table_id, 0, "event", trump, link=elsewhere)
    with pytest.raises(NoAccess):  # no link at all
        append_entry(table_id, 0, "event", trump, link="made-up")
    assert append_entry(table_id, 0, "event", trump, link=keeper) == 1
    before = utcnow()
    assert revoke(table_id, "keeper") == 1
    assert revoked_since(before) == [table_id] and revoked_since(utcnow()) == []
    assert (revoked_count(table_id), revoked_count(other)) == (1, 0)  # what a poll key is made of
    with pytest.raises(NoAccess):  # revoked
        append_entry(table_id, 1, "event", ROUND_ONE[1].to_dict(), link=keeper)
    with pytest.raises(NoAccess):  # revoked and stale: the link is what stops it
        append_entry(table_id, 0, "event", trump, link=keeper)
    assert current_seq(table_id) == 1 and entry_count() == 1


def link_count() -> int:
    return int(db.session.scalar(select(func.count()).select_from(Link)) or 0)


def test_a_scorekeepers_changes_to_links_happen_only_while_its_link_keeps_score(
    store_app: Flask,
) -> None:
    table_id, other = new_table([]), new_table([])
    mine, theirs = make_link(table_id, "keeper"), make_link(table_id, "keeper")
    viewer, elsewhere = make_link(table_id, "viewer"), make_link(other, "keeper")
    made = make_link(table_id, "player", "Ann", by=mine)
    assert access(made, table_id) == Access(table_id, "player", "Ann")
    links = link_count()
    for by in (viewer, elsewhere, "made-up"):  # not a scorekeeper link of this table
        with pytest.raises(NoAccess):
            make_link(table_id, "keeper", by=by)
        with pytest.raises(NoAccess):
            revoke(table_id, "viewer", by=by)
    assert link_count() == links and access(viewer, table_id) is not None  # nothing changed
    assert revoke(table_id, "keeper", by=theirs) == 1  # every other scorekeeper link: mine
    assert access(mine, table_id) is None
    with pytest.raises(NoAccess):  # a revoked link revokes nothing …
        revoke(table_id, "keeper", by=mine)
    with pytest.raises(NoAccess):  # … and makes no link
        make_link(table_id, "keeper", by=mine)
    assert link_count() == links
    assert revoke(table_id, "keeper", by=theirs) == 0  # nothing left to revoke: no NoAccess
    found = access(theirs, table_id)
    assert found is not None and found.keeps_score


def test_a_creator_makes_at_most_the_limit_of_tables_in_the_window(store_app: Flask) -> None:
    store_app.config["TABLE_LIMIT"] = 3
    setup = Setup("blackout", FOUR)
    for _ in range(3):
        create_table(setup, "club")
    with pytest.raises(TooManyTables):
        create_table(setup, "club")
    assert created_since("club", utcnow() - timedelta(hours=1)) == 3
    create_table(setup, "elsewhere")  # another address is not held up
    create_table(setup)  # nor a table nobody is counted for
    store_app.config["TABLE_LIMIT_SECONDS"] = 0  # the three are out of the window now
    create_table(setup, "club")
    assert db.session.scalar(select(func.count()).select_from(Table)) == 6


def test_the_unique_seq_stops_a_writer_that_bypasses_last_seq(store_app: Flask) -> None:
    table_id = new_table([])
    db.session.add(Entry(table_id=table_id, seq=1, kind="event", payload=ROUND_ONE[0].to_dict()))
    db.session.commit()
    with pytest.raises(StaleTable):
        append_entry(table_id, 0, "event", ROUND_ONE[1].to_dict())
    assert db.session.scalars(select(Entry.payload)).all() == [ROUND_ONE[0].to_dict()]
    assert current_seq(table_id) == 0


def test_a_write_is_one_statement_on_postgresql_and_one_transaction_on_sqlite(
    store_app: Flask,
) -> None:
    table_id = new_table([])
    commits: list[object] = []

    def committed(connection: object) -> None:
        commits.append(connection)

    event.listen(db.engine, "commit", committed)
    try:
        with statements(store_app) as ran:
            assert append_entry(table_id, 0, "event", ROUND_ONE[0].to_dict()) == 1
    finally:
        event.remove(db.engine, "commit", committed)
    kinds = [statement.split()[0] for statement in ran]
    if db.engine.dialect.name == "postgresql":  # one round trip: no BEGIN, no COMMIT
        assert kinds == ["WITH"] and commits == []
    else:
        assert kinds == ["UPDATE", "INSERT"] and len(commits) == 1
    assert get_table(table_id).entries[0].payload == ROUND_ONE[0].to_dict()


def test_the_reads_and_writes_give_their_connection_back_with_the_app_context(
    store_app: Flask,
) -> None:
    table_id = new_table([])
    held = db.engine.pool.checkedout()
    for _ in range(3):  # as three requests
        with store_app.app_context():
            append_entry(table_id, current_seq(table_id), "event", ROUND_ONE[0].to_dict())
    assert db.engine.pool.checkedout() == held
    assert current_seq(table_id) == 3


def hold_after_update(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
    """Hold a writer after its UPDATE: on SQLite its transaction stays open, so the other
    writer runs into it (on PostgreSQL the write is one statement, already committed)."""
    if "UPDATE tables" in statement:
        time.sleep(0.02)


def test_two_writers_on_the_same_step_never_both_land(store_app: Flask) -> None:
    table_id = new_table([])
    event.listen(db.engine, "after_cursor_execute", hold_after_update)
    rounds = 10
    outcomes: list[int | StaleTable] = []
    start = threading.Barrier(2)

    def writer(name: str) -> None:
        with store_app.app_context():
            for seq in range(rounds):
                start.wait()
                dealer = ev.Dealer(round=1, player=name).to_dict()
                try:
                    outcomes.append(append_entry(table_id, seq, "event", dealer))
                except StaleTable as stale:
                    outcomes.append(stale)
                start.wait()  # both are done with this step before the next begins

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("Ann", "Ben")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    event.remove(db.engine, "after_cursor_execute", hold_after_update)
    assert not any(thread.is_alive() for thread in threads)
    landed = sorted(outcome for outcome in outcomes if isinstance(outcome, int))
    stale = [outcome for outcome in outcomes if isinstance(outcome, StaleTable)]
    assert landed == list(range(1, rounds + 1))
    assert sorted(s.current_seq for s in stale) == landed
    table = get_table(table_id)
    assert table is not None
    assert [entry.seq for entry in table.entries] == landed


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("event", {"type": "no-such-event", "round": 1}),
        ("event", {"type": "bid", "round": 1}),
        ("event", {"type": "bid", "round": 1, "player": "Ann", "bid": 1, "extra": 0}),
        ("undo", {"target": 6}),
        ("undo", {"target": 0}),
        ("undo", {"target": "1"}),
        ("undo", {"target": True}),
        ("undo", {"target": 1, "event": ROUND_ONE[0].to_dict()}),
        ("amend", {"target": 1}),
        ("amend", {"target": 1, "event": {"type": "bid"}}),
        ("redo", {"target": 1}),
        ("event", {"type": "bid", "round": 1, "player": "Ann", "bid": {1}}),
        ("event", {"type": "bid", "round": 1, "player": "Ann", "bid": float("nan")}),
    ],
)
def test_a_payload_that_does_not_fit_its_kind_is_refused(
    store_app: Flask, kind: str, payload: dict[str, object]
) -> None:
    table_id = new_table()
    with pytest.raises(ValueError, match="not a valid"):
        append_entry(table_id, 5, kind, payload)
    assert current_seq(table_id) == 5
    assert entry_count() == 5


def bid(player: str, value: int) -> dict[str, object]:
    return ev.Bid(round=1, player=player, bid=value).to_dict()


def log(*entries: tuple[str, dict[str, object]]) -> list[LogEntry]:
    now = datetime.now(UTC)
    return [LogEntry(seq, kind, dict(p), now) for seq, (kind, p) in enumerate(entries, start=1)]


def bids(events: list[ev.Event]) -> list[tuple[str, int]]:
    return [(e.player, e.bid) for e in events if isinstance(e, ev.Bid)]


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        pytest.param(
            log(("event", bid("Ben", 1)), ("event", bid("Cho", 0))),
            [("Ben", 1), ("Cho", 0)],
            id="events in order",
        ),
        pytest.param(
            log(("event", bid("Ben", 1)), ("event", bid("Cho", 0)), ("undo", {"target": 1})),
            [("Cho", 0)],
            id="an undo removes its target",
        ),
        pytest.param(
            log(
                ("event", bid("Ben", 1)),
                ("event", bid("Cho", 0)),
                ("amend", {"target": 1, "event": bid("Ben", 2)}),
            ),
            [("Ben", 2), ("Cho", 0)],
            id="an amendment replaces its target in place",
        ),
        pytest.param(
            log(
                ("event", bid("Ben", 1)),
                ("amend", {"target": 1, "event": bid("Ben", 2)}),
                ("amend", {"target": 1, "event": bid("Ben", 3)}),
            ),
            [("Ben", 3)],
            id="the latest amendment wins",
        ),
        pytest.param(
            log(
                ("event", bid("Ben", 1)),
                ("amend", {"target": 1, "event": bid("Ben", 2)}),
                ("undo", {"target": 2}),
            ),
            [("Ben", 1)],
            id="undoing an amendment brings the event back",
        ),
        pytest.param(
            log(
                ("event", bid("Ben", 1)),
                ("amend", {"target": 1, "event": bid("Ben", 2)}),
                ("undo", {"target": 1}),
            ),
            [],
            id="undoing an amended event removes it",
        ),
        pytest.param(
            log(("event", bid("Ben", 1)), ("undo", {"target": 1}), ("undo", {"target": 2})),
            [("Ben", 1)],
            id="undoing an undo is a redo",
        ),
        pytest.param(
            log(
                ("event", bid("Ben", 1)),
                ("undo", {"target": 1}),
                ("amend", {"target": 2, "event": bid("Ben", 2)}),
                ("amend", {"target": 1, "event": bid("Ben", 3)}),
            ),
            [],
            id="an amendment of anything but a standing event changes nothing",
        ),
    ],
)
def test_effective_events_fold_undos_and_amendments(
    entries: list[LogEntry], expected: list[tuple[str, int]]
) -> None:
    assert bids(effective_events(entries)) == expected


def test_the_state_replays_the_effective_events(store_app: Flask) -> None:
    table_id = new_table()
    state = table_state(table_id)
    assert state is not None
    assert state.violations == []
    assert state.next_step() == Step(round=1, action="play", player="Ben")

    append_entry(table_id, 5, "amend", {"target": 2, "event": bid("Ben", 0)})
    state = table_state(table_id)
    assert state is not None
    # Ben's bid is now 0, so Ann's last bid of 1 makes the bids add up to the one trick: the
    # hook rule. The lenient replay keeps the table and shows the breach.
    assert [breach.rule for breach in state.violations] == ["hook"]

    append_entry(table_id, 6, "undo", {"target": 6})
    state = table_state(table_id)
    assert state is not None
    assert state.violations == []
    table = get_table(table_id)
    assert table is not None
    assert [entry.kind for entry in table.entries] == ["event"] * 5 + ["amend", "undo"]
