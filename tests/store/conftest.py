"""Store fixtures: every test here runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``TEST_DATABASE_URL`` (``export TEST_DATABASE_URL=$(.ci/start-postgres)``).
Without it the PostgreSQL cases are skipped, unless ``REQUIRE_POSTGRES=1`` (.ci/run): then they
fail. Each test gets an empty database: a new SQLite file, or a new PostgreSQL schema dropped
afterwards.
"""

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from app import create_app
from referee.store import db
from referee.store.db import database_uri, upgrade_to_head


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(
                "REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set; "
                "start a server with: export TEST_DATABASE_URL=$(.ci/start-postgres)",
                pytrace=False,
            )
        pytest.skip("TEST_DATABASE_URL is not set (see .ci/start-postgres)")
    url = sa.make_url(database_uri(base, str(tmp_path)))
    schema = f"test_{secrets.token_hex(6)}"
    admin = sa.create_engine(url)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    yield url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False
    )
    with admin.begin() as connection:
        connection.exec_driver_sql("SET lock_timeout = '10s'")
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


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
