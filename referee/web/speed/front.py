"""A page's "has anything changed?" (the fallback of a page without its stream,
``referee.web.live``), answered in front of Flask from this process's memory, keyed on the table
and the page's poll key only.

A page polls its own address (``referee.web.polls``: ``POLL_HEADER`` with the table's poll key,
``If-None-Match: "seq-N"``). With a valid key, while the table stays at N, it is answered here
with a bodiless 304 when the phone's session (its cookie verified by this process,
``sessions``) holds a link this process knows still opens the table; the older poll,
``/t/<id>/seq?k=<poll key>``, is answered on its key alone, as Flask answers it. Once the table
has moved, the request goes on to Flask as the page request it is, saying which position it saw
(``SEEN_HEADER``, so the page shows at least that one): Flask checks access as for every page. A
page request, and a page's stream, are always Flask's: nothing here keeps a page.

Flask's per-request work (contexts, session, URL matching, the CSRF hook, after-request hooks)
costs more than a position: answered here, an unchanged poll costs about what the true bare
route does (``bench/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_cookie
from werkzeug.wrappers import Response

from referee.web import secret_keys
from referee.web.headers import security_headers
from referee.web.live import STREAM_TYPE
from referee.web.loading import SEEN_HEADER
from referee.web.polls import (
    POLL_IN_ENVIRON,
    asks_after,
    position_answer,
    unchanged_answer,
    valid_poll_key,
)
from referee.web.sharing.access import TABLES
from referee.web.speed.kept import KeptTables

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: ``SEEN_HEADER`` as the WSGI environ names it.
SEEN_IN_ENVIRON = "HTTP_" + SEEN_HEADER.upper().replace("-", "_")


class Front:
    """WSGI middleware answering a page's poll from memory (see the module)."""

    def __init__(self, app: Flask, tables: KeptTables, then: WSGIApp) -> None:
        """``tables``: the kept tables (positions and links)."""
        self.app = app
        self.then = then
        self.tables = tables
        self.positions = tables.positions

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if STREAM_TYPE in environ.get("HTTP_ACCEPT", ""):
            return self.then(environ, start_response)  # a page's stream: Flask's
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and path.startswith("/t/"):
            if path.endswith("/seq"):
                seq = self.answer(path[3:-4], environ)
                if seq is not None:
                    return security_headers(position_answer(seq, environ))(environ, start_response)
            elif POLL_IN_ENVIRON in environ:
                same = self.poll(environ)
                if same is not None:
                    return security_headers(same)(environ, start_response)
        return self.then(environ, start_response)

    def answer(self, table_id: str, environ: dict[str, Any]) -> int | None:
        """The position to answer the older poll with, from memory; None when only Flask can
        answer."""
        query: str = environ.get("QUERY_STRING", "")
        if not query.startswith("k="):
            return None
        key = query[2:].partition("&")[0]
        if not self.valid_key(table_id, key):
            return None
        return self.positions.fresh(table_id)

    def poll(self, environ: dict[str, Any]) -> Response | None:
        """A page's poll of its own address (see the module): a 304 while the table is at the
        page's position; None when the request goes on as a page request (noting the position
        seen)."""
        path: str = environ.get("PATH_INFO", "")
        table_id = path[3:].partition("/")[0]
        if not self.valid_key(table_id, environ.get(POLL_IN_ENVIRON, "")):
            return None  # a page request like any other: Flask decides
        seq = self.positions.fresh(table_id)
        if seq is None:
            return None
        if asks_after(environ, seq):
            # Unchanged: said here only to a phone whose link this process knows opens the
            # table; any other gets Flask's answer (its 304, or the refusal of a page request).
            return unchanged_answer(seq) if self.may_see(table_id, environ) else None
        environ[SEEN_IN_ENVIRON] = str(seq)
        return None

    def may_see(self, table_id: str, environ: dict[str, Any]) -> bool:
        """Whether the phone's session cookie, verified by this process and not expired, holds
        a link that this process knows still opens the table (False: Flask decides)."""
        cookie = parse_cookie(environ).get(self.app.config["SESSION_COOKIE_NAME"])
        sessions = self.app.session_interface
        data = None if cookie is None else sessions.verified(self.app, cookie)  # type: ignore[attr-defined]
        held = TABLES.held_in(data, table_id) if isinstance(data, dict) else None
        links = self.tables.links.get(table_id)
        return held is not None and links is not None and links.get(held[0]) is not None

    def valid_key(self, table_id: str, key: str) -> bool:
        """Whether ``key`` is the table's poll key as this process knows the table's links now
        (False: Flask decides), from memory while no sweep is due."""
        revoked = self.tables.known_revocations(table_id)
        if revoked is None:
            return False
        return valid_poll_key(table_id, key, secret_keys(self.app.config), revoked)


def install(app: Flask) -> None:
    """Put ``Front`` in front of the app."""
    speed = app.extensions["referee.speed"]
    app.wsgi_app = Front(app, speed.tables, app.wsgi_app)  # type: ignore[method-assign]
