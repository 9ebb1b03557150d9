"""The web layer: Flask blueprints, forms and view helpers, and the extensions only it uses.

``create_app`` attaches ``csrf`` and ``babel`` and calls ``register_blueprints``; a new blueprint
is registered there.
"""

from __future__ import annotations

import functools
import hashlib
import mimetypes
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, abort, request
from flask_babel import Babel
from flask_wtf import CSRFProtect
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

csrf = CSRFProtect()
babel = Babel()


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the app, and the security headers every response gets."""
    from referee.web import access, disputes, errors, home, newtable, records, share, sheets, tables
    from referee.web.headers import security_headers

    app.after_request(security_headers)
    serve_static_files(app)

    app.register_blueprint(access.bp)
    app.register_blueprint(disputes.bp)
    app.register_blueprint(errors.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(newtable.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(tables.bp)


#: How long a browser keeps a static file: a year, since its address changes with its content.
STATIC_MAX_AGE = 365 * 24 * 3600


def serve_static_files(app: Flask) -> None:
    """Serve the static files from memory, each addressed by its content's hash
    (``/static/app.js?v=1a2b…``) and kept by browsers for a year: a phone fetches them once, and
    again only when they change.

    Each file is read once per process. Flask's own static route opens and inspects the file on
    every request, which made a page's two static files cost more than the page itself in a
    first view (``bench/run``).
    """
    folder = app.static_folder or ""

    @functools.lru_cache(maxsize=64)
    def load(filename: str) -> tuple[bytes, str, str] | None:
        path = safe_join(folder, filename)
        if path is None or not os.path.isfile(path):
            return None
        body = Path(path).read_bytes()
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return body, mimetype, hashlib.sha256(body).hexdigest()[:12]

    def static(filename: str) -> Response:
        found = load(filename)
        if found is None:
            abort(404)
        body, mimetype, digest = found
        headers = {
            "Cache-Control": f"public, max-age={STATIC_MAX_AGE}, immutable",
            "ETag": f'"{digest}"',
        }
        if digest in request.if_none_match:
            return Response(status=304, headers=headers)
        return Response(body, mimetype=mimetype, headers=headers)

    app.view_functions["static"] = static

    @app.url_defaults
    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            found = load(values["filename"])
            if found is not None:
                values["v"] = found[2]


def instance_secret_key(instance_path: str) -> str:
    """The secret key kept in ``<instance>/secret_key``, generated there on first use.

    Sessions and CSRF tokens stay valid across restarts, and several worker processes starting
    at once agree on one key: the key is written to a temporary file and linked into place, which
    fails for all but the first.
    """
    path = Path(instance_path, "secret_key")
    if not path.exists():
        with tempfile.NamedTemporaryFile("w", dir=instance_path, delete=False) as new:
            new.write(secrets.token_hex(32))
        try:
            os.link(new.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(new.name)
    return path.read_text().strip()
