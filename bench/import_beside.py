#!/usr/bin/env python3
"""Play beside an import: entries at other tables while a group file of the largest size a server
takes is loaded (``referee/web/groups/import_job.py``), against the same entries without one.

One gunicorn (``bench/server.py``'s ``Server``: ``gunicorn.conf.py``'s 2 gevent workers,
production settings, CSRF on) on a throwaway database, SQLite in a temporary folder and then,
when ``DATABASE_URL`` names a PostgreSQL server, a database created there (as ``bench/run.py``).

- **Entries at other tables**: legal Blackout entries, made as ``bench/run.py``'s entry figures
  make them (``entry_runs``: a bid, a trick count, each into a table of its own, as its
  scorekeeper with the cookie and CSRF token of ``bench/server.py``'s ``phones()``), bids and
  trick counts in turn. Sent open-loop at ``--rate`` a second, arrivals at random (Poisson),
  each on a connection of its own (``bench/capacity.py``'s ``Client``); an entry's latency is
  from its scheduled time to its answer (a 303), whether or not the server kept up.
- **Baseline**: ``--seconds`` of entries before the import, after a warm-up of ``WARM_UP``
  seconds. ``AFTER`` seconds more once the group is loaded are reported beside it (whether the
  server is back to its pace), not pooled with it: the baseline is a server that has seen no
  import.
- **Beside the import**: the group file is built with ``bench/group_stats.py``'s ``group()``,
  card by card (``plays``), as the app exports a group (indented, not ASCII-escaped), with as
  many tables as keep the upload's body (the file and its form) within ``GROUP_UPLOAD_LIMIT``:
  the tables are added one by one until the next would not fit. A browser's upload, over HTTP:
  ``GET /groups/import`` for the session cookie and the form's CSRF token, then the
  ``multipart/form-data`` POST (file, time zone, token), answered 303 to the page of its loading,
  which is asked every ``ASK_EVERY`` seconds (the page itself asks every 2 s: the end is known
  sooner) until it answers 303 to the new group. The entries go on from the POST's start to
  that answer; their p99 is also given for the POST itself, the checking of the tables (nothing
  written but the loader's progress) and their saving (pieces of one transaction each).

Figures, one line each in ``bench/run.py``'s style (``name: measured, value (budget) ok|BROKEN``):

- entries without an import: p50 and p99, and the same after the import (no budget);
- the upload's POST itself, from its first byte sent to its answer: ≤ 2 s;
- entries beside the import: p50 and p99; p99 ÷ the baseline's p99 ≤ ``P99_BUDGET`` ×;
- answers to entries that were not 2xx or 3xx (a socket error or no answer counts): 0;
- the loading, from the POST's start to the group opening (no budget).

Exit 1 when a budget is broken, the upload or the loading failed, or the entries ran out.

    bench/import_beside.py [--seconds 30] [--rate 20]
    DATABASE_URL=postgresql://postgres@/x?host=/tmp&port=5433 bench/import_beside.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
if (VENV / "bin" / "python").exists() and Path(sys.prefix).resolve() != VENV.resolve():
    os.execv(str(VENV / "bin" / "python"), [str(VENV / "bin" / "python"), __file__, *sys.argv[1:]])
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import functools  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import secrets  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

from bench.capacity import Client  # noqa: E402
from bench.run import Figure, entry_runs, settle  # noqa: E402
from bench.server import (  # noqa: E402
    Request,
    Server,
    exit_on_sigterm,
    instance,
    open_app,
    postgres_instance,
)

if TYPE_CHECKING:
    from flask import Flask

#: Seconds of entries before the baseline, not measured (a new server's first requests).
WARM_UP = 3.0
#: Seconds of entries once the group is loaded (reported, not part of the baseline).
AFTER = 10.0
#: The longest the loading may take before the run gives up on it (seconds): entries are
#: seeded for this long too.
LOAD_AT_MOST = 120.0
#: How often the page of the loading is asked (seconds).
ASK_EVERY = 0.5
#: The upload's POST, from its first byte to its answer (seconds).
UPLOAD_BUDGET = 2.0
#: p99 of entries beside the import ÷ p99 without one.
P99_BUDGET = 3.0
#: The client sends the entries due in each slice of this many seconds, then looks whether the
#: loading is over (each entry keeps its scheduled time).
SLICE = 0.25
#: The form's time zone, and the language the pages are asked in (the status page is read).
TIME_ZONE = "Europe/Berlin"
LANGUAGE = "en"


# --- the group file -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupFile:
    """The document uploaded (as the app writes a group) and how many tables it holds."""

    data: bytes
    tables: int


#: Room left in the upload's body for everything but the file: the form's other fields, the
#: part headers and the boundaries (about 400 bytes; the body limit counts them all).
FORM_ROOM = 1024


@functools.cache
def group_file() -> GroupFile:
    """The largest card-by-card group of ``bench/group_stats.py`` whose upload fits the limit:
    its tables added one by one (``group()`` of n tables is the first n of any larger one) while
    the document, as the app writes it, stays within ``GROUP_UPLOAD_LIMIT - FORM_ROOM``."""
    from bench.group_stats import group
    from referee.web.groups.transfer import GROUP_UPLOAD_LIMIT

    def written(document: object) -> bytes:  # as the app exports a group (transfer.py)
        return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode()

    limit = GROUP_UPLOAD_LIMIT - FORM_ROOM
    sample = len(written(group(20, "plays"))) / 20
    made = int(1.3 * limit / sample)
    while True:
        document = group(made, "plays")
        tables = document["tables"]
        document["tables"] = []
        size = len(written(document)) + 4  # the list's own brackets and line breaks, roughly
        count = 0
        for table in tables:
            # Its lines indented two levels more in the document, and ",\n    " before it.
            text = json.dumps(table, ensure_ascii=False, indent=2)
            grown = len(text.encode()) + 4 * text.count("\n") + 6
            if size + grown > limit:
                break
            size += grown
            count += 1
        if count < made:
            break
        made *= 2  # every table fitted: the sample was small for its size
    document["tables"] = tables[:count]
    data = written(document)
    while len(data) > limit:  # the estimate above is close, not exact
        count -= 1
        document["tables"] = tables[:count]
        data = written(document)
    return GroupFile(data, count)


# --- the entries --------------------------------------------------------------------------------


def entry_lines(app: Flask, count: int) -> list[Request]:
    """``count`` legal entries, each into a Blackout table of its own (as ``bench/run.py``'s
    entry figures make them): bids and trick counts in turn."""
    half = -(-count // 2)
    # The card figures asked for no lines get no tables: only the bids and trick counts are made.
    runs = entry_runs(app, lambda kind: half if kind in ("bid", "tricks") else 0)
    bids, tricks = (run.requests for run in runs[:2])
    return [line for pair in zip(bids, tricks, strict=True) for line in pair]


def raw(request: Request, host: str) -> bytes:
    """A request line of ``bench/server.py`` as the bytes ``bench/requests.lua`` would send."""
    body = request.body.encode()
    head = [f"{request.method} {request.path} HTTP/1.1", f"Host: {host}"]
    if request.cookie:
        head.append(f"Cookie: {request.cookie}")
    if request.header:
        head.append(request.header)
    if body:
        head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


@dataclass
class Sent:
    """An entry: when it was due (monotonic), its latency from then (seconds), its status
    (0: no answer)."""

    due: float
    latency: float
    status: int


@dataclass
class Stretch:
    """The entries of one stretch of time."""

    entries: list[Sent] = field(default_factory=list)
    ran_out: bool = False

    def latencies(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        """The latencies of the answered entries due in ``[since, until)``."""
        return [s.latency for s in self.entries if s.status and since <= s.due < until]

    def statuses(self) -> Counter[int]:
        return Counter(s.status for s in self.entries)


def percentile(values: list[float], share: float) -> float:
    """Nearest rank (as ``bench/capacity.py``'s steps); 0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def described(values: list[float]) -> str:
    return (
        f"p50 {1000 * percentile(values, 0.5):.1f} ms, p99 {1000 * percentile(values, 0.99):.1f} "
        f"ms of {len(values)}"
    )


class Scorekeepers:
    """The entries of every stretch, each line sent once, at ``rate`` a second (Poisson)."""

    def __init__(self, port: int, lines: list[bytes], rate: float, rng: random.Random) -> None:
        self.client = Client([port])
        self.lines: Iterator[bytes] = iter(lines)
        self.rate = rate
        self.rng = rng

    def play(self, seconds: float, over: Callable[[], bool] = lambda: False) -> Stretch:
        """Entries for ``seconds``, or until ``over()`` (asked every ``SLICE``), every one
        answered before it returns."""
        stretch = Stretch()
        start = due = time.monotonic()
        end = start + seconds
        while not over() and due < end and not stretch.ran_out:
            until = min(time.monotonic() + SLICE, end)
            while due < until:
                line = next(self.lines, None)
                if line is None:
                    stretch.ran_out = True
                    break
                self.client.at(due, functools.partial(self.send, stretch, line, due))
                due += self.rng.expovariate(self.rate)
            self.client.run(until)
        return stretch

    def send(self, stretch: Stretch, line: bytes, due: float) -> None:
        def answered(answer: bytes | None) -> None:
            status = int(answer[9:12]) if answer and answer[:5] == b"HTTP/" else 0
            stretch.entries.append(Sent(due, time.monotonic() - due, status))

        self.client.send(line, answered)


# --- the upload ---------------------------------------------------------------------------------


class Browser:
    """The uploading phone: plain HTTP, one connection a request, keeping its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def ask(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, str, bytes]:
        """Status, Location and body of one request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            sent = {"Accept-Language": LANGUAGE, "Connection": "close", **(headers or {})}
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            connection.request(method, path, body or None, sent)
            response = connection.getresponse()
            answer = response.read()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, value = cookie.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = value.strip()
            return response.status, response.headers.get("Location", ""), answer
        finally:
            connection.close()


@dataclass
class Upload:
    """How the upload went: times are monotonic; ``problems`` say what failed."""

    body: bytes
    content_type: str
    refused: str = ""  # what was wrong with the POST's answer
    started: float = 0.0
    answered: float = 0.0  # the POST's answer
    saving: float = 0.0  # the page first said the tables are being saved
    loaded: float = 0.0  # the page sent the browser to the new group
    asked: int = 0  # times the page of the loading was asked
    problems: list[str] = field(default_factory=list)
    over: threading.Event = field(default_factory=threading.Event)

    @property
    def seconds(self) -> float:
        return self.answered - self.started


def prepare(browser: Browser, document: bytes) -> Upload:
    """Open the import page (session cookie, CSRF token) and make the form's body."""
    status, _, page = browser.ask("GET", "/groups/import")
    found = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page)
    if status != 200 or found is None:
        raise SystemExit(f"GET /groups/import: {status}, no CSRF token")
    boundary = secrets.token_hex(16)

    def part(name: str, value: bytes, extra: str = "") -> bytes:
        return (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"{extra}\r\n\r\n'
        ).encode() + value

    body = b"\r\n".join(
        [
            part("csrf_token", found.group(1)),
            part("time_zone", TIME_ZONE.encode()),
            part("group", document, '; filename="group.json"\r\nContent-Type: application/json'),
            f"--{boundary}--\r\n".encode(),
        ]
    )
    return Upload(body, f"multipart/form-data; boundary={boundary}")


