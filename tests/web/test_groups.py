"""Groups through the web: a new group from the home page, opened only through its own links (a
keeper's and a viewer's, revocable, shared as ``/j#<token>``), never through a table's link and
never opening a table; the group page with tonight's tables and earlier evenings, what a viewer
sees of a table (its standings only), and that a group page replays no table that did not
change."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from sqlalchemy import update

from referee.groups import KeptTable
from referee.rules import Setup
from referee.store import db
from referee.store.groups import attach_table, revoke_group_links
from referee.store.models import GroupTable
from referee.store.tables import append_entry, create_table
from tests.links import join, open_shared
from tests.web.group_helpers import (
    SIX,
    group_id_at,
    group_link,
    join_group,
    main_text,
    new_group,
    start,
    start_table,
    stored,
)
from tests.web.helpers import ok, post


def test_a_group_is_made_from_the_home_page_and_listed_there(app: Flask, client) -> None:
    home = client.get("/")
    assert 'href="/groups/new"' in home.text
    assert client.get("/groups/new").status_code == 200
    group_id = new_group(client)
    group = stored(app, group_id)
    assert [p.name for p in group.players] == list(SIX)
    page = client.get(f"/g/{group_id}")
    assert page.status_code == 200
    text = main_text(page)
    assert "Friday club" in text and "Start a table" in text and "No table yet tonight." in text
    for name in SIX:
        assert name in text
    home = main_text(client.get("/"))
    assert "Friday club" in home and "6 players · 0 tables" in home


def test_a_new_group_refuses_garbage_with_a_sentence_and_keeps_what_was_typed(app, client) -> None:
    typed = {"name": "Club", "players": "Ann\nann", "time_zone": "UTC"}
    response = client.post("/groups/new", data=typed)
    assert response.status_code == 422
    assert "There is a player called “ann” on the roster already" in main_text(response)
    assert "Ann\nann</textarea>" in response.text
    response = client.post("/groups/new", data=typed | {"players": "Ann\nBe\u202en"})
    assert response.status_code == 422 and "does not show" in main_text(response)
    response = client.post("/groups/new", data=typed | {"players": "Ann", "time_zone": "Mars/X"})
    assert response.status_code == 422 and "is not a time zone" in main_text(response)
    response = client.post("/groups/new", data=typed | {"name": " "})
    assert response.status_code == 422 and "The group needs a name." in main_text(response)
    assert client.get("/").text.count("/g/") == 0


def test_a_group_opens_only_with_one_of_its_links(app: Flask, client) -> None:
    group_id = new_group(client)
    stranger = app.test_client()
    for path in ("", "/roster", "/share", "/new", "/evenings"):
        response = stranger.get(f"/g/{group_id}{path}")
        assert response.status_code == 403, path
        assert "opens only with one of its links" in main_text(response)
    assert app.test_client().get("/g/no-such-group").status_code == 404
    assert "There is no group at this address" in main_text(stranger.get("/g/nope"))
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    assert viewer.get(f"/g/{group_id}").status_code == 200
    assert viewer.get(f"/g/{group_id}/roster").status_code == 200


def test_a_group_link_of_the_old_form_opens_the_group_as_a_tables_does(app, client) -> None:
    """``/j/<token>``, the form links had before ``/j#<token>``, opens a group too."""
    group_id = new_group(client)
    phone = app.test_client()
    token = group_link(app, group_id, "viewer")
    response = phone.get(f"/j/{token}")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{group_id}"
    assert response.headers["Cache-Control"] == "no-store"
    assert phone.get(f"/g/{group_id}").status_code == 200
    client.get(f"/j/{group_link(app, group_id, 'viewer')}")  # a keeper stays a keeper
    assert client.get(f"/g/{group_id}/share").status_code == 200
    with app.app_context():
        revoke_group_links(group_id, "viewer")
    refused = app.test_client().get(f"/j/{token}")
    assert refused.status_code == 404 and "opens no table and no group" in refused.text


