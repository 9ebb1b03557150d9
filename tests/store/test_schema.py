"""The schema: the migrations build what the models say, on both databases; SQLite's settings."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from referee.store import db, migrate
from referee.store.models import Entry

ROOT = Path(__file__).resolve().parents[2]


def schema_differences() -> list[object]:
    """What autogenerate would put in a new migration: nothing, if models and migrations agree."""
    with db.engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), db.metadata))


def test_the_migrations_build_the_models_schema(store_app: Flask) -> None:
    assert schema_differences() == []


def test_the_migrations_go_down_and_up_again(store_app: Flask) -> None:
    config = migrate.get_config()
    config.attributes["configure_logger"] = False
    command.downgrade(config, "base")
    assert inspect(db.engine).get_table_names() == ["alembic_version"]
    command.upgrade(config, "head")
    assert schema_differences() == []


def test_flask_db_check_finds_nothing_to_migrate(database_url: str) -> None:
    """The documented commands, as a deployment runs them: upgrade, then check."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "test"}
    for args in (["upgrade"], ["check"]):
        done = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "app", "db", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    assert "No new upgrade operations detected" in done.stdout + done.stderr


def test_foreign_keys_are_enforced(store_app: Flask) -> None:
    db.session.add(Entry(table_id="no-such-table", seq=1, kind="event", payload={}))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(app: Flask) -> None:
    with app.app_context():
        pragma = {
            name: db.session.execute(text(f"PRAGMA {name}")).scalar()
            for name in ("journal_mode", "foreign_keys", "busy_timeout")
        }
    assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 5000}
