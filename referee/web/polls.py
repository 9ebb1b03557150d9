"""A page's "has anything changed?" poll: the key it asks with, and its answers. A page follows
its table by its stream where the server serves one (``referee.web.live``); the poll is the
fallback of a page without it (a server that serves none, a proxy that holds it back, an old
browser).

A page at a live table asks its own address again, as a conditional request: ``If-None-Match``
the position it shows (``"seq-N"``) and ``POLL_HEADER`` with the table's ``poll_key``
(``static/app.js``). While the table is still at that position the answer is a bodiless 304
(``unchanged``); once it has moved, the page itself, as any request for it gets it (the access
check of every page, its link kind, its language): the page swaps in its parts (``<main>``, the
title, the attributes of ``<body>``, among them the new position). One request per change, and
one per few seconds between. The speed layer answers the 304 in front of Flask
(``referee.web.speed.front``).

The key is derived from the secret key, the table id and how many of the table's links are
revoked, so "unchanged" needs neither the session cookie nor a link lookup: a 304 tells nothing
about the table. Only a page the server rendered for a holder of a link carries it, and a
revocation makes it anew: the revoked phone's key answers nothing more (within a sweep, when
another process revoked), while the pages of the links still open get the new key with the
next page they are sent (until then their polls are answered by Flask, which checks their link).
The page that answers a change is Flask's, checked as every page request is.

The older question, ``/t/<id>/seq?k=<key>`` (the log position as text, or a 304), is still
answered for a page rendered before this one, and for scripts.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from typing import TYPE_CHECKING

from flask import current_app, request
from werkzeug.http import parse_etags
from werkzeug.wrappers import Response

from referee.web import secret_keys
from referee.web.loading import recent_seq, revocations

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment


def poll_key(table_id: str, secret_key: str | None = None, revoked: int | None = None) -> str:
    """The key a table's pages ask "has anything changed?" with (``/t/<id>/seq?k=…``).

    Derived from the secret key, the table id and ``revoked``, how many of the table's links are
    revoked (default: as the app knows it now), so the question needs neither the session
    cookie nor a link lookup: the answer, a log position, tells nothing about the table. Only a
    page the server rendered for a holder of a link carries it, and it answers only until the
    next revocation. ``secret_key``: the app's (default: the current app's).
    """
    key = (secret_key or current_app.config["SECRET_KEY"]).encode()
    if revoked is None:
        revoked = revocations(table_id)
    said = f"poll:{table_id}" if revoked == 0 else f"poll:{table_id}:{revoked}"
    digest = hmac.new(key, said.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def valid_poll_key(
    table_id: str, key: str, keys: Sequence[str] | None = None, revoked: int | None = None
) -> bool:
    """Whether ``key`` is the table's ``poll_key`` under one of the secret ``keys`` (default:
    the current app's ``secret_keys``: a page rendered before a rotation of the secret key goes
    on following its table while the old key is one of the ``SECRET_KEY_FALLBACKS``), with
    ``revoked`` of its links revoked (default: as the app knows it now)."""
    given = key.encode("utf-8", "replace")
    if revoked is None:
        revoked = revocations(table_id)
    return any(
        hmac.compare_digest(given, poll_key(table_id, secret, revoked).encode())
        for secret in keys or secret_keys(current_app.config)
    )


#: The header a page's poll of its own address carries (``static/app.js``): the table's
#: ``poll_key``. It marks the request as a poll: an ``If-None-Match`` of ``"seq-N"`` with the
#: table still at N is answered 304.
POLL_HEADER = "X-Table-Poll"
#: ``POLL_HEADER`` as the WSGI environ names it.
POLL_IN_ENVIRON = "HTTP_" + POLL_HEADER.upper().replace("-", "_")


def position_answer(seq: int, environ: WSGIEnvironment) -> Response:
    """The answer to "has anything changed?": the table's log position as text, a bodiless 304
    while the page's ETag is still that position."""
    response = Response(str(seq), mimetype="text/plain")
    response.set_etag(f"seq-{seq}")
    response.cache_control.no_cache = True
    return response.make_conditional(environ)


def unchanged_answer(seq: int) -> Response:
    """A page's poll while its table is still at ``seq``: bodiless, never kept by a cache."""
    response = Response(status=304)
    response.set_etag(f"seq-{seq}")
    response.cache_control.no_cache = True
    return response


def asks_after(environ: WSGIEnvironment, seq: int) -> bool:
    """Whether the request is a page's poll (``POLL_HEADER``) whose page shows position ``seq``
    (``If-None-Match: "seq-N"``)."""
    if POLL_IN_ENVIRON not in environ:
        return False
    return f"seq-{seq}" in parse_etags(environ.get("HTTP_IF_NONE_MATCH"))


def unchanged(table_id: str) -> Response | None:
    """For a page's poll whose page shows the table as it is now: a bodiless 304; else None
    (the page's own answer). Called by each page that follows its table, after its access
    check, so a 304 goes only where the page would."""
    if POLL_HEADER not in request.headers:
        return None
    seq = recent_seq(table_id)
    if seq is None or not asks_after(request.environ, seq):
        return None
    return unchanged_answer(seq)