def test_a_viewer_link_reads_and_never_changes_nor_sees_a_keeper_link(app, client) -> None:
    group_id = new_group(client)
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    page = viewer.get(f"/g/{group_id}")
    assert "<form" not in page.text.split("<main>")[1] and "Start a table" not in page.text
    assert "/j#" not in page.text and "/share" not in page.text
    for path in ("/share", "/new"):
        response = viewer.get(f"/g/{group_id}{path}")
        assert response.status_code == 403 and "only follows the group" in main_text(response)
    posts = [
        ("/roster", {"action": "add", "name": "Gil"}),
        ("/roster", {"action": "rename", "player": "p1", "name": "Anna"}),
        ("/roster", {"action": "retire", "player": "p2"}),
        ("/seasons", {"name": "2027", "starts_on": "2027-01-01"}),
        ("/share", {"action": "keeper"}),
        ("/share", {"action": "revoke-keepers"}),
        ("/new", {"game": "blackout", "here": ["p1", "p2"]}),
    ]
    before = stored(app, group_id)
    for path, data in posts:
        response = viewer.post(f"/g/{group_id}{path}", data=data)
        assert response.status_code == 403, path
        assert "/j#" not in response.text
    assert stored(app, group_id) == before


def test_a_tables_link_never_opens_its_group_nor_a_groups_link_a_table(app, client) -> None:
    group_id = new_group(client)
    table = start_table(client, group_id, ["p1", "p2", "p3"])
    holder = app.test_client()
    join(app, holder, table, "keeper")  # the table's scorekeeper link, and nothing else
    assert holder.get(f"/t/{table}").status_code == 200
    assert holder.get(f"/g/{group_id}").status_code == 403
    follower = app.test_client()
    join_group(app, follower, group_id, "keeper")  # the group's keeper link, and nothing else
    assert follower.get(f"/g/{group_id}").status_code == 200
    for path in ("", "/sheet", "/history", "/share"):
        assert follower.get(f"/t/{table}{path}").status_code == 403, path


def test_the_share_page_shows_the_links_as_fragments_and_revokes_them(app, client) -> None:
    group_id = new_group(client)
    share = client.get(f"/g/{group_id}/share")
    assert share.status_code == 200
    viewer_links = re.findall(r'value="(http://localhost/j#[A-Za-z0-9_-]+)"', share.text)
    assert len(viewer_links) == 1 and "<svg" in share.text  # with its QR code
    follower = app.test_client()
    opened = open_shared(follower, viewer_links[0])
    assert opened.status_code == 303 and opened.headers["Location"] == f"/g/{group_id}"
    made = client.post(f"/g/{group_id}/share", data={"action": "keeper"})
    keeper_links = re.findall(r'value="(http://localhost/j#[A-Za-z0-9_-]+)"', made.text)
    assert len(keeper_links) == 2  # the viewer link and the keeper link shown this once
    second = app.test_client()
    open_shared(second, keeper_links[1])
    assert second.get(f"/g/{group_id}/share").status_code == 200  # a keeper now
    ok(client.post(f"/g/{group_id}/share", data={"action": "revoke-viewers"}))
    response = follower.get(f"/g/{group_id}")
    assert response.status_code == 403 and "has been revoked" in main_text(response)
    ok(second.post(f"/g/{group_id}/share", data={"action": "revoke-keepers"}))
    assert client.get(f"/g/{group_id}").status_code == 403
    response = client.post(f"/g/{group_id}/roster", data={"action": "add", "name": "Gil"})
    assert response.status_code == 403
    assert "Gil" not in [p.name for p in stored(app, group_id).players]
    assert second.get(f"/g/{group_id}").status_code == 200