def upload(browser: Browser, job: Upload) -> None:
    """POST the file, then ask the page of its loading until the group opens (or is refused, or
    ``LOAD_AT_MOST`` passes); sets ``job.over`` at the end, whatever happened."""
    try:
        job.started = time.monotonic()
        status, location, _ = browser.ask(
            "POST", "/groups/import", job.body, {"Content-Type": job.content_type}
        )
        job.answered = time.monotonic()
        if status != 303 or "/groups/import/" not in location:
            job.refused = f"the upload was answered {status} {location}".strip()
            return
        path = location.removeprefix(f"http://127.0.0.1:{browser.port}")
        while time.monotonic() - job.started < LOAD_AT_MOST:
            time.sleep(ASK_EVERY)
            status, location, page = browser.ask("GET", path)
            job.asked += 1
            if status == 303 and "/g/" in location:
                job.loaded = time.monotonic()
                return
            if status != 200:
                said = re.findall(rb'<p class="tight">([^<]*)</p>', page)
                why = "; ".join(s.decode(errors="replace") for s in said)
                job.problems.append(f"the page of the loading answered {status}: {why}")
                return
            if not job.saving and b"Saving table" in page:
                job.saving = time.monotonic()
        job.problems.append(f"the group was not loaded within {LOAD_AT_MOST:g} s")
    except OSError as error:
        if job.answered:
            job.problems.append(f"asking the page of the loading failed: {error}")
        else:
            job.refused = f"the upload failed: {error}"
    finally:
        job.over.set()


