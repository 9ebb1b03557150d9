"""The requests a table page repeats most, answered in front of Flask from this process's
memory: a page's own "has anything changed?" poll (the fallback of a page without its stream,
``referee.web.live``), and a phone's request for a page every viewer of its kind sees alike
(``referee.web.pages``) that Flask has answered before — the same address, cookie and languages.

A page polls its own address (``referee.web.polls``: ``POLL_HEADER`` with the table's poll key,
``If-None-Match: "seq-N"``). With a valid key, while the table stays at N, it is answered here
with a bodiless 304. Once the table has moved, the request goes on as the page request it is,
saying which position it saw (``SEEN_HEADER``, so the page shows at least that one): answered
from memory like a repeated shared page when it can be, else by Flask, which checks access as
for every page. The older poll, ``/t/<id>/seq?k=<poll key>``, is answered here as before. A
page's stream is always Flask's.

Flask's per-request work (contexts, session, URL matching, the CSRF hook, after-request hooks)
cost more than these answers: without the repeated pages answered here, repeat views of the sheet
and the table page fell from about 1.2 to about 0.55 of the true bare route (``bench/README.md``).
A repeated page is answered only while everything Flask decided still holds: the table's
position is fresh (no sweep due, not older than the phone's poll saw), the link is one this
process knows and has not seen revoked, the session cookie is one this process verified and has
not expired, and the page at that position is kept. Whatever cannot be answered from memory goes
on to Flask.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_cookie
from werkzeug.wrappers import Response

from referee.web import secret_keys
from referee.web.headers import security_headers
from referee.web.language import VARY
from referee.web.live import STREAM_TYPE
from referee.web.loading import SEEN_HEADER, position_in
from referee.web.pages import SHARED_PAGE, SharedPage, conditional
from referee.web.polls import (
    POLL_IN_ENVIRON,
    asks_after,
    position_answer,
    unchanged_answer,
    valid_poll_key,
)
from referee.web.speed.kept import KeptTables
from referee.web.speed.lru import LRU

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: The parts of a request a shared page's answer may depend on, in the WSGI environ: its address,
#: host, cookies (session, language) and languages. ``X-Table-Seq`` and ``If-None-Match`` are
#: not among them: they are looked at on each request.
SHAPE = ("PATH_INFO", "QUERY_STRING", "HTTP_HOST", "HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE")
#: ``SEEN_HEADER`` as the WSGI environ names it.
SEEN_IN_ENVIRON = "HTTP_" + SEEN_HEADER.upper().replace("-", "_")


def shape(environ: dict[str, Any]) -> tuple[Any, ...]:
    """What two requests that a shared page answers alike have in common (``SHAPE``)."""
    return tuple(environ.get(name) for name in SHAPE)


class Front:
    """WSGI middleware answering a page's poll and a repeated shared page from memory (see the
    module)."""

    def __init__(
        self,
        app: Flask,
        tables: KeptTables,
        pages: LRU[bytes],
        repeats: LRU[SharedPage],
        then: WSGIApp,
    ) -> None:
        """``tables``: the kept tables (positions and links); ``pages``: the memo's shelf of
        shared pages; ``repeats``: the shared pages Flask answered, by the request's shape."""
        self.app = app
        self.then = then
        self.tables = tables
        self.positions = tables.positions
        self.pages = pages
        self.repeats = repeats

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if STREAM_TYPE in environ.get("HTTP_ACCEPT", ""):
            return self.then(environ, start_response)  # a page's stream: Flask's
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and path.startswith("/t/"):
            if path.endswith("/seq"):
                seq = self.answer(path[3:-4], environ)
                if seq is not None:
                    return security_headers(position_answer(seq, environ))(environ, start_response)
            else:
                if POLL_IN_ENVIRON in environ:
                    same = self.poll(environ)
                    if same is not None:
                        return security_headers(same)(environ, start_response)
                page = self.again(environ)
                if page is not None:
                    return security_headers(page)(environ, start_response)
                return self.then(environ, self.noting(environ, start_response))
        return self.then(environ, start_response)

    def noting(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Callable[..., Any]:
        """``start_response`` for Flask, noting a shared page it answered (``SHARED_PAGE``) when
        the answer changed nothing in the phone's cookies."""

        def noted(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            page = environ.get(SHARED_PAGE)
            if (
                page is not None
                and status[:3] in ("200", "304")
                and all(name.lower() != "set-cookie" for name, _value in headers)
            ):
                self.repeats.put(shape(environ), page)
            return start_response(status, headers, *exc_info)

        return noted

    def again(self, environ: dict[str, Any]) -> Response | None:
        """The answer Flask gave a request of this shape, from memory; None when only Flask can
        tell (see the module)."""
        page = self.opened(environ)
        if page is None:
            return None
        position = self.positions.fresh(page.table_id)
        if position is None:
            return None
        seen = environ.get(SEEN_IN_ENVIRON)
        if seen is not None:
            at = position_in(seen)
            if at is None or at > position:
                return None  # Flask's (which ignores a position that is none)
        if asks_after(environ, position):  # a page's poll (whatever its key): as Flask's view
            return unchanged_answer(position)
        body = self.pages.get(page.key(position))
        if body is None:
            return None
        response = conditional(page.etag(position), environ, lambda: body)
        response.headers["Vary"] = VARY
        return response

    def opened(self, environ: dict[str, Any]) -> SharedPage | None:
        """The shared page Flask answered a request of this shape with, while the link it was
        shown for and the session cookie still open it; None when only Flask can tell."""
        page = self.repeats.get(shape(environ))
        if page is None:
            return None
        links = self.tables.links.get(page.table_id)
        if links is None or links.get(page.token) is None:
            return None
        cookie = parse_cookie(environ).get(self.app.config["SESSION_COOKIE_NAME"])
        valid_until = None if cookie is None else self.session_valid_until(cookie)
        if valid_until is None or int(time.time()) > valid_until:
            return None
        return page

    def session_valid_until(self, cookie: str) -> int | None:
        """Until when the session cookie is valid, if this process verified it."""
        found: int | None = self.app.session_interface.valid_until(  # type: ignore[attr-defined]
            self.app, cookie
        )
        return found

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
        page's position and the phone may see the page; None when the request goes on as a page
        request (noting the position seen)."""
        path: str = environ.get("PATH_INFO", "")
        table_id = path[3:].partition("/")[0]
        if not self.valid_key(table_id, environ.get(POLL_IN_ENVIRON, "")):
            return None  # a page request like any other: Flask decides
        seq = self.positions.fresh(table_id)
        if seq is None:
            return None
        if asks_after(environ, seq):
            # Unchanged: said here only to a phone whose page this process knows it may show;
            # any other gets Flask's answer (its 304, or the refusal of a page request).
            return unchanged_answer(seq) if self.opened(environ) is not None else None
        environ[SEEN_IN_ENVIRON] = str(seq)
        return None

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
    app.wsgi_app = Front(  # type: ignore[method-assign]
        app, speed.tables, speed.memo["pages"], speed.repeats, app.wsgi_app
    )
