"""Our own failure: a page in the app's style with a plain sentence, status 500, never a trace,
rendered without the database or the session (either may be what failed)."""

from __future__ import annotations

import html

import pytest
from flask import Flask, flash
from sqlalchemy import text

from referee.store import db
from tests.databases import statements


def breaks(app: Flask, how: str) -> None:
    """A test-only route that fails: by raising, or by a statement the database refuses."""

    @app.get("/breaks")
    def fail() -> str:
        if how == "database":
            db.session.execute(text("SELECT secret FROM no_such_table"))
        raise RuntimeError("a secret detail of the failure")


@pytest.mark.parametrize("how", ["raises", "database"])
def test_a_failure_gets_a_plain_page_of_our_own(app, how, sweep_due):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the handler answers
    breaks(app, how)

    @app.get("/message")
    def message() -> str:
        flash("A message for the next page.", "info")
        return "ok"

    client = app.test_client()
    client.get("/message")
    with statements(app) as ran:
        failed = client.get("/breaks", headers={"Referer": "http://localhost/t/abc"})
    page = html.unescape(failed.text)
    assert failed.status_code == 500 and failed.mimetype == "text/html"
    assert "<h1>Something went wrong</h1>" in page and "/static/style." in page
    assert 'href="/t/abc"' in page  # back to the page it came from
    for trace in ("secret", "Traceback", "RuntimeError", "no_such_table", "sqlalchemy"):
        assert trace not in page
    assert ran == ([] if how == "raises" else ["SELECT secret FROM no_such_table"])
    assert "Set-Cookie" not in failed.headers  # the session is left as it was …
    assert "A message for the next page." in client.get("/").text  # … its message waits


@pytest.mark.parametrize(
    "path", ["/new", "/scorecards", "/t/no-such-table/entry", "/j", "/t/no-such-table/share"]
)
def test_a_huge_form_body_is_refused_unread_with_a_small_page(client, path):
    # The reorder button needs no CSRF token on its stale path: it once answered the whole body
    # back (a 20 MB post made a 40 MB page).
    body = "move=up-2&player_1=" + "x" * (20 * 1024 * 1024)
    response = client.post(path, data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert len(response.data) < 10_000
    assert "larger than this app accepts" in response.text


def test_a_form_of_ordinary_size_is_read(client):
    response = client.post("/new", data={"move": "up-2", "player_1": "Ann", "player_2": "Ben"})
    assert response.status_code == 200
    assert response.text.index('value="Ben"') < response.text.index('value="Ann"')  # swapped


@pytest.mark.parametrize("referrer", ["http://[", "//[x", "http://\xb2]/t/abc", "http://[::1"])
def test_a_referrer_that_is_no_address_leads_back_home(app, referrer):
    """A page that offers a way back reads the ``Referer``; one that names no address (an
    unclosed IPv6 bracket: ``urlsplit`` raises) leads home, on every page that reads it."""
    from tests.web.test_front import assert_security_headers

    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the handlers answer
    breaks(app, "raises")
    client = app.test_client()
    headers = {"Referer": referrer}
    huge = "player_1=" + "x" * (1024 * 1024)
    for response, status in (
        (client.post("/new", data={"game": "blackout"}, headers=headers), 422),
        (client.get("/breaks", headers=headers), 500),
        (client.post("/new", data=huge, headers=headers, content_type=FORM), 413),
        (client.post("/new", data=b"player_1=\xff", headers=headers, content_type=FORM), 400),
    ):
        assert response.status_code == status, response.text[-800:]
        assert "Traceback" not in response.text and "/static/style." in response.text
        assert_security_headers(response)


FORM = "application/x-www-form-urlencoded"