def test_a_new_group_shows_its_keeper_link_to_keep_and_the_group_page_offers_it(
    app, client
) -> None:
    """The group is made: its first page is its keeper link (QR code, copy, share), never kept
    by a cache; opened on another phone, the link keeps the group there too. The group page
    offers the link to a keeper (and not to a viewer), and "Add a keeper" makes a second
    keeper's link in one tap."""
    made = client.post(
        "/groups/new",
        data={"name": "Cabin", "players": "Ann\nBen\nCho", "time_zone": "Europe/Berlin"},
    )
    assert made.status_code == 303 and made.location.endswith("/my-link?made=1")
    group_id = group_id_at(made.location)
    page = client.get(made.location)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    text = main_text(page)
    assert "Keep this link" in text and "“Cabin” is made" in text
    links = re.findall(r'value="(http://localhost/j#[A-Za-z0-9_-]+)"', page.text)
    assert len(links) == 1 and "<svg" in page.text and "data-share" in page.text
    new_phone = app.test_client()
    assert new_phone.get(f"/g/{group_id}").status_code == 403
    assert open_shared(new_phone, links[0]).location == f"/g/{group_id}"
    ok(new_phone.post(f"/g/{group_id}/roster", data={"action": "add", "name": "Dee"}))
    again = client.get(f"/g/{group_id}/my-link")
    assert "Your keeper link" in main_text(again) and links[0] in again.text  # the same link

    group_page = client.get(f"/g/{group_id}").text
    assert f'href="/g/{group_id}/my-link"' in group_page
    added = client.post(f"/g/{group_id}/share", data={"action": "keeper"})
    second = re.findall(r'value="(http://localhost/j#[A-Za-z0-9_-]+)"', added.text)[-1]
    assert second != links[0]
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    assert "/my-link" not in viewer.get(f"/g/{group_id}").text
    assert viewer.get(f"/g/{group_id}/my-link").status_code == 403


def test_a_phone_that_lost_its_link_is_told_what_to_do_and_can_paste_it(app, client) -> None:
    """A keeper's phone whose session is gone (a new phone): not a dead end but what to do —
    open the kept link or paste it, ask another keeper, or the server's command — and the
    kept link pasted there opens the group again. A table's page says the same for a table."""
    group_id = new_group(client)
    kept = re.findall(
        r'value="(http://localhost/j#[A-Za-z0-9_-]+)"', client.get(f"/g/{group_id}/my-link").text
    )[0]
    lost = app.test_client()
    response = lost.get(f"/g/{group_id}/roster")
    assert response.status_code == 403
    text = main_text(response)
    assert "What to do" in text and "open the keeper link you kept" in text
    assert f'value="flask --app app group-link {group_id}"' in response.text
    assert 'href="/j"' in response.text and "csrf_token" not in response.text
    opened = open_shared(lost, kept)  # pasted on the /j page
    assert opened.status_code == 303 and opened.location == f"/g/{group_id}"
    assert lost.get(f"/g/{group_id}/roster").status_code == 200
    table = start_table(client, group_id, ["p1", "p2", "p3"])
    response = app.test_client().get(f"/t/{table}")
    assert response.status_code == 403
    text = main_text(response)
    assert "open the scorekeeper link you kept" in text
    command = f"flask --app app link {'-- ' if table.startswith('-') else ''}{table}"
    assert f'value="{command}"' in response.text


def test_a_keeper_scanning_the_group_link_stays_a_keeper(app, client) -> None:
    group_id = new_group(client)
    join_group(app, client, group_id, "viewer")
    assert client.get(f"/g/{group_id}/share").status_code == 200


def test_tonight_shows_each_table_with_who_leads_and_links_only_tables_held(app, client) -> None:
    group_id = new_group(client)
    table = start_table(client, group_id, ["p1", "p2", "p3", "p4"])  # Ann deals
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in ((2, 1), (3, 0), (4, 0), (1, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0, tricks_4=0))
    text = main_text(client.get(f"/g/{group_id}"))
    assert "Blackout · Round 2 of 25" in text and "Ben ahead" in text
    assert f'href="/t/{table}"' in client.get(f"/g/{group_id}").text  # the keeper's own table
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    page = viewer.get(f"/g/{group_id}")
    assert "Ben ahead" in main_text(page)
    assert f'href="/t/{table}' not in page.text  # its standings, not the table
    seats = viewer.get(f"/g/{group_id}/t/{table}")
    assert seats.status_code == 200 and "shows its standings only" in main_text(seats)
    assert f'href="/t/{table}' not in seats.text
    other_keeper = app.test_client()
    join_group(app, other_keeper, group_id, "keeper")
    assert f'href="/t/{table}"' not in other_keeper.get(f"/g/{group_id}").text


