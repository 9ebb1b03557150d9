"""Fixtures for the web tests: an app on each kind of database, and control over when this
process sweeps other processes' writes."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from referee.store import db
from referee.store.db import upgrade_to_head
from referee.web.speed import kept as cache
from tests.databases import KINDS, empty_database


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
def sweep_due(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Holds this process's sweep (``cache.Positions.sweep``) to the moments the test chooses: the
    first request sweeps, then none falls due on its own however slow the machine, until the test
    calls the returned function (as if ``SWEEP_EVERY`` had passed)."""

    def due() -> None:
        cache.positions.swept = -math.inf

    monkeypatch.setattr(cache, "SWEEP_EVERY", 3600.0)
    due()
    return due
