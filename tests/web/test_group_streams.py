"""A group page's and its TV mode's stream (``referee.web.live.group_stream``) in process: it says
"moved", with where the page stands now (the page's ``data-follow``), when a table the page shows
moves or the group changes, and nothing while neither does; a phone the page refuses gets the
page's refusal; a link revoked meanwhile ends the stream with "lost". Under the production
server: ``tests/durability/test_streams.py``."""

from __future__ import annotations

import queue
import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.store.groups import revoke_group_links
from tests.web.group_helpers import join_group, new_group, start_table, version_of
from tests.web.helpers import event_data, first_event, ok, post

#: How long a test waits for an event it expects (seconds).
WAIT = 10.0
#: The group's pages that follow it.
PAGES = ("", "/tv")


def follow(client: FlaskClient, path: str) -> str:
    """Where the page stands as it says so (``data-follow``)."""
    found = re.search(r'data-follow="([A-Za-z0-9_-]+)"', client.get(path).text)
    assert found, path
    return found[1]


@pytest.fixture
def group(client: FlaskClient) -> tuple[str, str]:
    """A group (``client`` keeps it and keeps the score of tonight's table) and tonight's
    table, its trump turned up."""
    group_id = new_group(client)
    table = start_table(client, group_id, ["p1", "p2", "p3"])
    ok(post(client, table, "trump", trump="H"))
    return group_id, table


@pytest.mark.parametrize("page", PAGES)
def test_a_table_that_moves_moves_the_group_pages(app, client, group, page, streams):
    group_id, table = group
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    address = f"/g/{group_id}{page}"
    before = {who: follow(found, address) for who, found in (("k", client), ("v", viewer))}
    ok(post(client, table, "bid", player=2, bid=1))
    for who, found in (("k", client), ("v", viewer)):
        now = follow(found, address)
        assert now != before[who]
        status, event = first_event(found, address, before[who])
        if not streams:
            assert (status, event) == (204, "")
            continue
        assert status == 200 and event == f"id: {now}\nevent: moved\ndata: {now}\n\n"
        assert event_data(event) == now


def test_a_change_of_the_group_moves_its_page(app, client, group, streams):
    group_id, _ = group
    address = f"/g/{group_id}"
    before = follow(client, address)
    roster = client.get(f"/g/{group_id}/roster").text
    form = {"version": version_of(roster), "action": "rename", "player": "p1", "name": "Anna"}
    assert client.post(f"/g/{group_id}/roster", data=form).status_code == 303
    now = follow(client, address)
    assert now != before
    if streams:
        assert first_event(client, address, before) == (
            200,
            f"id: {now}\nevent: moved\ndata: {now}\n\n",
        )


def test_a_garbled_position_is_taken_as_none(app, client, group, streams):
    """A phone that says a position no page ever had is told where the page stands; one that
    says something that is no position at all follows from where the page stands now."""
    if not streams:
        pytest.skip("no streams without the speed layer")
    group_id, table = group
    address = f"/g/{group_id}"
    now = follow(client, address)
    status, event = first_event(client, address, "A" * 12)
    assert (status, event) == (200, f"id: {now}\nevent: moved\ndata: {now}\n\n")
    watching = [watch(client, address, garbage) for garbage in ("x" * 13, "../..", "ä" * 12)]
    ok(post(client, table, "bid", player=2, bid=1))
    now = follow(client, address)
    for got in watching:
        assert got.get(timeout=WAIT) == f"id: {now}\nevent: moved\ndata: {now}\n\n".encode()


def watch(viewer: FlaskClient, address: str, since: str) -> queue.Queue[bytes | None]:
    """The stream's chunks as they come, read in a thread of its own (as each request is)."""
    got: queue.Queue[bytes | None] = queue.Queue()

    def read() -> None:
        asked = {"Accept": "text/event-stream", "Last-Event-ID": since}
        response = viewer.get(address, headers=asked, buffered=False)
        for chunk in response.response:
            if chunk != b":\n\n":
                got.put(chunk)
        response.close()
        got.put(None)

    threading.Thread(target=read, daemon=True).start()
    assert (got.get(timeout=WAIT) or b"").startswith(b"retry:")
    return got


@pytest.mark.parametrize("page", PAGES)
def test_a_stream_waits_for_the_next_change_and_brings_it_once(app, client, group, page, streams):
    if not streams:
        pytest.skip("no streams without the speed layer")
    group_id, table = group
    address = f"/g/{group_id}{page}"
    got = watch(client, address, follow(client, address))
    with pytest.raises(queue.Empty):
        got.get(timeout=0.5)  # nothing has changed: nothing is said
    ok(post(client, table, "bid", player=2, bid=1))
    now = follow(client, address)
    assert got.get(timeout=WAIT) == f"id: {now}\nevent: moved\ndata: {now}\n\n".encode()
    with pytest.raises(queue.Empty):
        got.get(timeout=1.5)  # once, not again at the next recheck


def test_a_stream_whose_group_link_is_revoked_meanwhile_says_so_and_ends(
    app, client, group, streams
):
    if not streams:
        pytest.skip("no streams without the speed layer")
    group_id, table = group
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    address = f"/g/{group_id}"
    got = watch(viewer, address, follow(viewer, address))
    with app.test_request_context():
        revoke_group_links(group_id, "viewer")
    ok(post(client, table, "bid", player=2, bid=1))
    assert got.get(timeout=WAIT) == b"event: lost\ndata: lost\n\n"
    assert got.get(timeout=WAIT) is None  # the stream ended


@pytest.mark.parametrize("page", PAGES)
def test_a_stream_without_access_gets_what_the_page_without_access_gets(
    app: Flask, client, group, page, streams
):
    group_id, _ = group
    other = new_group(app.test_client(), "Other club")
    foreign = app.test_client()
    join_group(app, foreign, other, "viewer")
    revoked = app.test_client()
    join_group(app, revoked, group_id, "viewer")
    with app.test_request_context():
        revoke_group_links(group_id, "viewer")
    address = f"/g/{group_id}{page}"
    for who in (app.test_client(), foreign, revoked):
        refused = who.get(address)
        assert refused.status_code == 403
        assert first_event(who, address, "") == (403, refused.text)
    gone = f"/g/no-such-group{page}"
    assert first_event(client, gone, "") == (404, client.get(gone).text)


@pytest.mark.parametrize("page", PAGES)
def test_a_page_read_after_a_move_shows_it_before_this_process_sweeps(
    app, client, group, page, sweep_due
):
    """A move written through another process or server, which this one has not swept yet:
    the page a stream's "moved" makes the phone read shows it, and says so (its position), so
    a page never stays behind the stream that told it."""
    from referee.rules import events as ev
    from referee.store.tables import append_entry

    group_id, table = group
    address = f"/g/{group_id}{page}"
    before = follow(client, address)
    with app.app_context():  # another process writes; this one's sweep is not due
        append_entry(table, 1, "event", ev.Bid(1, "Ben", 0).to_dict())
    assert follow(client, address) != before
