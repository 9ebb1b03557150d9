"""A table's live pages by push (``referee.web.live``) under the production server (gunicorn's
gevent workers), on SQLite and on PostgreSQL: a page's stream brings each change, a page every
viewer of its kind sees alike as the very bytes a request for it gets, any other as its position;
a reconnect resumes after the last position it had, missing nothing and repeating nothing; a
refused link gets what a page request gets; a reader that never reads is dropped without holding
the worker; one address holds no more than ``STREAM_LIMIT`` streams.

The entries are written the way another server writes them (``append_entry`` on the shared
database), so the server hears of each by its sweep (SQLite) or its listener (PostgreSQL), as a
watcher's server does; and one through the server itself, as its own scorekeeper's.
"""

from __future__ import annotations

import contextlib
import http.client
import random
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask

from referee.rules import Setup
from referee.store.groups import create_group, make_group_link, rename_player
from referee.store.links import revoke
from referee.store.tables import append_entry, create_table, get_table
from referee.web.loading import replayed
from tests.durability.conftest import Phone, Server
from tests.durability.legal import next_entry
from tests.links import new_link

pytestmark = pytest.mark.durability

#: How long a test waits for an event it expects (seconds).
WAIT = 10.0


@dataclass
class Event:
    """One server-sent event: its kind, id and data (as ``EventSource`` reads them)."""

    kind: str
    id: str
    data: str


class Stream:
    """A page's stream as a browser's ``EventSource`` opens it: the phone's cookie, ``Accept:
    text/event-stream`` and, when it resumes, ``Last-Event-ID``."""

    def __init__(
        self,
        server: Server,
        phone: Phone,
        path: str,
        last: int | str | None = None,
        address: str = "127.0.0.1",
        extra: dict[str, str] | None = None,
    ) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", server.port, timeout=WAIT, source_address=(address, 0)
        )
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items()),
            "Accept": "text/event-stream",
            **(extra or {}),
        }
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self) -> Event:
        """The next event (comment lines and the first ``ready`` one skipped)."""
        fields: dict[str, list[str]] = {}
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            line = line.removesuffix("\n")
            if line == "":
                if "data" in fields and fields.get("event") != ["ready"]:
                    return Event(
                        fields.get("event", ["message"])[-1],
                        fields.get("id", [""])[-1],
                        "\n".join(fields["data"]),
                    )
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value.removeprefix(" "))

    def close(self) -> None:
        self.connection.close()


def streaming(server: Server, phone: Phone, path: str, **options: object) -> Stream:
    stream = Stream(server, phone, path, **options)  # type: ignore[arg-type]
    assert stream.status == 200, stream.response.read()[-500:]
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    return stream


def enter(store: Flask, table_id: str, rng: random.Random, count: int = 1) -> int:
    """``count`` legal entries written to the table as another server writes them; its new
    position."""
    with store.app_context():
        record = get_table(table_id)
        assert record is not None
        seq, state = record.last_seq, replayed(record)[1]
        for _ in range(count):
            found = next_entry(state, rng)
            assert found is not None
            event, state = found
            seq = append_entry(table_id, seq, "event", event.to_dict())
    return seq


@pytest.fixture
def streams_server(database_url: str, store: Flask, tmp_path: Path) -> Iterator[Server]:
    live = Server(database_url, tmp_path / "gunicorn.log").start()
    yield live
    live.stop()


def a_table(store: Flask, server: Server) -> tuple[str, Phone]:
    """A new Blackout table and its scorekeeper's phone."""
    with store.app_context():
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
    keeper = Phone(server)
    assert keeper.open_link(new_link(store, table_id)) == f"/t/{table_id}"
    return table_id, keeper


def holder(store: Flask, server: Server, table_id: str, kind: str, **options: str) -> Phone:
    phone = Phone(server, **options)  # type: ignore[arg-type]
    player = "Ben" if kind == "player" else None
    assert phone.open_link(new_link(store, table_id, kind, player)) == f"/t/{table_id}"
    return phone


