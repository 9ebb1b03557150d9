#!/usr/bin/env python3
"""Capacity: how many live tables one server holds while people feel no wait.

A hosted evening is every kind of request at once. Each of N tables (4-player Blackout, played
through the rounds of ``tests/records/blackout/default-4p.json``) has 5 phones:

- every phone asks "has anything changed?" as its page does (``static/app.js``), asking to be
  held: the server (gevent workers, ``gunicorn.conf.py``) answers when the table changes or
  after ``HOLD`` seconds, and the phone asks again at once. An answer that came at once without
  a change was not held (the process did not know the table yet): the phone then asks on the
  page's schedule for a server that does not hold (``pollEvery``: every second while it has seen
  the table change in the last 90 s, or just opened; every 3 s once the table is quiet, every
  6 s after ten quiet minutes). ``--poll page`` (today's ``static/app.js``): the page asks for
  itself with ``If-None-Match`` its position and its poll key (``referee.web.polls``), and the
  answer to a change is the page; ``--poll seq`` (the pages before): it asks
  ``/t/<id>/seq?k=…&hold=1`` with the ETag it last saw, and on a change the four spectators'
  pages fetch the table page, saying which position that was (``X-Table-Seq``), to swap it in;
- one of them is the scorekeeper's, entering the table's next entry (a trump, a bid or a trick
  count) every 7–9 s as ``static/app.js`` sends it: one POST answered with the next round screen;
- every phone of a table new in a step has opened the table page before the step
  (``open_pages``: a live table's phones have their pages open, so the server has looked up
  their links and read the table once).

The load is open-loop: every entry has its time on a schedule, sent then whether or not the
server has answered what came before (a scorekeeper's next tap waits for the screen of the one
before, as a person does, but keeps its time), and its latency is measured from that scheduled
time (a page load from the poll answer that asked for it), so a server that falls behind shows
it in the latency rather than by being sent less. A held poll's latency is how late it tells of
a change: from the scorekeeper's answered entry to the poll's answer (a poll answered at once:
from its sending; one that waited its whole ``HOLD`` for nothing has none). ``see``: from the
scorekeeper's tap to a watching phone's page showing it (its poll answered, the page loaded).
The client (``Client``) is one thread on raw sockets; it prints how much processor time it
took — on a machine of 2 cores,
time the server did not have — beside the server's.

Every request sent in the measured time is counted, and divided by the entries made in it:
"requests per change" (each phone's poll answers, the page loads, the entry itself).

N steps up (``--steps``) until an entry's p99 (tap to next screen) passes 100 ms or anything
fails; each step runs ``--seconds`` after a warm-up of ``WARM_UP`` (every phone's page open, the
server up for a while), on the same server (2 gevent workers, ``bench/server.py``)
and the same tables, more added for each step. Prints the curve, N → p50/p99 of each kind of
request, and the largest N that held.

With ``--servers 2`` the same phones are spread over two gunicorn servers on the one database
(a table's scorekeeper on one, its other phones in turn on each), as the compose file runs them:
what a second server adds, and what waking each other costs.

    python -m bench.capacity [--steps 50 100 200 …] [--seconds 12] [--workers 2] [--poll seq]
                             [--servers 2]
    DATABASE_URL=postgresql://… python -m bench.capacity   # SQLite, then PostgreSQL
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import heapq
import os
import random
import re
import resource
import selectors
import socket
import sys
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import (  # noqa: E402
    Server,
    exit_on_sigterm,
    installed,
    instance,
    open_app,
    phones,
    postgres_instance,
)

if TYPE_CHECKING:
    from flask import Flask

GAME = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
PHONES = 5
#: When a page asks "has anything changed?" (``static/app.js``'s ``pollEvery``): every
#: ``interval`` seconds while the table last changed (or the page opened) less than ``quiet``
#: seconds ago, as (quiet, interval) in order; every ``POLL_AT_LAST`` seconds after that.
POLL_EVERY = ((90.0, 1.0), (600.0, 3.0))
POLL_AT_LAST = 6.0
#: How long the server holds a poll that sees no change (``POLL_HOLD_SECONDS``): as long as in
#: production, so a quiet table's phones ask as often as they would at the table. A step ends
#: when its last held poll is answered, up to this long after its measured time.
HOLD = 25
#: Seconds of load before each step is measured (every phone's page open, polling).
WARM_UP = 3.0
#: A scorekeeper's next entry comes this many seconds after the one before (uniform).
ENTRY_EVERY = (7.0, 9.0)
#: The budget of a tap: an entry's p99, tap to next screen (seconds).
ENTRY_P99 = 0.100
#: What the issue asks of a poll at the same time (printed, not a stop condition).
POLL_P99 = 0.050
#: A request not answered within this many seconds has failed: a held poll is answered within
#: ``HOLD``, anything else long before (its latency counts against its budget all the same).
TIMEOUT = HOLD + 10.0
STEPS = (50, 100, 200, 400, 600, 800, 1000, 1250, 1500, 1750, 2000, 2500)
KINDS = ("entry", "poll", "page", "see")
#: The log position a page shows (``templates/_poll.html``).
SHOWN = re.compile(rb'data-seq="(\d+)"')
#: The status every answer of each kind must have (a poll: unchanged or changed).
EXPECT = {"entry": {200}, "poll": {200, 304}, "page": {200}, "see": {200}}


@dataclass
class Phone:
    """One phone at a table: what it sends and what its page shows."""

    table: int
    poll: bytes  # the poll request without If-None-Match
    own: bytes  # the page's poll of itself (``--poll page``) without If-None-Match
    page: bytes  # GET of the table page (its cookie); empty for the scorekeeper's phone
    opening: bytes  # GET of the table page as the phone opens it (the scorekeeper's too)
    etag: str = ""
    seq: int = 0  # the log position its page shows
    changed_at: float = 0.0  # when its page last showed a change or opened (monotonic)
    opened: bool = False  # its page has been opened (before a step: ``open_pages``)
    server: int = 0  # which of the servers it asks (``--servers``)


def poll_every(quiet: float) -> float:
    """Seconds to the next poll of a page that last showed a change ``quiet`` seconds ago."""
    for before, interval in POLL_EVERY:
        if quiet < before:
            return interval
    return POLL_AT_LAST


@dataclass
class Keeper:
    """A table's scorekeeper: the entries still to make and how to post them."""

    table: int
    path: str
    cookie: str
    csrf: str
    entries: list[tuple[int, dict[str, str]]]  # (round, form fields with the action) in order
    phone: Phone
    done: int = 0  # entries made
    #: When each entry was tapped and when its screen came back (monotonic), by log position.
    tapped: dict[int, float] = field(default_factory=dict)
    answered: dict[int, float] = field(default_factory=dict)

    def next_post(self, host: str) -> bytes | None:
        """The POST of the next entry, as ``static/app.js`` sends it; None at the game's end."""
        if self.done >= len(self.entries):
            return None
        number, fields = self.entries[self.done]
        form = {"seq": str(self.done), "round": str(number), **fields, "csrf_token": self.csrf}
        body = urllib.parse.urlencode(form).encode()
        head = (
            f"POST {self.path}/entry HTTP/1.1\r\nHost: {host}\r\nCookie: {self.cookie}\r\n"
            "X-Next-Screen: 1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        return head.encode() + body


@dataclass
class Tables:
    """The tables seeded so far, their phones and scorekeepers."""

    app: Flask
    host: str
    by_page: bool = True  # ``--poll page``: each page polls itself
    #: How many servers the phones are spread over: a table's phones, the scorekeeper's first,
    #: each on the next server in turn, starting with a server of its own by the table's number.
    servers: int = 1
    keepers: list[Keeper] = field(default_factory=list)
    phones: list[Phone] = field(default_factory=list)

    def grow(self, count: int) -> None:
        """Seed tables until there are ``count``."""
        from flask import url_for

        from referee.rules import replay
        from referee.store.tables import create_table
        from referee.web import polls as answers
        from referee.web.history.lines import form_values
        from referee.web.polls import poll_key

        new = count - len(self.keepers)
        if new <= 0:
            return
        setup, events = game_entries()
        state = replay(setup, [])
        script = [(e.round, {"action": e.type, **form_values(state, e)}) for e in events]
        with self.app.app_context():
            ids = [create_table(setup) for _ in range(new)]
        keepers = phones(self.app, ids, "keeper", csrf=True)
        viewers = phones(self.app, ids, "viewer", per_table=PHONES - 1)
        with self.app.test_request_context():
            polls = {t: url_for("round.seq", table_id=t, k=poll_key(t)) for t in ids}
            keys = {t: poll_key(t) for t in ids}
        # (the code before the page's own poll has no POLL_HEADER: ``--poll seq`` runs there)
        asking = getattr(answers, "POLL_HEADER", "X-Table-Poll")
        for number, (table, keeper) in enumerate(zip(ids, keepers, strict=True)):
            index = len(self.keepers)
            path = f"/t/{table}"
            own_page = get(path, self.host, keeper.cookie)
            poll = get(polls[table] + "&hold=1", self.host)
            itself = own_page + f"{asking}: {keys[table]}\r\n".encode()
            own = Phone(index, poll, itself, b"", own_page + b"\r\n", server=index % self.servers)
            self.phones.append(own)
            self.keepers.append(Keeper(index, path, keeper.cookie, keeper.csrf, script, own))
            seated = viewers[number * (PHONES - 1) : (number + 1) * (PHONES - 1)]
            for seat, viewer in enumerate(seated, start=1):
                page = get(path, self.host, viewer.cookie)
                itself = page + f"{asking}: {keys[table]}\r\n".encode()
                server = (index + seat) % self.servers
                self.phones.append(Phone(index, poll, itself, page, page + b"\r\n", server=server))


def game_entries() -> tuple[Any, list[Any]]:
    """The 4-player Blackout's setup and the entries a scorekeeper taps (trumps, bids, trick
    counts), in order: the record's dealers are the ones the rounds have anyway."""
    from referee.records import load_record

    record = load_record(GAME.read_bytes())
    return record.setup, [e for e in record.events if e.type in ("trump", "bid", "tricks")]


def get(path: str, host: str, cookie: str = "") -> bytes:
    """A GET request's bytes, without its end (an If-None-Match may follow)."""
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{cookie_line}Connection: close\r\n".encode()


class Client:
    """The load generator: one thread, raw non-blocking sockets on an epoll selector, and a heap
    of scheduled requests. Each request has a connection of its own ("Connection: close", as a
    phone's entries and page loads come, each after its connection has gone idle) and is answered
    with everything read until the server closes it or the body is complete. Cheaper per request
    than asyncio's streams or protocols, so that on a machine of 2 cores the generator takes as
    little as it can from the server it loads."""

    def __init__(self, ports: list[int]) -> None:
        self.addresses = [("127.0.0.1", port) for port in ports]
        self.selector = selectors.DefaultSelector()
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.count = 0
        self.open: dict[socket.socket, Sending] = {}

    def at(self, due: float, action: Callable[[], None]) -> None:
        """Do ``action`` at the monotonic time ``due``."""
        self.count += 1
        heapq.heappush(self.timers, (due, self.count, action))

    def send(
        self, request: bytes, answered: Callable[[bytes | None], None], server: int = 0
    ) -> None:
        """Send ``request`` to ``server`` (an index of the ports) now; ``answered`` gets the
        whole answer, or None if it failed."""
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        except OSError:  # every descriptor taken by requests a stalled server has not answered
            answered(None)
            return
        sock.setblocking(False)
        sending = Sending(request, answered, time.monotonic() + TIMEOUT)
        self.open[sock] = sending
        error = sock.connect_ex(self.addresses[server])
        if error not in (0, errno.EINPROGRESS):
            self.finish(sock, None)
            return
        # On the loopback the kernel has mostly connected it already: write the request at once.
        with contextlib.suppress(OSError):
            self.write(sock, sending)
        events = selectors.EVENT_WRITE if sending.request else selectors.EVENT_READ
        self.selector.register(sock, events)

    @staticmethod
    def write(sock: socket.socket, sending: Sending) -> None:
        """Write what is left of the request; once it is all written, say so (half-close), as a
        proxy in front of the server would: gunicorn waits after its answer until the client
        has closed its side (``gunicorn.util.close_graceful``)."""
        sending.request = sending.request[sock.send(sending.request) :]
        if not sending.request:
            sock.shutdown(socket.SHUT_WR)

    def finish(self, sock: socket.socket, answer: bytes | None) -> None:
        sending = self.open.pop(sock)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(sock)
        sock.close()
        sending.answered(answer)

    def run(self, until: float) -> None:
        """Send and receive until ``until`` and every request sent has been answered."""
        checked = time.monotonic()
        while True:
            now = time.monotonic()
            while self.timers and self.timers[0][0] <= now:
                heapq.heappop(self.timers)[2]()
            if now >= until and not self.open:
                self.timers.clear()
                return
            wait = 0.05 if not self.timers else max(0.0, min(0.05, self.timers[0][0] - now))
            for key, events in self.selector.select(wait):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                sending = self.open[sock]
                if events & selectors.EVENT_WRITE:
                    try:
                        if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                            raise OSError
                        self.write(sock, sending)
                    except OSError:
                        self.finish(sock, None)
                        continue
                    if not sending.request:
                        self.selector.modify(sock, selectors.EVENT_READ)
                else:
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        self.finish(sock, None)
                        continue
                    if data:
                        sending.chunks.append(data)
                    if not data or sending.complete():
                        self.finish(sock, b"".join(sending.chunks))
            if now - checked > 0.5:  # requests that waited too long have failed
                checked = now
                for sock in [s for s, o in self.open.items() if o.deadline < now]:
                    self.finish(sock, None)


@dataclass
class Sending:
    """A request on its way: what is left to write, what has been read, whom to tell."""

    request: bytes
    answered: Callable[[bytes | None], None]
    deadline: float
    chunks: list[bytes] = field(default_factory=list)

    def complete(self) -> bool:
        """Whether the whole answer is in (its head and ``Content-Length`` bytes of body): the
        client closes then, as a browser does (gunicorn waits for the client to close the
        connection after its answer, ``gunicorn.util.close_graceful``)."""
        answer = b"".join(self.chunks)
        head, found, body = answer.partition(b"\r\n\r\n")
        if not found:
            return False
        self.chunks = [answer]
        length = header(head, b"content-length")
        return length != "" and len(body) >= int(length)


@dataclass
class Step:
    """What one step measured: latencies (seconds) and failures by kind of request."""

    tables: int
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    failures: dict[str, dict[str, int]] = field(default_factory=lambda: {k: {} for k in KINDS})
    #: Cores busy on average over the measured time: this process (the load generator),
    #: gunicorn's processes, and every process on the machine.
    client_cores: float = 0.0
    server_cores: float = 0.0
    machine_cores: float = 0.0
    #: Each worker (its main thread, ``/proc/<pid>/schedstat``), the least busy first: the
    #: share of the measured time it ran on a core, and the share it was ready to run but
    #: waited for one (the machine's other work). What is left it slept: idle, or blocked.
    worker_cores: list[tuple[float, float]] = field(default_factory=list)
    #: Requests answered in the measured time, entries made (changes of a table) in it, and
    #: the polls among them answered "unchanged" (a 304: mostly a hold's end, ``HOLD``).
    sent: int = 0
    changes: int = 0
    unchanged: int = 0

    @property
    def per_change(self) -> float:
        """Requests sent per change of a table."""
        return self.sent / self.changes if self.changes else 0.0

    @property
    def per_change_told(self) -> float:
        """Requests sent per change of a table, less the polls answered "unchanged": the
        requests a change itself costs (its entry, the polls it answers, the pages loaded)."""
        return (self.sent - self.unchanged) / self.changes if self.changes else 0.0

    def cores(self, began: Reading, ended: Reading) -> None:
        """The cores busy on average between two readings."""
        wall = ended.at - began.at
        self.server_cores = (ended.server - began.server) / wall
        self.machine_cores = (ended.machine - began.machine) / wall
        self.client_cores = (ended.client - began.client) / wall
        self.worker_cores = sorted(
            ((on - began.workers[pid][0]) / wall, (ready - began.workers[pid][1]) / wall)
            for pid, (on, ready) in ended.workers.items()
            if pid in began.workers
        )

    def percentile(self, kind: str, share: float) -> float:
        values = sorted(self.latencies[kind])
        if not values:
            return 0.0
        return values[min(len(values) - 1, int(share * len(values)))]

    @property
    def failed(self) -> int:
        return sum(sum(f.values()) for f in self.failures.values())

    @property
    def holds(self) -> bool:
        return not self.failed and self.percentile("entry", 0.99) <= ENTRY_P99

    def row(self) -> str:
        cells = [f"{self.tables:5d} tables"]
        for kind in KINDS:
            count = len(self.latencies[kind])
            cells.append(
                f"{kind} {1000 * self.percentile(kind, 0.5):5.1f}/"
                f"{1000 * self.percentile(kind, 0.99):6.1f} ms ({count / self.seconds:5.0f}/s)"
            )
        cells.append(
            f"{self.per_change_told:.1f} requests per change "
            f"({self.per_change:.1f} with the polls answered unchanged)"
        )
        others = max(0.0, self.machine_cores - self.server_cores - self.client_cores)
        on_core = ", ".join(f"{on:.2f}" for on, _ in self.worker_cores)
        waiting = ", ".join(f"{ready:.2f}" for _, ready in self.worker_cores)
        cells.append(
            f"cores busy: server {self.server_cores:.2f} "
            f"(workers on a core {on_core}; ready, waiting for one {waiting}), "
            f"load generator {self.client_cores:.2f}, other processes {others:.2f}"
        )
        failed = "; ".join(
            f"{kind} {', '.join(f'{what} × {n}' for what, n in f.items())}"
            for kind, f in self.failures.items()
            if f
        )
        if failed:
            cells.append(f"failed: {failed}")
        return " | ".join(cells)


def run_step(
    tables: Tables, servers: list[Server], count: int, seconds: float, rng: random.Random
) -> Step:
    """``count`` tables' phones and scorekeepers for a warm-up of ``WARM_UP`` and then
    ``seconds`` measured, each phone on its server; the processor time is read at the start
    and the end of the measured time (not over the wait for the last held polls' answers
    after it, which would thin it out)."""
    client = Client([server.port for server in servers])
    step = Step(count, seconds)
    start = time.monotonic() + 0.2
    measured = start + WARM_UP
    end = measured + seconds
    readings: list[Reading] = []
    for moment in (measured, end):
        client.at(moment, lambda: readings.append(Reading.now(servers)))
    sending = client.send

    def send(request: bytes, answered: Callable[[bytes | None], None], server: int = 0) -> None:
        """Send, counting the requests answered in the measured time (a held poll is sent long
        before its answer: counted by answers, a step's edges do not count what a change costs)."""

        def counted(answer: bytes | None) -> None:
            if measured <= time.monotonic() <= end:
                step.sent += 1
                if answer is not None and answer[9:12] == b"304":
                    step.unchanged += 1
            answered(answer)

        sending(request, counted, server)

    client.send = send  # type: ignore[method-assign]

    def timed(
        kind: str,
        request: bytes,
        due: float,
        then: Callable[[bytes | None], None],
        server: int,
    ) -> None:
        """Send ``request`` to ``server``, its latency counted from ``due``; ``then`` gets the
        answer when it had the expected status, else None (counted as a failure)."""

        def answered(answer: bytes | None) -> None:
            status = int(answer[9:12]) if answer and answer[:5] == b"HTTP/" else 0
            good = status in EXPECT[kind]
            if due >= measured:
                if good:
                    step.latencies[kind].append(time.monotonic() - due)
                else:
                    problem = str(status or "no answer")
                    step.failures[kind][problem] = step.failures[kind].get(problem, 0) + 1
            then(answer if good else None)

        client.send(request, answered, server)

    def counted_poll(
        keeper: Keeper,
        sent: float,
        now: float,
        status: int,
        good: bool,
        held: bool,
        seq: int,
        asked: int | None,
    ) -> None:
        """A poll answered in the measured time: a failure unless ``good`` (its ``status``, 0:
        no answer), else its latency: from the answer to the entry that made ``seq`` for one
        woken by a change from ``asked``, from its sending for one answered at once."""
        if not good:
            problem = str(status or "no answer")
            step.failures["poll"][problem] = step.failures["poll"].get(problem, 0) + 1
        elif held and status == 200 and seq != asked:  # woken by a change
            told = max(sent, keeper.answered.get(seq, now))  # the entry's answer
            step.latencies["poll"].append(max(0.0, now - told))
        elif not held:  # answered at once
            step.latencies["poll"].append(now - sent)

    def poll(phone: Phone) -> None:
        if tables.by_page:
            poll_page(phone)
            return
        sent = time.monotonic()
        keeper = tables.keepers[phone.table]
        etag = f"If-None-Match: {phone.etag}\r\n" if phone.etag else ""
        asked = int(phone.etag.strip('"').removeprefix("seq-")) if phone.etag else None

        def answered(answer: bytes | None) -> None:
            now = time.monotonic()
            status = int(answer[9:12]) if answer and answer[:5] == b"HTTP/" else 0
            head, _, body = (answer or b"").partition(b"\r\n\r\n")
            seq = int(body.strip() or 0) if status == 200 else phone.seq
            held = header(head, b"x-poll-held") == "1"
            changed = status == 200 and seq != phone.seq
            if sent >= measured:
                good = status in EXPECT["poll"]
                counted_poll(keeper, sent, now, status, good, held, seq, asked)
            if status == 200:
                phone.etag = header(head, b"etag")
            if changed and phone.page and now < end:
                request = phone.page + f"X-Table-Seq: {seq}\r\n\r\n".encode()
                timed("page", request, now, lambda a: shown(a, seq), phone.server)
            # As static/app.js: at once after a held answer; else on the page's schedule.
            again = held and (changed or now - sent > 0.5)
            following = now if again else now + poll_every(now - phone.changed_at)
            if following < end:
                client.at(following, functools.partial(poll, phone))

        def shown(answer: bytes | None, seq: int) -> None:
            if answer is not None:
                phone.seq = seq
                phone.changed_at = time.monotonic()
                if seq in keeper.tapped and keeper.tapped[seq] >= measured:
                    step.latencies["see"].append(phone.changed_at - keeper.tapped[seq])

        client.send(phone.poll + etag.encode() + b"\r\n", answered, phone.server)

    def poll_page(phone: Phone) -> None:
        """The page's poll of itself (``static/app.js``): a 304 until the table moves, then the
        page, which the phone shows."""
        sent = time.monotonic()
        keeper = tables.keepers[phone.table]
        asked = phone.seq

        def answered(answer: bytes | None) -> None:
            now = time.monotonic()
            status = int(answer[9:12]) if answer and answer[:5] == b"HTTP/" else 0
            head, _, body = (answer or b"").partition(b"\r\n\r\n")
            found = SHOWN.search(body) if status == 200 else None
            seq = int(found.group(1)) if found else phone.seq
            held = header(head, b"x-poll-held") == "1"
            changed = seq > phone.seq
            if sent >= measured:
                good = status in EXPECT["poll"] and (status != 200 or found is not None)
                counted_poll(keeper, sent, now, status, good, held, seq, asked)
            if changed and now < end:
                phone.seq = seq
                phone.changed_at = now
                tapped = keeper.tapped.get(seq)
                if phone.page and tapped is not None and tapped >= measured:
                    step.latencies["see"].append(now - tapped)
            again = held and (changed or seq != asked or now - sent > 0.5)
            following = now if again else now + poll_every(now - phone.changed_at)
            if following < end:
                client.at(following, functools.partial(poll, phone))

        request = phone.own + f'If-None-Match: "seq-{asked}"\r\n\r\n'.encode()
        client.send(request, answered, phone.server)

    def enter(keeper: Keeper, due: float) -> None:
        post = keeper.next_post(tables.host)
        if post is None:
            return

        keeper.tapped[keeper.done + 1] = due

        def answered(answer: bytes | None) -> None:
            if answer is not None:
                if measured <= time.monotonic() <= end:
                    step.changes += 1
                keeper.done += 1
                keeper.answered[keeper.done] = time.monotonic()
                keeper.phone.seq = keeper.done
                keeper.phone.changed_at = time.monotonic()  # its page shows the next screen
            # The next tap comes after this screen, on the clock from this tap's time.
            following = due + rng.uniform(*ENTRY_EVERY)
            if following < end:
                client.at(following, lambda: enter(keeper, following))

        timed("entry", post, due, answered, keeper.phone.server)

    for phone in tables.phones:
        if phone.table < count:
            phone.changed_at = start  # its page opens
            due = start + rng.uniform(0, poll_every(0.0))
            client.at(due, functools.partial(poll, phone))
    for keeper in tables.keepers[:count]:
        due = start + rng.uniform(0, ENTRY_EVERY[1])
        client.at(due, functools.partial(enter, keeper, due))
    client.run(end)
    step.cores(*readings)
    return step


#: How many pages ``open_pages`` has on their way at once.
OPENING = 8


def open_pages(tables: Tables, ports: list[int], count: int) -> None:
    """Every phone of the first ``count`` tables that has not opened its table page yet opens it
    now, ``OPENING`` at a time, each as soon as one before it is answered: a step's new tables,
    whose phones a live evening would have opened one by one before (the server looks up each
    phone's link and reads the table once). Before a step, not in it: thousands opened within a
    second or two filled gunicorn's listen backlog, and the step failed for a burst no evening
    has."""
    client = Client(ports)
    waiting = [p for p in tables.phones if p.table < count and not p.opened]

    def open_next() -> None:
        if not waiting:
            return
        phone = waiting.pop()

        def opened(answer: bytes | None) -> None:
            phone.opened = answer is not None and answer[9:12] == b"200"
            open_next()

        client.send(phone.opening, opened, phone.server)

    for _ in range(OPENING):
        open_next()
    client.run(time.monotonic())


def header(head: bytes, name: bytes) -> str:
    """A header's value from a response head (``name`` in lower case)."""
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name:
            return value.strip().decode()
    return ""


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_cpu(servers: list[Server]) -> float:
    """Processor seconds of the servers' gunicorn masters and workers so far."""
    total = 0.0
    pids = []
    for server in servers:
        assert server.process is not None
        pids += [server.process.pid, *server.worker_pids()]
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def scheduled(servers: list[Server]) -> dict[int, tuple[float, float]]:
    """Each worker's main thread so far: seconds on a core, and seconds ready to run but
    waiting for one (``/proc/<pid>/schedstat``)."""
    times = {}
    for pid in [pid for server in servers for pid in server.worker_pids()]:
        try:
            on_core, waiting, _slices = Path(f"/proc/{pid}/schedstat").read_text().split()
        except (OSError, ValueError):
            continue
        times[pid] = (int(on_core) / 1e9, int(waiting) / 1e9)
    return times


def machine_cpu() -> float:
    """Processor seconds every process on the machine has spent so far (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Reading:
    """The processor time spent so far (seconds), read at one moment (``at``, monotonic)."""

    at: float
    server: float
    machine: float
    client: float
    workers: dict[int, tuple[float, float]]

    @classmethod
    def now(cls, servers: list[Server]) -> Reading:
        return cls(
            time.monotonic(), server_cpu(servers), machine_cpu(), process_cpu(), scheduled(servers)
        )


def sweep(
    database: str,
    workers: int,
    steps: tuple[int, ...],
    seconds: float,
    show: Callable[[str], None] = print,
    by_page: bool = True,
    servers: int = 1,
) -> list[Step]:
    """Step the number of tables up on ``database`` until a step does not hold; every step.
    ``servers``: how many gunicorn servers of ``workers`` each share the database, the phones
    of every table spread over them (``Tables``)."""
    random.seed(1)
    rng = random.Random(1)
    app = open_app(database)
    done: list[Step] = []
    with contextlib.ExitStack() as stack:
        env = {"REFEREE_POLL_HOLD_SECONDS": str(HOLD)}
        running = [stack.enter_context(Server(database, workers, env=env)) for _ in range(servers)]
        ports = [server.port for server in running]
        tables = Tables(app, f"127.0.0.1:{ports[0]}", by_page, servers=servers)
        for count in steps:
            seeding = time.monotonic()
            tables.grow(count)
            open_pages(tables, ports, count)
            seeded = time.monotonic() - seeding
            step = run_step(tables, running, count, seconds, rng)
            show(f"{step.row()} (seeded and opened in {seeded:.0f} s)")
            done.append(step)
            if not step.holds:
                break
    return done


def summary(steps: list[Step]) -> str:
    """The largest number of tables that held, in a sentence, with what stopped it."""
    held = [s for s in steps if s.holds]
    last = steps[-1]
    if held:
        best = held[-1]
        text = (
            f"{best.tables} live tables ({best.tables * PHONES} phones) held, "
            f"entry p99 {1000 * best.percentile('entry', 0.99):.0f} ms (≤ {ENTRY_P99 * 1000:.0f}), "
            f"poll p99 {1000 * best.percentile('poll', 0.99):.0f} ms "
            f"(goal ≤ {POLL_P99 * 1000:.0f}), "
            f"a watching phone shows an entry {1000 * best.percentile('see', 0.5):.0f} ms "
            f"(p99 {1000 * best.percentile('see', 0.99):.0f} ms) after its tap"
        )
    else:
        text = f"not even {steps[0].tables} tables held"
    if not last.holds:
        why = (
            f"{last.failed} failed requests"
            if last.failed
            else f"entry p99 {1000 * last.percentile('entry', 0.99):.0f} ms"
        )
        text += f"; {last.tables} did not ({why})"
    else:
        text += f"; the last step ({last.tables}) still held"
    # What a table costs the server, from the step that loaded it most while holding: on a
    # machine shared with other work this says more than where the knee happened to fall.
    costing = held[-1] if held else last
    per_table = costing.server_cores / costing.tables
    if per_table:
        text += (
            f"; the server spent {1000 * per_table:.2f} ms of processor time per table per "
            f"second ({costing.tables} tables: {costing.server_cores:.2f} cores): one core given "
            f"wholly to the server keeps up with about {1 / per_table:.0f} tables"
        )
    if costing.changes:
        text += (
            f"; {costing.per_change_told:.1f} requests per change "
            f"({costing.per_change:.1f} with the polls answered unchanged after {HOLD} s)"
        )
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=list(STEPS))
    parser.add_argument("--seconds", type=float, default=12, help="measured per step")
    parser.add_argument("--workers", type=int, default=2, help="gevent workers of each server")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="gunicorn servers on the one database, each table's phones spread over them",
    )
    parser.add_argument(
        "--poll",
        choices=("page", "seq"),
        default="page",
        help="how pages ask: the page itself (static/app.js), or /seq and then the page (before)",
    )
    args = parser.parse_args()
    exit_on_sigterm()
    if not installed():
        return 1
    lines = []
    places = [("SQLite", None), ("PostgreSQL", os.environ.get("DATABASE_URL"))]
    for label, url in places:
        if label == "PostgreSQL" and not url:
            print("PostgreSQL: not measured (set DATABASE_URL to a server to measure it too)")
            continue
        print(
            f"{label}, {args.servers} server(s) of {args.workers} gevent workers: "
            "tables | p50/p99 of each kind (rate) | CPU",
            flush=True,
        )
        place = instance("referee-capacity-") if url is None else postgres_instance(url)
        with place as (_folder, database):
            steps = sweep(
                database,
                args.workers,
                tuple(args.steps),
                args.seconds,
                by_page=args.poll == "page",
                servers=args.servers,
            )
        lines.append(f"{label}: {summary(steps)}")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
