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

from flask import Blueprint, Response, abort, current_app, request, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from referee.web.assets import asset

bp = Blueprint("offline", __name__)

#: The static files the pages use (groups.css and groups.js: the group pages only), kept by the
#: service worker when it is installed.
PAGE_FILES = ("style.css", "app.js", "groups.css", "groups.js")


def worker_script() -> tuple[str, str]:
    """``static/sw.js`` with ``VERSION`` and ``STATIC`` put before it, and that version."""
    found = asset(current_app, "sw.js")
    if found is None:
        raise FileNotFoundError("static/sw.js")
    addresses = [url_for("static", filename=name) for name in PAGE_FILES]
    version = hashlib.sha256(json.dumps([found.digest, *addresses]).encode()).hexdigest()[:12]
    script = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const STATIC = {json.dumps(addresses)};\n" + found.body.decode("utf-8")
    )
    return script, version


@bp.get("/favicon.ico")
def favicon() -> WerkzeugResponse:
    """The icon browsers ask for by themselves, for the tab (``static/icon-48.png``): from memory
    (``referee.web.assets``), with its content hash for an ETag. Sent from the file, a request
    could leave the file open for the garbage collector to find (a ``ResourceWarning`` that
    failed a browser test once)."""
    found = asset(current_app, "icon-48.png")
    if found is None:
        abort(404)
    response = Response(found.body, mimetype=found.mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(found.digest)
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
