"""Two app servers, one PostgreSQL database: a deployment that outgrows one machine.

Two separate gunicorn servers (processes that share nothing but the database and the secret
key) serve the same tables, and the phones of one table are spread over both, as behind a load
balancer. Each server keeps tables, log positions and pages in its memory (the speed layer,
``referee/web/speed/``); what one server writes, the other learns of from the database.

- Phones on both servers race for every step of one table: every entry a phone was told it
  recorded is in the log once, nothing refused was written (``check_table``, as for one
  server).
- Every entry made on one server shows on both: a watching phone's poll on each reports it
  within the sweep interval (``referee.web.speed.kept.Positions``: once a second each process
  asks which tables changed), and the page it then loads, saying which position its poll saw
  (``X-Table-Seq``, as the page's script does), shows it. Scorekeepers on each server
  in turn, entry after entry.
- A poll held on one server (gevent workers) answers an entry made through the other a moment
  after it commits, told by PostgreSQL's NOTIFY (``referee.web.speed.wake``), not at the next
  sweep: with the watching server's safety sweep set to minutes, only the notification can wake
  it in time.
"""

from __future__ import annotations

import http.client
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import text

from app import create_app
from referee.rules import Setup, replay
from referee.store import db
from referee.store.db import upgrade_to_head
from referee.store.tables import create_table, effective_events, get_table
from referee.web.speed.wake import LISTENER_NAME
from tests.databases import empty_database
from tests.durability import summary
from tests.durability.conftest import Phone, Server
from tests.durability.legal import entry_form, next_entry
from tests.durability.test_concurrency import Table, check_table, phone_at_table
from tests.durability.test_streams import Stream
from tests.links import new_link

pytestmark = pytest.mark.durability

#: How often each server asks the database which tables changed (``Speed``'s default).
SWEEP_EVERY = 1.0
#: What a loaded machine may add to it: the request itself, the scheduler.
SLACK = 0.5


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[tuple[Flask, list[Server]]]:
    """The test's app on a new PostgreSQL database and two servers started on it."""
    with empty_database("postgresql", tmp_path) as url:
        settings = {"TESTING": True, "SECRET_KEY": "durability", "SQLALCHEMY_DATABASE_URI": url}
        app = create_app(settings)
        with app.app_context():
            upgrade_to_head()
        servers = [Server(url, tmp_path / f"gunicorn-{n}.log") for n in (1, 2)]
        try:
            for server in servers:
                server.start()
            yield app, servers
        finally:
            for server in servers:
                server.stop()
            with app.app_context():
                db.engine.dispose()


