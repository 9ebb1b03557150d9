"""Hostile-input fixtures: one app per module and database (hypothesis runs many examples
against it), on SQLite and on PostgreSQL.

CSRF is off so that the fuzzed forms reach the code behind it (one test keeps it on). Each
example makes its own tables, so the examples do not depend on each other; the client that posts
to a table holds its scorekeeper link (``tests/links.py``), so its entries reach the rules. The
examples create hundreds of tables from one address, so the limit on new tables is lifted.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from referee.store import db
from referee.store.db import upgrade_to_head
from tests.databases import KINDS, empty_database


@pytest.fixture(scope="module", params=KINDS)
def hostile_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Flask]:
    """The app on SQLite, then on PostgreSQL (``tests/databases.py``)."""
    with empty_database(request.param, tmp_path_factory.mktemp("hostile")) as url:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "hostile",
                "SQLALCHEMY_DATABASE_URI": url,
                "WTF_CSRF_ENABLED": False,
                "TABLE_LIMIT": 1_000_000,  # hundreds of tables through /new and /records
            }
        )
        with app.app_context():
            upgrade_to_head()  # what `flask db upgrade` does for PostgreSQL; SQLite did it at start
        yield app
        with app.app_context():
            db.engine.dispose()


def on_postgresql(app: Flask) -> bool:
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


@pytest.fixture(scope="module")
def hostile_client(hostile_app: Flask) -> FlaskClient:
    return hostile_app.test_client()
