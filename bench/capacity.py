#!/usr/bin/env python3
"""Capacity: how many live tables one server holds while people feel no wait, at the rates real
tables change, and what a change costs the server.

A hosted evening is every kind of request at once. Each of N tables (4-player Blackout, played
through the rounds of ``tests/records/blackout/default-4p.json``) has 5 phones, each with its
page open and following the table by its stream (``referee.web.live``, as ``static/app.js``
opens it: the page's address asked ``Accept: text/event-stream``):

- the scorekeeper's phone enters the table's next entry (a trump, a bid or a trick count) as
  ``static/app.js`` sends it, one POST answered with the next round screen: at a table that
  enters results only, every 16–24 s (0.05 changes per second: a real table changes about 9
  times in 2–4 minutes of play); at ``CARD_SHARE`` of the tables, which enter card by card, every
  4–6 s (0.2 per second; driven with the same entries, a change of the table being what the live
  pages cost). Its stream is told the position only, and its page has it already (its entry's
  answer);
- the four other phones' streams bring each change as the page itself (the same bytes to each).

Every phone's stream is opened before the step (``open_streams``, a few at a time, as a live
evening's phones have theirs open) and stays open from step to step; a step's new tables' phones
open theirs before it. The load is open-loop: every entry has its time on a schedule, sent then
whether or not the server has answered what came before (a scorekeeper's next tap waits for the
screen of the one before, as a person does, but keeps its time), and its latency is measured
from that scheduled time, so a server that falls behind shows it in the latency rather than by
being sent less. ``watcher``: from the scorekeeper's tap to the event that brings it reaching a
watching phone. The client (``Client``) is one thread on raw sockets; it prints how much
processor time it took — on a machine of 2 cores, time the server did not have — beside the
server's.

What a change costs: the server's processor time over the measured time divided by the changes
made in it, as a multiple of the processor time of one request to the true bare route
(``bench/bare_app.py``, its own gunicorn, each request on a new connection like the entries),
measured in the same run (``bare_cost``); requests per change: every request sent in the
measured time (the entries; the streams were opened before) divided by the changes. Before the
first step, the streams of the first step's tables are held open ``IDLE`` seconds with no change:
what open streams cost the server while nothing happens.

N steps up (``--steps``) until an entry's p99 (tap to next screen) passes 100 ms, a watcher's
passes 0.2 s or anything fails; each step runs ``--seconds`` after a warm-up of ``WARM_UP``, on
the same server (2 gevent workers, ``bench/server.py``) and the same tables, more added for each
step. Prints the curve, N → p50/p99 of each kind, and the largest N that held. With ``--servers
2`` the tables are spread over two gunicorn servers on the one database, each table's phones on
one of them (as ``deploy/nginx.conf`` spreads them).

    python -m bench.capacity [--steps 500 1000 …] [--seconds 12] [--workers 2] [--servers 2]
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
    BARE,
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
#: Seconds of load before each step is measured.
WARM_UP = 3.0
#: Seconds the first step's streams are held open with no change (``idle``).
IDLE = 5.0
#: A results-only table's next entry comes this many seconds after the one before (uniform):
#: 0.05 changes per second.
ENTRY_EVERY = (16.0, 24.0)
#: The share of tables entered card by card, and their pace: 0.2 changes per second.
CARD_SHARE = 0.2
CARD_EVERY = (4.0, 6.0)
#: The budgets of a step: an entry's p99, tap to next screen, and a watcher's, tap to event.
ENTRY_P99 = 0.100
WATCHER_P99 = 0.200
#: A request not answered within this many seconds has failed.
TIMEOUT = 10.0
STEPS = (500, 1000, 1500, 2000, 2500, 3000, 3500, 4000)
KINDS = ("entry", "watcher")
#: An event's id in a stream: the log position it brings.
EVENT_ID = re.compile(rb"\nid: (\d+)\n")
#: Bare requests to measure the bare route's processor time by, and their rate (per second).
BARE_REQUESTS = 4000
BARE_RATE = 800.0


@dataclass
class Phone:
    """One phone at a table: its stream and what it has had of it."""

    table: int
    stream: bytes  # the stream's request (its cookie), without its end
    watching: bool  # a spectator's (its events bring the page): its latency is counted
    seq: int = 0  # the newest position its stream brought
    tail: bytes = b""  # the end of what it read last (an event id split between reads)
    opened: bool = False
    server: int = 0


@dataclass
class Keeper:
    """A table's scorekeeper: the entries still to make and how to post them."""

    table: int
    path: str
    cookie: str
    csrf: str
    entries: list[tuple[int, dict[str, str]]]  # (round, form fields with the action) in order
    every: tuple[float, float]  # seconds between its entries
    server: int = 0
    done: int = 0  # entries made
    #: When each entry was tapped (monotonic), by log position.
    tapped: dict[int, float] = field(default_factory=dict)

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
    servers: int = 1  #: each table's phones on one of them, by the table's number
    keepers: list[Keeper] = field(default_factory=list)
    phones: list[Phone] = field(default_factory=list)

    def grow(self, count: int, rng: random.Random) -> None:
        """Seed tables until there are ``count``."""
        from referee.rules import replay
        from referee.store.tables import create_table
        from referee.web.history.lines import form_values

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
        for number, (table, keeper) in enumerate(zip(ids, keepers, strict=True)):
            index = len(self.keepers)
            server = index % self.servers
            path = f"/t/{table}"
            every = CARD_EVERY if rng.random() < CARD_SHARE else ENTRY_EVERY
            self.keepers.append(
                Keeper(index, path, keeper.cookie, keeper.csrf, script, every, server)
            )
            own = stream(path, self.host, keeper.cookie)
            self.phones.append(Phone(index, own, False, server=server))
            seated = viewers[number * (PHONES - 1) : (number + 1) * (PHONES - 1)]
            for viewer in seated:
                request = stream(path, self.host, viewer.cookie)
                self.phones.append(Phone(index, request, True, server=server))


