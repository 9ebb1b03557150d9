"""The speed layer's front (``speed/front.py``): a page's own poll is answered from memory without
Flask's request machinery, with the same answers and headers Flask gives; whatever it cannot
answer from memory reaches Flask, and every page request and stream does."""

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


def page_poll(page: str) -> dict[str, str]:
    """The headers of the poll ``static/app.js`` sends for ``page``: its key and position."""
    key = html.unescape(re.search(r'data-poll="[^"]*k=([^"&]+)', page).group(1))
    seq = re.search(r'data-seq="(\d+)"', page).group(1)
    return {"X-Table-Poll": key, "If-None-Match": f'"seq-{seq}"'}


SHARED = ["", "/sheet", "/tv", "/standings"]


def same_answer(one, other) -> None:
    """Two answers alike: status, bytes and every header but the date (in any order)."""
    assert (one.status_code, one.data) == (other.status_code, other.data)
    headers = [sorted(h for h in answer.headers if h[0] != "Date") for answer in (one, other)]
    assert headers[0] == headers[1]


@pytest.mark.parametrize("page", SHARED)
def test_a_shared_page_opened_again_is_answered_in_front_as_flask_answered_it(
    app, client, flask_calls, spectated, page
):
    """Asked again by a phone with the same kind of link and language, a page every phone of
    its kind sees alike is answered in front of Flask, the very answer Flask gave; another
    phone with such a link too, once its cookie is verified; another language is Flask's once;
    a move of the table, Flask's once (the new page made), then kept again."""
    table, phone = spectated
    address = f"/t/{table}{page}"
    first = phone.get(address)
    assert first.status_code == 200 and 'data-seq="1"' in first.text
    flask_calls.clear()
    same_answer(phone.get(address), first)
    assert flask_calls == []
    other = app.test_client()
    join(app, other, table, "viewer")
    flask_calls.clear()
    same_answer(other.get(address), first)
    same_answer(other.get(address), first)
    german = {"Accept-Language": "de"}
    de = other.get(address, headers=german)
    assert 'lang="de"' in de.text
    same_answer(phone.get(address, headers=german), de)
    assert flask_calls == [address] * 2  # the other phone's first (its cookie), German once
    ok(post(client, table, "bid", player=2, bid=1))
    flask_calls.clear()
    moved = phone.get(address)
    assert 'data-seq="2"' in moved.text
    same_answer(other.get(address), moved)
    assert flask_calls == [address]


@pytest.mark.parametrize("page", ["?mode=cards", "", "/sheet"])
def test_what_a_kept_page_cannot_answer_is_flasks_each_time(
    app, client, flask_calls, spectated, page
):
    """A query, a conditional request (Flask's 304), the scorekeeper's own round screen and a
    phone that also holds a group's link (its game-over screen may lead to the group) reach
    Flask each time (the scorekeeper's sheet is a page every scorekeeper sees alike)."""
    from tests.web.group_helpers import join_group, new_group

    table, phone = spectated
    address = f"/t/{table}{page}"
    first = phone.get(address)
    grouped = app.test_client()
    join(app, grouped, table, "viewer")
    join_group(app, grouped, new_group(app.test_client(), "Club"), "viewer")
    grouped.get(f"/t/{table}")  # the table first in its list again
    client.get(address)
    flask_calls.clear()
    etag = {"If-None-Match": first.headers["ETag"]}
    assert phone.get(address, headers=etag).status_code == 304
    keeper_pages = [client.get(address).data for _ in range(2)]
    for _ in range(2):
        assert grouped.get(address).status_code == 200
    kept = 2 if page == "/sheet" else 0  # the keeper's sheet is shared by keepers: kept
    assert flask_calls == [address.partition("?")[0]] * (5 - kept)
    assert keeper_pages[0] == keeper_pages[1]