def test_tv_mode_shows_tonights_tables_by_total_to_every_link_of_the_group(app, client) -> None:
    group_id = new_group(client)
    tv = client.get(f"/g/{group_id}/tv")
    assert tv.status_code == 200 and "No table yet tonight." in main_text(tv)
    assert "TV mode" not in main_text(client.get(f"/g/{group_id}"))  # nothing to show yet
    table = start_table(client, group_id, ["p1", "p2", "p3", "p4"])  # Ann deals
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in ((2, 1), (3, 0), (4, 0), (1, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0, tricks_4=0))
    assert f'href="/g/{group_id}/tv"' in client.get(f"/g/{group_id}").text
    viewer = app.test_client()
    join_group(app, viewer, group_id, "viewer")
    tv = viewer.get(f"/g/{group_id}/tv")
    assert tv.status_code == 200
    assert '<body class="tv group-tv ' in tv.text and 'http-equiv="refresh" content="15"' in tv.text
    assert f'href="/t/{table}' not in tv.text  # no way into the table from a shared screen
    text = main_text(tv)
    assert "Blackout · Round 2 of 25" in text and "Ben ahead" in text
    # Ben 11 first; Cho and Dee 10 share second; Ann, who missed her bid, 0 last.
    ranks = re.findall(r'<span class="tv-rank">(\d)</span><span class="tv-name">(\w+)', tv.text)
    assert ranks == [("1", "Ben"), ("2", "Cho"), ("2", "Dee"), ("4", "Ann")]
    assert app.test_client().get(f"/g/{group_id}/tv").status_code == 403


def kept_of(size: int, number: int = 0) -> KeptTable:
    players = tuple(f"P{seat}" for seat in range(size))
    seats = dict.fromkeys(players)
    return KeptTable(f"t{number}", "blackout", players, None, {}, seats, True, datetime.now(UTC))


@pytest.mark.parametrize(
    ("sizes", "asked", "shown", "number", "count", "layout"),
    [
        ([], None, 0, 1, 1, (1, 1, 1)),
        ([4], None, 1, 1, 1, (1, 1, 4)),
        ([4, 6, 3], 1, 3, 1, 1, (3, 1, 6)),  # three across
        ([4, 4, 4, 5], 1, 4, 1, 1, (2, 2, 5)),  # two across, two down
        ([6] * 6, 1, 6, 1, 1, (3, 2, 6)),  # three across, two down
        ([3] * 7, 1, 4, 1, 2, (2, 2, 3)),  # seven: a screen of four, then of three
        ([3] * 7, 2, 3, 2, 2, (3, 1, 3)),
        ([3] * 7, 3, 4, 1, 2, (2, 2, 3)),  # round again (as a table may leave the evening)
        ([3] * 7, 0, 3, 2, 2, (3, 1, 3)),  # (the one before the first)
        ([4, 8, 4, 4], 1, 2, 1, 2, (2, 1, 8)),  # a table of eight: three to a screen at most
        ([4, 8, 4, 4], 2, 2, 2, 2, (2, 1, 4)),
        ([5] * 12, 2, 6, 2, 2, (3, 2, 5)),
    ],
)
def test_tv_mode_shares_tonights_tables_out_on_screens(
    sizes, asked, shown, number, count, layout
) -> None:
    from referee.web.groups.tv import tv_screen

    tables = [kept_of(size, at) for at, size in enumerate(sizes)]
    screen = tv_screen(tables, asked)
    assert (len(screen.tables), screen.number, screen.count) == (shown, number, count)
    assert (screen.columns, screen.rows, screen.players) == layout
    start = tables.index(screen.tables[0]) if screen.tables else 0
    assert list(screen.tables) == tables[start : start + shown]  # in the order played
    assert screen.next == (None if count == 1 else number % count + 1)