# --- one database -------------------------------------------------------------------------------


def measure(database: str, seconds: float, rate: float, label: str) -> list[Figure]:
    """Every figure on ``database``, its server started here."""
    from referee.web.groups.transfer import GROUP_UPLOAD_LIMIT

    document = group_file()
    app = open_app(database)
    started = time.monotonic()
    lines = entry_lines(app, int(rate * (WARM_UP + seconds + LOAD_AT_MOST + AFTER)) + 100)
    settle(app)
    print(f"({label}: {len(lines)} tables seeded in {time.monotonic() - started:.0f} s)")
    rng = random.Random(1)
    with Server(database) as server:
        host = f"127.0.0.1:{server.port}"
        keepers = Scorekeepers(server.port, [raw(line, host) for line in lines], rate, rng)
        keepers.play(WARM_UP)
        before = keepers.play(seconds)
        browser = Browser(server.port)
        job = prepare(browser, document.data)
        if len(job.body) > GROUP_UPLOAD_LIMIT:
            raise SystemExit(f"the upload's body is {len(job.body)} bytes, over the limit")
        loading = threading.Thread(target=upload, args=(browser, job), daemon=True)
        loading.start()
        beside = keepers.play(LOAD_AT_MOST + 10, job.over.is_set)
        loading.join()
        after = keepers.play(AFTER)
    return figures(label, document, job, before, beside, after)


