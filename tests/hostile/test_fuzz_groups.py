"""Hostile input at every form and address of the groups, fuzzed with hypothesis through the
Flask test client, on SQLite and PostgreSQL (``test_fuzz.py`` says what is thrown and what every
answer must be): a new group, the roster's changes, seasons, a kept table's settings, starting a
table from the group, keeping a table in a group, the share page, the standings, profiles,
statistics and season report (their season picker, games and player ids), loading a group from
its file, adding a record to a group, and unknown group addresses.
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

from referee.groups import LONGEST_GROUP_NAME, Group
from referee.rules import Setup
from referee.rules.names import LONGEST_NAME, hidden_character, same_name_key
from referee.store.groups import attach_table, create_group, get_group, make_group_link
from referee.store.tables import create_table, get_table
from tests.hostile.conftest import on_postgresql
from tests.hostile.test_fuzz import (
    answered,
    fuzz,
    hostile_text,
    hostile_value,
    without_nul,
)
from tests.hostile.test_fuzz import count as count_request
from tests.links import join, open_shared
from tests.web.group_helpers import group_id_at, loading_here

pytestmark = pytest.mark.hostile

ROSTER = ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay")


class UnderFire:
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

    def read(self) -> Group:
        with self.app.app_context():
            group = get_group(self.id)
        assert group is not None
        return group

    def check(self) -> Group:
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
    group = UnderFire(hostile_app, hostile_client)
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
    group = UnderFire(hostile_app, hostile_client)
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
    group = UnderFire(hostile_app, hostile_client)
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
    group = UnderFire(hostile_app, hostile_client)
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
        group_id = group_id_at(response.headers["Location"])
        with hostile_app.app_context():
            assert get_group(group_id) is not None


@fuzz(80)
@given(action=hostile_value | st.sampled_from(["viewer", "keeper", "revoke-viewers"]))
def test_the_share_page_under_fire(hostile_app, hostile_client, action):
    group = UnderFire(hostile_app, hostile_client)
    form = clean(hostile_app, {"action": action})
    answered(hostile_client.post(f"/g/{group.id}/share", data=form), form, "group share")
    assert hostile_client.get(f"/g/{group.id}/share").status_code == 200  # still a keeper


@fuzz(60)
@given(
    path=st.sampled_from(["/roster", "/seasons", "/new", "/share", "/t/TABLE", "/add-record", ""]),
    form=st.dictionaries(
        st.sampled_from(["action", "name", "player", "here", "seat", "into", "version"]),
        hostile_value,
        max_size=4,
    ),
)
def test_a_viewer_link_changes_nothing(hostile_app, path, form):
    client = hostile_app.test_client()
    group = UnderFire(hostile_app, client, "viewer")
    before = group.read()
    form = clean(hostile_app, form)
    response = client.post(f"/g/{group.id}{path.replace('TABLE', group.table)}", data=form)
    answered(response, form, "viewer")
    assert response.status_code in (403, 405, 413)
    assert group.check() == before


path_text = st.text(max_size=40) | st.sampled_from(["..", "%00", "p1", "<b>x</b>"])


@fuzz(120)
@given(
    shape=st.sampled_from(
        ["/g/{}", "/g/{group}/{}", "/g/{group}/t/{}", "/t/{}/group", "/g/{}/{}", "/g/{group}/p/{}"]
    ),
    parts=st.lists(path_text, min_size=2, max_size=2),
    method=st.sampled_from(["GET", "POST"]),
)
def test_unknown_group_addresses(hostile_app, hostile_client, shape, parts, method):
    from urllib.parse import quote

    group = UnderFire(hostile_app, hostile_client)
    if on_postgresql(hostile_app):
        parts = [part.replace("\x00", "") for part in parts]
    path = shape.format(*(quote(p, safe="") for p in parts), group=group.id)
    answered(hostile_client.open(path, method=method), what=f"group address {method}")
    group.check()


# --- the numbers, the group's file and records added --------------------------------------------

SEASON = st.sampled_from(["", "all", "2026-01-01", "2026-1-1", "ALL"]) | hostile_text
GAME = st.sampled_from(["blackout", "alles-oder-nichts", "ebbes", "whist"]) | hostile_text


@fuzz(80)
@given(
    path=st.sampled_from(["/standings", "/stats.json", "/report.pdf", "/p/PLAYER"]),
    query=st.fixed_dictionaries(
        {"season": SEASON, "game": GAME, "paper": hostile_text, "orientation": hostile_text}
    ),
    keep=st.lists(st.sampled_from(["season", "game", "paper", "orientation"]), max_size=4),
    player=PLAYER,
)
def test_the_numbers_pages_under_fire(hostile_app, hostile_client, path, query, keep, player):
    from urllib.parse import quote

    group = UnderFire(hostile_app, hostile_client)
    args = {name: value for name, value in query.items() if name in keep}
    if on_postgresql(hostile_app):
        player = player.replace("\x00", "")
    address = f"/g/{group.id}{path.replace('PLAYER', quote(player, safe=''))}"
    response = hostile_client.get(address, query_string=args)
    if response.status_code == 200 and response.mimetype == "application/pdf":
        assert response.data.startswith(b"%PDF")
    else:
        answered(response, args, f"numbers {path}")
    assert group.check() == group.read()


def group_file(draw: st.DrawFn) -> bytes:
    """A group file: the club's, with a hostile value in one place, or hostile bytes."""
    import json

    roster = [{"id": f"p{i}", "name": name} for i, name in enumerate(ROSTER, start=1)]
    record = {"format": "table-referee/1", "game": "blackout", "players": ["Ann", "Ben", "Gus"]}
    doc: dict[str, Any] = {
        "format": "table-referee-group/1",
        "name": "Club",
        "players": roster,
        "seasons": [{"name": "2026", "from": "2026-01-01"}],
        "tables": [
            {
                "played": "2026-11-27T19:30:00+01:00",
                "seats": {"Ann": "p1", "Ben": "p2", "Gus": None},
                "record": record,
            }
        ],
    }
    where = draw(
        st.sampled_from(
            ["name", "players", "seasons", "tables", "seat", "played", "record", "id", "bytes"]
        )
    )
    value: Any = draw(hostile_value | st.integers() | st.none() | st.just({}))
    if where == "bytes":
        return draw(
            st.binary(max_size=200) | hostile_text.map(lambda t: t.encode("utf-8", "replace"))
        )
    if where == "seat":
        doc["tables"][0]["seats"]["Gus"] = value
    elif where == "played":
        doc["tables"][0]["played"] = value
    elif where == "record":
        record["players"] = value
    elif where == "id":
        roster[0]["id"] = value
    elif draw(st.booleans()):
        doc[where] = value
    return json.dumps(doc).encode()


