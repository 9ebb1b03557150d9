"""A group's roster, seasons and kept tables through the web: add, rename (the id and so the
tables stay the player's), retire and bring back, merge a guest of a table into a roster player;
a new season; a table marked as not counting, or let go. Garbage is refused with a sentence and
what was typed kept; a form from before another phone's change changes nothing; a stale CSRF
token neither."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.web.group_helpers import (
    chip_values,
    error_text,
    group_id_at,
    main_text,
    new_group,
    start,
    stored,
    version_of,
)
from tests.web.helpers import ok


def roster_post(client, group_id: str, **data):
    page = client.get(f"/g/{group_id}/roster").text
    return client.post(f"/g/{group_id}/roster", data={"version": version_of(page), **data})


def started(client, group_id: str, **fields) -> str:
    response = start(client, group_id, **fields)
    assert response.status_code == 303, main_text(response)
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_add_rename_retire_and_bring_back(app: Flask, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2", "p3"])
    ok(roster_post(client, group_id, action="add", name="  Dee "))
    ok(roster_post(client, group_id, action="rename", player="p1", name="Anna"))
    group = stored(app, group_id)
    assert [(p.id, p.name) for p in group.players] == [
        ("p1", "Anna"),
        ("p2", "Ben"),
        ("p3", "Cho"),
        ("p4", "Dee"),
    ]
    assert group.kept(table).seats["Ann"] == "p1"  # the table played as Ann is Anna's
    seats = main_text(client.get(f"/g/{group_id}/t/{table}"))
    assert "Anna (played as Ann)" in seats
    ok(roster_post(client, group_id, action="retire", player="p2"))
    roster = main_text(client.get(f"/g/{group_id}/roster"))
    assert "Ben retired" in roster
    chips = client.get(f"/g/{group_id}/new").text
    assert 'value="p2"' not in chips and 'value="p4"' in chips
    assert "Retired: Ben" in main_text(client.get(f"/g/{group_id}"))
    ok(roster_post(client, group_id, action="add", name="ben"))  # another Ben, welcome
    refused = roster_post(client, group_id, action="return", player="p2")
    assert refused.status_code == 422
    assert "There is a player called “Ben” on the roster already" in error_text(refused)
    ok(roster_post(client, group_id, action="rename", player="p5", name="Ben junior"))
    ok(roster_post(client, group_id, action="return", player="p2"))
    assert not stored(app, group_id).player("p2").retired


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Cho", "There is a player called “Cho” on the roster already"),
        ("ＣＨＯ", "There is a player called “ＣＨＯ” on the roster already"),
        ("", "A player needs a name."),
        ("x" * 41, "is too long: at most 40 characters"),
        ("Be\u200bn", "holds a character that does not show"),
        ("\u202eevil", "holds a character that does not show"),
        ("Ann\x1b[31m", "holds a character that does not show"),
        ("<script>alert(1)</script>\x00", "holds a character that does not show"),
        ("Ben\u034f", "There is a player called “Ben\u034f” on the roster already"),
        ("\u3164", "A player needs a name."),
        ("\u2800", "A player needs a name."),
    ],
)
def test_garbage_names_are_refused_with_a_sentence_and_kept(app, client, name, said) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    before = stored(app, group_id)
    for data in ({"action": "add"}, {"action": "rename", "player": "p1"}):
        response = roster_post(client, group_id, name=name, **data)
        assert response.status_code == 422, response.text[-800:]
        assert said in error_text(response)
        assert "<script>alert" not in response.text
        if "\x00" not in name and name:
            assert f'value="{name}"' in response.text or "&" in response.text  # kept as typed
    assert stored(app, group_id).players == before.players


def test_a_form_from_before_another_phones_change_changes_nothing(app, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    other = app.test_client()
    from tests.web.group_helpers import join_group

    join_group(app, other, group_id, "keeper")
    mine = client.get(f"/g/{group_id}/roster").text  # both phones show the roster
    ok(roster_post(other, group_id, action="rename", player="p1", name="Anna"))
    response = client.post(
        f"/g/{group_id}/roster",
        data={"version": version_of(mine), "action": "rename", "player": "p1", "name": "Annie"},
    )
    assert response.status_code == 409
    assert "changed on another phone" in error_text(response)
    assert 'value="Annie"' in response.text  # what was typed, kept
    assert stored(app, group_id).player("p1").name == "Anna"
    # Adding needs no version: both phones' new players land.
    ok(client.post(f"/g/{group_id}/roster", data={"action": "add", "name": "Dee"}))
    assert "Dee" in [p.name for p in stored(app, group_id).players]


def test_a_guest_merged_into_the_roster(app: Flask, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2"], guests="Gus, Hal")
    assert stored(app, group_id).kept(table).seats == {
        "Ann": "p1",
        "Ben": "p2",
        "Gus": None,
        "Hal": None,
    }
    page = client.get(f"/g/{group_id}/t/{table}")
    assert "Gus was a guest. Who was it?" in main_text(page)
    data = {"version": version_of(page.text), "action": "merge", "seat": "Gus", "into": "new"}
    ok(client.post(f"/g/{group_id}/t/{table}", data=data))
    page = client.get(f"/g/{group_id}/t/{table}")
    data = {"version": version_of(page.text), "action": "merge", "seat": "Hal", "into": "p1"}
    response = client.post(f"/g/{group_id}/t/{table}", data=data)
    assert response.status_code == 422
    assert "Hal and Ann cannot both be Ann" in error_text(response)
    ok(client.post(f"/g/{group_id}/t/{table}", data=data | {"into": "p3"}))
    group = stored(app, group_id)
    assert group.kept(table).seats == {"Ann": "p1", "Ben": "p2", "Gus": "p4", "Hal": "p3"}
    assert group.player("p4").name == "Gus"
    assert "was a guest" not in main_text(client.get(f"/g/{group_id}/t/{table}"))


def test_a_guest_is_merged_once_for_the_whole_evening(app: Flask, client) -> None:
    """Gus plays two tables tonight as a guest (the second from his chip) and Hal one; Gus
    merged into a new roster player at the first table is the roster's Gus at the second too,
    and the next table's chips offer him from the roster, no more as a guest. Hal, merged into
    Cho at his table, changes no other table. A guest of another evening is not touched."""
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    first = started(client, group_id, here=["p1", "p2"], guests="Gus")
    second = started(client, group_id, here=["p1", "guest:Gus"], guests="Hal")
    page = client.get(f"/g/{group_id}/t/{first}")
    data = {"version": version_of(page.text), "action": "merge", "seat": "Gus", "into": "new"}
    response = client.post(f"/g/{group_id}/t/{first}", data=data)
    assert "with this table and 1 more table of that evening" in main_text(
        client.get(response.location)
    )
    group = stored(app, group_id)
    assert group.kept(first).seats["Gus"] == group.kept(second).seats["Gus"] == "p4"
    chips = chip_values(client.get(f"/g/{group_id}/new").text)
    assert "p4" in chips and "guest:Gus" not in chips and "guest:Hal" in chips
    page = client.get(f"/g/{group_id}/t/{second}")
    data = {"version": version_of(page.text), "action": "merge", "seat": "Hal", "into": "p3"}
    response = client.post(f"/g/{group_id}/t/{second}", data=data)
    assert "The guest's seat is the roster player's now." in main_text(
        client.get(response.location)
    )
    assert stored(app, group_id).kept(second).seats == {"Ann": "p1", "Gus": "p4", "Hal": "p3"}


def test_a_guest_of_a_roster_players_name_is_offered_as_them(app: Flask, client) -> None:
    """A guest typed as "dee" before Dee was on the roster: the merge offers Dee first (at 360
    px the options are short enough to read)."""
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2"], guests="dee")
    ok(client.post(f"/g/{group_id}/roster", data={"action": "add", "name": "Dee"}))
    page = client.get(f"/g/{group_id}/t/{table}").text
    assert re.search(r'<option value="p4" selected>Dee</option>', page), page
    assert "New on the roster: dee" in page


def test_a_table_that_does_not_count_says_so_and_can_be_let_go(app: Flask, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2", "p3"])
    page = client.get(f"/g/{group_id}/t/{table}")
    data = {"version": version_of(page.text), "action": "not-counts"}
    ok(client.post(f"/g/{group_id}/t/{table}", data=data))
    assert not stored(app, group_id).kept(table).counts
    assert "Blackout doesn't count" in main_text(client.get(f"/g/{group_id}"))
    page = client.get(f"/g/{group_id}/t/{table}")
    ok(
        client.post(
            f"/g/{group_id}/t/{table}", data={"version": version_of(page.text), "action": "detach"}
        )
    )
    assert stored(app, group_id).tables == ()
    assert client.get(f"/t/{table}").status_code == 200  # the table is as it was
    assert client.get(f"/g/{group_id}/t/{table}").status_code == 404


def test_a_new_season(app: Flask, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben"))
    page = client.get(f"/g/{group_id}")
    version = version_of(page.text)
    ok(
        client.post(
            f"/g/{group_id}/seasons",
            data={"version": version, "name": "Autumn", "starts_on": "2026-09-01"},
        )
    )
    text = main_text(client.get(f"/g/{group_id}"))
    assert "Autumn" in text and "current" in text
    version = version_of(client.get(f"/g/{group_id}").text)
    for data, said in (
        (
            {"name": "autumn", "starts_on": "2027-01-01"},
            "There is a season called “autumn” already.",
        ),
        (
            {"name": "Winter", "starts_on": "2026-09-01"},
            "Another season starts on that day already.",
        ),
        ({"name": "Winter", "starts_on": "1st of May"}, "Give the day the season starts on"),
        ({"name": "\u2066W", "starts_on": "2027-01-01"}, "holds a character that does not show"),
    ):
        response = client.post(f"/g/{group_id}/seasons", data={"version": version, **data})
        assert response.status_code == 422
        assert said in error_text(response)
        assert f'value="{data["starts_on"]}"' in response.text  # kept as typed
    assert [s.name for s in stored(app, group_id).seasons] == ["Autumn"]


@pytest.mark.csrf
def test_a_stale_form_changes_nothing_and_keeps_what_was_typed(app: Flask, client) -> None:
    group_id = new_group_with_csrf(client)
    page = client.get(f"/g/{group_id}/roster").text
    data = {"version": version_of(page), "action": "add", "name": "Gil", "csrf_token": "stale"}
    response = client.post(f"/g/{group_id}/roster", data=data)
    assert response.status_code == 400
    assert "This page was stale" in error_text(response) and 'value="Gil"' in response.text
    assert "Gil" not in [p.name for p in stored(app, group_id).players]
    for path, data in (
        ("/seasons", {"name": "2027", "starts_on": "2027-01-01"}),
        ("/new", {"game": "blackout", "here": ["p1", "p2"]}),
        ("/share", {"action": "keeper"}),
    ):
        response = client.post(f"/g/{group_id}{path}", data=data)
        assert response.status_code in (303, 400), path
        assert "/j#" not in response.text  # no new keeper link made
    assert stored(app, group_id).tables == ()


def new_group_with_csrf(client) -> str:
    import re

    page = client.get("/groups/new").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    if token is None:
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    response = client.post(
        "/groups/new",
        data={
            "name": "Club",
            "players": "Ann\nBen",
            "time_zone": "UTC",
            "csrf_token": token.group(1),
        },
    )
    assert response.status_code == 303
    return group_id_at(response.headers["Location"])


@pytest.mark.csrf
@pytest.mark.parametrize(
    "path",
    [
        "/g/{group}/roster",
        "/g/{group}/seasons",
        "/g/{group}/new",
        "/g/{group}/t/{table}",
        "/g/{group}/add-record",
        "/t/{table}/group",
        "/g/no-such-group/roster",
        "/g/no-such-group/seasons",
        "/g/no-such-group/new",
        "/g/no-such-group/t/{table}",
        "/t/no-such-table/group",
    ],
)
def test_a_stale_form_from_a_phone_without_a_link_gets_the_refusal_page(
    app: Flask, client, path: str
) -> None:
    """The stale form's page is the group's (or the table's): a phone holding no link to it
    gets the page that says so, as without the stale token, not a server error."""
    from tests.web.test_front import assert_security_headers

    group_id = new_group_with_csrf(client)
    page = client.get(f"/g/{group_id}/new").text
    table = started_with_csrf(client, group_id, page)
    stranger = app.test_client()
    address = path.format(group=group_id, table=table)
    response = stranger.post(address, data={"action": "add", "name": "Gil", "csrf_token": "x"})
    assert response.status_code == (404 if "no-such" in path else 403), response.text[-800:]
    assert "error-box" in response.text and "Traceback" not in response.text
    assert_security_headers(response)
    assert [p.name for p in stored(app, group_id).players] == ["Ann", "Ben"]


def started_with_csrf(client, group_id: str, form: str) -> str:
    from tests.web.helpers import hidden

    data = {"game": "blackout", "here": ["p1", "p2"], "dealer": "next"}
    response = start(client, group_id, **data, csrf_token=hidden(form, "csrf_token"))
    assert response.status_code == 303, main_text(response)
    return response.headers["Location"].rsplit("/", 1)[-1]


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u034f\u3164 "])
def test_a_group_or_season_name_that_shows_nothing_is_refused(app: Flask, client, blank) -> None:
    group_id = new_group(client, players=("Ann", "Ben"))
    page = client.get(f"/g/{group_id}/roster").text
    data = {"version": version_of(page), "action": "group", "name": blank, "time_zone": "UTC"}
    response = client.post(f"/g/{group_id}/roster", data=data)
    assert response.status_code == 422 and "The group needs a name." in error_text(response)
    data = {"version": version_of(page), "name": blank, "starts_on": "2027-01-01"}
    response = client.post(f"/g/{group_id}/seasons", data=data)
    assert response.status_code == 422 and "The season needs a name." in error_text(response)
    response = client.post(
        "/groups/new", data={"name": blank, "players": "Ann", "time_zone": "UTC"}
    )
    assert response.status_code == 422 and "The group needs a name." in response.text
    group = stored(app, group_id)
    assert (group.name, group.seasons) == ("Friday club", ())


@pytest.mark.parametrize("seat", ["Zed", "Ann", "gus"])
def test_a_refused_merge_into_a_new_player_changes_nothing(app: Flask, client, seat) -> None:
    """A seat that is no guest's of the table (no such seat, a roster player's, another case
    of a guest's name): refused, and no player is added for it."""
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2"], guests="Gus")
    before = stored(app, group_id)
    page = client.get(f"/g/{group_id}/t/{table}")
    data = {"version": version_of(page.text), "action": "merge", "seat": seat, "into": "new"}
    response = client.post(f"/g/{group_id}/t/{table}", data=data)
    assert response.status_code == 422, response.text[-800:]
    after = stored(app, group_id)
    assert (after.players, after.tables, after.version) == (
        before.players,
        before.tables,
        before.version,
    )


def test_a_merge_into_a_new_player_from_a_stale_page_changes_nothing(app: Flask, client) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2"], guests="Gus")
    page = client.get(f"/g/{group_id}/t/{table}")
    ok(roster_post(client, group_id, action="rename", player="p3", name="Chloe"))
    before = stored(app, group_id)
    data = {"version": version_of(page.text), "action": "merge", "seat": "Gus", "into": "new"}
    response = client.post(f"/g/{group_id}/t/{table}", data=data)
    assert response.status_code == 409
    assert "changed on another phone" in error_text(response)
    assert stored(app, group_id) == before
    data["version"] = version_of(client.get(f"/g/{group_id}/t/{table}").text)
    ok(client.post(f"/g/{group_id}/t/{table}", data=data))
    after = stored(app, group_id)
    assert after.player("p4").name == "Gus" and after.kept(table).seats["Gus"] == "p4"


@pytest.mark.parametrize("version", ["\xb2", "\u0663", "1\xb9", "9" * 5000, "-1", " 1"])
def test_a_version_that_is_no_number_is_a_page_the_group_moved_on_from(
    app: Flask, client, version
) -> None:
    group_id = new_group(client, players=("Ann", "Ben", "Cho"))
    table = started(client, group_id, here=["p1", "p2"], guests="Gus")
    before = stored(app, group_id)
    for path, data in (
        ("/roster", {"action": "rename", "player": "p1", "name": "Anna"}),
        ("/seasons", {"name": "Autumn", "starts_on": "2027-09-01"}),
        (f"/t/{table}", {"action": "merge", "seat": "Gus", "into": "new"}),
        (f"/t/{table}", {"action": "not-counts"}),
    ):
        response = client.post(f"/g/{group_id}{path}", data=data | {"version": version})
        assert response.status_code == 409, (path, response.status_code)
        assert "changed on another phone" in error_text(response)
    assert stored(app, group_id) == before
