"""Pages every phone of one kind at a table sees alike (a spectator's table page, the score sheet,
TV mode, the standings): rendered once per change of the table and language, kept encoded
(``Speed.pages``), and sent with an ETag that a phone's next request may match (a 304)."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import request
from werkzeug.wrappers import Response

from referee.web.language import language
from referee.web.speed.kept import shown_position, speed


def shared_page(
    name: str, table_id: str, render: Callable[[], str], *variant: Hashable
) -> Response:
    """The page ``name`` of the table as ``render`` makes it, at the position this process shows
    (``shown_position``) and in the request's language; ``variant``: whatever else the page
    depends on (the kind of link, a mode), in its cache key and ETag."""
    lang = language()
    key = (name, table_id, shown_position(table_id) or 0, *variant, lang)
    etag = "-".join(str(part) for part in key if part != table_id)
    headers = {"ETag": f'"{etag}"', "Cache-Control": "no-cache"}
    if etag in request.if_none_match:
        return Response(status=304, headers=headers)
    body = speed().pages.get_or_make(key, lambda: render().encode())
    return Response(body, mimetype="text/html", headers=headers)
