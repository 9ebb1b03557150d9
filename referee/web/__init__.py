"""The web layer: Flask blueprints, forms and view helpers, and the extensions only it uses.

``create_app`` attaches ``csrf`` and a Flask-Babel of its own, and calls ``register_blueprints``
(``referee.web.blueprints``); a new blueprint is registered there. This module holds only what
the whole layer shares and imports nothing of it.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask_wtf import CSRFProtect

csrf = CSRFProtect()


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
