"""What lets a phone keep a table without a signal: the service worker's script at ``/sw.js``
(and the tab's icon at ``/favicon.ico``, which browsers ask for by themselves).

The script is ``static/sw.js`` (which says how it serves pages and files), served from the root
so that its scope is the whole app, with two constants put before it: ``STATIC``, the current
addresses of the static files every page uses (each with its content hash), and ``VERSION``, a
hash of them and of the script. A change to any of them is a new script, which the browser
installs in place of the old one; the old version's kept files go with it.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes

from flask import Blueprint, Response, abort, current_app, request, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from referee.web.speed.front import static_file

bp = Blueprint("offline", __name__)

#: The static files every page uses, kept by the service worker when it is installed.
PAGE_FILES = ("style.css", "app.js")

# Python knows the manifest's type from 3.12 (and some systems' mime.types) only.
mimetypes.add_type("application/manifest+json", ".webmanifest")


def worker_script() -> tuple[str, str]:
    """``static/sw.js`` with ``VERSION`` and ``STATIC`` put before it, and that version."""
    folder = current_app.static_folder or ""
    found = static_file(folder, "sw.js")
    if found is None:
        raise FileNotFoundError("static/sw.js")
    addresses = [url_for("static", filename=name) for name in PAGE_FILES]
    version = hashlib.sha256(json.dumps([found[2], *addresses]).encode()).hexdigest()[:12]
    script = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const STATIC = {json.dumps(addresses)};\n" + found[0].decode("utf-8")
    )
    return script, version


@bp.get("/favicon.ico")
def favicon() -> WerkzeugResponse:
    """The icon browsers ask for by themselves, for the tab (``static/icon-48.png``): from memory,
    as every static file (``static_file``), with its content hash for an ETag. Sent from the
    file, a request could leave the file open for the garbage collector to find (a
    ``ResourceWarning`` that failed a browser test once)."""
    found = static_file(current_app.static_folder or "", "icon-48.png")
    if found is None:
        abort(404)
    body, mimetype, digest = found
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(digest)
    return response.make_conditional(request)


@bp.get("/sw.js")
def service_worker() -> WerkzeugResponse:
    """The service worker's script. The browser asks for it again after a page is opened, to
    see whether the app changed: ``no-cache`` with an ETag, so that the answer is a bodiless 304
    until it did."""
    script, version = worker_script()
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(version)
    return response.make_conditional(request)
