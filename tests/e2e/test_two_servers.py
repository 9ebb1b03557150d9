"""Two app servers over one PostgreSQL database.

Behind nginx with the repository's configuration (``deploy/nginx.conf``: tables spread by a
consistent hash of the table's path), a table on each server: each table's phones all meet on its
one server, and every watching phone shows every change by its stream.

While a table moves between servers its phones are on both for a moment: the scorekeeper's phone
enters on server A, the watching phone's page on server B shows each entry within half a second
of the tap (``referee.web.speed.wake``: A's commit is told to B's listening workers, which wake
the page's stream B holds). B's safety sweep is set to minutes, so only that notification can
show the entry in time.

Needs PostgreSQL (``TEST_DATABASE_URL``; fails, not skips, with ``REQUIRE_POSTGRES=1``),
gunicorn's gevent workers (``gunicorn.conf.py``), Chromium, and nginx (fails, not skips, with
``REQUIRE_TOOLS=1``).
"""

from __future__ import annotations

import contextlib
import http.client
import random
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from app import create_app
from bench.see_change import SHOWN, TAPPED
from referee.rules import Setup
from referee.store import db
from referee.store.db import upgrade_to_head
from referee.store.links import make_link
from referee.store.tables import create_table
from tests.databases import empty_database
from tests.durability.conftest import Server
from tests.e2e.test_journeys import spectator_link, start_table
from tests.tools import tool

pytestmark = pytest.mark.e2e

#: From the scorekeeper's tap to the watching phone showing the entry (seconds).
SHOWN_WITHIN = 0.5
#: The buttons the scorekeeper taps, an entry each: the trump, the three bids, an undo. The
#: first is not timed: the first entry and page of each server's worker process are slow
#: (templates compiled, the table read and replayed), whichever way servers hear of entries.
ENTRIES = ("♠ spades", "0", "0", "0", "Undo the last entry")


class Served(Server):
    """A gunicorn server (``tests.durability``) with the e2e helpers' ``url``."""

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    """Servers A and B on a new PostgreSQL database; B sweeps only every ten minutes."""
    with empty_database("postgresql", tmp_path) as url:
        store = create_app({"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": url})
        with store.app_context():
            upgrade_to_head()
            db.engine.dispose()
        a = Served(url, tmp_path / "gunicorn-a.log")
        b = Served(url, tmp_path / "gunicorn-b.log", env={"REFEREE_SAFETY_SWEEP_SECONDS": "600"})
        try:
            a.start()
            b.start()
            yield a, b
        finally:
            a.stop()
            b.stop()


def moved_on(page: Page, seq: int, read: str) -> Any:
    """``read`` on the scorekeeper's page once its position is past ``seq`` and the page stands
    still: an undo is a form sent the plain way, and its page loads anew."""
    while True:
        try:
            page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=seq)
            page.wait_for_load_state()
            return page.evaluate(read)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise


def test_a_phone_on_another_server_shows_each_entry_at_once(two_servers, phone) -> None:
    a, b = two_servers
    keeper = phone()
    keeper.context.add_init_script(TAPPED)
    url = start_table(keeper, a, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, a, url)
    watcher = phone()
    watcher.context.add_init_script(SHOWN)
    # The page's stream goes out as the page opens and is held by B from then on.
    streams: list[str] = []
    watcher.on(
        "request", lambda r: streams.append(r.url) if r.resource_type == "eventsource" else None
    )
    watcher.goto(link.replace(a.url("/"), b.url("/")))  # the same link, through server B
    watched = url.replace(a.url("/"), b.url("/"))
    watcher.wait_for_url(watched)
    watcher.wait_for_function("() => window.shownAt && '0' in window.shownAt")
    for _ in range(100):
        if streams:
            break
        watcher.wait_for_timeout(100)
    assert streams, "the watching page never opened its stream on B"
    rng = random.Random(7)
    delays = []
    for button in ENTRIES:
        keeper.wait_for_timeout(rng.uniform(600, 1200))  # a person between entries
        seq = int(keeper.evaluate("document.body.dataset.seq"))
        keeper.get_by_role("button", name=button, exact=True).tap()
        now = moved_on(keeper, seq, "document.body.dataset.seq")
        watcher.wait_for_function("(s) => window.shownAt && s in window.shownAt", arg=now)
        shown: Any = watcher.evaluate("(s) => window.shownAt[s]", now)
        tapped: Any = moved_on(keeper, seq, "Number(sessionStorage.getItem('tapped'))")
        delays.append((shown - tapped) / 1000)
    assert max(delays[1:]) <= SHOWN_WITHIN, [round(d, 3) for d in delays]
    assert "listening for entries broke" not in b.log(), b.log()[-2000:]


