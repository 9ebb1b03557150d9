"""Store fixtures: every test here runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``TEST_DATABASE_URL`` (``export TEST_DATABASE_URL=$(.ci/start-postgres)``).
Without it the PostgreSQL cases are skipped, unless ``REQUIRE_POSTGRES=1`` (.ci/run): then they
fail. Each test gets an empty database (``tests/databases.py``): a new SQLite file, or a new
PostgreSQL schema dropped afterwards.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from referee.store import db
from referee.store.db import upgrade_to_head
from tests.databases import KINDS, empty_database


@pytest.fixture(params=KINDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database of each kind."""
    with empty_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def store_app(database_url: str) -> Iterator[Flask]:
    """An app on that database at the newest schema, inside an app context."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url}
    )
    with app.app_context():
        upgrade_to_head()  # what `flask db upgrade` does for PostgreSQL; SQLite did it at start
        yield app
    with app.app_context():
        db.engine.dispose()
