"""The Flask application factory: configuration, extensions, blueprints. Nothing else.

Configuration comes from the environment: ``SECRET_KEY`` (else one generated into the instance
folder and kept there) and ``DATABASE_URL`` (else an SQLite file in the instance folder, created
on first start). ``test_config`` overrides both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from referee.store import db, migrate, prepare_database
from referee.store.db import close_autocommit, database_uri
from referee.web import babel, csrf, instance_secret_key, register_blueprints


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """A configured Table Referee app; its SQLite database is ready when this returns."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        WTF_CSRF_TIME_LIMIT=None,  # a token lives as long as the session: a whole card evening
        WTF_I18N_ENABLED=False,  # our forms write their own messages; WTForms stays English
        SESSION_REFRESH_EACH_REQUEST=False,  # send the session cookie only when it changes
        BABEL_DEFAULT_LOCALE="en",
        TABLE_LIMIT=30,  # new tables (and uploads) per network address …
        TABLE_LIMIT_SECONDS=600,  # … in this many seconds
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or instance_secret_key(
            app.instance_path
        )
    app.config.setdefault(
        "SQLALCHEMY_DATABASE_URI", database_uri(os.environ.get("DATABASE_URL"), app.instance_path)
    )

    db.init_app(app)
    app.teardown_appcontext(close_autocommit)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "migrations"))
    prepare_database(app)
    csrf.init_app(app)
    babel.init_app(app)

    register_blueprints(app)
    return app
