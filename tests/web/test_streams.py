"""A page's stream (``referee.web.live``) in process, each kind of link and language: a page every
viewer of its kind sees alike comes whole, the very bytes a request for it gets; any other page
is told the table's position; a phone the page refuses gets the page's refusal; a server that
cannot hold a stream without holding a worker (not gevent, or no speed layer) answers ``204``,
and the page asks instead. The stream under the production server: ``tests/durability``."""

from __future__ import annotations

import queue
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.links import join
from tests.web.helpers import event_data, first_event, new_table, ok, post

#: How long a test waits for a stream's next event (seconds).
WAIT = 10.0
#: Every page that follows its table, and whether every viewer of a kind sees it alike.
FOLLOWING = {"": True, "?mode=cards": True, "/sheet": True, "/tv": True, "/standings": True}


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> str:
    """A Blackout table with a trump turned up; ``client`` keeps its score."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    return table


def phone(app: Flask, table: str, kind: str, player: str | None = None) -> FlaskClient:
    found = app.test_client()
    join(app, found, table, kind, player)
    return found


@pytest.mark.parametrize("page", [*FOLLOWING, "/history"])
def test_each_phone_gets_the_stream_of_its_own_page(app, client, table, page, streams):
    phones = {
        "keeper": client,
        "viewer": phone(app, table, "viewer"),
        "player": phone(app, table, "player", "Ben"),
    }
    address = f"/t/{table}{page}"
    round_page = page in ("", "?mode=cards")
    for who, found in phones.items():
        for language in ("en", "de"):
            headers = {"Accept-Language": language}
            status, event = first_event(found, address, 0, headers)
            if not streams:
                assert (status, event) == (204, "")
                continue
            assert status == 200 and event.startswith("id: 1\n"), event[:200]
            shared = FOLLOWING.get(page, False) and (who == "viewer" or not round_page)
            if not shared:  # told the position: the page asks for itself
                assert event == "id: 1\nevent: moved\ndata: 1\n\n"
                continue
            assert event.startswith("id: 1\nevent: page\n")
            assert event_data(event) == found.get(address, headers=headers).text, (who, language)
            assert f'lang="{language}"' in event


def test_every_viewer_of_a_kind_gets_the_same_bytes(app, client, table, streams):
    if not streams:
        pytest.skip("no streams without the speed layer")
    viewers = [phone(app, table, "viewer") for _ in range(3)]
    ok(post(client, table, "bid", player=2, bid=1))
    events = {first_event(viewer, f"/t/{table}/sheet", 1)[1] for viewer in viewers}
    assert len(events) == 1 and 'data-seq="2"' in events.pop()


@pytest.mark.parametrize("page", ["", "/sheet", "/history"])
def test_a_stream_without_access_gets_what_the_page_without_access_gets(
    app, client, table, page, streams
):
    from referee.store.links import revoke
    from referee.web.sharing.access import forget_links

    address = f"/t/{table}{page}"
    other = new_table(app, None, "blackout", ("Ann", "Ben", "Cho"))
    foreign = phone(app, other, "viewer")
    viewer = phone(app, table, "viewer")
    with app.test_request_context():
        revoke(table, "viewer")
        forget_links(table)
    for who in (app.test_client(), foreign, viewer):
        refused = who.get(address)
        assert refused.status_code == 403
        assert first_event(who, address, 0) == (403, refused.text)
    gone = f"/t/no-such-table{page}"
    assert first_event(client, gone, 0) == (404, client.get(gone).text)


def test_a_stream_whose_link_is_revoked_meanwhile_says_so_and_ends(app, client, table, streams):
    if not streams:
        pytest.skip("no streams without the speed layer")
    from referee.store.links import revoke
    from referee.web.sharing.access import forget_links

    viewer = phone(app, table, "viewer")
    got: queue.Queue[bytes | None] = queue.Queue()

    def watch() -> None:  # in a thread of its own, as each request is
        asked = {"Accept": "text/event-stream"}
        response = viewer.get(f"/t/{table}/sheet", headers=asked, buffered=False)
        for chunk in response.response:
            got.put(chunk)
        response.close()
        got.put(None)

    threading.Thread(target=watch, daemon=True).start()
    assert (got.get(timeout=WAIT) or b"").startswith(b"retry:")
    with app.test_request_context():
        revoke(table, "viewer")
        forget_links(table)
    ok(post(client, table, "bid", player=2, bid=1))
    assert got.get(timeout=WAIT) == b"event: lost\ndata: lost\n\n"
    assert got.get(timeout=WAIT) is None  # the stream ended


def test_a_server_that_cannot_hold_a_stream_says_so(app, table):
    viewer = phone(app, table, "viewer")
    assert first_event(viewer, f"/t/{table}/sheet", 0) == (204, "")