def game_entries() -> tuple[Any, list[Any]]:
    """The 4-player Blackout's setup and the entries a scorekeeper taps (trumps, bids, trick
    counts), in order: the record's dealers are the ones the rounds have anyway."""
    from referee.records import load_record

    record = load_record(GAME.read_bytes())
    return record.setup, [e for e in record.events if e.type in ("trump", "bid", "tricks")]


def stream(path: str, host: str, cookie: str) -> bytes:
    """A page's stream request as ``EventSource`` sends it, without its end (``?stream=N``)."""
    return (
        f"GET {path}?stream={{seq}} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    ).encode()


def get(path: str, host: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()


class Client:
    """The load generator: one thread, raw non-blocking sockets on an epoll selector, and a heap
    of scheduled requests. Each request has a connection of its own ("Connection: close", as a
    phone's entries come, each after its connection has gone idle) and is answered with
    everything read until the server closes it or the body is complete; a stream's connection
    stays open, each read handed on as it comes. Cheaper per request than asyncio's streams or
    protocols, so that on a machine of 2 cores the generator takes as little as it can from the
    server it loads."""

    def __init__(self, ports: list[int]) -> None:
        self.addresses = [("127.0.0.1", port) for port in ports]
        self.selector = selectors.DefaultSelector()
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.count = 0
        self.open: dict[socket.socket, Sending] = {}
        self.streams: dict[socket.socket, Sending] = {}

    def at(self, due: float, action: Callable[[], None]) -> None:
        """Do ``action`` at the monotonic time ``due``."""
        self.count += 1
        heapq.heappush(self.timers, (due, self.count, action))

    def send(
        self,
        request: bytes,
        answered: Callable[[bytes | None], None],
        server: int = 0,
        reading: Callable[[bytes], None] | None = None,
    ) -> None:
        """Send ``request`` to ``server`` (an index of the ports) now; ``answered`` gets the
        whole answer, or None if it failed. ``reading``: a stream, each read handed to it as it
        comes (and ``answered`` called with None when it ends)."""
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        except OSError:  # every descriptor taken by requests a stalled server has not answered
            answered(None)
            return
        sock.setblocking(False)
        sending = Sending(request, answered, time.monotonic() + TIMEOUT, reading=reading)
        (self.open if reading is None else self.streams)[sock] = sending
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
        has closed its side (``gunicorn.util.close_graceful``). A stream's side stays open."""
        sending.request = sending.request[sock.send(sending.request) :]
        if not sending.request and sending.reading is None:
            sock.shutdown(socket.SHUT_WR)

    def finish(self, sock: socket.socket, answer: bytes | None) -> None:
        sending = self.open.pop(sock, None) or self.streams.pop(sock)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(sock)
        sock.close()
        sending.answered(answer)

    def close_streams(self) -> None:
        for sock in list(self.streams):
            self.finish(sock, None)

    def run(self, until: float) -> None:
        """Send and receive until ``until`` and every request sent has been answered (a
        stream goes on)."""
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
                sending = self.open.get(sock) or self.streams[sock]
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
                        data = sock.recv(262144)
                    except OSError:
                        self.finish(sock, None)
                        continue
                    if sending.reading is not None:
                        if data:
                            sending.reading(data)
                        else:
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
    reading: Callable[[bytes], None] | None = None

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
    """What one step measured: latencies (seconds) and failures by kind, the processor time,
    requests and changes."""

    tables: int
    seconds: float
    bare: float  # processor seconds of one request to the true bare route (``bare_cost``)
    measured: float = 0.0  # monotonic start and end of the measured time
    end: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    failures: dict[str, dict[str, int]] = field(default_factory=lambda: {k: {} for k in KINDS})
    #: Cores busy on average over the measured time: this process (the load generator),
    #: gunicorn's processes, and every process on the machine.
    client_cores: float = 0.0
    server_cores: float = 0.0
    machine_cores: float = 0.0
    #: Requests answered in the measured time, and entries made (changes of a table) in it.
    sent: int = 0
    changes: int = 0

    @property
    def per_change(self) -> float:
        """Requests sent per change of a table."""
        return self.sent / self.changes if self.changes else 0.0

    @property
    def cost(self) -> float:
        """The server's processor seconds per change."""
        return self.server_cores * self.seconds / self.changes if self.changes else 0.0

    def cores(self, began: Reading, ended: Reading) -> None:
        """The cores busy on average between two readings."""
        wall = ended.at - began.at
        self.server_cores = (ended.server - began.server) / wall
        self.machine_cores = (ended.machine - began.machine) / wall
        self.client_cores = (ended.client - began.client) / wall

    def percentile(self, kind: str, share: float) -> float:
        values = sorted(self.latencies[kind])
        if not values:
            return 0.0
        return values[min(len(values) - 1, int(share * len(values)))]

    def fail(self, kind: str, problem: str) -> None:
        self.failures[kind][problem] = self.failures[kind].get(problem, 0) + 1

    @property
    def failed(self) -> int:
        return sum(sum(f.values()) for f in self.failures.values())

    @property
    def holds(self) -> bool:
        return (
            not self.failed
            and self.percentile("entry", 0.99) <= ENTRY_P99
            and self.percentile("watcher", 0.99) <= WATCHER_P99
        )

    def row(self) -> str:
        cells = [f"{self.tables:5d} tables"]
        for kind in KINDS:
            count = len(self.latencies[kind])
            cells.append(
                f"{kind} {1000 * self.percentile(kind, 0.5):5.1f}/"
                f"{1000 * self.percentile(kind, 0.99):6.1f} ms ({count / self.seconds:5.0f}/s)"
            )
        cells.append(f"{self.per_change:.2f} requests per change")
        cells.append(
            f"CPU per change {1000 * self.cost:.2f} ms = {self.cost / self.bare:.1f} × bare "
            f"({1000 * self.bare:.3f} ms)"
        )
        others = max(0.0, self.machine_cores - self.server_cores - self.client_cores)
        cells.append(
            f"cores busy: server {self.server_cores:.2f}, load generator "
            f"{self.client_cores:.2f}, other processes {others:.2f}"
        )
        failed = "; ".join(
            f"{kind} {', '.join(f'{what} × {n}' for what, n in f.items())}"
            for kind, f in self.failures.items()
            if f
        )
        if failed:
            cells.append(f"failed: {failed}")
        return " | ".join(cells)


@dataclass
class Live:
    """The phones' streams, open from step to step on one ``Client``, and the step they count
    into (None between steps)."""

    tables: Tables
    client: Client
    step: Step | None = None

    def open(self, phone: Phone, opened: Callable[[], None]) -> None:
        """Open ``phone``'s stream; ``opened`` when its first event is in."""
        first = True

        def reading(data: bytes) -> None:
            nonlocal first
            if first:
                first = False
                if not data.startswith(b"HTTP/1.1 200") and self.step is not None:
                    self.step.fail("watcher", data[9:12].decode(errors="replace"))
                phone.opened = data.startswith(b"HTTP/1.1 200")
                opened()
            self.read(phone, data)

        def ended(_answer: bytes | None) -> None:
            phone.opened = False
            if first:
                opened()
            if self.step is not None:
                self.step.fail("watcher", "stream closed")

        request = phone.stream.replace(b"{seq}", str(phone.seq).encode())
        self.client.send(request, ended, phone.server, reading)

    def read(self, phone: Phone, data: bytes) -> None:
        """The events a read brings: the newest position, and for a watcher how long after the
        scorekeeper's tap it came."""
        now = time.monotonic()
        found = phone.tail + data
        for match in EVENT_ID.finditer(found):
            seq = int(match.group(1))
            if seq <= phone.seq:
                continue
            phone.seq = seq
            step = self.step
            tapped = self.tables.keepers[phone.table].tapped.get(seq)
            if phone.watching and step and tapped and step.measured <= tapped <= step.end:
                step.latencies["watcher"].append(now - tapped)
        phone.tail = found[-24:]


#: How many streams ``open_streams`` has on their way at once.
OPENING = 16


def open_streams(live: Live, count: int) -> None:
    """Every phone of the first ``count`` tables whose stream is not open opens it now,
    ``OPENING`` at a time, each as soon as one before it has its first event: a step's new
    tables, whose phones a live evening would have opened one by one before."""
    waiting = [p for p in live.tables.phones if p.table < count and not p.opened]
    on_way = 0

    def open_next() -> None:
        nonlocal on_way
        if not waiting:
            return
        on_way += 1
        live.open(waiting.pop(), done)

    def done() -> None:
        nonlocal on_way
        on_way -= 1
        open_next()

    for _ in range(OPENING):
        open_next()
    while waiting or on_way:
        live.client.run(time.monotonic() + 0.1)


def run_step(
    live: Live, servers: list[Server], count: int, seconds: float, bare: float, rng: random.Random
) -> Step:
    """``count`` tables' scorekeepers for a warm-up of ``WARM_UP`` and then ``seconds``
    measured, each table on its server, every phone's stream open."""
    client = live.client
    step = Step(count, seconds, bare)
    start = time.monotonic() + 0.2
    step.measured = start + WARM_UP
    step.end = step.measured + seconds
    readings: list[Reading] = []
    for moment in (step.measured, step.end):
        client.at(moment, lambda: readings.append(Reading.now(servers)))
    live.step = step
    host = live.tables.host

    def enter(keeper: Keeper, due: float) -> None:
        post = keeper.next_post(host)
        if post is None:
            return
        keeper.tapped[keeper.done + 1] = due

        def answered(answer: bytes | None) -> None:
            now = time.monotonic()
            status = int(answer[9:12]) if answer and answer[:5] == b"HTTP/" else 0
            if step.measured <= now <= step.end:
                step.sent += 1
                step.changes += status == 200
            if due >= step.measured:
                if status == 200:
                    step.latencies["entry"].append(now - due)
                else:
                    step.fail("entry", str(status or "no answer"))
            if status == 200:
                keeper.done += 1
            # The next tap comes after this screen, on the clock from this tap's time.
            following = due + rng.uniform(*keeper.every)
            if following < step.end:
                client.at(following, lambda: enter(keeper, following))

        client.send(post, answered, keeper.server)

    for keeper in live.tables.keepers[:count]:
        due = start + rng.uniform(0, keeper.every[1])
        client.at(due, functools.partial(enter, keeper, due))
    client.run(step.end)
    live.step = None
    step.cores(*readings)
    return step


def bare_cost(database: str, workers: int) -> float:
    """The processor seconds one request to the true bare route costs its server
    (``bench/bare_app.py`` under the same gunicorn settings), each on a new connection as the
    entries are: ``BARE_REQUESTS`` at ``BARE_RATE`` a second."""
    with Server(database, workers, BARE) as server:
        client = Client([server.port])
        request = get("/bare", f"127.0.0.1:{server.port}")
        answered = []
        start = time.monotonic() + 0.2
        for number in range(BARE_REQUESTS):
            client.at(
                start + number / BARE_RATE,
                lambda: client.send(request, lambda a: answered.append(a is not None)),
            )
        began = server_cpu([server])
        client.run(start + BARE_REQUESTS / BARE_RATE)
        spent = server_cpu([server]) - began
    return spent / max(1, sum(answered))


def idle(live: Live, servers: list[Server], count: int) -> str:
    """What the open streams of ``count`` tables cost the servers over ``IDLE`` seconds with no
    change, in a sentence."""
    began = Reading.now(servers)
    live.client.run(time.monotonic() + IDLE)
    ended = Reading.now(servers)
    cores = (ended.server - began.server) / (ended.at - began.at)
    streams = sum(1 for p in live.tables.phones if p.opened)
    return f"{streams} open streams, no change for {IDLE:g} s: server {cores:.3f} cores busy"


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
    servers: int = 1,
) -> list[Step]:
    """Step the number of tables up on ``database`` until a step does not hold; every step.
    ``servers``: how many gunicorn servers of ``workers`` each share the database, each
    table's phones on one of them (``Tables``)."""
    random.seed(1)
    rng = random.Random(1)
    app = open_app(database)
    bare = bare_cost(database, workers)
    show(f"true bare route: {1000 * bare:.3f} ms of processor time a request")
    done: list[Step] = []
    with contextlib.ExitStack() as stack:
        # Every phone here comes from one address: no limit on its streams.
        env = {"REFEREE_STREAM_LIMIT": str(10 * PHONES * max(steps))}
        running = [stack.enter_context(Server(database, workers, env=env)) for _ in range(servers)]
        ports = [server.port for server in running]
        live = Live(Tables(app, f"127.0.0.1:{ports[0]}", servers=servers), Client(ports))
        stack.callback(live.client.close_streams)
        for number, count in enumerate(steps):
            seeding = time.monotonic()
            live.tables.grow(count, rng)
            open_streams(live, count)
            seeded = time.monotonic() - seeding
            if number == 0:
                show(idle(live, running, count))
            step = run_step(live, running, count, seconds, bare, rng)
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
            f"{best.tables} live tables ({best.tables * PHONES} phones, each with its stream) "
            f"held, entry p99 {1000 * best.percentile('entry', 0.99):.0f} ms "
            f"(≤ {ENTRY_P99 * 1000:.0f}), watcher p99 "
            f"{1000 * best.percentile('watcher', 0.99):.0f} ms (≤ {WATCHER_P99 * 1000:.0f})"
        )
    else:
        text = f"not even {steps[0].tables} tables held"
    if not last.holds:
        why = (
            f"{last.failed} failed requests"
            if last.failed
            else f"entry p99 {1000 * last.percentile('entry', 0.99):.0f} ms, watcher p99 "
            f"{1000 * last.percentile('watcher', 0.99):.0f} ms"
        )
        text += f"; {last.tables} did not ({why})"
    else:
        text += f"; the last step ({last.tables}) still held"
    costing = held[-1] if held else last
    if costing.changes:
        text += (
            f"; a change cost the server {1000 * costing.cost:.2f} ms of processor time, "
            f"{costing.cost / costing.bare:.1f} × a bare request, and "
            f"{costing.per_change:.2f} requests ({costing.tables} tables)"
        )
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=list(STEPS))
    parser.add_argument("--seconds", type=float, default=12, help="measured per step")
    parser.add_argument("--workers", type=int, default=2, help="gevent workers of each server")
    parser.add_argument(
        "--servers", type=int, default=1, help="gunicorn servers on the one database"
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
            "tables | p50/p99 of each kind (rate) | requests and CPU per change | cores",
            flush=True,
        )
        place = instance("referee-capacity-") if url is None else postgres_instance(url)
        with place as (_folder, database):
            steps = sweep(
                database, args.workers, tuple(args.steps), args.seconds, servers=args.servers
            )
        lines.append(f"{label}: {summary(steps)}")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
