"""The app factory: configuration, first start on an empty instance folder, CSRF, the front page."""

import re
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

ROOT = Path(__file__).resolve().parents[1]


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
    monkeypatch.delenv("REFEREE_PAGES_FOLDER", raising=False)  # set for the whole run (conftest)
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


def test_a_new_sqlite_file_is_readable_by_its_owner_only(empty_instance: Path) -> None:
    app = create_app()
    with app.app_context():
        create_table(Setup("blackout", ("Ann", "Ben", "Cho")))  # the -wal file is written too
        names = [f"table-referee.sqlite3{end}" for end in ("", "-wal", "-shm")]
        files = [empty_instance / name for name in names]  # the data (not the empty lock file)
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files}
        db.engine.dispose()
    assert all(mode == 0o600 for mode in modes.values()), modes


def test_compose_publishes_the_app_servers_on_the_loopback_only() -> None:
    """Behind ``REFEREE_PROXY_FIX=1`` an app server trusts X-Forwarded-For: whoever reached it
    directly could name any address and walk past the limit on new tables. Only the proxy, on
    this machine, may reach it."""
    compose = (ROOT / "compose.yaml").read_text()
    published = re.findall(r"^\s+ports:\n((?:\s+- .*\n)+)", compose, re.M)
    ports = [
        line.split("- ", 1)[1].strip('"') for block in published for line in block.split("\n")[:-1]
    ]
    assert ports and all(port.startswith("127.0.0.1:") for port in ports), ports


#: Each ``REFEREE_`` setting of ``.env.example``: a value the environment could give it, and
#: what the app's config then holds.
SETTINGS = {
    "REFEREE_SECRET_KEY_FALLBACKS": ("old-key, older-key", ["old-key", "older-key"]),
    "REFEREE_PUBLIC_URL": ("https://scores.example.org", "https://scores.example.org"),
    "REFEREE_TRUSTED_HOSTS": ("scores.example.org,localhost", ["scores.example.org", "localhost"]),
    "REFEREE_PROXY_FIX": ("1", 1),
    "REFEREE_SESSION_COOKIE_SECURE": ("true", True),
    "REFEREE_SESSION_COOKIE_SAMESITE": ("Strict", "Strict"),
    "REFEREE_TABLE_LIMIT": ("120", 120),
    "REFEREE_TABLE_LIMIT_SECONDS": ("900", 900),
    "REFEREE_SPEED": ("false", False),
    "REFEREE_SPEED_TABLES": ("500", 500),
    "REFEREE_STREAM_LIMIT": ("8", 8),
    "REFEREE_STREAM_WRITE_SECONDS": ("2.5", 2.5),
    "REFEREE_PG_NOTIFY": ("false", False),
    "REFEREE_SAFETY_SWEEP_SECONDS": ("2.5", 2.5),
    "REFEREE_MAX_CONTENT_LENGTH": ("100000", 100000),
    "REFEREE_PAGES_FOLDER": ("/srv/referee/pages", "/srv/referee/pages"),
}


def env_example() -> dict[str, str]:
    """The settings ``.env.example`` lists, with the defaults it gives."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line and not line.startswith("#")]
    return {name: value for name, value in pairs}


def test_env_example_lists_every_setting_with_a_comment() -> None:
    listed = env_example()
    assert {"SECRET_KEY", "DATABASE_URL"} | set(SETTINGS) == set(listed)
    lines = (ROOT / ".env.example").read_text().splitlines()
    for number, line in enumerate(lines):
        if line and not line.startswith("#"):
            assert lines[number - 1].startswith("# "), f"{line}: no comment above it"


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_each_setting_comes_from_the_environment(
    empty_instance: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    given, expected = SETTINGS[name]
    monkeypatch.setenv(name, given)
    app = create_app()
    with app.app_context():
        db.engine.dispose()
    assert app.config[name.removeprefix("REFEREE_")] == expected


def test_the_defaults_of_env_example_are_the_apps(
    empty_instance: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = create_app()
    for name, value in env_example().items():
        monkeypatch.setenv(name, value)
    configured = create_app()
    for app in (plain, configured):
        with app.app_context():
            db.engine.dispose()
    for name in SETTINGS:
        key = name.removeprefix("REFEREE_")
        assert configured.config[key] == plain.config[key], key
    assert configured.config["SECRET_KEY"] == plain.config["SECRET_KEY"]  # instance/secret_key
    assert configured.config["SQLALCHEMY_DATABASE_URI"] == plain.config["SQLALCHEMY_DATABASE_URI"]


def test_test_config_overrides_the_environment(
    empty_instance: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_TABLE_LIMIT", "120")
    monkeypatch.setenv("REFEREE_SECRET_KEY", "from-the-environment")
    app = create_app({"TABLE_LIMIT": 3})
    with app.app_context():
        db.engine.dispose()
    assert app.config["TABLE_LIMIT"] == 3
    assert app.config["SECRET_KEY"] == "from-the-environment"


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