def figures(
    label: str, document: GroupFile, job: Upload, before: Stretch, beside: Stretch, after: Stretch
) -> list[Figure]:
    """The printed lines (``label``: the database; PostgreSQL's lines start with its name)."""
    prefix = "" if label == "SQLite" else f"{label}: "
    baseline, near = before.latencies(), beside.latencies()
    base99 = percentile(baseline, 0.99)
    phases = [("the POST", job.started, job.answered)]
    if job.saving:  # the page said so: checking before it, saving after it
        phases += [("checking", job.answered, job.saving), ("saving", job.saving, job.loaded)]
    during = "; ".join(
        f"{what} {until - since:.1f} s: p99 {1000 * percentile(in_it, 0.99):.0f} ms"
        for what, since, until in phases
        if (in_it := beside.latencies(since, until))
    )
    problems = list(job.problems)
    if any(stretch.ran_out for stretch in (before, beside, after)):
        problems.append("the seeded entries ran out")
    statuses = before.statuses() + beside.statuses() + after.statuses()
    bad = {s: n for s, n in statuses.items() if not 200 <= s < 400}
    failed = ", ".join(f"{s or 'no answer'} × {n}" for s, n in sorted(bad.items()))
    size = f"{len(document.data) / 2**20:.2f} MiB, {document.tables} card-by-card tables"
    return [
        Figure(
            f"{prefix}entries at other tables, no import",
            f"{described(baseline)} in the {span(before):.0f} s before the import; in the "
            f"{AFTER:.0f} s after it: {described(after.latencies())}",
        ),
        Figure(
            f"{prefix}upload of a group file of {size} (POST /groups/import, the request itself)",
            f"answered in {job.seconds:.2f} s" if job.answered else "not answered",
            job.seconds if job.answered else None,
            UPLOAD_BUDGET,
            at_most=True,
            unit=" s",
            problems=[job.refused] if job.refused else [],
        ),
        Figure(
            f"{prefix}entries at other tables beside the import, p99 ÷ p99 without one",
            f"{described(near)}, max {1000 * max(near, default=0):.0f} ms, over "
            f"{span(beside):.0f} s ({during}); without: p99 {1000 * base99:.1f} ms",
            percentile(near, 0.99) / base99 if base99 else None,
            P99_BUDGET,
            at_most=True,
            unit=" ×",
            problems=problems,
        ),
        Figure(
            f"{prefix}answers to entries that were not 2xx or 3xx",
            f"{sum(bad.values())} of {sum(statuses.values())}"
            + (f" ({failed})" if bad else "")
            + " (budget 0)",
            budgeted=True,
            problems=["over budget"] if bad else [],
        ),
        Figure(
            f"{prefix}loading the group, from the upload's start to the group opening",
            (f"{job.loaded - job.started:.1f} s" if job.loaded else "not loaded")
            + f" (its page asked {job.asked} times, every {ASK_EVERY:g} s)",
        ),
    ]


def span(stretch: Stretch) -> float:
    """Seconds from the first entry's scheduled time to the last's."""
    if not stretch.entries:
        return 0.0
    return stretch.entries[-1].due - stretch.entries[0].due


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=30, help="of entries before the import (default 30)"
    )
    parser.add_argument("--rate", type=float, default=20, help="entries a second (default 20)")
    args = parser.parse_args()
    exit_on_sigterm()
    started = time.monotonic()
    shown: list[Figure] = []
    postgres = os.environ.get("DATABASE_URL")
    for url in [None, postgres] if postgres else [None]:
        place = instance("referee-beside-") if url is None else postgres_instance(url)
        with place as (_folder, database):
            label = "SQLite" if url is None else "PostgreSQL"
            for figure in measure(database, args.seconds, args.rate, label):
                print(figure.line(), flush=True)
                shown.append(figure)
    if not postgres:
        print("PostgreSQL: not measured (set DATABASE_URL to a server to measure it too)")
    broken = [f for f in shown if not f.ok]
    print(
        f"{len(shown)} figures in {time.monotonic() - started:.0f} s; "
        + (f"BROKEN: {len(broken)}" if broken else "all ok")
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
