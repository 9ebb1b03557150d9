"""Durability fixtures: the app under gunicorn on SQLite and on PostgreSQL, and phones to drive it.

Each test gets an empty database at the newest schema (``tests/databases.py``: a new
SQLite file, or a new schema of ``TEST_DATABASE_URL``'s PostgreSQL database, required when
``REQUIRE_POSTGRES=1``), migrated before the server starts — as a deployment runs
``flask db upgrade`` before its servers.

``Server`` runs ``gunicorn 'app:create_app()'`` (2 gevent workers: ``gunicorn.conf.py``, the
production settings: CSRF on, a fixed secret key so sessions outlive a restart) in its own process
group, so that ``kill()`` can SIGKILL the master and every worker at once. ``Phone`` is one browser:
its own cookies (session, CSRF), no redirects followed. A table opens only through one of its links,
so a phone first opens one (``Phone.open_link``, with a token from ``tests/links.py``), which the
server keeps in the phone's session cookie beside its CSRF token.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask

from app import create_app
from referee.store import db
from referee.store.db import upgrade_to_head
from tests.databases import KINDS, empty_database

ROOT = Path(__file__).resolve().parents[2]

#: How long a server may take to start before the test fails (seconds).
START_TIMEOUT = 30


@pytest.fixture(params=KINDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database of each kind."""
    with empty_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def store(database_url: str) -> Iterator[Flask]:
    """The test's own app on that database (to set tables up and read their logs back)."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "durability", "SQLALCHEMY_DATABASE_URI": database_url}
    )
    with app.app_context():
        upgrade_to_head()
    yield app
    with app.app_context():
        db.engine.dispose()


class Server:
    """gunicorn serving the app on a free port of 127.0.0.1, in a process group of its own."""

    def __init__(
        self,
        database_url: str,
        log: Path,
        workers: int = 2,
        env: Mapping[str, str] | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        """``env``: settings added to the server's environment; ``options``: gunicorn's."""
        self.database_url = database_url
        self.log_path = log
        self.env = dict(env or {})
        self.command = [
            sys.executable,
            "-m",
            "gunicorn",
            *("--workers", str(workers)),
            *("--bind", "127.0.0.1:0", "--no-control-socket", "--graceful-timeout", "5"),
            *options,
            "app:create_app()",
        ]
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> Server:
        env = {**os.environ, "DATABASE_URL": self.database_url, "SECRET_KEY": "durability"}
        env |= self.env
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"gunicorn exited:\n{self.log()}"
            found = re.findall(r"Listening at: http://127\.0\.0\.1:(\d+)", self.log())
            if found:
                self.port = int(found[-1])
                try:
                    if Phone(self).get("/")[0] == 200:
                        return self
                except OSError:
                    pass
            time.sleep(0.05)  # polling for the server to come up, not waiting for a result
        raise AssertionError(f"gunicorn did not answer within {START_TIMEOUT} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the master and all its workers at once, as a power cut of the server would."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def server(database_url: str, store: Flask, tmp_path: Path) -> Iterator[Server]:
    """A started server on the test's database (``store`` has migrated it)."""
    live = Server(database_url, tmp_path / "gunicorn.log").start()
    yield live
    live.stop()


@dataclass
class Answer:
    status: int
    location: str
    body: str


class Phone:
    """One phone's browser: its own session cookie, its own CSRF token, no redirects followed."""

    def __init__(self, server: Server, timeout: float = 30, address: str = "127.0.0.1") -> None:
        """``address``: the loopback address the phone connects from (its network address)."""
        self.server = server
        self.timeout = timeout
        self.address = address
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(
        self,
        method: str,
        path: str,
        form: Mapping[str, str] | None = None,
        extra: Mapping[str, str] | None = None,
    ) -> Answer:
        """``extra``: more headers (as the page's script sends them)."""
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.server.port, timeout=self.timeout, source_address=(self.address, 0)
        )
        try:
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            headers.update(extra or {})
            body = None
            if form is not None:
                body = urlencode({**form, "csrf_token": self.token})
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return Answer(response.status, response.headers.get("Location", ""), text)
        finally:
            connection.close()

    def get(self, path: str, extra: Mapping[str, str] | None = None) -> tuple[int, str]:
        answer = self.request("GET", path, extra=extra)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', answer.body)
        if token:
            self.token = token.group(1)
        return answer.status, answer.body

    def post(self, path: str, form: Mapping[str, str]) -> Answer:
        return self.request("POST", path, form)

    def open_link(self, token: str) -> str:
        """Open a table's link (``/j#<token>``) as a phone that scans its QR code does: it loads
        ``/j``, whose script sends the token in the page's form; the server keeps the link in
        this phone's session cookie. The table's path, where the link leads."""
        status, page = self.get("/j")
        assert status == 200, page[-500:]
        answer = self.post("/j", {"link": token})
        assert answer.status == 303, (answer.status, answer.body[-500:])
        return urlsplit(answer.location).path

    def open_shared(self, url: str) -> Answer:
        """Open a link as shared (its QR code, or copied from the share page) as a browser
        running ``static/app.js`` does: load the page at its address (a fragment, ``#…``, stays
        in the browser), and when that is the ``/j`` page, send the fragment in its form."""
        address, _, fragment = url.partition("#")
        path = urlsplit(address).path
        if not fragment:
            return self.request("GET", path)
        status, page = self.get(path)
        assert status == 200 and "data-join" in page, (status, page[-500:])
        return self.post(path, {"link": fragment})