def test_phones_of_one_table_on_two_servers(shared):
    """Eight phones race at one Blackout table, four on each server."""
    store, servers = shared
    setup = Setup("blackout", ("Ann", "Ben", "Cho", "Dee"))
    with store.app_context():
        table_id = create_table(setup)
    table = Table(table_id, setup, new_link(store, table_id))
    errors: list[str] = []
    threads = [
        threading.Thread(target=phone_at_table, args=(servers[n % 2], store, table, n, 30, errors))
        for n in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive(), "a phone hung"
    assert errors == [], "\n".join(errors) + "\n" + servers[0].log()[-2000:]
    landed = check_table(store, table)
    assert {a.phone % 2 for a in table.attempts if a.outcome == "landed"} == {0, 1}, (
        "entries landed on one server only: the test proved nothing"
    )
    assert landed >= 30
    summary.count("concurrent_writes", landed)


def poll(server: Server, address: str, etag: str) -> tuple[int, str, str]:
    """The page's own poll, as ``static/app.js`` sends it (no cookie, the ETag it saw): status,
    body, ETag."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", address, headers={"If-None-Match": etag} if etag else {})
        response = connection.getresponse()
        return response.status, response.read().decode(), response.headers.get("ETag", "")
    finally:
        connection.close()


def page_seq(page: str) -> tuple[str, int]:
    """A table page's poll address and the log position it shows."""
    found = re.search(r'data-poll="([^"]+)" data-seq="(\d+)"', page)
    assert found, page[-500:]
    return found.group(1).replace("&amp;", "&"), int(found.group(2))


def next_entry_form(
    store: Flask, keeper: Phone, path: str, table_id: str, setup: Setup, number: int
) -> tuple[int, dict[str, str]]:
    """The position the scorekeeper's page shows (checked against the database) and the form of
    a legal next entry there (the ``number``-th choice's seed)."""
    status, page = keeper.get(path)
    assert status == 200
    _address, seen = page_seq(page)
    with store.app_context():
        record = get_table(table_id)
    assert record is not None and record.last_seq == seen
    state = replay(setup, effective_events(record.entries))
    entry = next_entry(state, random.Random(number))
    assert entry is not None
    return seen, entry_form(state, entry[0], seen)


def test_each_server_sees_the_others_entries(shared):
    """A scorekeeper on each server in turn; a spectator on each server follows the table."""
    store, servers = shared
    setup = Setup("blackout", ("Ann", "Ben", "Cho", "Dee"))
    with store.app_context():
        table_id = create_table(setup)
    path = f"/t/{table_id}"
    keepers, viewers = [], []
    for server in servers:
        keeper, viewer = Phone(server), Phone(server)
        assert keeper.open_link(new_link(store, table_id)) == path
        assert viewer.open_link(new_link(store, table_id, "viewer")) == path
        keepers.append(keeper)
        viewers.append(viewer)
    watched = []  # per server: the poll address and the ETag its phone last saw
    for server, viewer in zip(servers, viewers, strict=True):
        status, page = viewer.get(path)
        assert status == 200
        address, _seq = page_seq(page)
        _status, _body, etag = poll(server, address, "")
        watched.append([address, etag])
    waits = []
    for number in range(12):
        keeper = keepers[number % 2]
        seen, form = next_entry_form(store, keeper, path, table_id, setup, number)
        answer = keeper.post(f"{path}/entry", form)
        assert answer.status == 303, answer.body[-500:]
        written = time.monotonic()
        # Each server's spectator (the other server's above all), polling as often as it
        # likes: when does it know? (Even the writer's server has a second worker process.)
        for server, viewer, follow in zip(servers, viewers, watched, strict=True):
            while True:
                status, body, etag = poll(server, follow[0], follow[1])
                if status == 200 and int(body) == seen + 1:
                    waits.append(time.monotonic() - written)
                    follow[1] = etag
                    break
                # Not yet: unchanged, or (the server's other worker, a sweep behind the one
                # that answered before) the position before.
                assert status == 304 or (status == 200 and int(body) <= seen), (status, body)
                assert time.monotonic() - written < 10 * SWEEP_EVERY, "the change never showed"
                time.sleep(0.05)
            # What the phone loads when its poll says so, saying which position the poll
            # answered, as the page's script does (static/app.js, X-Table-Seq).
            status, page = viewer.get(path, {"X-Table-Seq": str(seen + 1)})
            assert status == 200
            assert page_seq(page)[1] == seen + 1, "the page lags behind its own poll"
    assert max(waits) <= SWEEP_EVERY + SLACK, [round(w, 2) for w in waits]


#: How soon a stream held on one server brings an entry made through the other when the servers
#: tell each other (PostgreSQL's NOTIFY, ``referee.web.speed.wake``): far below the sweep.
TOLD_WITHIN = 0.3
#: The watching server's safety sweep in that test (``SAFETY_SWEEP_SECONDS``): so long that only
#: a notification can wake its stream in time.
NO_SWEEP = 600


def workers_of(server: Server) -> set[int]:
    """The process ids of the server's gunicorn workers (its master's children)."""
    assert server.process is not None
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == server.process.pid:
            children.add(int(stat.parent.name))
    return children


def listening(store: Flask) -> set[int]:
    """The worker processes with a listening connection to the database (``wake.LISTENER_NAME``
    and the worker's id, as ``pg_stat_activity`` shows it)."""
    with store.app_context():
        names = db.session.scalars(
            text("SELECT application_name FROM pg_stat_activity WHERE application_name LIKE :n"),
            {"n": LISTENER_NAME + "%"},
        ).all()
        db.session.rollback()
    return {int(name.removeprefix(LISTENER_NAME)) for name in names}


def test_an_entry_through_one_server_wakes_a_stream_held_on_the_other_at_once(tmp_path):
    """A watching phone's stream held on server B (one worker, sweeping only every ``NO_SWEEP``
    seconds); a scorekeeper enters on server A; B's stream brings it within ``TOLD_WITHIN``."""
    with empty_database("postgresql", tmp_path) as url:
        settings = {"TESTING": True, "SECRET_KEY": "durability", "SQLALCHEMY_DATABASE_URI": url}
        store = create_app(settings)
        with store.app_context():
            upgrade_to_head()
        watching = {"REFEREE_SAFETY_SWEEP_SECONDS": str(NO_SWEEP)}
        a = Server(url, tmp_path / "gunicorn-a.log")
        b = Server(url, tmp_path / "gunicorn-b.log", workers=1, env=watching)
        try:
            a.start()
            b.start()
            told_at_once(store, a, b)
        finally:
            a.stop()
            b.stop()
            with store.app_context():
                db.engine.dispose()


def told_at_once(store: Flask, a: Server, b: Server) -> None:
    setup = Setup("blackout", ("Ann", "Ben", "Cho", "Dee"))
    with store.app_context():
        table_id = create_table(setup)
    path = f"/t/{table_id}"
    keeper, viewer = Phone(a), Phone(b)
    assert keeper.open_link(new_link(store, table_id)) == path
    assert viewer.open_link(new_link(store, table_id, "viewer")) == path
    status, _page = viewer.get(path)
    assert status == 200
    stream = Stream(b, viewer, f"{path}/sheet?stream=0")  # as static/app.js opens it
    assert stream.status == 200
    waits = []
    for number in range(6):
        seen, form = next_entry_form(store, keeper, path, table_id, setup, number)
        time.sleep(0.5)  # B's listener listens before the entry
        if number == 0:
            assert workers_of(b) <= listening(store), "B's worker does not listen"
        answer = keeper.post(f"{path}/entry", form)
        written = time.monotonic()
        assert answer.status == 303, answer.body[-500:]
        event = stream.next()
        waits.append(max(0.0, time.monotonic() - written))
        assert (event.kind, event.id) == ("page", str(seen + 1)), "B's stream did not hear of it"
    stream.close()
    assert max(waits) <= TOLD_WITHIN, [round(w, 3) for w in waits]
    assert "listening for entries broke" not in b.log(), b.log()[-2000:]