def tables_with_guests(group_id: str, count: int) -> None:
    """``count`` new Blackout tables in the group, Ann against a guest named G00, G01 …, in
    that order (in an app context)."""
    for number in range(count):
        players = ("Ann", f"G{number:02d}")
        table = create_table(Setup("blackout", players, {"max_cards": 1, "sequence": "up"}))
        attach_table(group_id, table, {"Ann": "p1", players[1]: None})


def test_tv_mode_pages_through_more_tables_than_a_screen_holds(app, client) -> None:
    """Each screen's refresh goes on to the next, round again after the last: no script."""
    from referee.web.groups.tv import TV_SCREEN

    group_id = new_group(client)
    with app.app_context():
        tables_with_guests(group_id, TV_SCREEN + 2)
    pages = [client.get(f"/g/{group_id}/tv?page={number}") for number in (1, 2, 3)]
    assert [page.status_code for page in pages] == [200, 200, 200]
    assert "Page 1 of 2" in main_text(pages[0]) and "Page 2 of 2" in main_text(pages[1])
    assert f'content="15; url=/g/{group_id}/tv?page=2"' in pages[0].text
    assert f'content="15; url=/g/{group_id}/tv?page=1"' in pages[1].text
    shown = [re.findall(r"G\d\d", main_text(page)) for page in pages]
    half = (TV_SCREEN + 2) // 2
    assert shown[0] == [f"G{n:02d}" for n in range(half)]
    assert shown[1] == [f"G{n:02d}" for n in range(half, TV_SCREEN + 2)]
    assert shown[2] == shown[0]  # round again
    assert main_text(client.get(f"/g/{group_id}/tv?page=x")) == main_text(pages[0])
    assert "Page 1 of 2" in main_text(client.get(f"/g/{group_id}/tv"))  # the group page's link


def test_earlier_evenings_list_their_tables_and_winners(app, client) -> None:
    group_id = new_group(client)
    with app.app_context():
        table = create_table(Setup("blackout", ("Ann", "Ben"), {"max_cards": 1, "sequence": "up"}))
        seq = 0
        for event in (
            {"type": "trump", "round": 1, "card": "H"},
            {"type": "bid", "round": 1, "player": "Ben", "bid": 1},
            {"type": "bid", "round": 1, "player": "Ann", "bid": 1},
            {"type": "tricks", "round": 1, "tricks": {"Ann": 0, "Ben": 1}},
        ):
            seq = append_entry(table, seq, "event", event)
        attach_table(group_id, table, {"Ann": "p1", "Ben": "p2"})
        last_week = datetime.now(UTC) - timedelta(days=7)
        db.session.execute(update(GroupTable).values(played_at=last_week))
        db.session.commit()
    text = main_text(client.get(f"/g/{group_id}"))
    assert "No table yet tonight." in text
    assert "Earlier evenings" in text and "1 table" in text and "won by Ben" in text
    assert last_week.strftime("%B") in text  # the evening's date
    german = main_text(client.get(f"/g/{group_id}?lang=de"))
    assert "Frühere Abende" in german and "Gewinner: Ben" in german


def test_an_earlier_table_this_phone_holds_has_a_link_to_open_it(app, client) -> None:
    """The link after a table of an earlier evening says what it does: "open" ("öffnen", the
    verb; the German for the "open" of a bid, "offen", is another word)."""
    group_id = new_group(client)
    assert start(client, group_id, here=["p1", "p2", "p3"]).status_code == 303
    with app.app_context():
        db.session.execute(
            update(GroupTable).values(played_at=datetime.now(UTC) - timedelta(days=7))
        )
        db.session.commit()
    link = re.compile(r'· <a href="/t/[^"]+">([^<]+)</a>')
    assert link.findall(client.get(f"/g/{group_id}").text) == ["open"]
    assert link.findall(client.get(f"/g/{group_id}?lang=de").text) == ["öffnen"]


