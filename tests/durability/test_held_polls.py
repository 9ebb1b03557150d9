"""Held polls under the production server (gunicorn's gevent workers, ``gunicorn.conf.py``), on
SQLite and on PostgreSQL: a page's "has anything changed?" that asks to be held
(``?k=<key>&hold=1``, as ``static/app.js`` asks) is answered when its table changes, whichever
of the two workers wrote the change; after ``POLL_HOLD_SECONDS`` without one it is answered
"no change"; a poll that does not ask is answered at once. Every answer to a poll that asked
says the server holds (``X-Poll-Held``), so the page asks again at once. A page that polls its
own address (``referee.web.polls``) is held the same way and answered with the page itself: one
request per change.
"""

from __future__ import annotations

import http.client
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from referee.rules import Setup
from referee.store.tables import create_table
from referee.web.polls import POLL_HEADER
from tests.durability.conftest import Phone, Server
from tests.links import new_link

pytestmark = pytest.mark.durability

#: How long the test's server holds a poll without a change (``POLL_HOLD_SECONDS``).
HOLD = 2.0
#: How late a held poll may hear of a change: a sweep of the other worker (0.04 s), the request
#: itself, a loaded machine.
LATE = 0.5


@pytest.fixture
def held_server(database_url: str, store: Flask, tmp_path: Path) -> Iterator[Server]:
    env = {"REFEREE_POLL_HOLD_SECONDS": str(HOLD)}
    live = Server(database_url, tmp_path / "gunicorn.log", env=env).start()
    yield live
    live.stop()


