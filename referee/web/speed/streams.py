"""The live pages' streams this process holds (``referee.web.live``'s ``Waits``): each waits on its
table's wake-up, woken when the table's position moves, and at each beat. A group page's stream
waits on its group's wake-up, woken when one of the tables it shows moves and, at the sweeper's
recheck (one read of the versions of every group followed), when the group changed.

A table's position moves here (``Positions.set``) for an entry this process wrote, for one written
through another process or server that this process hears of — on PostgreSQL a moment after its
commit (``wake``: each move is told to every listening process), else by a sweep of the tables
changed lately, made every ``SWEEP_EVERY`` seconds while any stream waits (one indexed read for
the whole process, whatever the number of streams) — and each move wakes every stream of that
table at once. A stream costs no timer of its own: one sweeper per process also wakes, every
``RECHECK_EVERY`` seconds, the streams of any table whose position is past one they wait on (a
wake-up missed, however it was missed), and every stream once each ``BEAT``, a slice of them at
each recheck.

Holding a stream costs a worker only under a server of green threads: gunicorn's gevent workers
(``gunicorn.conf.py``), where a waiting request is a little memory. Anywhere else (the tests'
client, ``flask --app app table``'s waitress, threaded or sync workers) no stream is served, and
the page asks on its own schedule (``referee.web.polls``).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

from referee.store.groups import group_versions
from referee.web.live import let_go
from referee.web.speed.wake import Listener, can_listen

if TYPE_CHECKING:
    from flask import Flask

    from referee.web.speed.kept import Positions

#: How often a process that holds streams sweeps for changes made elsewhere (seconds), unless it
#: hears of each at once (``wake``: then it sweeps every ``SAFETY_SWEEP_SECONDS``): how late a
#: stream hears of an entry written through another worker on SQLite. Each sweep is one indexed
#: read of the tables changed in the last few seconds (``kept.SWEEP_OVERLAP``), hundreds of rows
#: at a busy server (``bench/capacity.py``).
SWEEP_EVERY = 0.04
#: How often the sweeper also looks at every waiting stream's table (seconds): a stream whose
#: table's position is past the one it waits on is woken, so a wake-up missed, however it was
#: missed, costs a watching phone at most this long.
RECHECK_EVERY = 1.0
#: How often every stream says a comment line (seconds), woken by the sweeper: proxies keep a
#: connection that says something (nginx drops one quiet for 60 s by default), and a phone gone
#: without a word is noticed when its stream cannot be written to. One wake-up of each stream
#: per beat, not a timer per stream, the streams spread over the beat's rechecks (``beats``).
BEAT = 30.0

#: The key of a group's streams' event (no table id holds a space).
GROUP = "group "

log = logging.getLogger(__name__)


def tally(counts: dict[str, dict[Any, int]], key: str, value: Hashable, by: int) -> bool:
    """Count ``by`` more (or fewer) of ``value`` under ``key``; whether none are left under
    ``key`` (which is then dropped)."""
    found = counts.setdefault(key, {})
    found[value] = found.get(value, 0) + by
    if not found[value]:
        del found[value]
    if found:
        return False
    del counts[key]
    return True


def can_hold() -> bool:
    """Whether this process serves its requests on green threads (gevent's monkey patching,
    as gunicorn's gevent workers do), so a held request holds no worker."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


class Streams:
    """The streams this process holds, by table, what wakes them, and how many each network
    address holds (see the module).

    Made with the app, in the worker process after gevent has patched ``threading`` (its locks
    and events are then gevent's); its sweeper and listener start with the first stream."""

    def __init__(self, app: Flask, positions: Positions) -> None:
        self.app = app
        self.positions = positions
        #: Table id (or ``GROUP`` and a group id) → the event its streams wait on (set, and
        #: dropped, when it moves, when a recheck finds it moved, and at each beat).
        self.events: dict[str, threading.Event] = {}
        #: Table id → the positions its streams wait on → how many wait on each.
        self.waiting: dict[str, dict[int, int]] = {}
        #: Group id → the versions its streams wait on → how many wait on each.
        self.groups: dict[str, dict[int, int]] = {}
        #: Table id → the groups' keys (``GROUP`` and the id) whose streams follow it → how many.
        self.followers: dict[str, dict[str, int]] = {}
        #: Hears of entries written elsewhere as they commit (PostgreSQL), if the app can.
        self.listener = Listener(app, positions) if can_listen(app) else None
        #: How often to sweep while the listener hears (seconds).
        self.safety_sweep = float(app.config["SAFETY_SWEEP_SECONDS"])
        #: Address → how many streams it holds open in this process.
        self.streams: dict[str, int] = {}
        self.stream_limit = int(app.config["STREAM_LIMIT"])
        #: Whether the sweeper runs (started by the first wait, in the worker).
        self.started = False
        self.lock: threading.Lock | None = None
        #: The recheck's slice of the beat (``beats``).
        self.beaten = 0
        positions.moved = self.wake

    def start(self) -> None:
        """Start the sweeper (and the listener), once. Under gevent this switches to other
        requests while it starts: it is noted as started first, or a second first wait would
        start another."""
        if self.started:
            return
        self.started = True
        threading.Thread(target=self.sweeping, name="streams", daemon=True).start()
        if self.listener is not None:
            self.listener.start()

    def can_stream(self) -> bool:
        return can_hold()

    def admit(self, address: str) -> bool:
        """Count a stream from ``address`` in, unless it holds ``STREAM_LIMIT`` already."""
        held = self.streams.get(address, 0)
        if held >= self.stream_limit:
            return False
        self.streams[address] = held + 1
        return True

    def leave(self, address: str) -> None:
        held = self.streams.pop(address, 1) - 1
        if held:
            self.streams[address] = held

    def making(self) -> threading.Lock:
        """One lock of the process, made in the worker (gevent's, once patched)."""
        if self.lock is None:
            self.lock = threading.Lock()
        return self.lock

    def wait(self, table_id: str, seq: int) -> int:
        """The table's position once it is past ``seq``; ``seq`` when woken without (a beat)."""
        self.start()
        self.count(table_id, seq, 1)
        try:
            # The event first, then the position: a move in between sets this event.
            event = self.event(table_id)
            now = self.positions.known.get(table_id)
            if now is None or now <= seq:
                event.wait()
                now = self.positions.known.peek(table_id)
            return seq if now is None or now <= seq else now
        finally:
            self.count(table_id, seq, -1)

    def wait_group(self, group_id: str, version: int, tables: Mapping[str, int]) -> None:
        """Until one of ``tables`` (id → position) moves past its position, the group's version
        moves from ``version`` (heard within ``RECHECK_EVERY``), or a beat."""
        self.start()
        key = GROUP + group_id
        tally(self.groups, group_id, version, 1)
        for table_id, seq in tables.items():
            self.count(table_id, seq, 1)
            tally(self.followers, table_id, key, 1)
        try:
            event = self.event(key)
            if all((self.positions.known.get(t) or 0) <= seq for t, seq in tables.items()):
                event.wait()
        finally:
            for table_id, seq in tables.items():
                self.count(table_id, seq, -1)
                tally(self.followers, table_id, key, -1)
            if tally(self.groups, group_id, version, -1):
                self.events.pop(key, None)

    def event(self, key: str) -> threading.Event:
        """The event the streams of ``key`` (a table id, or ``GROUP`` and a group id) wait on."""
        return self.events.get(key) or self.events.setdefault(key, threading.Event())

    def count(self, table_id: str, seq: int, by: int) -> None:
        """One stream more (``by`` 1) or less (-1) waits on the table past ``seq``."""
        if tally(self.waiting, table_id, seq, by):
            self.events.pop(table_id, None)

    def wake(self, table_id: str) -> None:
        """The table's position moved (noted before this is called): its streams look again,
        and those of the groups that follow it."""
        self.ring(table_id)
        for key in self.followers.get(table_id, {}):
            self.ring(key)

    def ring(self, key: str) -> None:
        """Wake the streams waiting on ``key``'s event."""
        event = self.events.pop(key, None)
        if event is not None:
            event.set()

    def recheck(self) -> None:
        """Wake the streams of every table whose known position is past one they wait on, and
        of every group whose version is not one they wait on (one read for them all); and the
        beat of a slice of the streams (``beats``)."""
        beating = self.beats()
        for table_id, seqs in list(self.waiting.items()):
            now = self.positions.known.peek(table_id)
            if beating(table_id) or (now is not None and any(seq < now for seq in seqs)):
                self.wake(table_id)
        if self.groups:
            with self.app.app_context():
                versions = group_versions(list(self.groups))
                let_go()
            for group_id, waited in list(self.groups.items()):
                if beating(group_id) or any(v != versions.get(group_id) for v in waited):
                    self.ring(GROUP + group_id)

    def beats(self) -> Callable[[str], bool]:
        """Whether a table's (or group's) streams beat at this recheck: each table at one of
        the ``BEAT / RECHECK_EVERY`` rechecks of a beat, by its id, so that every stream says
        its line once a beat and the process's streams do not all write at the same moment (at
        12,500 streams that burst was an entry's p99, ``bench/capacity.py``)."""
        slices = max(1, round(BEAT / RECHECK_EVERY))
        self.beaten = (self.beaten + 1) % slices
        now = self.beaten
        return lambda key: hash(key) % slices == now

    def sweeping(self) -> None:
        """While any stream waits: a sweep each ``SWEEP_EVERY`` seconds (one indexed read for
        the whole process), which wakes the streams of the tables another process changed —
        each ``safety_sweep`` seconds only while the listener hears of them — and a ``recheck``
        each ``RECHECK_EVERY`` seconds."""
        rechecked = time.monotonic()
        while True:
            hears = self.listener is not None and self.listener.listening
            time.sleep(min(self.safety_sweep, RECHECK_EVERY) if hears else SWEEP_EVERY)
            if not self.waiting and not self.groups:
                continue
            try:
                if time.monotonic() - rechecked >= RECHECK_EVERY:
                    rechecked = time.monotonic()
                    self.recheck()
                with self.app.app_context():
                    self.positions.sweep(self.safety_sweep if hears else SWEEP_EVERY)
            except Exception:  # the database away for a moment: the next sweep tries again
                log.exception("sweep for streams failed")
