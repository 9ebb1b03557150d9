"""Pages every viewer of one kind sees alike (a spectator's table page, the score sheet, TV
mode, the standings): rendered for the table's log position, language and kind of viewer, kept
through the app's memo (``referee.web.memo``: once per change of the table, when it keeps), and
sent with an ETag that a phone's next request may match (a bodiless 304), and streamed whole to
the phones that follow the table (``referee.web.live``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import request
from werkzeug.http import is_resource_modified
from werkzeug.wrappers import Response

from referee.web.language import language
from referee.web.live import event, stream, wants_stream
from referee.web.loading import revocations, shown_position
from referee.web.memo import memo
from referee.web.sharing.access import TABLES

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment


#: Where ``shared_page`` says, in the WSGI environ, which shared page it answered with (for
#: ``referee.web.speed.front``, which answers the next request of the page's address by the same
#: kind of link in the same language from what is kept).
SHARED_IN_ENVIRON = "referee.shared_page"


@dataclass(frozen=True)
class SharedPage:
    """A shared page as ``shared_page`` answers it: the page (``name``, ``table_id``),
    ``variant`` and ``lang``."""

    name: str
    table_id: str
    variant: tuple[Hashable, ...]
    lang: str

    def key(self, position: int) -> tuple[Hashable, ...]:
        """The page's key on the memo's "pages" shelf at the table's log ``position``: the
        position last (``referee.web.speed.beside`` keeps one file of each page without it)."""
        return (self.name, self.table_id, *self.variant, self.lang, position)

    @property
    def revoked(self) -> Hashable:
        """How many of the table's links were revoked when the page was asked for (the last of
        its variant: ``shared``)."""
        return self.variant[-1]

    def etag(self, position: int) -> str:
        """The page's ETag at ``position``: its key without the table."""
        return "-".join(str(part) for part in (self.name, position, *self.variant, self.lang))


def kind_of_viewer(table_id: str) -> str:
    """The variant of a page a scorekeeper sees with more links than everybody else: "k" for
    this browser if it keeps the table's score, else "v"."""
    return "k" if TABLES.keeps(table_id) else "v"


def shared_page(
    name: str,
    table_id: str,
    render: Callable[[int], str],
    *variant: Hashable,
) -> Response:
    """The page ``name`` of the table as ``render`` makes it, at the position to show
    (``shown_position``) and in the request's language; ``variant``: whatever else the page
    depends on (the kind of link, a mode), in its key and ETag. ``render(position)`` renders the
    table as it is at that log position or later (``load_since``). A page carries the table's
    poll key, which each revocation of a link makes anew (``referee.web.polls``): how many are
    revoked is part of the variant too. The page must depend on nothing else of the request
    than its address, the kind of the phone's link of the table (its player) and its language:
    the speed layer answers the address's next request by such a link from what is kept
    (``SHARED_IN_ENVIRON``).

    Asked for as a stream (``referee.web.live``): the page's stream, each change's page the same
    bytes for every watcher of its kind."""
    if wants_stream():
        return stream(table_id, lambda at: page_event(name, table_id, render, variant, at))
    position = shown_position(table_id) or 0
    page = shared(name, table_id, variant)
    request.environ[SHARED_IN_ENVIRON] = page
    return conditional(
        page.etag(position),
        request.environ,
        lambda: memo("pages", page.key(position), lambda: render(position).encode()),
    )


def shared(name: str, table_id: str, variant: tuple[Hashable, ...]) -> SharedPage:
    """The shared page ``name`` of the table for this request: its language and how many of the
    table's links are revoked (see ``shared_page``)."""
    return SharedPage(name, table_id, (*variant, revocations(table_id)), language())


def page_event(
    name: str,
    table_id: str,
    render: Callable[[int], str],
    variant: tuple[Hashable, ...],
    position: int,
) -> bytes:
    """The stream's event with the shared page at ``position``: made once per change and kind
    of viewer, the page itself kept as a page request keeps it."""
    key = shared(name, table_id, variant).key(position)

    def made() -> bytes:
        page = memo("pages", key, lambda: render(position).encode())
        return event(b"page", position, page.decode())

    return memo("events", key, made)


def conditional(etag: str, environ: WSGIEnvironment, body: Callable[[], bytes]) -> Response:
    """A page with its ETag, or a bodiless 304 (without making the body) when the browser
    already holds that ETag."""
    if is_resource_modified(environ, etag=etag):
        response = Response(body(), mimetype="text/html")
    else:
        response = Response(status=304)
    response.set_etag(etag)
    response.cache_control.no_cache = True
    return response
