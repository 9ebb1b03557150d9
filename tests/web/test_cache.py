"""The in-memory table cache never shows a table other than its log says, whoever wrote last."""

from __future__ import annotations

import pytest

from referee.records import export_record
from referee.rules import events as ev
from referee.store.tables import append_entry, table_state
from referee.web import loading as cache
from tests.databases import statements
from tests.links import join
from tests.web.helpers import new_table, ok, post

pytestmark = pytest.mark.speed_layer  # what the speed layer keeps and answers itself


def same(a, b) -> bool:
    return export_record(a) == export_record(b) and [x.message for x in a.violations] == [
        x.message for x in b.violations
    ]


def test_a_table_written_by_another_process_catches_up(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))  # this process has the table in memory
    with app.app_context():
        # Another worker process writes two bids straight to the database.
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 1).to_dict())
        append_entry(table, 2, "event", ev.Bid(1, "Cho", 0).to_dict())
        record, state = cache.load(table)
        assert record.last_seq == 3
        assert same(state, table_state(table))
        # An undo written elsewhere changes the past: the whole log is replayed.
        append_entry(table, 3, "undo", {"target": 2})
        record, state = cache.load(table)
        assert state.current.bids == {"Cho": 0} and same(state, table_state(table))


def test_breaches_survive_catching_up(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    with app.app_context():
        for seq, (player, bid) in enumerate((("Ben", 0), ("Cho", 1), ("Ann", 0)), start=1):
            append_entry(table, seq, "event", ev.Bid(1, player, bid).to_dict())
        # Tricks that do not add up, written elsewhere (a lenient log can hold them after a
        # correction): the cached table and a fresh replay report the same breach.
        append_entry(table, 4, "event", ev.Tricks(1, {"Ann": 1, "Ben": 1, "Cho": 1}).to_dict())
        _, state = cache.load(table)
        fresh = table_state(table)
        assert [b.rule for b in state.violations] == ["hook", "trick-total"]
        assert same(state, fresh)


def test_an_entry_from_a_page_another_process_overtook_is_not_written(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))  # this process keeps the table at entry 1
    with app.app_context():
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 1).to_dict())  # another process
    # A phone whose page showed entry 1 enters Ben's bid as 0: the kept table agrees with the
    # page, but the database has moved on, so nothing is written and the phone is told.
    data = {"seq": "1", "round": "1", "action": "bid", "player": "2", "bid": "0"}
    response = client.post(f"/t/{table}/entry", data=data)
    assert response.status_code == 409
    assert "changed on another phone" in response.get_data(as_text=True)
    with app.app_context():
        assert table_state(table).current.bids == {"Ben": 1}


def test_the_page_after_this_phones_entry_is_shown_without_reading_the_database(
    app, client, sweep_due
):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    response = post(client, table, "bid", player=2, bid=1)
    assert response.status_code == 303
    address = response.headers["Location"]
    assert "at=2" in address
    with statements(app) as ran:
        page = client.get(address).text
    assert 'data-seq="2"' in page and "Ben: 1" in page
    assert ran == []


def test_the_page_after_an_entry_another_process_wrote_catches_up(app, client, sweep_due):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))  # this process keeps the table at entry 1
    with app.app_context():  # the phone's bid went to another process, which redirected here
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 1).to_dict())
    page = client.get(f"/t/{table}?at=2").text
    assert 'data-seq="2"' in page and "Ben: 1" in page
    with app.app_context():  # later another phone records Cho's bid in another process …
        append_entry(table, 2, "event", ev.Bid(1, "Cho", 0).to_dict())
    sweep_due()  # … which this process's next sweep finds
    page = client.get(f"/t/{table}?at=2").text  # a reload of that address
    assert 'data-seq="3"' in page and "Cho: 0" in page
    # An address naming a position the log never reached shows the table as it is.
    assert 'data-seq="3"' in client.get(f"/t/{table}?at=99").text


