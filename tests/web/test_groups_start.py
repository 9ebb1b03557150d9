"""Tonight in a few taps: a table started from the group page — the roster's chips in last time's
seating order, a guest typed once and offered as a chip for the rest of the evening, the first
dealer as the group's rotation has it, each game's last options pre-set — through the new-table
form's checks and the rules engine, the starting phone keeping the table's score, the group
keeping the table with its seats."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from referee.store.tables import get_table
from tests.web.group_helpers import (
    chip_values,
    error_text,
    group_id_at,
    main_text,
    new_group,
    start,
    stored,
)
from tests.web.helpers import hidden, ok, post


def started(client, group_id: str, game: str = "blackout", **fields) -> str:
    response = start(client, group_id, game, **fields)
    assert response.status_code == 303, main_text(response)
    return response.headers["Location"].rsplit("/", 1)[-1]


def setup_of(app: Flask, table: str):
    with app.app_context():
        return get_table(table).setup


def test_the_starting_phone_keeps_the_score_and_the_group_keeps_the_table(app, client) -> None:
    group_id = new_group(client)
    page = client.get(f"/g/{group_id}")
    assert f'href="/g/{group_id}/new?game=blackout"' in page.text
    form = client.get(f"/g/{group_id}/new?game=blackout")
    assert re.search(
        r'name="game"[^>]*value="blackout"[^>]*checked|checked[^>]*value="blackout"', form.text
    )
    assert chip_values(form.text) == ["p1", "p2", "p3", "p4", "p5", "p6"]
    table = started(client, group_id, here=["p2", "p4", "p1", "p3"])
    setup = setup_of(app, table)
    assert setup.players == ("Ann", "Ben", "Cho", "Dee")  # the chips' order, not the taps'
    assert setup.first == "Ann"  # no table yet: the first player deals
    ok(post(client, table, "trump", trump="H"))  # the scorekeeper's link
    kept = stored(app, group_id).kept(table)
    assert kept.seats == {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Dee": "p4"} and kept.counts
    assert table in client.get("/").text  # on the home page's tables, as any new table


def test_chips_follow_last_times_seating_and_the_deal_passes_left(app, client) -> None:
    group_id = new_group(client)
    first = started(client, group_id, here=["p1", "p2", "p3", "p4"], dealer="p2")  # Ben deals
    assert setup_of(app, first).first == "Ben"
    form = client.get(f"/g/{group_id}/new").text
    assert chip_values(form) == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert "where Ben dealt first" in main_text(client.get(f"/g/{group_id}/new"))
    second = started(client, group_id, here=["p1", "p2", "p3", "p4"])
    assert setup_of(app, second).first == "Cho"  # left of Ben
    third = started(client, group_id, here=["p1", "p2", "p5", "p6"])  # Cho and Dee went home
    assert setup_of(app, third).first == "Ann"  # Dee would have: the next one round who is here
    assert setup_of(app, third).players == ("Ann", "Ben", "Eve", "Fay")
    fourth = started(client, group_id, here=["p1", "p2", "p5", "p6"])
    assert setup_of(app, fourth).first == "Ben"


def test_a_guest_typed_once_is_a_chip_for_the_rest_of_the_evening(app, client) -> None:
    group_id = new_group(client)
    first = started(client, group_id, here=["p1", "p2"], guests="Gus , Hal")
    assert setup_of(app, first).players == ("Ann", "Ben", "Gus", "Hal")
    form = client.get(f"/g/{group_id}/new").text
    assert chip_values(form)[:4] == ["p1", "p2", "guest:Gus", "guest:Hal"]
    second = started(client, group_id, here=["p1", "guest:Gus", "p3"])
    assert setup_of(app, second).players == ("Ann", "Gus", "Cho")
    assert stored(app, group_id).kept(second).seats == {"Ann": "p1", "Gus": None, "Cho": "p3"}


def test_a_guest_typed_with_a_roster_name_is_that_player(app, client) -> None:
    group_id = new_group(client)
    table = started(client, group_id, here=["p1", "p2"], guests="cho")
    assert stored(app, group_id).kept(table).seats == {"Ann": "p1", "Ben": "p2", "cho": "p3"}


def test_each_games_last_options_are_pre_set(app: Flask, client) -> None:
    group_id = new_group(client)
    options = {"blackout_max_cards": "5", "blackout_sequence": "down", "blackout_hook": ""}
    table = started(client, group_id, here=["p1", "p2", "p3"], **options)
    assert setup_of(app, table).options["max_cards"] == 5
    form = client.get(f"/g/{group_id}/new").text
    assert 'id="blackout_max_cards" maxlength' in form or 'name="blackout_max_cards"' in form
    assert re.search(r'name="blackout_max_cards"[^>]*value="5"', form)
    assert re.search(r'<option selected value="down">|<option value="down" selected', form)
    assert not re.search(r'name="blackout_hook"[^>]*checked', form)
    assert re.search(r'name="ebbes_variant"', form)  # a game not played yet: its defaults


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"here": ["p1"]}, "Blackout is played by 2 to 8 players, not 1."),
        ({"here": ["p1", "p2"], "dealer": "p3"}, "Who deals first must be at the table"),
        ({"here": ["p1", "p2"], "guests": "Ann"}, "Ann"),
        ({"here": ["p1", "p2"], "guests": "Gu\u202es"}, "Gu"),
        ({"here": ["p1", "p9"]}, "Someone you tapped is no longer on the roster"),
        ({"here": ["p1", "p2", "p3", "p4", "p5", "p6"], "guests": "G,H,I"}, "At most 8 players"),
        (
            {"here": ["p1", "p2"], "blackout_max_cards": "x"},
            "Most cards in a hand must be a whole number",
        ),
    ],
)
def test_what_the_rules_refuse_is_said_and_nothing_is_lost(app, client, fields, said) -> None:
    group_id = new_group(client)
    response = start(client, group_id, **fields)
    assert response.status_code == 422, main_text(response)
    assert said in error_text(response)
    for value in fields.get("here", []):
        if value != "p9":
            assert re.search(rf'value="{value}" checked', response.text)
    if "guests" in fields:
        assert hidden(response.text, "guests")  # typed, kept
    assert stored(app, group_id).tables == ()


def test_a_retired_player_is_not_offered_and_a_stale_tap_is_refused(app, client) -> None:
    group_id = new_group(client)
    form = client.get(f"/g/{group_id}/new").text
    page = client.get(f"/g/{group_id}/roster").text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    ok(
        client.post(
            f"/g/{group_id}/roster", data={"version": version, "action": "retire", "player": "p2"}
        )
    )
    assert "p2" not in chip_values(client.get(f"/g/{group_id}/new").text)
    assert "p2" in chip_values(form)  # the page shown before
    response = start(client, group_id, here=["p1", "p2", "p3"])
    assert response.status_code == 422
    assert "Someone you tapped is no longer on the roster" in error_text(response)


@pytest.mark.csrf
def test_the_start_form_works_with_csrf_on_as_in_production(app: Flask, client) -> None:
    page = client.get("/groups/new").text
    token = hidden(page, "csrf_token")
    data = {"name": "Club", "players": "Ann\nBen\nCho", "time_zone": "UTC", "csrf_token": token}
    response = client.post("/groups/new", data=data)
    group_id = group_id_at(response.headers["Location"])
    form = client.get(f"/g/{group_id}/new?game=ebbes").text
    data = {"game": "ebbes", "here": ["p1", "p2", "p3"], "dealer": "next"}
    response = client.post(f"/g/{group_id}/new", data=data | {"csrf_token": "forged"})
    assert response.status_code == 400 and "This page was stale" in main_text(response)
    assert re.search(r'value="p2" checked', response.text)  # the taps, kept
    assert stored(app, group_id).tables == ()
    response = client.post(
        f"/g/{group_id}/new", data=data | {"csrf_token": hidden(form, "csrf_token")}
    )
    assert response.status_code == 303
    assert len(stored(app, group_id).tables) == 1


def seat_names(page: str) -> list[str]:
    """The seats list's names, in seat order (the row template left out)."""
    listed = page.split("data-seating", 1)[1].split("</ol>", 1)[0]
    return re.findall(r'<span class="who">([^<]*)</span>', listed)


