"""Session cookies are verified once per process with the speed layer on (``speed/sessions.py``)
and still open exactly what Flask would open: a forged or expired cookie opens nothing, and what
one request does to its session never reaches the next request with the same cookie."""

from __future__ import annotations

import time

import pytest
from flask import request

from referee.web.speed import sessions
from referee.web.speed.lru import LRU
from referee.web.speed.sessions import CheckedOnce
from tests.web.helpers import new_table

pytestmark = pytest.mark.speed_layer  # what the speed layer keeps and answers itself

REFUSED = "This table opens only with one of its links"


def cookie_after_a_view(app, client, table: str) -> str:
    """The session cookie a phone holding a link sends once it has seen the table."""
    assert client.get(f"/t/{table}").status_code == 200
    return client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value


def browser_with(app, cookie: str):
    other = app.test_client()
    other.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    return other


def test_a_cookie_is_verified_once_and_opens_the_same_table_every_time(app, client, monkeypatch):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    cookie = cookie_after_a_view(app, client, table)
    app.session_interface.checked = LRU(16)
    verified = []
    original = CheckedOnce.get_signing_serializer

    def counted(self, flask_app):
        verified.append(1)
        return original(self, flask_app)

    monkeypatch.setattr(CheckedOnce, "get_signing_serializer", counted)
    for _ in range(3):
        page = browser_with(app, cookie).get(f"/t/{table}")
        assert page.status_code == 200 and "Turn up the trump" in page.text
    assert len(verified) == 1


def test_a_forged_cookie_opens_nothing_even_after_the_real_one_was_verified(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    cookie = cookie_after_a_view(app, client, table)
    assert browser_with(app, cookie).get(f"/t/{table}").status_code == 200
    data, signature = cookie.rsplit(".", 1)
    forged_signature = f"{data}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    forged_data = f"{data[:-1]}{'A' if data[-1] != 'A' else 'B'}.{signature}"
    for forged in (forged_signature, forged_data, cookie[:-1], "garbage"):
        refused = browser_with(app, forged).get(f"/t/{table}")
        assert refused.status_code == 403 and REFUSED in refused.text


def test_a_cookie_older_than_the_session_lifetime_opens_nothing_though_it_was_verified(
    app, client, monkeypatch
):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    cookie = cookie_after_a_view(app, client, table)
    assert browser_with(app, cookie).get(f"/t/{table}").status_code == 200  # verified, kept
    lifetime = app.permanent_session_lifetime.total_seconds()

    class Later:
        @staticmethod
        def time() -> float:
            return time.time() + lifetime + 60

    monkeypatch.setattr(sessions, "time", Later)
    refused = browser_with(app, cookie).get(f"/t/{table}")
    assert refused.status_code == 403 and REFUSED in refused.text


def test_what_a_request_does_to_its_session_never_reaches_the_next_one(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    cookie = cookie_after_a_view(app, client, table)
    header = {"Cookie": f"{app.config['SESSION_COOKIE_NAME']}={cookie}"}
    with app.test_request_context(headers=header):
        first = app.session_interface.open_session(app, request)
        token = first["links"][table]
        first["links"][table] = "another token"  # changed in place, as flash() changes a list
        first["tables"].append("another table")
        again = app.session_interface.open_session(app, request)
    assert again["links"][table] == token and "another table" not in again["tables"]
