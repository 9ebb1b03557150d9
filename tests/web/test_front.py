"""The speed layer's front (``speed/front.py``): a page's own poll is answered from memory
without Flask's request machinery, with the same answers and headers Flask gives; whatever it
cannot answer from memory reaches Flask."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from referee.rules import events as ev
from referee.store.tables import append_entry
from referee.web.headers import HEADERS
from referee.web.speed.held import Held
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


def test_a_poll_asking_to_be_held_is_answered_at_once_here(app, flask_calls, poll, sweep_due):
    # Only a server of green threads holds a poll (tests/durability/test_held_polls.py); this
    # one answers at once, in front of Flask or from it, and does not say it holds.
    table, address = poll
    cookieless = app.test_client()
    first = cookieless.get(f"{address}&hold=1")
    assert (first.status_code, first.text, "X-Poll-Held" in first.headers) == (200, "0", False)
    etag = {"If-None-Match": first.headers["ETag"]}
    assert cookieless.get(f"{address}&hold=1", headers=etag).status_code == 304
    assert flask_calls == []
    sweep_due()
    answer = cookieless.get(f"{address}&hold=1", headers=etag)
    assert (answer.status_code, "X-Poll-Held" in answer.headers) == (304, False)
    assert flask_calls == [f"/t/{table}/seq"]


def test_a_first_poll_arriving_while_the_held_polls_start_joins_them(app, monkeypatch):
    # Under gevent, starting the held polls' sweeper lets other requests run, and one of them may
    # be the worker's second first poll: it must find the same held polls, or it makes others
    # that take the wake-ups over, and the first one's polls never hear of a change.
    front = app.wsgi_app
    during: list[Held] = []

    def start(_thread: threading.Thread) -> None:  # another request runs meanwhile
        if not during:
            during.append(front.holding())

    monkeypatch.setattr(threading.Thread, "start", start)
    held = front.holding()
    assert during == [held]
    assert app.extensions["referee.speed"].positions.moved == held.wake
