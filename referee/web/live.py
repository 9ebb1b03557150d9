"""Live pages by push: one held connection per open page (server-sent events) that brings each
change of its table as it is made; a group's page and TV mode are told each change of the tables
they show and of the group (``group_stream``).

A page that follows its table (``templates/_poll.html``) opens its own address as an event
stream (``static/app.js``: ``EventSource``, which asks with ``Accept: text/event-stream``). The
stream is answered by the page's own view, after the access check every request for the page
gets, so a revoked, foreign or expired link gets the refusal a page request gets, and a phone
gets the stream of exactly the page it would be sent (its link kind, its language). Then, each
time the table's log position moves past the one the page shows, one event with that position as
its ``id``:

- ``page``: a page every viewer of its kind sees alike (``referee.web.pages``) is sent whole, the
  same bytes to every watcher of that kind, made once per change in each server process
  (``memo``), by whichever of its streams comes first;
- ``moved``: any other page (a scorekeeper's own, the history) is told the position only, and
  asks for itself when it wants it (the scorekeeper's page has it already: its entry's answer);
- ``lost``: the phone's link no longer opens the table; the stream ends.

A group's page (``referee.web.groups``) is its phone's own (its keeper's forms, the tables this
phone holds links of): its stream says ``moved`` with where the page stands now (``Followed``: a
digest of the group's version and of the positions of the tables it shows), and the page reads
its live parts again (``static/groups.js``). The positions are read fresh from the database, so
the page read after a ``moved`` shows the move whichever process answers it.

A reconnecting ``EventSource`` sends the ``id`` of the last event it had (``Last-Event-ID``; the
page's first connection says the position it shows, ``?stream=N``): the stream goes on from
there, and an event only ever brings a position past the last one sent, so nothing is missed
(a page is the whole table at its position) and nothing is sent twice. Between changes the
stream waits on its table's wake-up (no timer of its own); once every ``BEAT`` seconds
(``referee.web.speed.streams``, a slice of the streams at a time) each stream says a comment
line, so that proxies keep it and a phone gone without a word is noticed.

Streams are served where a waiting request holds no worker: under gunicorn's gevent workers with
the speed layer, which knows each table's position and is woken by each move. Anywhere else a
stream request is answered ``204 No Content`` (``EventSource`` then stops), and so is one from an
address that holds ``STREAM_LIMIT`` streams already: the page falls back to asking
(``referee.web.polls``). A reader that stops reading is dropped after ``STREAM_WRITE_SECONDS``
of a full socket.
"""

from __future__ import annotations

import base64
import hashlib
import re
import socket
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from flask import Flask, current_app, g, request, stream_with_context
from werkzeug.wrappers import Response

from referee.store import db
from referee.store.db import close_autocommit
from referee.web.loading import position_in, recent_seq
from referee.web.polls import unchanged
from referee.web.sharing.access import GROUPS, TABLES, Things

#: What a page's stream asks for (``Accept``) and is answered as.
STREAM_TYPE = "text/event-stream"
#: What the server buffers for a stream's reader (bytes; the kernel doubles it): a page or two.
SEND_BUFFER = 16 * 1024
#: The event that tells a page its link no longer opens the table.
LOST = b"event: lost\ndata: lost\n\n"
#: The comment line each stream says at each beat.
BEAT_LINE = b":\n\n"
#: The stream's first event: how soon a browser reconnects a broken stream (milliseconds), and
#: that the stream is open (a page whose stream does not say so soon asks instead: a proxy
#: holds the stream back).
READY = b"retry: 1000\nevent: ready\ndata: ready\n\n"

LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: A group page's ``Followed.token``: 12 characters of URL-safe base64.
TOKEN = re.compile(r"[A-Za-z0-9_-]{12}")

T = TypeVar("T")


class Waits(Protocol):
    """What streams wait on: a plain interface, with an implementation that serves none
    (``NoStreams``) and the speed layer's."""

    def can_stream(self) -> bool:
        """Whether this process holds a waiting request without holding a worker."""

    def admit(self, address: str) -> bool:
        """Count a stream from ``address`` in, unless it holds as many as it may already."""

    def leave(self, address: str) -> None:
        """A stream ``admit`` let in has ended."""

    def wait(self, table_id: str, seq: int) -> int:
        """The table's position once this process knows one past ``seq``; ``seq`` at a beat."""

    def wait_group(self, group_id: str, version: int, tables: Mapping[str, int]) -> None:
        """Until one of ``tables`` (id → position) moves past its position, the group's version
        moves from ``version``, or a beat."""

    def making(self) -> AbstractContextManager[Any]:
        """Held while a stream's event is made, so that the streams a move wakes together
        make it once."""


class NoStreams:
    """Serves no streams: every page asks instead."""

    def can_stream(self) -> bool:
        return False

    def admit(self, address: str) -> bool:
        return False

    def leave(self, address: str) -> None:
        pass

    def wait(self, table_id: str, seq: int) -> int:
        raise NotImplementedError

    def wait_group(self, group_id: str, version: int, tables: Mapping[str, int]) -> None:
        raise NotImplementedError

    def making(self) -> AbstractContextManager[Any]:
        raise NotImplementedError


def init_app(app: Flask, waits: Waits | None = None) -> None:
    """Give ``app`` its streams: ``waits``, or none."""
    app.extensions["referee.live"] = waits if waits is not None else NoStreams()


def wants_stream() -> bool:
    """Whether the request asks for its page's stream."""
    return STREAM_TYPE in request.headers.get("Accept", "")


