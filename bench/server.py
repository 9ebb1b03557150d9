"""What the web benchmarks share: a database, phones holding links, gunicorn, and wrk.

- ``instance()``: a temporary instance folder with an SQLite database in it (removed after);
  ``postgres_instance(url)``: the same with a throwaway database created on the PostgreSQL server
  of ``url`` (``DATABASE_URL``), migrated, and dropped after.
- ``open_app()``, ``new_tables()``, ``copy_tables()``: the app on that database (same
  ``SECRET_KEY`` as the server) and tables seeded in it (``copy_tables`` in bulk, for many copies
  of a long game).
- ``phones()``: links to tables (``referee.store.links.make_link``) and, for each, the session
  cookie a phone holds after opening it — signed with the app's own session serializer, as
  ``GET /j/<token>`` would set it (``referee.web.sharing.access.TABLES.grant``) — plus, when
  asked, a form CSRF token (``flask_wtf.csrf.generate_csrf``) that belongs to that session. No
  browser needed.
- ``Server``: gunicorn serving ``bench.bench_app:make()`` (the real app plus ``GET /bare``) on a
  free port of 127.0.0.1, production settings, in a process group of its own; ``BARE`` serves
  the true bare reference (``bench/bare_app.py``) with the same settings.
- ``wrk()``: load from wrk with ``requests.lua``, which sends the requests of a file (one a
  line: method, path, cookie, If-None-Match, body), each thread taking every n-th line and
  starting again at the end, and counts the status of every response. Returns requests/s and
  the statuses; ``Load.failures`` names whatever was not in the expected statuses (socket
  errors included), so a benchmark can fail on it.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from referee.rules import Setup

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: The secret key of the served app and of the cookies made for it.
SECRET_KEY = "bench"
#: The real app as the benchmarks serve it, and the true bare reference (one route, nothing else).
APP = "bench.bench_app:make()"
BARE = "bench.bare_app:make()"
#: The Lua script every wrk run uses.
SCRIPT = ROOT / "bench" / "requests.lua"


@contextmanager
def instance(prefix: str = "referee-bench-") -> Iterator[tuple[Path, str]]:
    """A temporary folder and the URI of an SQLite database in it; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder, f"sqlite:///{folder / 'bench.sqlite3'}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgres_instance(url: str) -> Iterator[tuple[Path, str]]:
    """A temporary folder and the URI of a new, empty database on the PostgreSQL server of
    ``url`` (a ``DATABASE_URL``; its user must be allowed to create databases), dropped after."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from referee.store.db import database_uri

    server = make_url(database_uri(url, ""))
    name = f"referee_bench_{secrets.token_hex(4)}"
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        with instance("referee-bench-pg-") as (folder, _sqlite):
            yield folder, server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def open_app(database: str) -> Flask:
    """The app on ``database`` (migrated: SQLite by the app itself, PostgreSQL here), with the
    served app's secret key."""
    from app import create_app
    from referee.store.db import upgrade_to_head

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": SECRET_KEY})
    if not database.startswith("sqlite"):
        with app.app_context():
            upgrade_to_head()
    return app