def multipart(fields: dict[str, Any], files: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart body built here (the test client would spool a large one to a temporary
    file it never closes), and its content type."""
    parts = []
    for name, value in fields.items():
        for one in value if isinstance(value, list) else [value]:
            head = f'--b0undary\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            parts.append(head.encode() + str(one).encode("utf-8", "surrogatepass") + b"\r\n")
    for name, content in files.items():
        head = (
            f'--b0undary\r\nContent-Disposition: form-data; name="{name}"; filename="f.json"'
            "\r\nContent-Type: application/json\r\n\r\n"
        )
        parts.append(head.encode() + content + b"\r\n")
    return b"".join(parts) + b"--b0undary--\r\n", "multipart/form-data; boundary=b0undary"


def counted(app: Flask) -> tuple[int, int]:
    from sqlalchemy import func, select

    from referee.store import db
    from referee.store.models import Group as GroupRow
    from referee.store.models import Table as TableRow

    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(row)) or 0)
            for row in (GroupRow, TableRow)
        )


@fuzz(80)
@given(data=st.data(), time_zone=hostile_value | st.sampled_from(["UTC", "Asia/Tokyo"]))
def test_a_group_file_under_fire(hostile_app, hostile_client, data, time_zone):
    content = group_file(data.draw)
    before = counted(hostile_app)
    form = clean(hostile_app, {"time_zone": time_zone})
    body, kind = multipart(form, {"group": content})
    with loading_here():
        response = hostile_client.post("/groups/import", data=body, content_type=kind)
    if response.status_code == 303:  # to the page of its loading, which was done meanwhile
        answered(response, form)
        response = hostile_client.get(response.headers["Location"])
    answered(response, form, "group file")
    groups, tables = counted(hostile_app)
    if response.status_code == 303:
        group_id = group_id_at(response.headers["Location"])
        with hostile_app.app_context():
            made = get_group(group_id)
        assert made is not None and (groups, tables) == (before[0] + 1, before[1] + 1)
    else:
        assert (groups, tables) == before  # nothing half made


@fuzz(60)
@given(
    text=hostile_text
    | st.sampled_from(['{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"]}']),
    seats=st.lists(PLAYER | st.just(""), max_size=3),
    confirm=st.booleans(),
)
def test_adding_a_record_under_fire(hostile_app, hostile_client, text, seats, confirm):
    group = UnderFire(hostile_app, hostile_client)
    before = counted(hostile_app)
    form: dict[str, Any] = {f"seat-{i}": seat for i, seat in enumerate(seats)}
    if confirm:
        form |= {"action": "confirm", "record_text": text}
    form = clean(hostile_app, form)
    files = {} if confirm else {"record": text.encode("utf-8", "replace")}
    body, kind = multipart(form, files)
    response = hostile_client.post(f"/g/{group.id}/add-record", data=body, content_type=kind)
    answered(response, form, "add record")
    after = group.check()
    if response.status_code == 303:
        assert len(after.tables) == 2 and counted(hostile_app)[1] == before[1] + 1
    else:
        assert len(after.tables) == 1 and counted(hostile_app) == before


def club_file(member_id: str) -> bytes:
    """The club's group file with Ann's roster id ``member_id``, seated by it."""
    import json

    roster = [{"id": member_id, "name": "Ann"}, {"id": "p2", "name": "Ben"}]
    record = {"format": "table-referee/1", "game": "blackout", "players": ["Ann", "Ben", "Gus"]}
    table = {
        "played": "2026-11-27T19:30:00+01:00",
        "seats": {"Ann": member_id, "Ben": "p2", "Gus": None},
        "record": record,
    }
    doc = {"format": "table-referee-group/1", "name": "Club", "players": roster, "tables": [table]}
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    "member_id",
    ["p\x00", "p\x00" * 20, "\x1b[31m", "p\u202e1", "p\u2066", "p/1", "/", ".", ".."],
    ids=repr,
)
def test_a_roster_id_no_address_or_database_takes_is_refused(
    hostile_app, hostile_client, member_id
):
    """A NUL (PostgreSQL stores no text that holds one), a character that does not show, a
    "/" or a dot segment (a profile's address could not name the player) is refused with the
    reader's sentence, and nothing is made."""
    before = counted(hostile_app)
    body, kind = multipart({"time_zone": "UTC"}, {"group": club_file(member_id)})
    with loading_here():
        response = hostile_client.post("/groups/import", data=body, content_type=kind)
    response = hostile_client.get(response.headers["Location"])
    text = answered(response)
    assert response.status_code == 422
    assert "player 1: id:" in text
    assert counted(hostile_app) == before


@st.composite
def keep_forms(draw: st.DrawFn) -> dict[str, Any]:
    form: dict[str, Any] = {
        "action": draw(st.sampled_from(["new", "attach"]) | hostile_text),
        "name": draw(hostile_value | st.sampled_from(["Club", "Ann's group", "\u3164"])),
        "time_zone": draw(hostile_value | st.sampled_from(["UTC", "Asia/Tokyo"])),
        "group": draw(st.sampled_from(["GROUP", "OTHER", ""]) | hostile_value),
    }
    for name in draw(st.lists(st.sampled_from(sorted(form)), max_size=2)):
        form.pop(name, None)
    return form


@fuzz(100)
@given(form=keep_forms())
def test_keeping_a_table_in_a_group_under_fire(hostile_app, hostile_client, form):
    """``/t/<id>/group``: a new group made with the table, or a group this phone keeps; a
    group of another phone's is never reached."""
    from referee.store.groups import group_of_table

    group = UnderFire(hostile_app, hostile_client)
    with hostile_app.app_context():
        table = create_table(Setup("blackout", ("Ann", "Ben", "Zed")))
        other = create_group("Other", "UTC", ("Ann", "Ben"))
    join(hostile_app, hostile_client, table)
    names = {"GROUP": group.id, "OTHER": other}
    if isinstance(form.get("group"), str):
        form["group"] = names.get(form["group"], form["group"])
    form = clean(hostile_app, form)
    response = hostile_client.post(f"/t/{table}/group", data=form)
    answered(response, form, "keep in a group")
    with hostile_app.app_context():
        kept_by = group_of_table(table)
    assert kept_by != other
    assert (kept_by is not None) == (response.status_code == 303)
    group.check()


#: Every page of the groups a phone asks for (``{g}``: the group, ``{t}``: its table).
GROUP_PAGES = [
    *("/g/{g}", "/g/{g}/tv", "/g/{g}/evenings", "/g/{g}/roster", "/g/{g}/share", "/g/{g}/new"),
    *("/g/{g}/group.json", "/g/{g}/add-record", "/g/{g}/t/{t}", "/g/{g}/standings"),
    *("/g/{g}/stats.json", "/g/{g}/p/p1", "/t/{t}/group", "/groups/new", "/groups/import"),
]


@fuzz(100)
@given(
    path=st.sampled_from(GROUP_PAGES),
    query=st.dictionaries(
        st.sampled_from(["game", "season", "lang", "next", "k", "at", "x"]) | hostile_text,
        hostile_text,
        max_size=3,
    ),
    kind=st.sampled_from(["keeper", "viewer", "none"]),
)
def test_every_group_page_under_fire(hostile_app, path, query, kind):
    """Every page of the groups, asked with hostile queries, by a keeper, a viewer and a phone
    without a link."""
    client = hostile_app.test_client()
    group = UnderFire(hostile_app, client, "viewer" if kind == "none" else kind)
    if kind == "none":
        client = hostile_app.test_client()
    if on_postgresql(hostile_app):
        query = {without_nul(k): without_nul(v) for k, v in query.items()}
    response = client.get(path.format(g=group.id, t=group.table), query_string=query)
    if response.status_code == 200 and response.mimetype in ("application/json", "application/pdf"):
        count_request()
    else:
        answered(response, query, f"group page {path}")
    assert group.check() == group.read()


@pytest.mark.csrf
@pytest.mark.parametrize(
    "path",
    [
        *("/g/{group}/roster", "/g/{group}/seasons", "/g/{group}/new", "/g/{group}/t/{table}"),
        *("/g/{group}/share", "/g/{group}/add-record", "/t/{table}/group", "/groups/new"),
        *("/g/nope/roster", "/g/nope/seasons", "/g/nope/new", "/g/nope/t/{table}"),
        *("/g/nope/share", "/g/nope/add-record", "/t/nope/group", "/groups/import"),
    ],
)
@pytest.mark.parametrize("who", ["keeper", "viewer", "stranger"])
def test_group_posts_without_a_valid_token_change_nothing(app, path, who):
    """With CSRF on (as in production), a post to any group address without its token: the
    page's own refusal or its stale page, never a 5xx, and nothing changed."""
    client = app.test_client()
    group = UnderFire(app, client, "viewer" if who == "stranger" else who)
    if who == "stranger":
        client = app.test_client()
    before = group.read()
    form = {"action": "add", "name": "Gil", "version": str(before.version), "csrf_token": "x"}
    address = path.format(group=group.id, table=group.table)
    response = client.post(address, data=form)
    answered(response, form)
    assert response.status_code in (400, 403, 404, 422), (address, response.status_code)
    assert group.check() == before
