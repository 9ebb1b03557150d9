"""The settings around links and keys, as a deployment sets them: a rotated secret key, the
session cookie's flags, the public address of shared links, trusted hosts, proxies in front, and
the "Back to the page" link of a stale page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from referee.rules import Setup
from referee.store import db
from referee.store.tables import create_table, current_seq
from referee.web.sharing.routes import qr_svg
from tests.links import join, open_shared
from tests.web.helpers import hidden
from tests.web.test_newtable import form as new_table_form

COOKIE = "session"


@pytest.fixture
def make_app(tmp_path: Path):
    """Apps on one SQLite file, as the same deployment restarted with other settings (CSRF on,
    as in production)."""
    made: list[Flask] = []

    def make(**config: object) -> Flask:
        app = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'settings.sqlite3'}",
                **config,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        with app.app_context():
            db.engine.dispose()


def blackout(app: Flask) -> str:
    with app.app_context():
        return create_table(Setup("blackout", ("Ann", "Ben", "Cho")))


def moved(app: Flask, cookie: str) -> FlaskClient:
    """A browser sending ``cookie`` (its session cookie from before) to ``app``."""
    browser = app.test_client()
    browser.set_cookie(COOKIE, cookie)
    return browser


def trump(page: str) -> dict[str, str]:
    """The first entry of a Blackout table, as its page's form sends it (with its token)."""
    csrf = hidden(page, "csrf_token")
    return {"seq": "0", "round": "1", "action": "trump", "trump": "H", "csrf_token": csrf}


def test_after_a_rotation_of_the_secret_key_an_open_page_goes_on_with_the_old_key(make_app):
    before = make_app(SECRET_KEY="old")
    table = blackout(before)
    phone = before.test_client()
    join(before, phone, table)
    page = phone.get(f"/t/{table}").text  # opened before the rotation, and left open
    poll = re.search(r'data-poll="([^"]+)"', page).group(1).replace("&amp;", "&")
    cookie = phone.get_cookie(COOKIE).value

    after = make_app(SECRET_KEY="new", SECRET_KEY_FALLBACKS="old")  # as the environment gives it
    assert after.config["SECRET_KEY_FALLBACKS"] == ["old"]
    assert after.test_client().get(poll).text == "0"  # the page's poll still answers
    browser = moved(after, cookie)
    recorded = browser.post(f"/t/{table}/entry", data=trump(page))  # its form's old token
    assert recorded.status_code == 303
    with after.app_context():
        assert current_seq(table) == 1
    resigned = browser.get_cookie(COOKIE).value
    assert resigned != cookie  # sent back signed with the new key …
    dropped = make_app(SECRET_KEY="new")  # … so the old key can go
    assert moved(dropped, resigned).get(f"/t/{table}").status_code == 200
    assert moved(dropped, cookie).get(f"/t/{table}").status_code == 403


def test_without_the_old_key_the_link_and_the_poll_no_longer_open_the_table(make_app):
    before = make_app(SECRET_KEY="old")
    table = blackout(before)
    phone = before.test_client()
    join(before, phone, table)
    page = phone.get(f"/t/{table}").text
    poll = re.search(r'data-poll="([^"]+)"', page).group(1).replace("&amp;", "&")
    after = make_app(SECRET_KEY="new")
    assert after.test_client().get(poll).status_code == 403  # app.js says so (tests/e2e)
    assert moved(after, phone.get_cookie(COOKIE).value).get(f"/t/{table}").status_code == 403


def session_cookie_header(app: Flask) -> str:
    response = app.test_client().get("/new")  # a form: its CSRF token starts a session
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(COOKIE)]
    return header


def test_the_session_cookie_is_same_site_and_secure_when_served_over_https(make_app):
    plain = session_cookie_header(make_app(SECRET_KEY="k"))
    assert "SameSite=Lax" in plain and "HttpOnly" in plain and "Secure" not in plain
    assert "Secure" in session_cookie_header(make_app(SECRET_KEY="k", SESSION_COOKIE_SECURE=True))