def test_each_change_reaches_every_page_of_every_kind_and_language(
    streams_server: Server, store: Flask
) -> None:
    server = streams_server
    table_id, keeper = a_table(store, server)
    phones = {
        "viewer": holder(store, server, table_id, "viewer"),
        "viewer again": holder(store, server, table_id, "viewer"),
        "player": holder(store, server, table_id, "player"),
        "keeper": keeper,
    }
    german = {"Accept-Language": "de"}
    # (phone, page, headers) → what each change brings: the page whole or its position.
    watched = {
        ("viewer", "", ""): "page",
        ("viewer again", "", ""): "page",
        ("viewer", "", "de"): "page",
        ("viewer", "/sheet", ""): "page",
        ("viewer", "/tv", ""): "page",
        ("viewer", "/standings", "de"): "page",
        ("viewer", "/history", ""): "moved",
        ("player", "", ""): "moved",
        ("player", "/sheet", ""): "page",
        ("keeper", "", ""): "moved",
        ("keeper", "/sheet", ""): "page",
    }
    streams = {}
    for who, page, lang in watched:
        path = f"/t/{table_id}{page}?stream=0"
        streams[who, page, lang] = streaming(
            server, phones[who], path, extra=german if lang else None
        )
    rng = random.Random(43)
    # One entry through the server (its own scorekeeper's), three as another server writes them.
    form = {"seq": "0", "round": "1", "action": "trump", "trump": "H"}
    assert keeper.post(f"/t/{table_id}/entry", form).status == 303
    positions = [1]
    for _ in range(3):
        time.sleep(0.3)  # a person between entries
        positions.append(enter(store, table_id, rng))
    last = positions[-1]
    seen: dict[tuple[str, str, str], list[Event]] = {}
    for watch, stream in streams.items():
        events = seen[watch] = []
        while not events or int(events[-1].id) < last:
            events.append(stream.next())
        ids = [int(event.id) for event in events]
        assert ids == sorted(set(ids)), (watch, ids)  # nothing twice, never back
        assert {event.kind for event in events} == {watched[watch]}, watch
    for (who, page, lang), events in seen.items():
        final = events[-1]
        if final.kind == "moved":
            assert final.data == str(last)
            continue
        # The very bytes a request for the page gets, for this phone's kind and language.
        status, body = phones[who].get(f"/t/{table_id}{page}", extra=german if lang else None)
        assert status == 200
        assert final.data == body, (who, page, lang)
        assert f'data-seq="{last}"' in final.data
    assert seen["viewer", "", ""][-1].data == seen["viewer again", "", ""][-1].data
    assert 'lang="de"' in seen["viewer", "", "de"][-1].data
    assert 'lang="en"' in seen["viewer", "", ""][-1].data
    for stream in streams.values():
        stream.close()


def test_a_stream_resumes_after_the_last_position_it_had(
    streams_server: Server, store: Flask
) -> None:
    server = streams_server
    table_id, _keeper = a_table(store, server)
    viewer = holder(store, server, table_id, "viewer")
    rng = random.Random(7)
    now = enter(store, table_id, rng, 3)
    behind = streaming(server, viewer, f"/t/{table_id}/sheet?stream=0", last=1)
    caught_up = behind.next()  # at once: the page as it is now, not each one missed
    assert (caught_up.kind, caught_up.id) == ("page", str(now))
    behind.close()
    # A reconnect that had the newest position gets nothing until the next change …
    level = streaming(server, viewer, f"/t/{table_id}/sheet?stream=0", last=now)
    began = time.monotonic()
    time.sleep(0.5)
    after = enter(store, table_id, rng)
    following = level.next()
    assert (following.kind, following.id) == ("page", str(after))
    assert time.monotonic() - began >= 0.5  # it waited for the change
    level.close()
    # … and the first connection says where its page is with ?stream=N.
    fresh = streaming(server, viewer, f"/t/{table_id}/sheet?stream={after - 1}")
    assert fresh.next().id == str(after)
    fresh.close()


def test_a_group_page_and_tv_mode_follow_every_change_of_a_table_and_of_the_group(
    streams_server: Server, store: Flask
) -> None:
    """A group's viewer with the group page and TV mode open: an entry at tonight's table and a
    roster change, each made through another server, each move both pages once, to where a
    request for the page says it stands."""
    server = streams_server
    table_id, keeper = a_table(store, server)
    with store.app_context():
        group_id = create_group("Club", "Europe/Berlin", ("Ann", "Ben", "Cho"))
        keeper_link = make_group_link(group_id, "keeper")
        viewer_link = make_group_link(group_id, "viewer")
    assert keeper.open_link(keeper_link) == f"/g/{group_id}"
    assert keeper.get(f"/t/{table_id}/group")[0] == 200
    assert keeper.post(f"/t/{table_id}/group", {"group": group_id}).status == 303
    viewer = Phone(server)
    assert viewer.open_link(viewer_link) == f"/g/{group_id}"

    def standing(page: str) -> str:
        status, body = viewer.get(f"/g/{group_id}{page}")
        found = re.search(r'data-follow="([A-Za-z0-9_-]+)"', body)
        assert status == 200 and found, body[-500:]
        return found[1]

    pages = ("", "/tv")
    streams = {
        page: streaming(server, viewer, f"/g/{group_id}{page}", last=standing(page))
        for page in pages
    }
    rng = random.Random(41)
    enter(store, table_id, rng)
    for page, stream in streams.items():
        moved = stream.next()
        assert (moved.kind, moved.id, moved.data) == ("moved", standing(page), standing(page))
    with store.app_context():
        rename_player(group_id, "p1", "Anna")
    for page, stream in streams.items():
        moved = stream.next()  # heard within a second (the streams' recheck of group versions)
        assert (moved.kind, moved.id) == ("moved", standing(page)), page
    status, body = viewer.get(f"/g/{group_id}")
    assert status == 200 and "Anna" in body
    for stream in streams.values():
        stream.close()


