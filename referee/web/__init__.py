"""The web layer: Flask blueprints, forms and view helpers, and the extensions only it uses.

``create_app`` attaches ``csrf`` and a Flask-Babel of its own, and calls ``register_blueprints``;
a new blueprint is registered there.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf import CSRFProtect

csrf = CSRFProtect()


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the app, the security headers every response gets, and the
    speed layer (``referee.web.speed``)."""
    from referee.web import (
        disputes,
        errors,
        home,
        language,
        newtable,
        offline,
        records,
        scorecards,
        serve,
        speed,
        text,
    )
    from referee.web.evening import routes as evening
    from referee.web.fragments import once
    from referee.web.headers import security_headers
    from referee.web.history import routes as history
    from referee.web.nav import table_nav
    from referee.web.round import routes as round_screen
    from referee.web.screens import game_titles
    from referee.web.sharing import routes as sharing
    from referee.web.sharing.access import links_in_templates
    from referee.web.sheet import routes as sheet
    from referee.web.words import name_of

    app.after_request(security_headers)
    app.add_template_global(game_titles)
    app.add_template_global(table_nav)
    app.add_template_global(once)
    app.add_template_filter(name_of, "named")  # a suit, colour or role code as its name
    app.context_processor(links_in_templates)
    speed.init_app(app)
    language.init_app(app)

    app.register_blueprint(disputes.bp)
    app.register_blueprint(errors.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(newtable.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(serve.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(sheet.bp)
    app.register_blueprint(scorecards.bp)
    app.register_blueprint(round_screen.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(evening.bp)
    app.register_blueprint(text.bp)


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


def listed(value: Any) -> list[str]:
    """A list setting as the environment gives it: a comma-separated string (``"a, b"``), or a
    list already (a JSON list, or ``test_config``); empty items are dropped.

    >>> listed("old-key, older-key,")
    ['old-key', 'older-key']
    """
    items = value.split(",") if isinstance(value, str) else list(value or ())
    return [str(item).strip() for item in items if str(item).strip()]


def secret_keys(config: Mapping[str, Any]) -> list[str]:
    """Every secret key the app accepts, in itsdangerous' order: the ``SECRET_KEY_FALLBACKS``
    (earlier keys, still accepted after a rotation), then ``SECRET_KEY``, the one that signs."""
    return [*config["SECRET_KEY_FALLBACKS"], config["SECRET_KEY"]]
