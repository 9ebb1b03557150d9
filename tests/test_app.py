"""The app factory: configuration, first start on an empty instance folder, CSRF, the front page."""

import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_wtf.csrf import generate_csrf
from sqlalchemy import inspect

from app import create_app
from referee.rules import Setup
from referee.store import db
from referee.store.tables import create_table, get_table


def test_test_config_overrides_the_defaults(app: Flask) -> None:
    assert app.testing
    assert app.config["SECRET_KEY"] == "test"
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None  # tokens last the whole evening
    assert app.config["BABEL_DEFAULT_LOCALE"] == "en"


def test_the_front_page(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"<h1>Table Referee</h1>" in response.data


def test_the_migration_commands_are_attached(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["db", "--help"])
    assert result.exit_code == 0
    assert "upgrade" in result.output


@pytest.fixture
def empty_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty instance folder for create_app(), and no configuration in the environment."""
    instance = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return instance


def test_the_first_start_creates_the_database_and_a_secret_key(empty_instance: Path) -> None:
    app = create_app()
    assert app.instance_path == str(empty_instance)
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("/instance/table-referee.sqlite3")
    with app.app_context():
        assert {"tables", "entries", "alembic_version"} <= set(inspect(db.engine).get_table_names())
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
        assert get_table(table_id) is not None
        db.engine.dispose()
    key = empty_instance / "secret_key"
    assert len(app.config["SECRET_KEY"]) >= 64
    assert key.read_text() == app.config["SECRET_KEY"]
    assert stat.S_IMODE(key.stat().st_mode) == 0o600

    again = create_app()  # the second start reuses both
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    with again.app_context():
        assert get_table(table_id) is not None
        db.engine.dispose()


def test_the_environment_configures_the_key_and_the_database(
    empty_instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
    app = create_app()
    with app.app_context():
        db.engine.dispose()
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert (tmp_path / "elsewhere.sqlite3").exists()
    assert list(empty_instance.iterdir()) == []  # no key file, no database file


def add_test_views(app: Flask) -> None:
    """A form target, and a page handing out a CSRF token (as a form would embed it)."""
    app.add_url_rule("/test-post", "test_post", lambda: "posted", methods=["POST"])
    app.add_url_rule("/test-token", "test_token", generate_csrf)


def test_csrf_is_off_in_tests_by_default(app: Flask, client: FlaskClient) -> None:
    add_test_views(app)
    assert client.post("/test-post").status_code == 200


@pytest.mark.csrf
def test_csrf_is_on_when_a_test_asks_for_it(app: Flask, client: FlaskClient) -> None:
    add_test_views(app)
    assert client.post("/test-post").status_code == 400
    token = client.get("/test-token").text
    assert client.post("/test-post", data={"csrf_token": token}).status_code == 200
