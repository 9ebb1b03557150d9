"""A page's "has anything changed?" poll (``/t/<id>/seq?k=<key>``): the key it asks with.

The key is derived from the secret key and the table id, so the question needs neither the
session cookie nor a link lookup: the answer, a log position, tells nothing about the table.
Only a page the server rendered for a holder of a link carries it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from typing import TYPE_CHECKING

from flask import current_app
from werkzeug.wrappers import Response

from referee.web import secret_keys

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment


def poll_key(table_id: str, secret_key: str | None = None) -> str:
    """The key a table's pages ask "has anything changed?" with (``/t/<id>/seq?k=…``).

    Derived from the secret key and the table id, so the question needs neither the session
    cookie nor a link lookup: the answer, a log position, tells nothing about the table. Only a
    page the server rendered for a holder of a link carries it. ``secret_key``: the app's
    (default: the current app's).
    """
    key = (secret_key or current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"poll:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def valid_poll_key(table_id: str, key: str, keys: Sequence[str] | None = None) -> bool:
    """Whether ``key`` is the table's ``poll_key`` under one of the secret ``keys`` (default:
    the current app's ``secret_keys``: a page rendered before a rotation of the secret key goes
    on following its table while the old key is one of the ``SECRET_KEY_FALLBACKS``)."""
    given = key.encode("utf-8", "replace")
    return any(
        hmac.compare_digest(given, poll_key(table_id, secret).encode())
        for secret in keys or secret_keys(current_app.config)
    )


#: The header of every poll answer from a server that holds polls (the speed layer's held
#: polls): ask again at once.
HELD_HEADER = "X-Poll-Held"


def position_answer(seq: int, environ: WSGIEnvironment, held: bool = False) -> Response:
    """The answer to "has anything changed?": the table's log position as text, a bodiless 304
    while the page's ETag is still that position; ``held``: the server holds polls."""
    response = Response(str(seq), mimetype="text/plain")
    response.set_etag(f"seq-{seq}")
    response.cache_control.no_cache = True
    if held:
        response.headers[HELD_HEADER] = "1"
    return response.make_conditional(environ)
