"""The web layer: Flask blueprints, forms and view helpers, and the extensions only it uses.

``create_app`` attaches ``csrf`` and ``babel`` and calls ``register_blueprints``; a new blueprint
is registered there.
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask
from flask_babel import Babel
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
babel = Babel()


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the app, and the security headers every response gets."""
    from referee.web import access, disputes, errors, home, newtable, records, share, sheets, tables
    from referee.web.headers import security_headers

    app.after_request(security_headers)
    version_static_files(app)

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


def version_static_files(app: Flask) -> None:
    """Give every static file's address its content's hash (``/static/app.js?v=1a2b…``) and let
    browsers keep static files a year: a phone fetches them once, and again only when they
    change."""
    if app.config.get("SEND_FILE_MAX_AGE_DEFAULT") is None:  # Flask's default: revalidate
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = STATIC_MAX_AGE

    @functools.cache  # (not ``cache``: the name of this package's cache module)
    def digest(filename: str) -> str | None:
        path = Path(app.static_folder or "", filename)
        if not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]

    @app.url_defaults
    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            version = digest(values["filename"])
            if version is not None:
                values["v"] = version


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
