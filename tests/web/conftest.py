"""Fixtures for the web tests: every test with the speed layer on and again with it off
(``SPEED``: the pages must be the same), an app on each kind of database, and control over when
this process sweeps other processes' writes.

A test about the speed layer itself is marked ``speed_layer`` and runs with it on only."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from referee.store import db
from referee.store.db import upgrade_to_head
from tests.conftest import make_app
from tests.databases import KINDS, empty_database


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses ``app`` runs with the speed layer on, then off (unless it is about
    the speed layer: marked ``speed_layer``)."""
    if "app" in metafunc.fixturenames:
        about_speed = metafunc.definition.get_closest_marker("speed_layer") is not None
        metafunc.parametrize(
            "speed",
            [True] if about_speed else [True, False],
            ids=lambda on: "speed" if on else "no-speed",
            indirect=True,
        )


@pytest.fixture
def speed(request: pytest.FixtureRequest) -> bool:
    """Whether the test's app has its speed layer on."""
    on: bool = getattr(request, "param", True)
    return on


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path, speed: bool) -> Iterator[Flask]:
    app = make_app(request, tmp_path, SPEED=speed)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(params=KINDS)
def db_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on an empty SQLite database, then on PostgreSQL (``tests/databases.py``), with
    CSRF protection on as in production."""
    with empty_database(request.param, tmp_path) as url:
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade_to_head()  # what `flask db upgrade` does for PostgreSQL
        yield app
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def sweep_due(app: Flask) -> Callable[[], None]:
    """Holds the app's sweep (``Positions.sweep``) to the moments the test chooses: the first
    request sweeps, then none falls due on its own however slow the machine, until the test calls
    the returned function (as if ``Positions.every`` had passed)."""
    if "referee.speed" not in app.extensions:
        return lambda: None  # nothing kept: every question asks the database
    positions = app.extensions["referee.speed"].positions

    def due() -> None:
        positions.swept = -math.inf

    positions.every = 3600.0
    due()
    return due


@pytest.fixture
def streams(monkeypatch: pytest.MonkeyPatch, speed: bool) -> bool:
    """Pages' streams served in process as under gevent, where the speed layer is on
    (``referee.web.live``; the test reads them in its own thread, or only their first event):
    whether they are."""
    from referee.web.speed import streams

    monkeypatch.setattr(streams, "can_hold", lambda: True)
    return speed