#: The proxy's configuration, as the repository gives it for a deployment of two servers.
NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
#: How long nginx may take to start (seconds).
NGINX_START = 10


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Proxy:
    """nginx with ``deploy/nginx.conf`` in front of servers A and B (their addresses put in for
    the configuration's two), answering on a free port of its own; each answer says which server
    gave it (``X-Upstream``, added for the test)."""

    def __init__(self, tmp_path: Path, a: Served, b: Served) -> None:
        self.prefix = tmp_path / "nginx"
        (self.prefix / "logs").mkdir(parents=True)
        (self.prefix / "temp").mkdir()
        self.port = free_port()
        conf = NGINX_CONF.read_text()
        for old, new in (
            ("server 127.0.0.1:8000;", f"server 127.0.0.1:{a.port};"),
            ("server 127.0.0.1:8001;", f"server 127.0.0.1:{b.port};"),
            ("listen 8080;", f"listen 127.0.0.1:{self.port};"),
            (
                "proxy_pass http://referee;",
                "proxy_pass http://referee;\n add_header X-Upstream $upstream_addr always;",
            ),
        ):
            assert old in conf, old
            conf = conf.replace(old, new)
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(conf)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [tool("nginx"), "-p", str(self.prefix), "-c", str(self.conf), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE)
        deadline = time.monotonic() + NGINX_START
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()[1].decode()
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            time.sleep(0.05)  # polling for nginx to come up, not waiting for a result
        raise AssertionError("nginx did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.communicate(timeout=10)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def upstream(self, path: str) -> str:
        """The server (its address) that answers ``path``."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            return response.headers["X-Upstream"]
        finally:
            connection.close()


def noting(into: set[str], table_id: str) -> Callable[[Any], None]:
    """A page's listener that notes which server answered each request about the table."""

    def note(response: Any) -> None:
        if table_id in response.url:
            into.add(response.headers.get("x-upstream", ""))

    return note


@pytest.fixture
def behind_nginx(two_servers, tmp_path: Path) -> Iterator[tuple[Proxy, Served, Served]]:
    a, b = two_servers
    proxy = Proxy(tmp_path, a, b)
    proxy.start()
    try:
        yield proxy, a, b
    finally:
        proxy.stop()


def test_behind_nginx_each_tables_phones_meet_on_one_server_and_see_every_change(
    behind_nginx, phone
) -> None:
    """Tables spread over two servers by nginx's consistent hash of the table's path: a table
    on each server, its scorekeeper and two watching phones all through the proxy; every request
    of a table goes to its one server, and each watcher shows every change, by its stream."""
    proxy, a, b = behind_nginx
    store = create_app({"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": a.database_url})
    on: dict[str, str] = {}  # server address → a table it serves
    with store.app_context():
        for _ in range(40):
            table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
            on.setdefault(proxy.upstream(f"/t/{table_id}"), table_id)
            if len(on) == 2:
                break
        assert sorted(on) == sorted(f"127.0.0.1:{s.port}" for s in (a, b)), on
        links = {
            table_id: (make_link(table_id, "keeper"), make_link(table_id, "viewer"))
            for table_id in on.values()
        }
        db.engine.dispose()
    for server, table_id in on.items():
        keeper_link, viewer_link = links[table_id]
        url = proxy.url(f"/t/{table_id}")
        keeper = phone()
        keeper.goto(proxy.url(f"/j#{keeper_link}"))
        keeper.wait_for_url(url)
        watchers = []
        answered_by: set[str] = set()
        for _ in range(2):
            watcher = phone()
            watcher.context.add_init_script(SHOWN)
            streams: list[str] = []
            watcher.on(
                "request",
                lambda r, into=streams: (
                    into.append(r.url) if r.resource_type == "eventsource" else None
                ),
            )
            watcher.on("response", noting(answered_by, table_id))
            watcher.goto(proxy.url(f"/j#{viewer_link}"))
            watcher.wait_for_url(url)
            watcher.wait_for_function("() => window.shownAt && '0' in window.shownAt")
            watchers.append((watcher, streams))
        keeper.on("response", noting(answered_by, table_id))
        for button in ("♠ spades", "0", "0", "0"):
            seq = int(keeper.evaluate("document.body.dataset.seq"))
            keeper.get_by_role("button", name=button, exact=True).tap()
            keeper.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=seq)
        for watcher, streams in watchers:
            watcher.wait_for_function("() => window.shownAt && '4' in window.shownAt")
            shown = watcher.evaluate("Object.keys(window.shownAt).map(Number).sort()")
            assert shown == [0, 1, 2, 3, 4], shown  # every change, none skipped
            assert len(streams) == 1, streams  # by its one stream
        assert answered_by == {server}, (server, answered_by)