def test_a_refused_stream_gets_what_a_page_request_gets(
    streams_server: Server, store: Flask
) -> None:
    server = streams_server
    table_id, _keeper = a_table(store, server)
    other_table, _other_keeper = a_table(store, server)
    revoked = holder(store, server, table_id, "viewer")
    foreign = holder(store, server, other_table, "viewer")
    with store.app_context():
        revoke(table_id, "viewer")
    for phone, path in [
        (revoked, f"/t/{table_id}"),
        (revoked, f"/t/{table_id}/sheet"),
        (foreign, f"/t/{table_id}"),
        (Phone(server), f"/t/{table_id}/history"),
        (Phone(server), "/t/no-such-table"),
    ]:
        time.sleep(1.1)  # the revocation swept in by now (the other worker's too)
        page = phone.request("GET", path)
        stream = Stream(server, phone, path)
        body = stream.response.read().decode()
        stream.close()
        assert page.status in (403, 404)
        assert (stream.status, body) == (page.status, page.body), path


def test_an_expired_session_opens_no_stream(database_url: str, store: Flask, tmp_path: Path):
    env = {"REFEREE_PERMANENT_SESSION_LIFETIME": "2"}
    server = Server(database_url, tmp_path / "gunicorn.log", env=env).start()
    try:
        table_id, _keeper = a_table(store, server)
        viewer = holder(store, server, table_id, "viewer")
        opened = Stream(server, viewer, f"/t/{table_id}")
        assert opened.status == 200
        opened.close()
        time.sleep(3)
        page = viewer.request("GET", f"/t/{table_id}")
        stream = Stream(server, viewer, f"/t/{table_id}")
        refused = (stream.status, stream.response.read().decode())
        stream.close()
        assert page.status == 403
        assert refused == (page.status, page.body)
    finally:
        server.stop()


def test_a_reader_that_never_reads_is_dropped_without_holding_the_worker(
    database_url: str, store: Flask, tmp_path: Path
) -> None:
    env = {"REFEREE_STREAM_LIMIT": "1", "REFEREE_STREAM_WRITE_SECONDS": "1"}
    server = Server(database_url, tmp_path / "gunicorn.log", workers=1, env=env).start()
    stuck = socket.socket()
    try:
        table_id, _keeper = a_table(store, server)
        viewer = holder(store, server, table_id, "viewer", address="127.0.0.3")
        cookie = "; ".join(f"{k}={v}" for k, v in viewer.cookies.items())
        # A phone that asks for the stream and never reads a byte of it.
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.bind(("127.0.0.3", 0))
        stuck.connect(("127.0.0.1", server.port))
        request = (
            f"GET /t/{table_id}/sheet?stream=0 HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        stuck.sendall(request.encode())
        time.sleep(0.5)
        # Its one stream is all its address may hold.
        refused = Stream(server, viewer, f"/t/{table_id}/sheet", address="127.0.0.3")
        refused.close()
        assert refused.status == 204
        rng = random.Random(3)
        watcher = holder(store, server, table_id, "viewer")
        for _ in range(40):  # pages enough to fill what the server buffers for it, and more
            enter(store, table_id, rng)
            began = time.monotonic()
            assert watcher.get(f"/t/{table_id}/sheet")[0] == 200
            assert time.monotonic() - began < 0.5  # the worker serves everyone meanwhile
            time.sleep(0.05)
        time.sleep(1.5)  # its write's time is up
        # Dropped: its address may open a stream again, and its connection is closed.
        again = Stream(server, viewer, f"/t/{table_id}/sheet", address="127.0.0.3")
        assert again.status == 200
        again.close()
        stuck.settimeout(5)  # what was sent before, then its end (not a wait: a timeout fails)
        with contextlib.suppress(ConnectionResetError):
            while stuck.recv(65536):
                pass
        time.sleep(0.2)
        said = (tmp_path / "gunicorn.log").read_text()
        assert "dropped a phone that stopped reading its stream" in said, said[-2000:]
        assert "Traceback" not in said, said[-2000:]
    finally:
        stuck.close()
        server.stop()


def test_one_address_holds_no_more_than_its_streams(
    database_url: str, store: Flask, tmp_path: Path
) -> None:
    env = {"REFEREE_STREAM_LIMIT": "3"}
    server = Server(database_url, tmp_path / "gunicorn.log", workers=1, env=env).start()
    try:
        table_id, _keeper = a_table(store, server)
        flood = holder(store, server, table_id, "viewer", address="127.0.0.4")
        path = f"/t/{table_id}/sheet"
        held = [Stream(server, flood, path, address="127.0.0.4") for _ in range(4)]
        assert [stream.status for stream in held] == [200, 200, 200, 204]
        other = holder(store, server, table_id, "viewer", address="127.0.0.5")
        held.append(Stream(server, other, path, address="127.0.0.5"))
        assert held[-1].status == 200
        for stream in held:
            stream.close()
    finally:
        server.stop()