def test_a_players_sheet_is_the_players_and_a_keepers_the_keepers(
    app, client, flask_calls, spectated
):
    """Each kind of link is noted apart: the sheet answered in front to a player and to the
    scorekeeper is the one Flask gives each."""
    table, _ = spectated
    player = app.test_client()
    join(app, player, table, "player", "Ben")
    address = f"/t/{table}/sheet"
    for phone in (player, client):
        phone.get(f"/t/{table}")  # (the table first in its list)
        first = phone.get(address)
        flask_calls.clear()
        same_answer(phone.get(address), first)
        assert flask_calls == []
    assert player.get(address).data != client.get(address).data  # the keeper's has more links


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_pages_own_poll_is_answered_in_front_while_its_link_opens_the_table(
    app, client, flask_calls, spectated, page
):
    """A page's poll of itself (its poll key, the position it shows) is answered "unchanged"
    in front of Flask while the table stays there and the phone's session holds a link this
    process knows opens it; the same poll from a phone without the link is Flask's (refused).
    Once the table moves, the poll is a page request: Flask's, which checks the link as for
    every page."""
    table, phone = spectated
    address = f"/t/{table}{page}"
    poll = page_poll(phone.get(address).text)
    flask_calls.clear()
    unchanged = phone.get(address, headers=poll)
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert_security_headers(unchanged)
    assert flask_calls == []
    assert app.test_client().get(address, headers=poll).status_code == 403
    assert flask_calls == [address.partition("?")[0]]
    ok(post(client, table, "bid", player=2, bid=1))
    flask_calls.clear()
    assert 'data-seq="2"' in phone.get(address, headers=poll).text
    assert app.test_client().get(address, headers=poll).status_code == 403
    assert flask_calls == [f"/t/{table}{page}"] * 2
    forged = {**poll, "X-Table-Poll": "forged"}
    assert app.test_client().get(address, headers=forged).status_code == 403


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_pages_stream_is_never_answered_in_front_of_flask(
    app, flask_calls, spectated, page, streams
):
    """The page's stream is asked at the page's own address with the same cookie as the page:
    it is Flask's."""
    table, phone = spectated
    address = f"/t/{table}{page}"
    phone.get(address)
    flask_calls.clear()
    status, event = first_event(phone, address, 0)
    assert status == 200 and event.startswith("id: 1\nevent: page\n")
    assert flask_calls == [f"/t/{table}{page}"]


@pytest.mark.parametrize("page", ["", "/sheet"])
def test_a_page_shows_at_least_the_position_its_poll_saw(app, client, spectated, sweep_due, page):
    """An entry written in another process, not yet swept here: the page a poll that saw it
    (answered by another process) asks for shows it; a position that is none is ignored."""
    table, spectator = spectated
    address = f"/t/{table}{page}"
    assert 'data-seq="1"' in spectator.get(address).text
    with app.app_context():  # another process writes
        append_entry(table, 1, "event", ev.Bid(1, "Cho", 0).to_dict())
    assert 'data-seq="1"' in spectator.get(address).text  # no sweep yet, no poll that saw it
    for seen in ("2", "junk", "-1"):
        assert 'data-seq="2"' in spectator.get(address, headers={"X-Table-Seq": seen}).text
    german = spectator.get(address, headers={"Accept-Language": "de"})
    assert 'lang="de"' in german.text


@pytest.mark.parametrize("elsewhere", [False, True], ids=["here", "in-another-process"])
def test_a_revoked_link_opens_nothing(app, client, spectated, sweep_due, elsewhere):
    """A link revoked by this process is refused at once, one revoked by another process from
    this process's next sweep."""
    from referee.store.links import revoke
    from referee.web.sharing.access import forget_links

    table, spectator = spectated
    for page in ("", "/sheet"):
        assert spectator.get(f"/t/{table}{page}").status_code == 200
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


def test_an_expired_cookie_opens_nothing(app, spectated, monkeypatch):
    """A session cookie older than the session lifetime holds no link."""
    import time

    table, spectator = spectated
    assert spectator.get(f"/t/{table}/sheet").status_code == 200
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert spectator.get(f"/t/{table}/sheet").status_code == 403


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


def test_a_host_the_app_does_not_answer_to_gets_flasks_refusal(app, flask_calls, spectated):
    """With ``TRUSTED_HOSTS`` set, a kept page or a poll asked under another host name is not
    answered in front: Flask refuses it."""
    table, phone = spectated
    app.config["TRUSTED_HOSTS"] = ["localhost"]
    address = f"/t/{table}/sheet"
    poll = page_poll(phone.get(address).text)
    assert phone.get(address).status_code == 200
    flask_calls.clear()
    assert phone.get(address).status_code == 200  # kept: answered in front
    assert flask_calls == []
    for headers in ({}, poll):
        refused = phone.get(address, headers={"Host": "evil.example", **headers})
        assert refused.status_code == 400
