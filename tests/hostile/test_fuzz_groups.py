"""Hostile input at every form and address of the groups, fuzzed with hypothesis through the
Flask test client, on SQLite and PostgreSQL (``test_fuzz.py`` says what is thrown and what every
answer must be): a new group, the roster's changes, seasons, a kept table's settings, starting a
table from the group, keeping a table in a group, the share page, and unknown group addresses.
The client holds the group's keeper link, so its changes reach the store's rules.

After every request, besides a readable answer with nothing sent back unescaped: the stored group
keeps the rules of a group — every name one a table would take, no two players who are not
retired with the same name, every kept table's seats naming each of its players once with a
roster id or none, no id on two seats — and nothing but the asked-for change happened (a viewer
link never changes anything).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from referee.rules import Setup
from referee.rules.names import LONGEST_NAME, hidden_character, same_name_key
from referee.store.groups import (
    LONGEST_GROUP_NAME,
    GroupRecord,
    attach_table,
    create_group,
    get_group,
    make_group_link,
)
from referee.store.tables import create_table, get_table
from tests.hostile.conftest import on_postgresql
from tests.hostile.test_fuzz import answered, fuzz, hostile_text, hostile_value, without_nul
from tests.links import join, open_shared

pytestmark = pytest.mark.hostile

ROSTER = ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay")


class Group:
    """A group under fire: six players, a table with a guest, ``client`` keeping both."""

    def __init__(self, app: Flask, client: FlaskClient, kind: str = "keeper") -> None:
        self.app = app
        with app.app_context():
            self.id = create_group("Club", "Europe/Berlin", ROSTER)
            self.table = create_table(Setup("blackout", ("Ann", "Ben", "Gus")))
            attach_table(self.id, self.table, {"Ann": "p1", "Ben": "p2", "Gus": None})
            token = make_group_link(self.id, kind)
        join(app, client, self.table)
        response = open_shared(client, f"/j#{token}")
        assert response.status_code == 303
        self.check()

    def read(self) -> GroupRecord:
        with self.app.app_context():
            group = get_group(self.id)
        assert group is not None
        return group

    def check(self) -> GroupRecord:
        """The group keeps the rules of a group (see the module)."""
        group = self.read()
        assert 0 < len(group.name) <= LONGEST_GROUP_NAME and not hidden_character(group.name)
        names = [same_name_key(p.name) for p in group.players if not p.retired]
        assert len(names) == len(set(names))
        for player in group.players:
            assert 0 < len(player.name) <= LONGEST_NAME and not hidden_character(player.name)
            assert player.name == player.name.strip()
        for kept in group.tables:
            assert list(kept.seats) == list(kept.players)
            ids = [pid for pid in kept.seats.values() if pid is not None]
            assert len(ids) == len(set(ids)) and all(group.player(pid) for pid in ids)
        for season in group.seasons:
            assert not hidden_character(season.name)
        self.group = group
        return group


VERSION = st.one_of(st.sampled_from(["1", "2", "0", "-1", "999999999999"]), hostile_text)
PLAYER = st.one_of(st.sampled_from(["p1", "p2", "p6", "p7", "p0", "P1", "p1 "]), hostile_text)


def clean(app: Flask, form: dict[str, Any]) -> dict[str, Any]:
    """The form without NUL characters on PostgreSQL, as ``test_fuzz`` sends them."""
    if not on_postgresql(app):
        return form
    return {name: without_nul(value) for name, value in form.items()}


@st.composite
def roster_forms(draw: st.DrawFn) -> dict[str, Any]:
    form: dict[str, Any] = {
        "action": draw(
            st.sampled_from(["add", "rename", "retire", "return", "group"]) | hostile_text
        ),
        "player": draw(PLAYER),
        "name": draw(hostile_value | st.sampled_from(["Gil", "ann", "Ｂｅｎ", "Cho "])),
        "version": draw(VERSION),
    }
    if draw(st.booleans()):
        form["time_zone"] = draw(hostile_value | st.sampled_from(["UTC", "Asia/Tokyo"]))
    for name in draw(st.lists(st.sampled_from(sorted(form)), max_size=2)):
        form.pop(name, None)
    return form


@fuzz(150)
@given(forms=st.lists(roster_forms(), min_size=1, max_size=4), with_version=st.booleans())
def test_the_roster_under_fire(hostile_app, hostile_client, forms, with_version):
    group = Group(hostile_app, hostile_client)
    for form in forms:
        if with_version:
            form = {**form, "version": str(group.group.version)}
        form = clean(hostile_app, form)
        response = hostile_client.post(f"/g/{group.id}/roster", data=form)
        answered(response, form, "roster")
        group.check()


@st.composite
def table_forms(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "action": draw(st.sampled_from(["counts", "not-counts", "merge", "detach"]) | hostile_text),
        "seat": draw(st.sampled_from(["Gus", "Ann", "gus", ""]) | hostile_value),
        "into": draw(st.sampled_from(["new", "p1", "p3", "p9"]) | hostile_value),
        "version": draw(VERSION),
    }


@fuzz(120)
@given(forms=st.lists(table_forms(), min_size=1, max_size=3), with_version=st.booleans())
def test_a_kept_tables_settings_under_fire(hostile_app, hostile_client, forms, with_version):
    group = Group(hostile_app, hostile_client)
    for form in forms:
        if with_version:
            form = {**form, "version": str(group.group.version)}
        form = clean(hostile_app, form)
        response = hostile_client.post(f"/g/{group.id}/t/{group.table}", data=form)
        answered(response, form, "kept table")
        group.check()


@fuzz(100)
@given(name=hostile_value, starts_on=hostile_value | st.sampled_from(["2027-01-01", "2026-02-30"]))
def test_seasons_under_fire(hostile_app, hostile_client, name, starts_on):
    group = Group(hostile_app, hostile_client)
    form = clean(hostile_app, {"name": name, "starts_on": starts_on, "version": "1"})
    answered(hostile_client.post(f"/g/{group.id}/seasons", data=form), form, "season")
    group.check()


CHIPS = ["p1", "p2", "p3", "p4", "p5", "p6", "guest:Gus", "guest:Zed", "p9", ""]


@st.composite
def start_forms(draw: st.DrawFn) -> dict[str, Any]:
    form: dict[str, Any] = {
        "game": draw(st.sampled_from(["blackout", "alles-oder-nichts", "ebbes"]) | hostile_text),
        "here": draw(st.lists(st.sampled_from(CHIPS) | hostile_text, max_size=9)),
        "dealer": draw(st.sampled_from(["next", *CHIPS]) | hostile_value),
    }
    if draw(st.booleans()):
        form["guests"] = draw(hostile_value | st.sampled_from(["Gus", "Ann, Hal", ",,,", "ＡＮＮ"]))
    for name in draw(
        st.lists(
            st.sampled_from(["blackout_max_cards", "ebbes_variant", "alles_colours"]), max_size=2
        )
    ):
        form[name] = draw(hostile_value)
    return form


@fuzz(150)
@given(form=start_forms())
def test_starting_a_table_from_the_group_under_fire(hostile_app, hostile_client, form):
    group = Group(hostile_app, hostile_client)
    form = clean(hostile_app, form)
    response = hostile_client.post(f"/g/{group.id}/new", data=form)
    answered(response, form, "start")
    after = group.check()
    if response.status_code == 303:
        table_id = response.headers["Location"].rsplit("/", 1)[-1]
        kept = after.kept(table_id)
        assert kept is not None
        with hostile_app.app_context():
            record = get_table(table_id)
        assert record is not None and record.setup.players == kept.players
        here = [chip for chip in CHIPS if chip in form["here"]]
        roster = [value for value in here if value.startswith("p") and value != "p9"]
        assert [pid for pid in kept.seats.values() if pid is not None][: len(roster)] == roster
    else:
        assert len(after.tables) == 1


@fuzz(80)
@given(
    form=st.fixed_dictionaries(
        {"name": hostile_value, "players": hostile_value, "time_zone": hostile_value}
    )
)
def test_a_new_group_under_fire(hostile_app, hostile_client, form):
    form = clean(hostile_app, form)
    response = hostile_client.post("/groups/new", data=form)
    answered(response, form, "new group")
    if response.status_code == 303:
        group_id = response.headers["Location"].rsplit("/", 1)[-1]
        with hostile_app.app_context():
            assert get_group(group_id) is not None


@fuzz(80)
@given(action=hostile_value | st.sampled_from(["viewer", "keeper", "revoke-viewers"]))
def test_the_share_page_under_fire(hostile_app, hostile_client, action):
    group = Group(hostile_app, hostile_client)
    form = clean(hostile_app, {"action": action})
    answered(hostile_client.post(f"/g/{group.id}/share", data=form), form, "group share")
    assert hostile_client.get(f"/g/{group.id}/share").status_code == 200  # still a keeper


@fuzz(60)
@given(
    path=st.sampled_from(["/roster", "/seasons", "/new", "/share", "/t/TABLE", ""]),
    form=st.dictionaries(
        st.sampled_from(["action", "name", "player", "here", "seat", "into", "version"]),
        hostile_value,
        max_size=4,
    ),
)
def test_a_viewer_link_changes_nothing(hostile_app, path, form):
    client = hostile_app.test_client()
    group = Group(hostile_app, client, "viewer")
    before = group.read()
    form = clean(hostile_app, form)
    response = client.post(f"/g/{group.id}{path.replace('TABLE', group.table)}", data=form)
    answered(response, form, "viewer")
    assert response.status_code in (403, 405, 413)
    assert group.check() == before


path_text = st.text(max_size=40) | st.sampled_from(["..", "%00", "p1", "<b>x</b>"])


@fuzz(120)
@given(
    shape=st.sampled_from(["/g/{}", "/g/{group}/{}", "/g/{group}/t/{}", "/t/{}/group", "/g/{}/{}"]),
    parts=st.lists(path_text, min_size=2, max_size=2),
    method=st.sampled_from(["GET", "POST"]),
)
def test_unknown_group_addresses(hostile_app, hostile_client, shape, parts, method):
    from urllib.parse import quote

    group = Group(hostile_app, hostile_client)
    if on_postgresql(hostile_app):
        parts = [part.replace("\x00", "") for part in parts]
    path = shape.format(*(quote(p, safe="") for p in parts), group=group.id)
    answered(hostile_client.open(path, method=method), what=f"group address {method}")
    group.check()
