"""The database handle, its configuration, and what every SQLite connection needs.

``db`` (Flask-SQLAlchemy) and ``migrate`` (Flask-Migrate) are attached to the app in
``create_app``. SQLite is the embedded default: ``prepare_database`` switches on WAL, foreign keys
and a busy timeout on every connection and brings the file's schema to the newest migration by
itself, so a first start needs no init step. PostgreSQL is migrated by the deployment
(``flask --app app db upgrade``), never by a starting server: many servers start at once.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from filelock import FileLock
from flask import Flask, g
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Connection, CursorResult, Executable, MetaData, event
from sqlalchemy.orm import DeclarativeBase

#: Named constraints, so migrations can refer to them on SQLite (batch mode) and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: The SQLite file in the instance folder when ``DATABASE_URL`` is not set.
SQLITE_FILE = "table-referee.sqlite3"

#: How long (ms) an SQLite writer waits for another one before giving up.
SQLITE_BUSY_TIMEOUT_MS = 5000


class Base(DeclarativeBase):
    """The declarative base of every model, with the naming convention above."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


def run(statement: Executable, params: Mapping[str, object]) -> CursorResult[*tuple[Any, ...]]:
    """Run one of the hot reads and writes (``referee.store.tables``, ``referee.store.links``),
    a Core statement, on a connection directly: the session's ``execute`` does ORM work they do
    not need.

    On SQLite, in the session's transaction. On PostgreSQL (``autocommits``), on a connection
    the app context keeps in autocommit: each of these statements is whole by itself, one round
    trip instead of three with BEGIN and COMMIT."""
    if not autocommits():
        return db.session.connection().execute(statement, params)
    connection: Connection | None = g.get("referee_autocommit")
    if connection is None:
        connection = db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        g.referee_autocommit = connection
    return connection.execute(statement, params)


def autocommits() -> bool:
    """Whether ``run`` commits each statement by itself: on PostgreSQL, whose read committed
    transactions give every statement a snapshot of its own anyway (so a read sees what it
    would have seen in a transaction), and where ``add_entry`` writes in one statement."""
    return db.engine.dialect.name == "postgresql"


def close_autocommit(_error: BaseException | None = None) -> None:
    """At the end of an app context: give ``run``'s PostgreSQL connection back to the pool."""
    connection = g.pop("referee_autocommit", None)
    if connection is not None:
        connection.close()


def database_uri(url: str | None, instance_path: str) -> str:
    """The SQLAlchemy URI for ``DATABASE_URL`` (``url``), or the SQLite file in the instance folder.

    ``postgres://`` (as hosts hand it out) and ``postgresql://`` are sent to psycopg 3, the driver
    in requirements.txt; SQLAlchemy would otherwise look for psycopg2.

    >>> database_uri("postgres://u:p@db/referee", "/srv/instance")
    'postgresql+psycopg://u:p@db/referee'
    >>> database_uri(None, "/srv/instance")
    'sqlite:////srv/instance/table-referee.sqlite3'
    """
    if not url:
        return "sqlite:///" + os.path.join(instance_path, SQLITE_FILE)
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def set_sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    """WAL (readers never wait for the writer), foreign keys checked, writers wait their turn.

    ``synchronous=NORMAL`` is WAL's usual partner: a commit survives the server process being
    killed at any moment (the log is in the file when ``commit`` returns); only a power cut can
    lose the last commits, in exchange for no disk flush on every entry. The ``connect`` event
    runs once per new DB-API connection, before SQLAlchemy uses it.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


def upgrade_to_head() -> None:
    """Run the Alembic migrations up to the newest one (inside an app context).

    Unlike ``flask_migrate.upgrade``, errors are raised, not turned into ``sys.exit``, and the
    app's logging is left alone (``migrations/env.py`` reads ``configure_logger``).
    """
    config = migrate.get_config()
    assert isinstance(config, AlembicConfig)  # it is one; Flask-Migrate's stubs cannot say so
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")


def prepare_database(app: Flask) -> None:
    """SQLite only: set the pragmas on every connection and migrate the file to the newest schema.

    Creates the file and its tables on first start; after an update that brings a migration it
    applies it, and otherwise it is a no-op. Call after ``db.init_app`` and ``migrate.init_app``.

    Processes starting together (gunicorn's workers) take turns through a lock file beside the
    database: the first migrates, the others find nothing to do. Without it, the others waited
    on SQLite's lock and gave up after its busy timeout when the first was slow (a loaded
    machine).
    """
    with app.app_context():
        engine = db.engine
        if engine.dialect.name != "sqlite":
            return
        event.listen(engine, "connect", set_sqlite_pragmas)
        database = engine.url.database
        if not database or database == ":memory:":
            upgrade_to_head()
            return
        with FileLock(f"{database}.migrating"):  # waits as long as the first one takes
            upgrade_to_head()
