"""Pages every viewer of one kind sees alike (a spectator's table page, the score sheet, TV
mode, the standings): rendered for the table's log position, language and kind of viewer, kept
through the app's memo (``referee.web.memo``: once per change of the table, when it keeps), and
sent with an ETag that a phone's next request may match (a bodiless 304).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import request
from werkzeug.http import is_resource_modified
from werkzeug.wrappers import Response

from referee.web.language import language
from referee.web.loading import shown_position
from referee.web.memo import memo
from referee.web.sharing.access import keeps_score


def kind_of_viewer(table_id: str) -> str:
    """The variant of a page a scorekeeper sees with more links than everybody else: "k" for
    this browser if it keeps the table's score, else "v"."""
    return "k" if keeps_score(table_id) else "v"


def shared_page(
    name: str, table_id: str, render: Callable[[int], str], *variant: Hashable
) -> Response:
    """The page ``name`` of the table as ``render`` makes it, at the position to show
    (``shown_position``) and in the request's language; ``variant``: whatever else the page
    depends on (the kind of link, a mode), in its key and ETag. ``render(position)`` renders the
    table as it is at that log position or later (``load_since``)."""
    lang = language()
    position = shown_position(table_id) or 0
    etag = "-".join(str(part) for part in (name, position, *variant, lang))
    if is_resource_modified(request.environ, etag=etag):
        key = (name, table_id, position, *variant, lang)
        response = Response(
            memo("pages", key, lambda: render(position).encode()), mimetype="text/html"
        )
    else:
        response = Response(status=304)
    response.set_etag(etag)
    response.cache_control.no_cache = True
    return response