def new_tables(
    app: Flask, count: int, players: Sequence[str], events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """``count`` new Blackout tables for ``players``, each with ``events`` (dicts) recorded."""
    from referee.rules import Setup
    from referee.store.tables import append_entry, create_table

    ids = []
    with app.app_context():
        for _ in range(count):
            table = create_table(Setup("blackout", tuple(players)))
            seq = 0
            for event in events:
                seq = append_entry(table, seq, "event", event)
            ids.append(table)
    return ids


def copy_tables(
    app: Flask, count: int, setup: Setup, events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """``count`` new tables for ``setup``, each with ``events`` (dicts), inserted in bulk (one
    statement a table): for many copies of a long game. Each payload is checked once, as
    ``append_entry`` would."""
    from sqlalchemy import insert

    from referee.store import db
    from referee.store.models import Entry, Table
    from referee.store.tables import checked_payload, create_table

    stored = [checked_payload("event", e, i) for i, e in enumerate(events)]
    ids = []
    with app.app_context():
        for _ in range(count):
            table = create_table(setup)
            if stored:
                db.session.execute(
                    insert(Entry),
                    [
                        {"table_id": table, "seq": i, "kind": "event", "payload": e}
                        for i, e in enumerate(stored, start=1)
                    ],
                )
                db.session.query(Table).filter_by(id=table).update({"last_seq": len(stored)})
            db.session.commit()
            ids.append(table)
    return ids


@dataclass(frozen=True)
class Phone:
    """A phone that opened a link to a table: its ``Cookie`` header value (``name=value``) and,
    if asked for, the CSRF token its forms post."""

    table_id: str
    kind: str
    token: str
    cookie: str
    csrf: str = ""


def phones(
    app: Flask, tables: Iterable[str], kind: str, csrf: bool = False, per_table: int = 1
) -> list[Phone]:
    """``per_table`` phones for each table, each with a new ``kind`` link (made in the database)
    and the session cookie that opening it leaves in a browser."""
    from flask import session
    from flask.sessions import SecureCookieSessionInterface
    from flask_wtf.csrf import generate_csrf

    from referee.store.db import db
    from referee.store.links import Access, make_link
    from referee.web.sharing.access import TABLES

    with app.app_context():
        made = [
            (table, make_link(table, kind, commit=False))
            for table in tables
            for _ in range(per_table)
        ]
        db.session.commit()
    interface = app.session_interface
    assert isinstance(interface, SecureCookieSessionInterface)  # cookie sessions (app.py)
    serializer = interface.get_signing_serializer(app)
    assert serializer is not None  # the app has a secret key
    name = app.config["SESSION_COOKIE_NAME"]
    result = []
    for table, token in made:
        with app.test_request_context():
            # what opening the link keeps in the session
            TABLES.grant(token, Access(table, kind, None))
            form_token = generate_csrf() if csrf else ""
            value = serializer.dumps(dict(session))
        result.append(Phone(table, kind, token, f"{name}={value}", form_token))
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """gunicorn serving ``app`` (``APP`` or ``BARE``) on ``database`` with the deployment's
    settings (``gunicorn.conf.py``: gevent workers); a context manager that waits until
    ``GET /bare`` answers and stops the whole process group afterwards. ``env``: settings added
    to the server's environment."""

    def __init__(
        self,
        database: str,
        workers: int = 2,
        app: str = APP,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.database = database
        self.workers = workers
        self.app = app
        self.env = dict(env or {})
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        env = {**os.environ, "DATABASE_URL": self.database, "SECRET_KEY": SECRET_KEY, **self.env}
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "-w", str(self.workers)),
                *("-b", f"127.0.0.1:{self.port}", "--log-level", "warning"),
                self.app,
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        try:
            self.wait_until_up()
        except BaseException:  # interrupted or failed: never leave the server running
            self.stop()
            raise
        return self

    def wait_until_up(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited with status {self.process.returncode}")
            try:
                urllib.request.urlopen(self.base + "/bare", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("gunicorn did not answer within 30 s")
        time.sleep(0.5)  # every worker up, not only the first

    def __exit__(self, *_: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait()

    def worker_pids(self) -> list[int]:
        """The worker processes (for a profiler)."""
        assert self.process is not None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]


@dataclass(frozen=True)
class Request:
    """One line of a wrk request file."""

    path: str
    cookie: str = ""
    etag: str = ""
    body: str = ""
    method: str = "GET"
    header: str = ""  # one more header, "Name: value"


def request_file(path: Path, requests: Iterable[Request]) -> Path:
    """Write the requests for ``requests.lua``: tab-separated, one a line."""
    lines = []
    for r in requests:
        fields = (r.method, r.path, r.cookie, r.etag, r.body, r.header)
        assert not any("\t" in f or "\n" in f for f in fields), fields
        lines.append("\t".join(fields))
    path.write_text("\n".join(lines) + "\n")
    return path


@dataclass
class Load:
    """What a wrk run did: requests per second and the count of each status (``0``: a socket
    error), and which of them were not expected."""

    rate: float
    statuses: dict[int, int]
    expected: frozenset[int] = field(default_factory=frozenset)
    ran_out: bool = False  # a fresh run sent all its lines before the time was up

    @property
    def responses(self) -> int:
        return sum(n for s, n in self.statuses.items() if s)

    @property
    def failures(self) -> dict[int, int]:
        return {s: n for s, n in self.statuses.items() if s not in self.expected and n}

    def describe_failures(self) -> str:
        """E.g. ``"403 × 12, socket errors × 1"``; empty when nothing failed."""
        return ", ".join(
            f"{'socket errors' if s == 0 else s} × {n}" for s, n in sorted(self.failures.items())
        )


def wrk(
    base: str,
    requests: Path,
    seconds: float,
    expect: Iterable[int],
    threads: int = 2,
    connections: int = 8,
    fresh: bool = False,
) -> Load:
    """Run wrk for ``seconds`` against ``base`` with the requests in the file ``requests``;
    ``fresh``: each line may be sent only once (a thread stops when it has sent all of its)."""
    command = [
        *("wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:g}s"),
        *("-s", str(SCRIPT), base),
    ]
    env = {**os.environ, "REQUESTS": str(requests), "WRK_THREADS": str(threads)}
    if fresh:
        env["FRESH"] = "1"
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=env).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None:
        raise SystemExit(f"wrk printed no rate:\n{out}")
    statuses: dict[int, int] = {}
    for status, count in re.findall(r"^status (\d+): (\d+)$", out, re.MULTILINE):
        statuses[int(status)] = int(count)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        statuses[0] = sum(int(n) for n in errors.groups())
    if not statuses:
        raise SystemExit(f"wrk counted no responses:\n{out}")
    ran_out = re.search(r"^ran out$", out, re.MULTILINE) is not None
    return Load(float(found.group(1)), statuses, frozenset(expect), ran_out)


def exit_on_sigterm() -> None:
    """Make SIGTERM (``timeout``, a CI runner) exit as Ctrl-C does, so that every ``with``
    block stops its server and drops its database on the way out."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def installed() -> bool:
    """Whether wrk is there (saying how to get it if not)."""
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)")
        return False
    return True
