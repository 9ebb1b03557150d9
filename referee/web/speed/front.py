"""Two answers given in front of Flask from this process's memory, keyed on the table and what
the phone's verified session holds, never on the raw request or its cookie: a page's "has
anything changed?" (the fallback of a page without its stream, ``referee.web.live``), and a page
every viewer of its kind sees alike (``referee.web.pages``) opened again.

A page polls its own address (``referee.web.polls``: ``POLL_HEADER`` with the table's poll key,
``If-None-Match: "seq-N"``). With a valid key, while the table stays at N, it is answered here
with a bodiless 304 when the phone's session (its cookie verified by this process,
``sessions``) holds a link this process knows still opens the table; the older poll,
``/t/<id>/seq?k=<poll key>``, is answered on its key alone, as Flask answers it. Once the table
has moved, the request goes on to Flask as the page request it is, saying which position it saw
(``SEEN_HEADER``, so the page shows at least that one): Flask checks access as for every page.

A shared page (a spectator's table page, the score sheet, TV mode, the standings) asked for
plainly (no query, no ``If-None-Match``, no position seen) by such a session is answered here
with the page as kept for the table's position (``Shelves.page``: this worker's memory, or the
file another worker wrote), when Flask has answered the same address, for the same link (kind
and player) and language, with that shared page before (``Noted``: the page's name and variant,
and Flask's headers) and nothing since says otherwise: the table's links revoked since, a
session holding a group's link (the game-over screen may lead to the group), a message to show
once, a session Flask would send back changed. Anything else is Flask's, which notes what it
answered.

Flask's per-request work (contexts, session, URL matching, the CSRF hook, after-request hooks)
costs more than a position or a kept page: answered here, an unchanged poll costs about what
the true bare route does, and a repeat view of a shared page a little more (``bench/README.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie, quote_etag
from werkzeug.wrappers import Response
from werkzeug.wsgi import get_host

from referee.store.links import Access
from referee.web import secret_keys
from referee.web.headers import security_headers
from referee.web.language import COOKIE, asked_for
from referee.web.live import STREAM_TYPE
from referee.web.loading import SEEN_HEADER
from referee.web.pages import SHARED_IN_ENVIRON, SharedPage
from referee.web.polls import (
    POLL_IN_ENVIRON,
    asks_after,
    position_answer,
    unchanged_answer,
    valid_poll_key,
)
from referee.web.sharing.access import GROUPS, TABLES
from referee.web.speed.kept import KeptTables
from referee.web.speed.lru import LRU

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: ``SEEN_HEADER`` as the WSGI environ names it.
SEEN_IN_ENVIRON = "HTTP_" + SEEN_HEADER.upper().replace("-", "_")
#: The addresses of the shared pages: a table's page, its sheet, TV mode and standings.
SHARED_ADDRESS = re.compile(r"/t/([A-Za-z0-9_-]{1,64})(?:/sheet|/tv|/standings)?")
#: Flask's headers of a shared page that each answer here gives anew.
OWN_HEADERS = {"content-length", "etag", "date", "server"}

#: What a phone is, to a table's shared page: its link (as this process knows it) and its
#: language.
Viewer = tuple[Access, str]


@dataclass(frozen=True)
class Noted:
    """The shared page Flask answered an address with, for a kind of link and a language, and
    its headers but those given anew (``OWN_HEADERS``)."""

    page: SharedPage
    headers: list[tuple[str, str]]


class Front:
    """WSGI middleware answering a page's poll from memory (see the module)."""

    def __init__(
        self, app: Flask, tables: KeptTables, pages: Callable[[Any], bytes | None], then: WSGIApp
    ) -> None:
        """``tables``: the kept tables (positions and links); ``pages``: a shared page's bytes
        by its key, if kept (``Shelves.page``)."""
        self.app = app
        self.then = then
        self.tables = tables
        self.positions = tables.positions
        self.pages = pages
        #: (address, link, language) → what Flask answered it with.
        self.noted: LRU[Noted] = LRU(4 * tables.replayed.size)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if STREAM_TYPE in environ.get("HTTP_ACCEPT", "") or not self.trusted(environ):
            return self.then(environ, start_response)  # a page's stream, or Flask's refusal
        method = environ.get("REQUEST_METHOD")
        if method in ("GET", "HEAD") and path.startswith("/t/"):
            if path.endswith("/seq"):
                seq = self.answer(path[3:-4], environ)
                if seq is not None:
                    return security_headers(position_answer(seq, environ))(environ, start_response)
            elif POLL_IN_ENVIRON in environ:
                same = self.poll(environ)
                if same is not None:
                    return security_headers(same)(environ, start_response)
            elif method == "GET" and (shared := SHARED_ADDRESS.fullmatch(path)) is not None:
                return self.shared(shared[1], environ, start_response)
        return self.then(environ, start_response)

    def trusted(self, environ: dict[str, Any]) -> bool:
        """Whether the request names a host the app answers to (``TRUSTED_HOSTS``, when set:
        else Flask refuses it, and so nothing is answered here)."""
        hosts = self.app.config["TRUSTED_HOSTS"]
        if hosts is None:
            return True
        try:
            get_host(environ, hosts)
        except SecurityError:
            return False
        return True

    def shared(
        self, table_id: str, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Any:
        """A shared page's address asked for: the page kept, else Flask's answer, noted."""
        plain = not environ.get("QUERY_STRING") and not any(
            name in environ for name in ("HTTP_IF_NONE_MATCH", SEEN_IN_ENVIRON)
        )
        viewer = self.viewer(table_id, environ) if plain else None
        if viewer is not None:
            kept = self.kept(environ["PATH_INFO"], table_id, viewer)
            if kept is not None:
                body, headers = kept
                start_response("200 OK", headers)
                return [body]
        answered: list[tuple[str, list[tuple[str, str]]]] = []

        def noting(status: str, headers: list[tuple[str, str]], *more: Any) -> Any:
            answered.append((status, headers))
            return start_response(status, headers, *more)

        answer = self.then(environ, noting)
        page = environ.get(SHARED_IN_ENVIRON)
        if plain and isinstance(page, SharedPage) and answered:
            # The session was verified just now, if not before.
            self.note(page, viewer or self.viewer(table_id, environ), environ, *answered[0])
        return answer

    def note(
        self,
        page: SharedPage,
        viewer: Viewer | None,
        environ: dict[str, Any],
        status: str,
        headers: list[tuple[str, str]],
    ) -> None:
        """Note the shared page Flask answered ``viewer``'s request with, unless its answer
        did more than send the page (a new cookie)."""
        if viewer is None or status != "200 OK" or page.lang != viewer[1]:
            return
        if any(name.lower() == "set-cookie" for name, _ in headers):
            return
        own = [(name, value) for name, value in headers if name.lower() not in OWN_HEADERS]
        self.noted.put((environ["PATH_INFO"], *viewer), Noted(page, own))

    def kept(
        self, path: str, table_id: str, viewer: Viewer
    ) -> tuple[bytes, list[tuple[str, str]]] | None:
        """The page Flask would answer ``path`` with for ``viewer``, and its headers, from what
        is kept; None when only Flask can answer."""
        noted = self.noted.get((path, *viewer))
        if noted is None:
            return None
        position = self.positions.fresh(table_id)
        revoked = self.tables.known_revocations(table_id)
        if position is None or revoked is None or noted.page.revoked != revoked:
            return None
        body = self.pages(noted.page.key(position))
        if body is None:
            return None
        etag = quote_etag(noted.page.etag(position))
        return body, [*noted.headers, ("ETag", etag), ("Content-Length", str(len(body)))]

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
        cookies = cookies_in(environ)
        return cookies is not None and self.link(table_id, cookies) is not None

    def link(self, table_id: str, cookies: Any) -> tuple[Access, dict[str, Any]] | None:
        """The link the phone's session holds to the table (see ``may_see``), and the
        session's data (to be read only); None: Flask decides."""
        cookie = cookies.get(self.app.config["SESSION_COOKIE_NAME"])
        sessions = self.app.session_interface
        data = None if cookie is None else sessions.verified(self.app, cookie)  # type: ignore[attr-defined]
        if not isinstance(data, dict):
            return None
        held = TABLES.held_in(data, table_id)
        links = self.tables.links.get(table_id)
        found = None if held is None or links is None else links.get(held[0])
        return None if found is None else (found, data)

    def viewer(self, table_id: str, environ: dict[str, Any]) -> Viewer | None:
        """The phone's link to the table and its language, when its session is one Flask would
        answer a shared page for as for any phone with that link (see the module); else
        None."""
        cookies = cookies_in(environ)
        found = None if cookies is None else self.link(table_id, cookies)
        if cookies is None or found is None:
            return None
        access, data = found
        recent = data.get("tables")
        if (
            "_flashes" in data
            or data.get(GROUPS.key)
            or not data.get("_permanent")
            or not isinstance(recent, list)
            or not recent
            or recent[0] != table_id
        ):
            return None  # a message, a group's link, or the session would change
        offered: list[str] = self.app.extensions["referee.languages"]
        accept = environ.get("HTTP_ACCEPT_LANGUAGE", "")
        return access, asked_for(None, cookies.get(COOKIE), accept, offered).replace("_", "-")

    def valid_key(self, table_id: str, key: str) -> bool:
        """Whether ``key`` is the table's poll key as this process knows the table's links now
        (False: Flask decides), from memory while no sweep is due."""
        revoked = self.tables.known_revocations(table_id)
        if revoked is None:
            return False
        return valid_poll_key(table_id, key, secret_keys(self.app.config), revoked)


def cookies_in(environ: dict[str, Any]) -> Any:
    """The request's cookies; None when they are not UTF-8 (Flask refuses the request, the
    text's checks in ``referee.web.text``)."""
    try:
        return parse_cookie(environ)
    except UnicodeDecodeError:
        return None


def install(app: Flask) -> None:
    """Put ``Front`` in front of the app."""
    speed = app.extensions["referee.speed"]
    app.wsgi_app = Front(app, speed.tables, speed.memo.page, app.wsgi_app)  # type: ignore[method-assign]