def event(kind: bytes, at: int | str, text: str) -> bytes:
    """An event of ``kind`` with ``at`` (a table's position, a group's ``Followed.token``) as its
    id and ``text`` as its data, line by line (a browser drops an event whose data is empty)."""
    lines = LINE_BREAK.split(text)
    data = b"".join(b"data: " + line.encode() + b"\n" for line in lines)
    return b"id: %s\nevent: %s\n%s\n" % (str(at).encode(), kind, data)


def moved(seq: int) -> bytes:
    """The event of a page that is told the position only."""
    return event(b"moved", seq, str(seq))


def stream(table_id: str, event_at: Callable[[int], bytes] = moved) -> Response:
    """The stream of the requested page of the table (see the module), the view's answer to a
    request that ``wants_stream``, after its access check: ``event_at(seq)``, the event that
    brings position ``seq``."""

    def events(waits: Waits, last: int | None) -> Iterator[bytes]:
        sent = last if last is not None else (recent_seq(table_id) or 0)
        while True:
            now = recent_seq(table_id)
            if now is None:
                return  # the table is gone
            if now <= sent:
                let_go()
                now = waits.wait(table_id, sent)
            if now <= sent:
                yield BEAT_LINE
                continue
            if not still_opens(TABLES, table_id):
                let_go()
                yield LOST
                return
            with waits.making():
                made = event_at(now)
            sent = now
            let_go()
            yield made

    return held_open(events, position_in)


@dataclass(frozen=True)
class Followed:
    """Where a group's page stands: its ``token`` (the id of the stream's events: a digest of
    all the page shows from), the group's ``version`` and the ``tables`` it shows, id → log
    position."""

    token: str
    version: int
    tables: Mapping[str, int]


def followed(version: int, tables: Mapping[str, int | None], *more: Hashable) -> Followed:
    """Where a group's page stands: at the group's ``version``, showing ``tables`` at their
    positions (None: not found, as 0), and ``more`` (the day, the screen …)."""
    at = {table_id: seq or 0 for table_id, seq in tables.items()}
    digest = hashlib.blake2b(repr((version, sorted(at.items()), more)).encode(), digest_size=9)
    return Followed(base64.urlsafe_b64encode(digest.digest()).decode(), version, at)


def group_stream(group_id: str, now: Callable[[], Followed | None]) -> Response:
    """The stream of a group's page (its page, TV mode), after its access check: a ``moved``
    event, with the new ``Followed.token``, each time ``now()`` moves from the page's, or the
    group is gone (None: the stream ends). A group's page is its keeper's or its viewer's own
    (the tables this phone holds links to are links): it asks for itself."""

    def events(waits: Waits, last: str | None) -> Iterator[bytes]:
        at = now()
        sent = last if last is not None else None if at is None else at.token
        while at is not None:
            if at.token == sent:
                let_go()
                waits.wait_group(group_id, at.version, at.tables)
                at = now()
                if at is None or at.token == sent:
                    yield BEAT_LINE
                    continue
            if not still_opens(GROUPS, group_id):
                let_go()
                yield LOST
                return
            sent = at.token
            let_go()
            yield event(b"moved", sent, sent)
            at = now()

    return held_open(events, token_in)


def token_in(text: str | None) -> str | None:
    """A ``Followed.token`` as a phone sends it back (None: not one)."""
    return text if text is not None and TOKEN.fullmatch(text) else None


def held_open(
    events: Callable[[Waits, T | None], Iterator[bytes]], read: Callable[[str | None], T | None]
) -> Response:
    """A stream, held open while ``events(waits, last)`` yields (see the module): ``last``, what
    the phone had (``read`` from ``Last-Event-ID``, else from the page's ``?stream=``); or no
    stream where none is served."""
    waits: Waits = current_app.extensions["referee.live"]
    address = request.remote_addr or ""
    if not waits.can_stream() or not waits.admit(address):
        return no_stream()
    last = read(request.headers.get("Last-Event-ID"))
    if last is None:
        last = read(request.args.get("stream"))
    own = request.environ.get("gunicorn.socket")
    if isinstance(own, socket.socket):
        own.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        # A reader that stops reading: dropped, not waited for.
        own.settimeout(float(current_app.config["STREAM_WRITE_SECONDS"]))

    def framed() -> Iterator[bytes]:
        # Before each wait and each write, the database connection goes back to the pool: a
        # stream waits far longer than any request, and writes as slowly as its reader reads.
        try:
            let_go()
            yield READY
            yield from events(waits, last)
        finally:
            let_go()
            waits.leave(address)

    response = Response(stream_with_context(framed()), mimetype=STREAM_TYPE)
    response.cache_control.no_store = True
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def no_stream() -> Response:
    """No stream here: the page asks instead (``EventSource`` stops at a 204)."""
    response = Response(status=204)
    response.cache_control.no_store = True
    return response


def still_opens(things: Things[Any], thing_id: str) -> bool:
    """Whether this phone's link still opens the table (as this process knows its links now) or
    the group."""
    g.pop(f"access:{things.key}", None)
    return things.held(thing_id) is not None


def let_go() -> None:
    """Give the database connection a stream's request holds back to the pool, while it waits."""
    db.session.close()
    close_autocommit()


def follow(table_id: str, shared: bool = False) -> Response | None:
    """For a request of a page that follows the table, after its access check: the page's stream
    of positions, unless the page is ``shared`` (``referee.web.pages`` streams it whole), or a
    poll's bodiless 304 (``referee.web.polls.unchanged``); None: the page itself."""
    if wants_stream() and not shared:
        return stream(table_id)
    return unchanged(table_id)
