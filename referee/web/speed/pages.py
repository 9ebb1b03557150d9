"""Pages every phone of one kind at a table sees alike (a spectator's table page, the score sheet,
TV mode, the standings): rendered once per change of the table and language, kept encoded
(``Speed.pages``), and sent with an ETag that a phone's next request may match (a 304).

A phone asks for the same page again and again (after each change, and at each reload), with the
same cookie and headers. The first time, Flask's view decides everything the answer depends on
(the link and what it opens, the session, the language, the kind of page); ``shared_page`` leaves
what it decided in the request (a ``Repeat``), and when the answer changed nothing in the session,
the same request is answered again in front of Flask (``referee.web.speed.front``) while the link
is still known and not revoked, the cookie still valid and the page at the table's position kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import request, session
from werkzeug.wrappers import Response

from referee.web.language import language
from referee.web.sharing.access import held_token, keeps_score
from referee.web.speed.kept import SEEN_HEADER, shown_position, speed

if TYPE_CHECKING:
    from referee.web.speed import Speed

#: Where ``shared_page`` leaves its ``Repeat`` in the WSGI environ, for ``Front``.
REPEAT = "referee.shared_page"

#: The parts of a request a shared page's answer may depend on, in the WSGI environ: its address,
#: host, cookies (session, language) and languages. ``X-Table-Seq`` and ``If-None-Match`` are
#: not among them: ``again`` looks at them on each request, as ``shared_page`` does.
SHAPE = ("PATH_INFO", "QUERY_STRING", "HTTP_HOST", "HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE")
#: ``SEEN_HEADER`` as the WSGI environ names it.
SEEN_IN_ENVIRON = "HTTP_" + SEEN_HEADER.upper().replace("-", "_")


def shape(environ: Mapping[str, Any]) -> tuple[Any, ...]:
    """What two requests that ``shared_page`` answers alike have in common (``SHAPE``)."""
    return tuple(environ.get(name) for name in SHAPE)


@dataclass(frozen=True)
class Repeat:
    """What ``shared_page`` answered a request with, to answer the same request again: the page
    (``name``, ``table_id``, ``variant``, ``lang``), the token of the link it was shown for, and
    until when the session cookie holding that link is valid (seconds since the epoch)."""

    name: str
    table_id: str
    variant: tuple[Hashable, ...]
    lang: str
    token: str
    valid_until: int


def page_key(
    name: str, table_id: str, position: int, variant: tuple[Hashable, ...], lang: str
) -> tuple[Hashable, ...]:
    """A page's key in ``Speed.pages``."""
    return (name, table_id, position, *variant, lang)


def page_etag(key: tuple[Hashable, ...]) -> str:
    """A page's ETag: its key without the table (every part but the table id)."""
    return "-".join(str(part) for part in key if part != key[1])


def kind_of_viewer(table_id: str) -> str:
    """The variant of a page a scorekeeper sees with more links than everybody else: "k" for
    this browser if it keeps the table's score, else "v"."""
    return "k" if keeps_score(table_id) else "v"


def shared_page(
    name: str, table_id: str, render: Callable[[int], str], *variant: Hashable
) -> Response:
    """The page ``name`` of the table as ``render`` makes it, at the position this process shows
    (``shown_position``) and in the request's language; ``variant``: whatever else the page
    depends on (the kind of link, a mode), in its cache key and ETag. ``render(position)``
    renders the table as it is at that log position or later (``load_since``: no second read
    of the position)."""
    lang = language()
    position = shown_position(table_id) or 0
    key = page_key(name, table_id, position, variant, lang)
    etag = page_etag(key)
    token = held_token(table_id)
    valid_until = getattr(session, "valid_until", None)
    if token is not None and valid_until is not None:
        request.environ[REPEAT] = Repeat(name, table_id, variant, lang, token, valid_until)
    headers = {"ETag": f'"{etag}"', "Cache-Control": "no-cache"}
    if etag in request.if_none_match:
        return Response(status=304, headers=headers)
    body = speed().pages.get_or_make(key, lambda: render(position).encode())
    return Response(body, mimetype="text/html", headers=headers)


def again(repeat: Repeat, memory: Speed, environ: Mapping[str, Any]) -> tuple[str, bytes] | None:
    """The ETag and body ``shared_page`` would answer a request of the same shape as ``repeat``'s
    with, from memory; None when only Flask can tell: the table's position is due for its sweep
    or older than the phone's poll saw (``X-Table-Seq``), the link is no longer known (revoked,
    or forgotten), the cookie has expired, or the page at this position is not kept."""
    position = memory.positions.fresh(repeat.table_id)
    if position is None or int(time.time()) > repeat.valid_until:
        return None
    seen = environ.get(SEEN_IN_ENVIRON)
    if seen is not None and not (seen.isdigit() and int(seen) <= position):
        return None
    links = memory.links.get(repeat.table_id)
    if links is None or links.get(repeat.token) is None:
        return None
    key = page_key(repeat.name, repeat.table_id, position, repeat.variant, repeat.lang)
    body = memory.pages.get(key)
    return None if body is None else (page_etag(key), body)
