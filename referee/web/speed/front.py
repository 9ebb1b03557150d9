"""A page's own "has anything changed?" poll (``/t/<id>/seq?k=<poll key>``), answered in front
of Flask from what this process knows of the table's log position (``KeptTables.positions``),
and held until the table changes where the server can (``referee.web.speed.held``).

Phones at a live table ask this more than anything else, and Flask's per-request work
(contexts, session, URL matching, the CSRF hook, after-request hooks) cost more than the answer
(``bench/run``). Whatever cannot be answered from memory goes on to Flask's own route
(``referee.web.round.routes.seq``): a poll without the key (a link holder's), a table this
process does not know yet or whose position is due for its sweep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_etags

from referee.web import secret_keys
from referee.web.headers import security_headers
from referee.web.polls import position_answer, valid_poll_key
from referee.web.speed.held import Held, can_hold
from referee.web.speed.kept import Positions

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Front:
    """WSGI middleware answering a page's poll from memory (see the module)."""

    def __init__(self, app: Flask, positions: Positions, then: WSGIApp) -> None:
        self.app = app
        self.then = then
        self.positions = positions
        self.held: Held | None = None  # made on the first poll held (``holding``)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if (
            environ.get("REQUEST_METHOD") in ("GET", "HEAD")
            and path.startswith("/t/")
            and path.endswith("/seq")
        ):
            seq = self.answer(path[3:-4], environ)
            if seq is not None:
                answer = position_answer(seq, environ, held=self.holds(environ))
                return security_headers(answer)(environ, start_response)
        return self.then(environ, start_response)

    def holds(self, environ: dict[str, Any]) -> bool:
        """Whether the poll asks to be held, and this process can hold it."""
        query: str = environ.get("QUERY_STRING", "")
        return query.endswith("&hold=1") and can_hold()

    def answer(self, table_id: str, environ: dict[str, Any]) -> int | None:
        """The position to answer the poll with, from memory (held until it moves, if the poll
        asks and the process can); None when only Flask can answer."""
        query: str = environ.get("QUERY_STRING", "")
        if not query.startswith("k="):
            return None
        key = query[2:].partition("&")[0]
        if not valid_poll_key(table_id, key, secret_keys(self.app.config)):
            return None
        if not self.holds(environ):
            return self.positions.fresh(table_id)
        # Held, from what this process knows: a sweep due is made by the held polls' own
        # sweeper within its interval, which wakes this one if the table moved. A table this
        # process has not seen yet is read once (then known), so that the first poll a worker
        # gets is held too.
        seq = self.positions.known.get(table_id)
        if seq is None:
            with self.app.app_context():
                seq = self.positions.get(table_id)
        if seq is None:
            return None  # no such table (any more): Flask's 404
        if f"seq-{seq}" in parse_etags(environ.get("HTTP_IF_NONE_MATCH")):
            seq = self.holding().wait(table_id, seq)
        return seq

    def holding(self) -> Held:
        """This process's held polls, made on the first one (in the worker, after gevent has
        patched ``threading``)."""
        if self.held is None:
            seconds = float(self.app.config["POLL_HOLD_SECONDS"])
            self.held = Held(self.app, self.positions, seconds)
            self.held.start()  # noted first: starting a thread lets other requests run
        return self.held


def install(app: Flask) -> None:
    """Put ``Front`` in front of the app."""
    positions = app.extensions["referee.speed"].positions
    app.wsgi_app = Front(app, positions, app.wsgi_app)  # type: ignore[method-assign]
