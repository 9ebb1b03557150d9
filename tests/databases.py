"""Databases for tests: empty ones of each kind (the store, durability and hostile tests run on
both), and the statements a piece of code runs on one.

PostgreSQL comes from ``TEST_DATABASE_URL`` (``export TEST_DATABASE_URL=$(.ci/start-postgres)``).
Without it the PostgreSQL cases are skipped, unless ``REQUIRE_POSTGRES=1`` (``.ci/run``): then
they fail. A PostgreSQL database is a new schema of that database, dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event

from referee.store import db
from referee.store.db import database_uri

KINDS = ["sqlite", "postgresql"]


@contextmanager
def empty_database(kind: str, folder: Path) -> Iterator[str]:
    """The URL of an empty database of ``kind`` (an SQLite file in ``folder``)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'test.sqlite3'}"
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
    url = sa.make_url(database_uri(base, str(folder)))
    schema = f"test_{secrets.token_hex(6)}"
    admin = sa.create_engine(url)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql("SET lock_timeout = '10s'")
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run on the app's database while the ``with`` block runs (a list filled
    in as they run)."""
    ran: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        ran.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", note)
