"""A table's live pages by push: one held connection per open page (server-sent events) that
brings each change of its table as it is made.

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

A reconnecting ``EventSource`` sends the ``id`` of the last event it had (``Last-Event-ID``; the
page's first connection says the position it shows, ``?stream=N``): the stream goes on from
there, and an event only ever brings a position past the last one sent, so nothing is missed
(a page is the whole table at its position) and nothing is sent twice. Between changes the
stream waits on its table's wake-up (no timer of its own); every ``BEAT`` seconds
(``referee.web.speed.streams``) all streams of a process say a comment line, so that proxies
keep them and a phone gone without a word is noticed.

Streams are served where a waiting request holds no worker: under gunicorn's gevent workers with
the speed layer, which knows each table's position and is woken by each move. Anywhere else a
stream request is answered ``204 No Content`` (``EventSource`` then stops), and so is one from an
address that holds ``STREAM_LIMIT`` streams already: the page falls back to asking
(``referee.web.polls``). A reader that stops reading is dropped after ``STREAM_WRITE_SECONDS``
of a full socket.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from flask import Flask, current_app, g, request, stream_with_context
from werkzeug.wrappers import Response

from referee.store import db
from referee.store.db import close_autocommit
from referee.web.loading import position_in, recent_seq
from referee.web.polls import unchanged
from referee.web.sharing.access import TABLES

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

    def making(self) -> AbstractContextManager[Any]:
        raise NotImplementedError


def init_app(app: Flask, waits: Waits | None = None) -> None:
    """Give ``app`` its streams: ``waits``, or none."""
    app.extensions["referee.live"] = waits if waits is not None else NoStreams()


def wants_stream() -> bool:
    """Whether the request asks for its page's stream."""
    return STREAM_TYPE in request.headers.get("Accept", "")


def event(kind: bytes, seq: int, text: str) -> bytes:
    """An event of ``kind`` with ``seq`` as its id and ``text`` as its data, line by line (a
    browser drops an event whose data is empty)."""
    lines = LINE_BREAK.split(text)
    data = b"".join(b"data: " + line.encode() + b"\n" for line in lines)
    return b"id: %d\nevent: %s\n%s\n" % (seq, kind, data)


def moved(seq: int) -> bytes:
    """The event of a page that is told the position only."""
    return event(b"moved", seq, str(seq))


def stream(table_id: str, event_at: Callable[[int], bytes] = moved) -> Response:
    """The stream of the requested page of the table (see the module), the view's answer to a
    request that ``wants_stream``, after its access check: ``event_at(seq)``, the event that
    brings position ``seq``."""
    waits: Waits = current_app.extensions["referee.live"]
    address = request.remote_addr or ""
    if not waits.can_stream() or not waits.admit(address):
        return no_stream()
    last = position_in(request.headers.get("Last-Event-ID"))
    if last is None:
        last = position_in(request.args.get("stream"))
    own = request.environ.get("gunicorn.socket")
    if isinstance(own, socket.socket):
        own.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        # A reader that stops reading: dropped, not waited for.
        own.settimeout(float(current_app.config["STREAM_WRITE_SECONDS"]))

    def events() -> Iterator[bytes]:
        # Before each wait and each write, the database connection goes back to the pool: a
        # stream waits far longer than any request, and writes as slowly as its reader reads.
        sent = last if last is not None else (recent_seq(table_id) or 0)
        try:
            let_go()
            yield READY
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
                if not still_opens(table_id):
                    let_go()
                    yield LOST
                    return
                with waits.making():
                    made = event_at(now)
                sent = now
                let_go()
                yield made
        finally:
            let_go()
            waits.leave(address)

    response = Response(stream_with_context(events()), mimetype=STREAM_TYPE)
    response.cache_control.no_store = True
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def no_stream() -> Response:
    """No stream here: the page asks instead (``EventSource`` stops at a 204)."""
    response = Response(status=204)
    response.cache_control.no_store = True
    return response


def still_opens(table_id: str) -> bool:
    """Whether this phone's link still opens the table (as this process knows its links now)."""
    g.pop(f"access:{TABLES.key}", None)
    return TABLES.held(table_id) is not None


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