def test_an_entry_from_a_page_ahead_of_this_process_catches_up_without_asking_the_position(
    app, client, sweep_due
):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))  # this process keeps the table at entry 1
    with app.app_context():  # Ben's bid went to another process, whose page the phone shows
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 1).to_dict())
    data = {"seq": "2", "round": "1", "action": "bid", "player": "3", "bid": "0"}
    with statements(app) as ran:
        ok(client.post(f"/t/{table}/entry", data=data))  # Cho's bid, from that page
    assert not any("last_seq \nFROM tables" in statement for statement in ran), ran
    assert any(statement.startswith("UPDATE tables") for statement in ran)
    with app.app_context():
        assert table_state(table).current.bids == {"Ben": 1, "Cho": 0}


def test_a_table_this_process_does_not_keep_is_read_whole_without_asking_its_position(
    app, client, sweep_due
):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    with app.app_context():  # another process turns up the trump; this one has forgotten the table
        append_entry(table, 0, "event", ev.Trump(1, "H").to_dict())
    app.extensions["referee.speed"].tables.replayed.discard(table)
    with statements(app) as ran:
        page = client.get(f"/t/{table}").text
    assert 'data-seq="1"' in page and "Ben bids" in page
    asked = [s for s in ran if "last_seq \nFROM tables" in s and "updated_at" not in s]
    assert asked == [], ran  # (the sweep's one read of the tables changed lately is another)
    assert (
        app.extensions["referee.speed"].positions.fresh(table) == 1
    )  # the poll is answered from what the read found


@pytest.mark.parametrize("page", ["", "/sheet", "/tv"])
def test_a_spectators_page_shows_an_entry_another_process_wrote_before_the_sweep(
    app, client, sweep_due, page
):
    """The page a phone loads because its poll (answered by another process that had swept)
    said the table changed is the new one, not this process's rendered copy of before: the
    page's script says which position the poll answered (``X-Table-Seq``)."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    spectator = app.test_client()
    join(app, spectator, table, "viewer")
    assert 'data-seq="1"' in spectator.get(f"/t/{table}{page}").text  # rendered and kept
    with app.app_context():  # another process writes; this one has not swept since
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 1).to_dict())
    followed = spectator.get(f"/t/{table}{page}", headers={"X-Table-Seq": "2"})
    assert 'data-seq="2"' in followed.text


@pytest.mark.parametrize("page", ["", "/sheet", "/tv"])
def test_a_spectators_repeat_view_asks_the_database_nothing(app, client, sweep_due, page):
    """A page every spectator sees alike, viewed again, comes from memory at the position this
    process knows (at most a sweep old), even when its phone says it saw that position."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    spectator = app.test_client()
    join(app, spectator, table, "viewer")
    assert 'data-seq="1"' in spectator.get(f"/t/{table}{page}").text  # rendered and kept
    for headers in ({}, {"X-Table-Seq": "1"}, {"X-Table-Seq": "junk"}):
        with statements(app) as ran:
            again = spectator.get(f"/t/{table}{page}", headers=headers)
        assert 'data-seq="1"' in again.text
        assert ran == [], ran


def test_the_number_of_tables_kept_is_a_setting(tmp_path) -> None:
    """``SPEED_TABLES``: a server that follows more live tables than it keeps replays them
    again and again (``bench/capacity.py``), so the host sizes it."""
    from app import create_app

    app = create_app(
        {
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/kept.sqlite3",
            "SPEED_TABLES": 5,
        }
    )
    kept = app.extensions["referee.speed"]
    assert (kept.tables.replayed.size, kept.memo["pages"].size) == (5, 10)


def test_one_navigation_bar_serves_every_table_of_a_game(app, client) -> None:
    """The bar is rendered once for every table alike, and each table's page links its own."""
    first = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    second = new_table(app, client, "blackout", ("Dee", "Eve", "Fay"))
    pages = {table: client.get(f"/t/{table}").text for table in (first, second)}
    for table, page in pages.items():
        other = second if table == first else first
        assert f'href="/t/{table}/sheet"' in page and f'href="/t/{table}/sheet.pdf"' in page
        assert other not in page and "~table~" not in page
    navs = app.extensions["referee.speed"].memo["navs"]
    bars = [key for key in navs.items if key[0] == "blackout"]
    assert len(bars) == 1, bars
