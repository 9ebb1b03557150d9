"""The Flask application factory: configuration, extensions, blueprints. Nothing else.

Every setting comes from the environment, the Flask way: ``REFEREE_<NAME>`` sets the config key
``<NAME>`` (``app.config.from_prefixed_env``; a value that reads as JSON, such as ``30`` or
``true``, is taken as that). ``.env.example`` lists them all with their defaults. ``SECRET_KEY``
(else one generated into the instance folder and kept there) and ``DATABASE_URL`` (else an SQLite
file in the instance folder, created owner-only on first start) are read as well. ``test_config``
overrides everything.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_babel import Babel
from sqlalchemy import make_url
from werkzeug.middleware.proxy_fix import ProxyFix

from referee import TRANSLATIONS
from referee.store import db, migrate, prepare_database
from referee.store.db import close_autocommit, database_uri
from referee.web import csrf, instance_secret_key, listed, secret_keys
from referee.web.blueprints import register_blueprints
from referee.web.language import chosen as chosen_language
from referee.web.sessions import Sessions

#: The settings and their defaults; ``.env.example`` says what each does.
DEFAULTS: dict[str, Any] = {
    "WTF_CSRF_TIME_LIMIT": None,  # a token lives as long as the session: a whole card evening
    "WTF_I18N_ENABLED": False,  # our forms write their own messages; WTForms stays English
    "SESSION_REFRESH_EACH_REQUEST": False,  # send the session cookie only when it changes
    "SESSION_COOKIE_SAMESITE": "Lax",  # never sent with another site's form or fetch
    "SESSION_COOKIE_SECURE": False,  # true when served over HTTPS: never sent over plain HTTP
    "BABEL_DEFAULT_LOCALE": "en",
    "BABEL_TRANSLATION_DIRECTORIES": TRANSLATIONS,  # the package's, as the referee command's
    "TABLE_LIMIT": 30,  # new tables (and uploads) per network address …
    "TABLE_LIMIT_SECONDS": 600,  # … in this many seconds
    "SECRET_KEY_FALLBACKS": [],  # earlier secret keys, still accepted (a comma-separated list)
    "PUBLIC_URL": "",  # the app's public address for shared links and QR codes (else the Host)
    "TRUSTED_HOSTS": None,  # the host names the app answers to (a comma-separated list)
    "PROXY_FIX": 0,  # how many proxies in front set X-Forwarded-For, -Proto and -Host
    "SPEED": True,  # the speed layer (referee/web/speed/); false: not even imported
    "SPEED_TABLES": 2048,  # live tables each server process keeps in memory (speed layer)
    "PAGES_FOLDER": "",  # where the server's processes share shared pages (else instance/pages)
    "STREAM_LIMIT": 64,  # live pages' streams one network address may hold open (per process)
    "STREAM_WRITE_SECONDS": 10,  # a stream whose reader takes nothing this long is dropped
    "PG_NOTIFY": True,  # PostgreSQL: servers tell each other each entry as it commits
    "SAFETY_SWEEP_SECONDS": 1.0,  # … and still sweep for entries this often, in case
    "MAX_CONTENT_LENGTH": 64 * 1024,  # the largest request body (a record upload sets its own)
}


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """A configured Table Referee app; its SQLite database is ready when this returns."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("REFEREE")
    if test_config is not None:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or instance_secret_key(
            app.instance_path
        )
    app.config["SECRET_KEY_FALLBACKS"] = listed(app.config["SECRET_KEY_FALLBACKS"])
    if app.config["TRUSTED_HOSTS"] is not None:
        app.config["TRUSTED_HOSTS"] = listed(app.config["TRUSTED_HOSTS"]) or None
    app.config.setdefault("WTF_CSRF_SECRET_KEY", secret_keys(app.config))
    app.config.setdefault(
        "SQLALCHEMY_DATABASE_URI", database_uri(os.environ.get("DATABASE_URL"), app.instance_path)
    )
    create_owner_only(app.config["SQLALCHEMY_DATABASE_URI"])

    db.init_app(app)
    app.teardown_appcontext(close_autocommit)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "migrations"))
    prepare_database(app)
    csrf.init_app(app)
    # A Babel of its own: Flask-Babel keeps the catalogs it read in its Babel object, so two
    # apps with different catalogs in one process would otherwise share them.
    Babel(app, locale_selector=chosen_language)

    app.session_interface = Sessions()
    register_blueprints(app)
    if app.config["SPEED"]:
        # Imported only when on: with it off, the app runs on the plain implementations.
        from referee.web import speed

        speed.init_app(app)
    proxies = int(app.config["PROXY_FIX"])
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    return app


def load_group_files() -> int:
    """The loader of group files, a process of its own that ``start_loader`` starts
    (``referee.web.groups.import_job``): it is given ``create_app``, so that nothing under
    ``create_app`` imports this module."""
    from referee.web.groups.import_job import main

    return main(create_app)


def create_owner_only(uri: str) -> None:
    """Create a new SQLite database file readable and writable by its owner only (0600), as the
    secret key; SQLite gives its -wal and -shm files the database file's permissions."""
    url = make_url(uri)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(url.database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
