"""App fixtures in the style of Flask's tutorial: ``app``, ``client``, ``runner``.

Each test gets an app on its own SQLite file. CSRF protection is off so tests can post forms
plainly, except in tests marked ``@pytest.mark.csrf``, which get it as production has it.
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from referee.store import db
from tests.durability import summary


def pytest_sessionstart(session: pytest.Session) -> None:
    summary.forget_parts()


@pytest.fixture(scope="session", autouse=True)
def pages_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every app of the test run, and the servers it starts, share their pages in a folder of
    the run's (``REFEREE_PAGES_FOLDER``), not in the repository's instance folder."""
    folder = tmp_path_factory.mktemp("pages")
    before = os.environ.get("REFEREE_PAGES_FOLDER")
    os.environ["REFEREE_PAGES_FOLDER"] = str(folder)
    yield folder
    if before is None:
        del os.environ["REFEREE_PAGES_FOLDER"]
    else:
        os.environ["REFEREE_PAGES_FOLDER"] = before


def pytest_sessionfinish(session: pytest.Session) -> None:
    """What the browser journeys, the fuzz, the racing writers and the kills counted, written
    for ``.ci/run`` (``tests/durability/summary.py``)."""
    summary.write()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file at the newest migration, made once per test process: each test's own file
    starts as a copy of it (migrating a new file is a third of an app's start, and most tests
    start one)."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.engine.dispose()  # the last connection closed: the write-ahead log is in the file
    return path


def make_app(request: pytest.FixtureRequest, tmp_path: Path, **settings: object) -> Flask:
    """An app for a test on its own SQLite file (a copy of ``migrated_sqlite``), CSRF protection
    on only if the test is marked ``csrf``; ``settings`` override the rest."""
    database = tmp_path / "test.sqlite3"
    if "SQLALCHEMY_DATABASE_URI" not in settings and not database.exists():
        database.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), database)
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "WTF_CSRF_ENABLED": request.node.get_closest_marker("csrf") is not None,
            **settings,
        }
    )


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    app = make_app(request, tmp_path)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