def poll(server: Server, address: str, etag: str = "") -> tuple[int, str, str, str, float]:
    """The page's poll as its script sends it (no cookie, the ETag it saw): status, body, ETag,
    X-Poll-Held, and how long the answer took."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HOLD + 10)
    began = time.monotonic()
    try:
        connection.request("GET", address, headers={"If-None-Match": etag} if etag else {})
        response = connection.getresponse()
        body = response.read().decode()
        took = time.monotonic() - began
        held = response.headers.get("X-Poll-Held", "")
        return response.status, body, response.headers.get("ETag", ""), held, took
    finally:
        connection.close()


def followed_table(store: Flask, server: Server) -> tuple[str, Phone, str]:
    """A new Blackout table, its scorekeeper's phone, and the poll address of its page. Only the
    worker that served the page has seen the table: the other reads it for its first held poll,
    which is held as well."""
    with store.app_context():
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
    keeper = Phone(server)
    assert keeper.open_link(new_link(store, table_id)) == f"/t/{table_id}"
    status, page = keeper.get(f"/t/{table_id}")
    assert status == 200
    found = re.search(r'data-poll="([^"]+)"', page)
    assert found, page[-500:]
    return table_id, keeper, found.group(1).replace("&amp;", "&")


def test_a_held_poll_is_answered_when_the_table_changes(held_server: Server, store: Flask):
    table_id, keeper, address = followed_table(store, held_server)
    status, body, etag, held, _took = poll(held_server, f"{address}&hold=1")
    assert (status, body, etag, held) == (200, "0", '"seq-0"', "1")
    answers: list[tuple[tuple[int, str, str, str, float], float]] = []

    def follow() -> None:
        answer = poll(held_server, f"{address}&hold=1", etag)
        answers.append((answer, time.monotonic()))

    waiting = [threading.Thread(target=follow) for _ in range(6)]  # on both workers
    for thread in waiting:
        thread.start()
    time.sleep(0.5)  # every poll held by now
    entered = time.monotonic()
    form = {"seq": "0", "round": "1", "action": "trump", "trump": "H"}
    assert keeper.post(f"/t/{table_id}/entry", form).status == 303
    written = time.monotonic()
    for thread in waiting:
        thread.join(timeout=HOLD + 10)
    assert len(answers) == 6
    for (status, body, new_etag, held, took), answered in answers:
        seen = (status, body, new_etag, held)
        assert seen == (200, "1", '"seq-1"', "1"), (seen, took, answered - entered)
        assert answered >= entered, "answered before the entry: not held"
        assert answered <= written + LATE, f"heard of the entry {answered - written:.2f} s late"


def test_a_held_poll_without_a_change_says_so_after_its_time(held_server: Server, store: Flask):
    _table_id, _keeper, address = followed_table(store, held_server)
    etag = poll(held_server, f"{address}&hold=1")[2]
    status, body, same, held, took = poll(held_server, f"{address}&hold=1", etag)
    assert (status, body, same, held) == (304, "", etag, "1")
    assert HOLD - 0.1 <= took <= HOLD + LATE


def test_a_poll_that_does_not_ask_to_be_held_is_answered_at_once(held_server: Server, store: Flask):
    _table_id, _keeper, address = followed_table(store, held_server)
    etag = poll(held_server, address)[2]
    status, body, same, held, took = poll(held_server, address, etag)
    assert (status, body, same, held) == (304, "", etag, "")
    assert took < HOLD / 2


def test_a_server_that_has_not_seen_the_table_holds_its_first_poll(
    held_server: Server, store: Flask, database_url: str, tmp_path: Path
):
    # The page and the entry on one server, the held poll on another that has never read the
    # table: it reads it for the poll, holds it, and hears of the entry through its sweep.
    table_id, keeper, address = followed_table(store, held_server)
    env = {"REFEREE_POLL_HOLD_SECONDS": str(HOLD)}
    other = Server(database_url, tmp_path / "other.log", workers=1, env=env).start()
    try:
        answers: list[tuple[tuple[int, str, str, str, float], float]] = []

        def follow() -> None:
            answers.append((poll(other, f"{address}&hold=1", '"seq-0"'), time.monotonic()))

        waiting = threading.Thread(target=follow)
        waiting.start()
        time.sleep(0.5)
        entered = time.monotonic()
        form = {"seq": "0", "round": "1", "action": "trump", "trump": "H"}
        assert keeper.post(f"/t/{table_id}/entry", form).status == 303
        written = time.monotonic()
        waiting.join(timeout=HOLD + 10)
        [((status, body, new_etag, held, _took), answered)] = answers
        assert (status, body, new_etag, held) == (200, "1", '"seq-1"', "1")
        assert entered <= answered <= written + LATE
    finally:
        other.stop()


def page_poll(
    server: Server, phone: Phone, path: str, key: str, seq: int
) -> tuple[int, str, str, float]:
    """A page's poll of its own address as ``static/app.js`` sends it (the phone's cookie, the
    position its page shows, its key): status, body, X-Poll-Held, and how long it took."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HOLD + 10)
    began = time.monotonic()
    try:
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items()),
            "If-None-Match": f'"seq-{seq}"',
            POLL_HEADER: key,
        }
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read().decode()
        held = response.headers.get("X-Poll-Held", "")
        return response.status, body, held, time.monotonic() - began
    finally:
        connection.close()


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_watching_phone_sees_each_entry_with_one_request(
    held_server: Server, store: Flask, page: str
):
    """A spectator's page polls itself, held: each entry reaches it as the page itself, in the
    one request the page had open when the entry was made; a quiet table answers "unchanged"
    (a bodiless 304) after the hold."""
    table_id, keeper, address = followed_table(store, held_server)
    key = address.partition("k=")[2].partition("&")[0]
    watcher = Phone(held_server)
    assert watcher.open_link(new_link(store, table_id, "viewer")) == f"/t/{table_id}"
    path = f"/t/{table_id}{page}"
    status, shown = watcher.get(path)
    assert status == 200 and 'data-seq="0"' in shown
    entries = [
        {"action": "trump", "trump": "H"},
        {"action": "bid", "player": "2", "bid": "1"},
        {"action": "bid", "player": "3", "bid": "0"},
    ]
    for seq, entry in enumerate(entries):
        sent: list[tuple[int, str, str, float]] = []
        watching = threading.Thread(
            target=lambda at=seq, into=sent: into.append(
                page_poll(held_server, watcher, path, key, at)
            )
        )
        watching.start()
        time.sleep(0.5)  # the poll is held by now
        form = {"seq": str(seq), "round": "1", **entry}
        assert keeper.post(f"/t/{table_id}/entry", form).status == 303
        watching.join(timeout=HOLD + 10)
        [(status, body, held, took)] = sent  # one request per change
        assert (status, held) == (200, "1"), (status, body[-300:])
        assert f'data-seq="{seq + 1}"' in body and "<main" in body
        assert took < HOLD, "answered by the hold's end, not by the entry"
        assert body == watcher.get(path)[1]  # the page itself, as the phone gets it
    status, body, held, took = page_poll(held_server, watcher, path, key, len(entries))
    assert (status, body, held) == (304, "", "1")
    assert HOLD - 0.1 <= took <= HOLD + LATE