def dealt_first(page: str) -> str | None:
    listed = page.split("data-seating", 1)[1].split("</ol>", 1)[0]
    found = re.search(r'name="dealer" value="([^"]*)" checked', listed)
    return None if found is None else found[1]


def test_the_seats_are_the_order_the_rules_use(app, client) -> None:
    """What the seats list posts (with the page's script: the order the chips were tapped in,
    then as moved) is the table's seat order; the first dealer is the checked "deals first"."""
    group_id = new_group(client)
    table = started(client, group_id, here=["p1", "p2", "p3", "p4"], seat=["p3", "p1", "p4", "p2"])
    assert setup_of(app, table).players == ("Cho", "Ann", "Dee", "Ben")
    assert setup_of(app, table).first == "Cho"  # no table yet: the first seat deals
    second = started(
        client, group_id, here=["p1", "p2", "p3"], seat=["p2", "p3", "p1"], dealer="p3"
    )
    assert setup_of(app, second).players == ("Ben", "Cho", "Ann")
    assert setup_of(app, second).first == "Cho"
    assert stored(app, group_id).kept(second).seats == {"Ben": "p2", "Cho": "p3", "Ann": "p1"}


def test_seats_move_without_the_script_and_nothing_starts(app, client) -> None:
    """Without JavaScript: "Show the seats" lists who is tapped in the chips' order, ↑ and ↓
    post the form and the page comes back with the seat moved, everything tapped and typed
    kept, the next in turn marked to deal; no table is started until "Start the table"."""
    group_id = new_group(client)
    started(client, group_id, here=["p1", "p2", "p3", "p4"], dealer="p2")  # Ben deals
    tables = len(stored(app, group_id).tables)
    data = {"game": "blackout", "here": ["p1", "p3", "p4"], "guests": "Gus", "move": "seat"}
    page = client.post(f"/g/{group_id}/new", data=data)
    assert page.status_code == 200
    assert seat_names(page.text) == ["Ann", "Cho", "Dee"]
    assert dealt_first(page.text) == "p3"  # left of Ben, who is not here
    assert 'value="Gus"' in page.text
    seats = re.findall(r'name="seat" value="([^"]*)"', page.text.split("<template", 1)[0])
    page = client.post(
        f"/g/{group_id}/new", data={**data, "seat": seats, "move": "up-p4", "dealer": "p3"}
    )
    assert seat_names(page.text) == ["Ann", "Dee", "Cho"]
    page = client.post(
        f"/g/{group_id}/new",
        data={**data, "seat": ["p1", "p4", "p3"], "move": "up-p1", "dealer": "p3"},
    )
    assert seat_names(page.text) == ["Ann", "Dee", "Cho"]  # the first seat stays first
    assert len(stored(app, group_id).tables) == tables
    table = started(
        client, group_id, here=["p1", "p3", "p4"], seat=["p1", "p4", "p3"], guests="Gus"
    )
    assert setup_of(app, table).players == ("Ann", "Dee", "Cho", "Gus")
    assert setup_of(app, table).first == "Cho"


def test_a_seat_list_that_names_someone_twice_or_not_here_seats_each_once(app, client) -> None:
    """A forged or stale seats list: a value twice, one not tapped, one unknown — each person
    tapped sits once, in the list's order where it names them."""
    group_id = new_group(client)
    table = started(
        client,
        group_id,
        here=["p1", "p2", "p3"],
        seat=["p2", "p2", "p5", "nobody", "p1"],
    )
    assert setup_of(app, table).players == ("Ben", "Ann", "Cho")


def test_a_refused_start_keeps_the_seats_as_they_were(app, client) -> None:
    group_id = new_group(client)
    response = start(client, group_id, "ebbes", here=["p1", "p2"], seat=["p2", "p1"], dealer="p1")
    assert response.status_code == 422
    assert seat_names(response.text) == ["Ben", "Ann"] and dealt_first(response.text) == "p1"
    assert stored(app, group_id).tables == ()