@pytest.mark.parametrize("when", ["tonight", "last week"])
def test_an_evening_of_many_tables_shows_its_last_ones_and_says_how_many_more(
    app, client, when
) -> None:
    """A loaded file of records without dates puts all its tables on one evening: the group
    page shows the last few played, says how many more there are, and the evenings page has
    them all."""
    from referee.web.groups.pages import MOST_SHOWN

    group_id = new_group(client)
    with app.app_context():
        tables_with_guests(group_id, MOST_SHOWN + 3)
        if when == "last week":
            last_week = datetime.now(UTC) - timedelta(days=7)
            db.session.execute(update(GroupTable).values(played_at=last_week))
        db.session.commit()
    page = client.get(f"/g/{group_id}")
    text = main_text(page)
    assert "3 earlier tables of this evening are not shown here." in text
    shown = set(re.findall(r"G\d\d", text)) if when == "tonight" else None
    if shown is not None:
        assert shown == {f"G{n:02d}" for n in range(3, MOST_SHOWN + 3)}  # the last ones
    else:
        assert f"{MOST_SHOWN + 3} tables" in text
        assert text.count("not finished") == MOST_SHOWN
    every = main_text(client.get(f"/g/{group_id}/evenings"))
    assert "not shown here" not in every
    if when == "tonight":
        assert set(re.findall(r"G\d\d", every)) == {f"G{n:02d}" for n in range(MOST_SHOWN + 3)}
    else:
        assert every.count("not finished") == MOST_SHOWN + 3


@pytest.mark.speed_layer
def test_a_group_page_replays_no_table_that_did_not_change(app, client, monkeypatch) -> None:
    from referee.web.groups import glance

    group_id = new_group(client)
    tables = [start_table(client, group_id, ["p1", "p2", "p3"]) for _ in range(3)]
    made: list[str] = []
    real = glance.make_glance

    def counted(table_id: str):
        made.append(table_id)
        return real(table_id)

    monkeypatch.setattr(glance, "make_glance", counted)
    client.get(f"/g/{group_id}")
    assert sorted(made) == sorted(tables)
    made.clear()
    client.get(f"/g/{group_id}")
    client.get(f"/g/{group_id}/roster")
    assert made == []
    ok(post(client, tables[1], "trump", trump="H"))
    client.get(f"/g/{group_id}")
    assert made == [tables[1]]


def test_flask_group_link_prints_a_new_link(app: Flask, client) -> None:
    group_id = new_group(client)
    printed = app.test_cli_runner().invoke(args=["group-link", group_id])
    assert printed.exit_code == 0, printed.output
    link = printed.output.strip()
    assert re.fullmatch(r"/j#[A-Za-z0-9_-]{32}", link)  # no request: PUBLIC_URL, else the path
    phone = app.test_client()
    assert open_shared(phone, link).headers["Location"] == f"/g/{group_id}"
    assert phone.get(f"/g/{group_id}/share").status_code == 200
    viewer = app.test_cli_runner().invoke(args=["group-link", group_id, "--kind", "viewer"])
    assert viewer.exit_code == 0
    missing = app.test_cli_runner().invoke(args=["group-link", "no-such-group"])
    assert missing.exit_code != 0 and "there is no group" in missing.output


def test_kept_tables_gives_each_table_with_its_seats_and_state(app: Flask, client) -> None:
    """The seam the statistics and export pages plug into."""
    from referee.web.groups.glance import kept_tables

    group_id = new_group(client)
    first = start_table(client, group_id, ["p1", "p2", "p3"])
    ok(post(client, first, "trump", trump="H"))
    second = start_table(client, group_id, ["p4", "p5", "p6"], game="ebbes")
    with app.test_request_context():
        found = list(kept_tables(stored(app, group_id)))
    assert [kept.table_id for kept, _loaded in found] == [first, second]
    (kept, (record, state)), _ = found
    assert kept.seats == {"Ann": "p1", "Ben": "p2", "Cho": "p3"} and kept.counts
    assert record.last_seq == 1 and state.setup.players == ("Ann", "Ben", "Cho")
