"""Keeping a table in a group, from the table: a new group whose roster is the table's players,
or a group this browser keeps (players seated by name, the rest guests). Only the table's
scorekeeper may, and only into a group it keeps."""

from __future__ import annotations

import html

from flask import Flask

from tests.links import join
from tests.web.group_helpers import (
    error_text,
    group_id_at,
    join_group,
    main_text,
    new_group,
    stored,
)
from tests.web.helpers import hidden, new_table


def test_the_share_page_offers_to_keep_the_table_in_a_group(app: Flask, client) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Gus"))
    share = client.get(f"/t/{table}/share")
    assert f'href="/t/{table}/group"' in share.text
    page = client.get(f"/t/{table}/group")
    assert page.status_code == 200
    assert "Its roster is this table's players: Ann, Ben and Gus." in main_text(page)


def test_a_new_group_made_from_a_table_keeps_it_with_its_players(app: Flask, client) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Gus"))
    page = client.get(f"/t/{table}/group").text
    assert html.unescape(hidden(page, "name")) == "Ann, Ben and Gus's group"
    response = client.post(
        f"/t/{table}/group", data={"action": "new", "name": "Cabin", "time_zone": "UTC"}
    )
    assert response.status_code == 303
    group_id = group_id_at(response.headers["Location"])
    group = stored(app, group_id)
    assert [p.name for p in group.players] == ["Ann", "Ben", "Gus"]
    assert group.kept(table).seats == {"Ann": "p1", "Ben": "p2", "Gus": "p3"}
    assert client.get(f"/g/{group_id}/share").status_code == 200  # this phone keeps it
    again = client.get(f"/t/{table}/group")
    assert "The group Cabin keeps this table." in main_text(again)


def test_a_table_is_kept_in_a_group_this_browser_keeps_seated_by_name(app, client) -> None:
    group_id = new_group(client, players=("Ann", "ben", "Cho"))
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Gus"))
    page = client.get(f"/t/{table}/group")
    text = main_text(page)
    assert "Ann: Ann on the roster" in text and "Ben: ben on the roster" in text
    assert "Gus: a guest" in text
    response = client.post(f"/t/{table}/group", data={"action": "attach", "group": group_id})
    assert response.status_code == 303
    assert stored(app, group_id).kept(table).seats == {"Ann": "p1", "Ben": "p2", "Gus": None}
    refused = client.post(f"/t/{table}/group", data={"action": "attach", "group": group_id})
    assert refused.status_code == 422 and "A group keeps this table already." in error_text(refused)


def test_only_the_tables_scorekeeper_may_and_only_into_a_group_it_keeps(app, client) -> None:
    group_id = new_group(client)
    table = new_table(app, None, "blackout", ("Ann", "Ben"))
    spectator = client  # keeps the group, only follows the table
    join(app, spectator, table, "viewer")
    assert spectator.get(f"/t/{table}/group").status_code == 403
    response = spectator.post(f"/t/{table}/group", data={"action": "attach", "group": group_id})
    assert response.status_code == 403
    assert stored(app, group_id).tables == ()
    scorekeeper = app.test_client()  # keeps the table, only follows the group
    join(app, scorekeeper, table, "keeper")
    join_group(app, scorekeeper, group_id, "viewer")
    page = scorekeeper.get(f"/t/{table}/group")
    assert "Friday club" not in page.text  # not offered: this phone does not keep it
    response = scorekeeper.post(f"/t/{table}/group", data={"action": "attach", "group": group_id})
    assert response.status_code == 403
    assert stored(app, group_id).tables == ()


def test_a_bad_name_for_the_new_group_is_refused_and_kept(app: Flask, client) -> None:
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    response = client.post(
        f"/t/{table}/group", data={"action": "new", "name": "Cab\u202ein", "time_zone": "UTC"}
    )
    assert response.status_code == 422
    assert "holds a character that does not show" in error_text(response)
    assert 'value="Cab' in response.text
