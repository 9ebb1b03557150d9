"""The schema: the migrations build what the models say, on both databases; SQLite's settings, and
the first start on a new SQLite file (several processes at once migrate it once, in turn)."""

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from filelock import FileLock
from flask import Flask
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app import create_app
from referee.store import db, migrate
from referee.store.db import SQLITE_BUSY_TIMEOUT_MS
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


def start(database: Path) -> subprocess.Popen[bytes]:
    """A process starting the app on the SQLite file ``database``, as a gunicorn worker does."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test"}
    code = "from app import create_app; create_app()"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stderr=subprocess.PIPE)


def assert_started_on_the_newest_schema(
    starts: list[subprocess.Popen[bytes]], database: Path
) -> None:
    """Every process of ``starts`` started, and ``database`` has the newest schema recorded once."""
    for process in starts:
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr.decode()
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    with app.app_context():
        head = ScriptDirectory.from_config(migrate.get_config()).get_current_head()
        versions = db.session.execute(text("SELECT version_num FROM alembic_version")).scalars()
        assert list(versions) == [head]
        assert schema_differences() == []
        db.engine.dispose()


def test_processes_starting_together_on_a_new_sqlite_file_migrate_it_once(tmp_path: Path) -> None:
    """As gunicorn's workers do on the first start."""
    database = tmp_path / "new.sqlite3"
    assert_started_on_the_newest_schema([start(database) for _ in range(4)], database)


def test_processes_starting_while_another_migrates_slowly_wait_their_turn(tmp_path: Path) -> None:
    """A first process slower than SQLite's busy timeout (a loaded machine) does not make the
    others fail: they wait their turn on the lock file beside the database. (This first one never
    migrates, so the next one does, and the others find nothing to do.)"""
    database = tmp_path / "new.sqlite3"
    with FileLock(f"{database}.migrating"):  # "the first process" is migrating …
        slow = sqlite3.connect(database)
        slow.execute("BEGIN EXCLUSIVE")  # … and holds the database meanwhile
        starts = [start(database) for _ in range(3)]
        time.sleep(SQLITE_BUSY_TIMEOUT_MS / 1000 + 1)
        for process in starts:
            assert process.poll() is None, process.communicate()[1].decode()  # still waiting
        slow.rollback()
        slow.close()
    assert_started_on_the_newest_schema(starts, database)
