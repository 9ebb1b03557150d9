"""Held polls: a page's "has anything changed?" answered when its table changes, not at once.

A page at a live table asked every second, and a server of sync workers spent a whole connection
on each answer: five phones a table made the polls most of a hosted evening's work
(``bench/capacity.py``). A page's poll (the page itself asked with its poll key, as
``static/app.js`` asks, or the older ``/t/<id>/seq?k=<key>&hold=1``; ``front``) whose ETag is the
table's position now is kept open instead, until the position moves or ``seconds`` pass; the
page asks again at once after each answer. A phone then sends one poll per change (and one per
``seconds`` at a quiet table) and sees a change as soon as this process
knows of it: at once for an entry it wrote; for one written through another process or server,
a moment after its commit on PostgreSQL, which tells each move to every listening process
(``wake``), else within a sweep (``SWEEP_EVERY``).

Holding a request costs a worker only under a server of green threads: gunicorn's gevent workers
(``gunicorn.conf.py``), where a waiting request is a little memory. Anywhere else (the tests'
client, ``flask --app app table``'s waitress, threaded or sync gunicorn workers) nothing is held:
the poll is answered at once and the page asks on its own schedule. Every answer of a server that
holds says so (``referee.web.polls.HELD_HEADER``), so the page knows to ask again at once.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import TYPE_CHECKING

from referee.web.speed.wake import Listener, can_listen

if TYPE_CHECKING:
    from flask import Flask

    from referee.web.speed.kept import Positions

#: How often a process that holds polls sweeps for changes made elsewhere (seconds): how late a
#: held poll hears of an entry written through another process, unless the process hears of
#: each at once (``wake``: then it sweeps every ``SAFETY_SWEEP_SECONDS``). Each sweep is one
#: indexed read of the tables changed in the last few seconds (``kept.SWEEP_OVERLAP``),
#: hundreds of rows at a busy server: about 6 % of a worker's time at 1,000 live tables
#: (``bench/capacity.py``), where sweeping every 0.1 s held fewer tables, not more.
SWEEP_EVERY = 0.04
#: How often the sweeper also looks at every held poll's table (seconds): a poll whose table's
#: position is not the one it waits on is woken, so a wake-up missed, however it was missed,
#: costs a watching phone at most this long. One look in memory per table held for, not one
#: timer per poll (ten thousand polls held would each wake every second).
RECHECK_EVERY = 1.0
#: How often every stream says a comment line (seconds), woken by the sweeper: proxies keep a
#: connection that says something (nginx drops one quiet for 60 s by default), and a phone gone
#: without a word is noticed when its stream cannot be written to. One wake-up of each stream
#: per beat, not a timer per stream.
BEAT = 30.0

log = logging.getLogger(__name__)


def can_hold() -> bool:
    """Whether this process serves its requests on green threads (gevent's monkey patching,
    as gunicorn's gevent workers do), so a held request holds no worker."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


class Held:
    """The polls this process holds, by table, and what wakes them: a move of the table's
    position (``Positions.set``: an entry this process wrote, one written elsewhere and told to
    this process's ``Listener``, or a sweep that found one), swept for every ``SWEEP_EVERY``
    seconds while any poll is held (every ``SAFETY_SWEEP_SECONDS`` while the listener hears).

    Made in the worker process, after gevent has patched ``threading`` (its locks and events are
    then gevent's), on the first poll held there."""

    def __init__(self, app: Flask, positions: Positions, seconds: float) -> None:
        self.app = app
        self.positions = positions
        self.seconds = seconds
        #: Table id → the event its held polls and streams wait on (set, and dropped, when it
        #: moves, and at each beat).
        self.events: dict[str, threading.Event] = {}
        #: Table id → the positions its held polls and streams wait on → how many wait on each.
        self.waiting: dict[str, dict[int, int]] = {}
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
        self.beaten = time.monotonic()
        positions.moved = self.wake

    def start(self) -> None:
        """Start the sweeper (and the listener), once. Under gevent this switches to other
        requests while it starts: it is noted as started first, or a second first wait would
        start another."""
        if self.started:
            return
        self.started = True
        threading.Thread(target=self.sweeping, name="held-polls", daemon=True).start()
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

    def wait(self, table_id: str, seq: int, seconds: float | None = None) -> int:
        """The table's position once it is past ``seq``, or ``seq`` after ``seconds`` (held
        polls) or at the next beat (streams, ``seconds`` None)."""
        self.start()
        deadline = None if seconds is None else time.monotonic() + seconds
        seqs = self.waiting.setdefault(table_id, {})
        seqs[seq] = seqs.get(seq, 0) + 1
        try:
            while True:
                # The event first, then the position: a move in between sets this event.
                event = self.events.get(table_id) or self.events.setdefault(
                    table_id, threading.Event()
                )
                now = self.positions.known.get(table_id)
                if now is None or now > seq:
                    return seq if now is None else now
                if deadline is None:  # a stream: woken by a move, or by a beat
                    event.wait()
                    now = self.positions.known.peek(table_id)
                    return seq if now is None or now <= seq else now
                left = deadline - time.monotonic()
                if left <= 0:
                    return seq
                event.wait(left)
        finally:
            seqs[seq] -= 1
            if not seqs[seq]:
                del seqs[seq]
            if not seqs:
                del self.waiting[table_id]
                self.events.pop(table_id, None)

    def wake(self, table_id: str) -> None:
        """The table's position moved (noted before this is called): its held polls look again."""
        event = self.events.pop(table_id, None)
        if event is not None:
            event.set()

    def recheck(self) -> None:
        """Wake the polls of every table whose known position is past one they wait on; and,
        each ``BEAT`` seconds, every stream."""
        beat = time.monotonic() - self.beaten >= BEAT
        if beat:
            self.beaten = time.monotonic()
        for table_id, seqs in list(self.waiting.items()):
            now = self.positions.known.peek(table_id)
            if beat or (now is not None and any(seq < now for seq in seqs)):
                self.wake(table_id)

    def sweeping(self) -> None:
        """While any poll is held: a sweep each ``SWEEP_EVERY`` seconds (one indexed read for
        the whole process), which wakes the polls of the tables another process changed — each
        ``safety_sweep`` seconds only while the listener hears of them — and a ``recheck`` each
        ``RECHECK_EVERY`` seconds."""
        rechecked = time.monotonic()
        while True:
            time.sleep(SWEEP_EVERY)
            if not self.waiting:
                continue
            if time.monotonic() - rechecked >= RECHECK_EVERY:
                rechecked = time.monotonic()
                self.recheck()
            try:
                hears = self.listener is not None and self.listener.listening
                with self.app.app_context():
                    self.positions.sweep(self.safety_sweep if hears else SWEEP_EVERY)
            except Exception:  # the database away for a moment: the next sweep tries again
                log.exception("sweep for held polls failed")
