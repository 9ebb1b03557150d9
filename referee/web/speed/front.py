"""The requests a table page repeats most, answered in front of Flask: the static files
(``/static/<file>?v=<hash>``), the page's own "has anything changed?" poll
(``/t/<id>/seq?k=<poll key>``), and a phone's request for a page every spectator sees alike that
Flask has answered before (``referee.web.speed.pages``: the same address, cookie and languages).

Every answer comes from memory: a static file is read once per process, a table's log position is
the one this process knows (``Speed.positions``), a page is the one kept for the table's position.
Flask's per-request work (contexts, session, URL matching, the CSRF hook, after-request hooks)
cost more than any of these answers (``bench/run``). Whatever this layer cannot answer from memory
goes on to Flask: a missing file, a poll without the key (a link holder's, checked by
``tables.seq``), a table this process does not know yet or whose position is due for its sweep, a
page request unlike any Flask answered or whose page or link is no longer kept.
"""

from __future__ import annotations

import functools
import hashlib
import mimetypes
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from flask import Flask, abort
from flask.typing import ResponseReturnValue
from werkzeug.http import parse_etags
from werkzeug.security import safe_join
from werkzeug.utils import get_content_type

from referee.web import secret_keys
from referee.web.headers import HEADERS
from referee.web.language import VARY
from referee.web.polls import valid_poll_key
from referee.web.speed import pages
from referee.web.speed.held import HELD_HEADER, Held, can_hold

#: How long a browser keeps a static file: a year, since its address changes with its content.
STATIC_MAX_AGE = 365 * 24 * 3600

#: A response as WSGI sends it: status line, headers, body.
Answer = tuple[str, list[tuple[str, str]], bytes]


def conditional(
    etag: str,
    body: bytes,
    mimetype: str,
    cache_control: str,
    if_none_match: str | None,
    *more: tuple[str, str],
) -> Answer:
    """``body`` with its ETag, or a bodiless 304 when the browser already holds that ETag;
    with the security headers every response gets (``referee.web.headers``) and ``more``."""
    headers = [("ETag", f'"{etag}"'), ("Cache-Control", cache_control), *more, *HEADERS.items()]
    if etag in parse_etags(if_none_match):
        return "304 Not Modified", headers, b""
    headers.append(("Content-Type", get_content_type(mimetype, "utf-8")))
    headers.append(("Content-Length", str(len(body))))
    return "200 OK", headers, body


#: What ``compact`` leaves out of a style sheet (comments) and a script (whole-line comments).
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
JS_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)
INDENT = re.compile(r"^[ \t]+|[ \t]+$|\n(?=\n)", re.M)


def compact(body: bytes, filename: str) -> bytes:
    """A style sheet or script without its comments and indentation: what a phone downloads (the
    comments are for the people who read ``static/``, a third of the gzipped first view). The
    scripts keep every line of code as written (no multi-line strings, so indentation is safe to
    drop); other files are left as they are."""
    if filename.endswith(".css"):
        text = CSS_COMMENT.sub("", body.decode())
    elif filename.endswith(".js"):
        text = JS_COMMENT_LINE.sub("", body.decode())
    else:
        return body
    return INDENT.sub("", text).lstrip("\n").encode()


@functools.lru_cache(maxsize=64)
def static_file(folder: str, filename: str) -> tuple[bytes, str, str] | None:
    """A file of the static folder (body, mimetype, content hash), read once and ``compact``;
    None when there is no such file in that folder."""
    path = safe_join(folder, filename)
    if path is None or not os.path.isfile(path):
        return None
    body = compact(Path(path).read_bytes(), filename)
    mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    return body, mimetype, hashlib.sha256(body).hexdigest()[:12]


def position_text(seq: int, if_none_match: str | None, *more: tuple[str, str]) -> Answer:
    """The answer to "has anything changed?": the table's log position as text, a 304 while
    the page's ETag is still that position; with ``more`` headers."""
    etag = f"seq-{seq}"
    return conditional(etag, str(seq).encode(), "text/plain", "no-cache", if_none_match, *more)


WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Front:
    """WSGI middleware answering static files and a page's poll from memory (see the module)."""

    def __init__(self, app: Flask, then: WSGIApp) -> None:
        self.app = app
        self.then = then
        self.folder = app.static_folder or ""
        self.static_prefix = f"{app.static_url_path}/"
        self.speed = app.extensions["referee.speed"]
        self.positions = self.speed.positions
        self.held: Held | None = None  # made on the first poll held (``held``)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        method = environ.get("REQUEST_METHOD")
        if method == "GET" or method == "HEAD":
            path = environ.get("PATH_INFO", "")
            found = self.answer(path, environ)
            if found is not None:
                status, headers, body = found
                start_response(status, headers)
                return [b"" if method == "HEAD" else body]
            if path.startswith("/t/"):
                return self.then(environ, self.noting_repeats(environ, start_response))
        return self.then(environ, start_response)

    def noting_repeats(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Callable[..., Any]:
        """``start_response`` for Flask, noting a request a shared page answered (its
        ``pages.Repeat``) when the answer changed nothing in the phone's cookies."""

        def noted(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            repeat = environ.get(pages.REPEAT)
            if (
                repeat is not None
                and status[:3] in ("200", "304")
                and all(name.lower() != "set-cookie" for name, _value in headers)
            ):
                self.speed.repeats.put(pages.shape(environ), repeat)
            return start_response(status, headers, *exc_info)

        return noted

    def answer(self, path: str, environ: dict[str, Any]) -> Answer | None:
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        if path.startswith(self.static_prefix):
            found = static_file(self.folder, path[len(self.static_prefix) :])
            if found is None:
                return None
            body, mimetype, digest = found
            cache = f"public, max-age={STATIC_MAX_AGE}, immutable"
            return conditional(digest, body, mimetype, cache, if_none_match)
        if path.startswith("/t/") and path.endswith("/seq"):
            query = environ.get("QUERY_STRING", "")
            if not query.startswith("k="):
                return None
            key, _, rest = query[2:].partition("&")
            table_id = path[3:-4]
            if not valid_poll_key(table_id, key, secret_keys(self.app.config)):
                return None
            if rest == "hold=1" and can_hold():
                # Held, from what this process knows: a sweep due is made by the held polls'
                # own sweeper within its interval, which wakes this one if the table moved. A
                # table this process has not seen yet is read once (then known), so that the
                # first poll a worker gets is held too.
                seq = self.positions.known.get(table_id)
                if seq is None:
                    with self.app.app_context():
                        seq = self.positions.get(table_id)
                if seq is None:
                    return None  # no such table (any more): Flask's 404
                if f"seq-{seq}" in parse_etags(if_none_match):
                    seq = self.holding().wait(table_id, seq)
                return position_text(seq, if_none_match, (HELD_HEADER, "1"))
            seq = self.positions.fresh(table_id)
            return None if seq is None else position_text(seq, if_none_match)
        if path.startswith("/t/"):
            repeat = self.speed.repeats.get(pages.shape(environ))
            page = None if repeat is None else pages.again(repeat, self.speed, environ)
            if page is None:
                return None
            etag, body = page
            return conditional(etag, body, "text/html", "no-cache", if_none_match, ("Vary", VARY))
        return None

    def holding(self) -> Held:
        """This process's held polls, made on the first one (in the worker, after gevent has
        patched ``threading``)."""
        if self.held is None:
            seconds = float(self.app.config["POLL_HOLD_SECONDS"])
            self.held = Held(self.app, self.positions, seconds)
            self.held.start()  # noted first: starting a thread lets other requests run
        return self.held


def install(app: Flask) -> None:
    """Put ``Front`` in front of the app. Flask's own static route is left for what ``Front``
    does not serve: a missing file (404)."""
    app.wsgi_app = Front(app, app.wsgi_app)  # type: ignore[method-assign]

    def missing(filename: str) -> ResponseReturnValue:
        abort(404)

    app.view_functions["static"] = missing


def version_static_urls(app: Flask) -> None:
    """Give every static file's address its content hash (``url_for("static",
    filename="app.js")`` → ``/static/app.js?v=1a2b…``), so browsers fetch it again when it
    changes (and, served by ``Front``, keep it a year)."""
    folder = app.static_folder or ""

    @app.url_defaults
    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            found = static_file(folder, values["filename"])
            if found is not None:
                values["v"] = found[2]
