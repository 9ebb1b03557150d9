"""The speed layer's front (``speed/front.py``): a page's own poll and a phone's repeated request
for a page every viewer of its kind sees alike are answered from memory without Flask's request
machinery, with the same answers and headers Flask gives; whatever it cannot answer from memory
reaches Flask."""

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
from tests.links import join
from tests.web.helpers import first_event, new_table, ok, post

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


def settled(client: FlaskClient, address: str, **kwargs):
    """The page at ``address``, asked for until the answer leaves the phone's cookie as it was
    (the first view of a table puts it first in the phone's list, a new cookie): what the phone
    asks for next is the same request again."""
    for _ in range(3):
        response = client.get(address, **kwargs)
        if "Set-Cookie" not in response.headers:
            return response
    raise AssertionError(f"{address} sets a cookie each time")


def same_answer(one, other) -> None:
    """Two answers alike in status, headers (in any order) and body."""
    assert one.status_code == other.status_code
    assert sorted(one.headers.items()) == sorted(other.headers.items())
    assert one.data == other.data


@pytest.fixture
def spectated(
    app: Flask, client: FlaskClient, flask_calls: list[str], sweep_due: Callable[[], None]
) -> tuple[str, FlaskClient]:
    """A table with a trump turned up (``client`` keeps its score) and a phone holding its
    spectator link; no sweep falls due until the test says so."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    spectator = app.test_client()
    join(app, spectator, table, "viewer")
    return table, spectator


SHARED = ["", "?mode=cards", "/sheet", "/tv", "/standings"]


@pytest.mark.parametrize("page", SHARED)
@pytest.mark.parametrize("kind", ["viewer", "keeper"])
def test_a_phones_repeated_request_for_a_shared_page_is_answered_in_front_of_flask(
    app, flask_calls, spectated, page, kind
):
    """The same request again, for a page every phone of its kind sees alike, gets Flask's own
    answer (status, headers, body; a 304 to its ETag) without reaching Flask. A scorekeeper's
    table page is its own (its form, its messages): always Flask's."""
    table, phone = spectated
    if kind == "keeper":
        phone = app.test_client()
        join(app, phone, table, "keeper")
    address = f"/t/{table}{page}"
    from_flask = settled(phone, address)
    assert from_flask.status_code == 200 and 'data-seq="1"' in from_flask.text
    flask_calls.clear()
    again = phone.get(address)
    if kind == "keeper" and page in ("", "?mode=cards"):
        assert flask_calls == [f"/t/{table}"] and "csrf_token" in again.text
        return
    assert flask_calls == []
    same_answer(again, from_flask)
    etag = {"If-None-Match": from_flask.headers["ETag"]}
    app.extensions["referee.speed"].repeats.clear()  # Flask's own 304
    not_modified = phone.get(address, headers=etag)
    assert not_modified.status_code == 304 and flask_calls == [address.partition("?")[0]]
    same_answer(phone.get(address, headers=etag), not_modified)
    assert phone.head(address).data == b""
    assert len(flask_calls) == 1


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_pages_stream_is_never_answered_in_front_of_flask(
    app, flask_calls, spectated, page, streams
):
    """The page's stream is asked at the page's own address with the same cookie as the page:
    it is Flask's (the stream, not the page from memory)."""
    table, phone = spectated
    address = f"/t/{table}{page}"
    settled(phone, address)
    flask_calls.clear()
    assert phone.get(address).status_code == 200 and flask_calls == []  # the page from memory
    status, event = first_event(phone, address, 0)
    assert status == 200 and event.startswith("id: 1\nevent: page\n")
    assert flask_calls == [f"/t/{table}{page}"]


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_repeated_request_goes_to_flask_when_memory_cannot_answer_it(
    app, client, flask_calls, spectated, sweep_due, page
):
    """Whatever the answer may have come to depend on since reaches Flask: a new entry (here or
    in another process, seen by the sweep or by the phone's poll), another language, a header
    this layer does not read."""
    table, spectator = spectated
    address = f"/t/{table}{page}"
    settled(spectator, address)
    flask_calls.clear()
    ok(post(client, table, "bid", player=2, bid=1))  # this process writes; no page at 2 kept
    flask_calls.clear()
    assert 'data-seq="2"' in spectator.get(address).text
    assert flask_calls == [f"/t/{table}{page}"]
    assert 'data-seq="2"' in spectator.get(address).text
    assert len(flask_calls) == 1  # kept now
    with app.app_context():  # another process writes
        append_entry(table, 2, "event", ev.Bid(1, "Cho", 0).to_dict())
    assert 'data-seq="2"' in spectator.get(address).text  # no sweep yet, no poll that saw it
    assert len(flask_calls) == 1
    for seen in ("3", "junk", "-1"):  # the phone's poll saw 3 (another process answered it)
        assert 'data-seq="3"' in spectator.get(address, headers={"X-Table-Seq": seen}).text
    assert len(flask_calls) == 4
    with app.app_context():
        append_entry(table, 3, "event", ev.Bid(1, "Ann", 0).to_dict())
    sweep_due()
    assert 'data-seq="4"' in spectator.get(address).text  # the sweep is due: Flask's view
    assert len(flask_calls) == 5
    german = spectator.get(address, headers={"Accept-Language": "de"})
    assert 'lang="de"' in german.text and len(flask_calls) == 6
    assert 'lang="de"' in spectator.get(address, headers={"Accept-Language": "de"}).text
    assert 'lang="en"' in spectator.get(address).text
    assert len(flask_calls) == 6