def share_links(client: FlaskClient, table: str, **request: object) -> tuple[str, str]:
    """The spectator link the share page shows, and its QR code."""
    page = client.get(f"/t/{table}/share", **request).text
    url = re.search(r'id="viewer-link"[^>]*value="([^"]+)"', page).group(1)
    qr = re.search(r'<figure class="qr">(.*?)</figure>', page, re.S).group(1).strip()
    return url, qr


def test_shared_links_and_qr_codes_use_the_public_address(make_app):
    app = make_app(SECRET_KEY="k", WTF_CSRF_ENABLED=False, PUBLIC_URL="https://scores.example/")
    client = app.test_client()
    created = client.post("/new", data=new_table_form(), headers={"Host": "evil.example"})
    table = created.headers["Location"].rsplit("/", 1)[1]
    url, qr = share_links(client, table, headers={"Host": "evil.example"})
    assert re.fullmatch(r"https://scores\.example/j#[\w-]{32}", url), url
    assert qr == qr_svg(url, "Spectator link")
    assert open_shared(app.test_client(), url).status_code == 303


def test_without_a_public_address_links_follow_the_request(make_app):
    app = make_app(SECRET_KEY="k", WTF_CSRF_ENABLED=False)
    client = app.test_client()
    table = client.post("/new", data=new_table_form()).headers["Location"].rsplit("/", 1)[1]
    assert share_links(client, table)[0].startswith("http://localhost/j#")


def test_only_trusted_hosts_are_answered(make_app):
    app = make_app(SECRET_KEY="k", TRUSTED_HOSTS="scores.example, localhost")
    client = app.test_client()
    assert client.get("/", headers={"Host": "scores.example"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def forwarded(address: str, proto: str = "http", host: str = "scores.example") -> dict[str, str]:
    return {"X-Forwarded-For": address, "X-Forwarded-Proto": proto, "X-Forwarded-Host": host}


def test_behind_a_trusted_proxy_the_forwarded_address_scheme_and_host_count(make_app):
    app = make_app(SECRET_KEY="k", WTF_CSRF_ENABLED=False, PROXY_FIX=1, TABLE_LIMIT=1)
    client = app.test_client()
    first = client.post("/new", data=new_table_form(), headers=forwarded("192.0.2.1", "https"))
    assert first.status_code == 303
    table = first.headers["Location"].rsplit("/", 1)[1]
    link = share_links(client, table, headers=forwarded("192.0.2.1", "https"))[0]
    assert link.startswith("https://scores.example/j#")
    again = client.post("/new", data=new_table_form(), headers=forwarded("192.0.2.1"))
    assert again.status_code == 429  # the same phone's network
    other = client.post("/new", data=new_table_form(), headers=forwarded("192.0.2.2"))
    assert other.status_code == 303  # another network behind the same proxy


def test_without_proxy_fix_forwarded_headers_are_ignored(make_app):
    app = make_app(SECRET_KEY="k", WTF_CSRF_ENABLED=False, TABLE_LIMIT=1)
    client = app.test_client()
    assert (
        client.post("/new", data=new_table_form(), headers=forwarded("192.0.2.1")).status_code
        == 303
    )
    refused = client.post("/new", data=new_table_form(), headers=forwarded("192.0.2.2"))
    assert refused.status_code == 429  # a forged header changes nothing


@pytest.mark.parametrize(
    ("referrer", "back"),
    [
        ("http://localhost/t/abc/sheet?x=1", "/t/abc/sheet?x=1"),
        ("http://localhost//evil.example/x", "/"),
        ("http://localhost/\\evil.example/x", "/"),
        ("http://localhost/\t/evil.example", "/"),
        ("http://evil.example/t/abc", "/"),
        ("javascript:alert(1)", "/"),
    ],
)
@pytest.mark.csrf
def test_back_to_the_page_leads_only_to_pages_of_this_app(client, referrer, back):
    stale = client.post("/t/abc/share", data={"action": "viewer"}, headers={"Referer": referrer})
    assert stale.status_code == 400
    link = re.search(r'<a class="button" href="([^"]*)">Back to the page', stale.text).group(1)
    assert link.replace("&amp;", "&") == back
