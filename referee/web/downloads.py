"""What every download is: a file name of safe characters, an attachment response that is never
kept by a browser or a proxy, and the paper a printed sheet is made for."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping

from flask import Response, send_file
from flask_babel import lazy_gettext

from referee.sheets import Page

PAPER_LABELS = {"a4": lazy_gettext("A4"), "letter": lazy_gettext("US Letter")}
ORIENTATION_LABELS = {
    "auto": lazy_gettext("Automatic"),
    "portrait": lazy_gettext("Portrait"),
    "landscape": lazy_gettext("Landscape"),
}


def safe_file_name(*parts: str) -> str:
    """A file name of safe characters only (player names never go in it)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", "-".join(parts))


def attachment(body: bytes | str | Iterable[bytes], mimetype: str, name: str) -> Response:
    """``body`` as a download called ``name``; a body given in pieces is sent as they come.
    (The ``Content-Disposition`` has the RFC 5987 form of a name that is not ASCII.)"""
    if isinstance(body, (bytes, str)):
        data = body.encode() if isinstance(body, str) else body
        response = send_file(
            io.BytesIO(data),
            mimetype=mimetype,
            as_attachment=True,
            download_name=name,
            conditional=False,
            etag=False,
        )
    else:
        response = Response(body, mimetype=mimetype)
        response.headers.set("Content-Disposition", "attachment", filename=name)
    response.headers["Cache-Control"] = "no-store"
    return response


def page_from(args: Mapping[str, str]) -> Page:
    """The paper and orientation asked for in the query string; the defaults for anything else."""
    paper = args.get("paper", "a4")
    orientation = args.get("orientation", "auto")
    return Page(
        paper if paper in PAPER_LABELS else "a4",
        orientation if orientation in ORIENTATION_LABELS else "auto",
    )