@pytest.mark.parametrize("elsewhere", [False, True], ids=["here", "in-another-process"])
def test_a_revoked_link_opens_nothing_in_front_of_flask_either(
    app, client, flask_calls, spectated, sweep_due, elsewhere
):
    """A link revoked by this process is refused at once, one revoked by another process from
    this process's next sweep, as Flask's views refuse it."""
    from referee.store.links import revoke
    from referee.web.sharing.access import forget_links

    table, spectator = spectated
    for page in ("", "/sheet"):
        settled(spectator, f"/t/{table}{page}")
    flask_calls.clear()
    for page in ("", "/sheet"):
        assert spectator.get(f"/t/{table}{page}").status_code == 200
    assert flask_calls == []  # answered in front
    with app.app_context():
        revoke(table, "viewer")
        if elsewhere:
            sweep_due()
        else:
            with app.test_request_context():
                forget_links(table)
    for page in ("", "/sheet"):
        refused = spectator.get(f"/t/{table}{page}")
        assert refused.status_code == 403 and "revoked" in refused.text
    assert len(flask_calls) == 2


def test_an_expired_cookie_opens_nothing_in_front_of_flask_either(
    app, flask_calls, spectated, monkeypatch
):
    """A session cookie older than the session lifetime holds no link, from memory or not."""
    import time

    table, spectator = spectated
    settled(spectator, f"/t/{table}/sheet")
    flask_calls.clear()
    assert spectator.get(f"/t/{table}/sheet").status_code == 200 and flask_calls == []
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    flask_calls.clear()
    refused = spectator.get(f"/t/{table}/sheet")
    assert refused.status_code == 403 and flask_calls == [f"/t/{table}/sheet"]


def test_a_first_wait_arriving_while_the_sweeper_starts_starts_no_second_one(app, monkeypatch):
    # Under gevent, starting the sweeper lets other requests run, and one of them may be the
    # worker's second first stream: it must find the sweeper started, or a second one
    # sweeps beside it.
    held = app.extensions["referee.live"]
    started: list[str] = []

    def start(thread: threading.Thread) -> None:  # another request runs meanwhile
        started.append(thread.name)
        held.start()

    monkeypatch.setattr(threading.Thread, "start", start)
    held.start()
    assert started == ["streams"]
    assert app.extensions["referee.speed"].positions.moved == held.wake
