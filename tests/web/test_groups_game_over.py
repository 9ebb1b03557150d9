"""From a finished table to the evening's next one (issue 41, item 4): the game-over screen of a
table a group keeps leads a phone that keeps the group back to the group and to its start page
for the next table, each in one tap; nobody else sees either link, nor learns the group's id
from the table (a table's link never opens its group)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from referee.store.groups import detach_table, get_group, revoke_group_links
from tests.links import join
from tests.web.group_helpers import chip_values, join_group, main_text, new_group, start
from tests.web.helpers import new_table, ok, post

NEXT = "Next table tonight"
BACK = "Back to the group"


def finished_table(client: FlaskClient, group_id: str) -> str:
    """A one-round Blackout table of Ben and Cho, started from the group's start page by
    ``client`` (which keeps the group and so holds the table's scorekeeper link), played to its
    end (every card is dealt: no trump): Ben deals, Cho bids 1 and takes the trick, Ben bids 1
    and takes none; Cho wins."""
    options = {"blackout_max_cards": "1", "blackout_sequence": "up"}
    response = start(client, group_id, here=["p2", "p3"], **options)
    assert response.status_code == 303, main_text(response)
    table = response.headers["Location"].rsplit("/", 1)[-1]
    ok(post(client, table, "bid", player=2, bid=1))
    assert NEXT not in main_text(client.get(f"/t/{table}"))  # not before the game is over
    ok(post(client, table, "bid", player=1, bid=1))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    return table


def links_of(page: str) -> dict[str, str]:
    """The game-over screen's links by their words (of those it may show)."""
    found = re.findall(r'<a class="button[^"]*" href="([^"]+)">([^<]+)</a>', page)
    return {words: href for href, words in found if words in (NEXT, BACK)}


def shows_nothing_of_the_group(page: str, group_id: str) -> None:
    assert "Winner: Cho" in re.sub(r"\s+", " ", page)  # the game-over screen itself
    assert links_of(page) == {}
    assert group_id not in page and "/g/" not in page


def test_the_keeper_goes_on_from_a_finished_table_in_one_tap(app: Flask, client) -> None:
    group_id = new_group(client)
    table = finished_table(client, group_id)
    page = client.get(f"/t/{table}")
    assert "Winner: Cho" in main_text(page)
    links = links_of(page.text)
    assert links == {NEXT: f"/g/{group_id}/new?game=blackout", BACK: f"/g/{group_id}"}

    group = client.get(links[BACK])
    assert group.status_code == 200 and group.request.path == f"/g/{group_id}"
    assert "Friday club" in main_text(group) and "Won by Cho" in main_text(group)

    new = client.get(links[NEXT])
    assert new.status_code == 200 and "New table · Friday club" in main_text(new)
    games = re.findall(r'<input[^>]*name="game"[^>]*>', new.text)
    assert [re.findall(r'value="(\w+)"', tag) for tag in games if "checked" in tag] == [
        ["blackout"]
    ]
    # Filled in from the group's last table, this one: Ben and Cho first, in their seats; the
    # deal passes on from Ben; Blackout's options as they were played.
    assert chip_values(new.text)[:2] == ["p2", "p3"]
    assert "where Ben dealt first" in main_text(new)
    assert re.search(r'name="blackout_max_cards"[^>]*value="1"', new.text)


def test_a_phone_without_the_groups_keeper_link_sees_neither_link(app: Flask, client) -> None:
    group_id = new_group(client)
    table = finished_table(client, group_id)
    spectator = app.test_client()  # the table's spectator link, nothing of the group
    join(app, spectator, table, "viewer")
    follower = app.test_client()  # the table's spectator link and the group's link to follow
    join(app, follower, table, "viewer")
    join_group(app, follower, group_id, "viewer")
    scorekeeper = app.test_client()  # a second scorekeeper link, nothing of the group
    join(app, scorekeeper, table, "keeper")
    for phone in (spectator, follower, scorekeeper):
        page = phone.get(f"/t/{table}")
        assert page.status_code == 200
        shows_nothing_of_the_group(page.text, group_id)
        assert group_id not in page.headers.get("ETag", "")
    assert client.get(f"/t/{table}").text.count(NEXT) == 1  # while the keeper's still does


def test_spectators_share_a_page_but_only_the_groups_keepers_get_its_links(app, client) -> None:
    """A spectator's table page is rendered once for all spectators: one who keeps the group
    gets the page with the links, whoever asks first, and the others never do."""
    group_id = new_group(client)
    table = finished_table(client, group_id)
    first, keeper, last = app.test_client(), app.test_client(), app.test_client()
    for phone in (first, keeper, last):
        join(app, phone, table, "viewer")
    join_group(app, keeper, group_id, "keeper")
    shows_nothing_of_the_group(first.get(f"/t/{table}").text, group_id)
    for _ in range(2):  # and again, as the speed layer may answer it from memory
        assert set(links_of(keeper.get(f"/t/{table}").text)) == {NEXT, BACK}
        shows_nothing_of_the_group(last.get(f"/t/{table}").text, group_id)
        shows_nothing_of_the_group(first.get(f"/t/{table}").text, group_id)


def test_a_revoked_keeper_link_or_a_table_let_go_shows_them_no_more(app, client) -> None:
    group_id = new_group(client)
    table = finished_table(client, group_id)
    other = app.test_client()  # a second keeper of the group, then revoked
    join(app, other, table, "viewer")
    token = join_group(app, other, group_id, "keeper")
    assert set(links_of(other.get(f"/t/{table}").text)) == {NEXT, BACK}
    with app.app_context():
        revoke_group_links(group_id, "keeper", by=client_token(app, client, group_id))
        assert token  # (the other phone's link is among those revoked)
    shows_nothing_of_the_group(other.get(f"/t/{table}").text, group_id)
    assert set(links_of(client.get(f"/t/{table}").text)) == {NEXT, BACK}
    with app.app_context():
        detach_table(group_id, table, get_group(group_id).version)
    shows_nothing_of_the_group(client.get(f"/t/{table}").text, group_id)


def client_token(app: Flask, client: FlaskClient, group_id: str) -> str:
    """The group link ``client`` holds (from its session)."""
    with client.session_transaction() as session:
        token: str = session["groups"][group_id][0]
    return token


def test_a_table_no_group_keeps_shows_no_group(app: Flask, client) -> None:
    group_id = new_group(client)  # this phone keeps a group, but not this table's
    table = new_table(
        app, client, "blackout", ("Ben", "Cho"), {"max_cards": 1, "sequence": "up"}, "Ben"
    )
    ok(post(client, table, "bid", player=2, bid=1))
    ok(post(client, table, "bid", player=1, bid=1))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    shows_nothing_of_the_group(client.get(f"/t/{table}").text, group_id)
