"""The layer in front of Flask (``referee.web.speed.front``): static files and a page's own poll are
answered from memory without Flask's request machinery, with the same answers and headers Flask
gives; whatever it cannot answer from memory reaches Flask."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from referee.rules import events as ev
from referee.store.tables import append_entry
from referee.web.headers import HEADERS
from tests.links import join
from tests.web.helpers import new_table

pytestmark = pytest.mark.speed_layer  # what the speed layer keeps and answers itself


@pytest.fixture
def flask_calls(app: Flask) -> list[str]:
    """The paths of the requests that reached Flask."""
    calls: list[str] = []

    @app.before_request
    def count() -> None:
        calls.append(request.path)

    return calls


@pytest.fixture
def poll(
    app: Flask, client: FlaskClient, flask_calls: list[str], sweep_due: Callable[[], None]
) -> tuple[str, str]:
    """A table and the poll address its page carries (``flask_calls`` emptied after); no sweep
    falls due until the test says so."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    viewer = app.test_client()
    join(app, viewer, table, "viewer")
    page = viewer.get(f"/t/{table}").text
    flask_calls.clear()
    return table, html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))


def assert_security_headers(response) -> None:
    for name, value in HEADERS.items():
        assert response.headers.getlist(name) == [value], name


def test_a_known_tables_poll_is_answered_in_front_of_flask(app, flask_calls, poll):
    _table, address = poll
    cookieless = app.test_client()
    first = cookieless.get(address)
    assert first.status_code == 200 and first.text == "0"
    assert first.headers["ETag"] == '"seq-0"' and first.headers["Cache-Control"] == "no-cache"
    assert first.mimetype == "text/plain"
    assert_security_headers(first)
    again = cookieless.get(address, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert_security_headers(again)
    assert cookieless.head(address).data == b""
    assert flask_calls == []  # the page's render made this process know the table


def test_a_poll_goes_to_flask_when_the_answer_is_not_in_memory(app, flask_calls, poll, sweep_due):
    table, address = poll
    cookieless = app.test_client()
    with app.app_context():  # another process writes; this one's sweep is due
        append_entry(table, 0, "event", ev.Trump(1, "H").to_dict())
    sweep_due()
    assert cookieless.get(address).text == "1"  # Flask's view swept and saw it
    assert flask_calls == [f"/t/{table}/seq"]
    assert cookieless.get(address).text == "1"  # fresh again: answered in front
    assert len(flask_calls) == 1
    for forged in (f"/t/{table}/seq?k=forged", f"/t/{table}/seq", f"/t/{table}/seq?x=1"):
        assert cookieless.get(forged).status_code == 403  # no key, no link: Flask says no
    assert len(flask_calls) == 4


def test_a_static_file_is_answered_in_front_of_flask(app, client, flask_calls):
    address = re.search(r'src="(/static/app\.js\?v=[0-9a-f]+)"', client.get("/").text).group(1)
    flask_calls.clear()
    response = client.get(address)
    assert response.status_code == 200 and b"dataset.poll" in response.data
    assert response.content_type == "text/javascript; charset=utf-8"
    assert response.headers["Content-Length"] == str(len(response.data))
    assert_security_headers(response)
    head = client.head(address)
    assert head.status_code == 200 and head.data == b""
    assert head.headers["ETag"] == response.headers["ETag"]
    assert flask_calls == []
    assert client.get("/static/nope.js").status_code == 404  # Flask's error page
    assert flask_calls == ["/static/nope.js"]
    assert client.post(address).status_code == 405


def test_style_sheet_and_script_go_out_without_their_comments(client):
    from pathlib import Path

    from referee.web.speed.front import compact

    assert compact(b"a { x: 1; } /* why */\n\n  b {\n    y: 2;\n  }\n", "s.css") == (
        b"a { x: 1; }\nb {\ny: 2;\n}\n"
    )
    assert compact(b"// why\nconst a = 1; // kept\n  // why\n  go(a);\n", "s.js") == (
        b"const a = 1; // kept\ngo(a);\n"
    )
    assert compact(b"  // not code\n", "s.json") == b"  // not code\n"
    static = Path(__file__).resolve().parents[2] / "static"
    page = client.get("/").text
    for name in ("style.css", "app.js"):
        address = re.search(rf'"(/static/{re.escape(name)}\?v=[0-9a-f]+)"', page).group(1)
        sent = client.get(address).data
        kept = (static / name).read_bytes()
        assert len(sent) < len(kept), name
        assert b"/*" not in sent and not re.search(rb"^\s*//", sent, re.M), name
