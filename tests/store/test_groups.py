"""Groups in the store, on SQLite and PostgreSQL: a roster with stable ids, seasons, the tables a
group keeps with their seats, and the links that open a group; what the rules of a group refuse,
changes from a page the group has moved on from, and two phones changing one group at once."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from referee.groups import LONGEST_ROSTER, GroupRefused, Member
from referee.rules import Setup
from referee.store import db
from referee.store.groups import (
    Attached,
    GroupChanged,
    TooManyGroups,
    UnknownGroup,
    add_player,
    add_season,
    attach_table,
    create_group,
    detach_table,
    get_group,
    group_access,
    group_of_table,
    group_version,
    make_group_link,
    rename_group,
    rename_player,
    retire_player,
    revoke_group_links,
    seat_new_player,
    set_counts,
    set_seat,
)
from referee.store.links import NoAccess, access, make_link
from referee.store.models import GroupLink
from referee.store.tables import append_entry, create_table

SIX = ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay")


def friday() -> str:
    return create_group("Friday club", "Europe/Berlin", SIX)


def blackout(players: tuple[str, ...] = ("Ann", "Ben", "Cho", "Gus")) -> str:
    return create_table(Setup("blackout", players))


def refused(code: str, call, *args, **kwargs) -> GroupRefused:
    with pytest.raises(GroupRefused) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    db.session.rollback()
    return caught.value


def test_a_new_group_reads_back_with_its_roster(store_app: Flask) -> None:
    group_id = friday()
    group = get_group(group_id)
    assert group is not None
    assert (group.name, group.time_zone, group.version) == ("Friday club", "Europe/Berlin", 1)
    assert group.players == tuple(Member(f"p{n}", name) for n, name in enumerate(SIX, 1))
    assert group.seasons == () and group.tables == ()
    assert len(group_id) >= 22 and group_version(group_id) == 1
    assert get_group("nope") is None and get_group("\x00") is None and group_version("") is None


@pytest.mark.parametrize(
    ("names", "code"),
    [
        (("Ann", "ann"), "name-taken"),
        (("Ben", "Ｂｅｎ"), "name-taken"),
        (("Ann", " "), "name-empty"),
        (("Ann", "x" * 41), "name-long"),
        (("Ann", "Be\u200bn"), "name-hidden"),
        (("Ann", "\u202eevil"), "name-hidden"),
        (("Ann", "A\x00"), "name-hidden"),
        (("Ann", "Ann\x1b[31m"), "name-hidden"),
    ],
)
def test_a_roster_refuses_what_a_table_refuses_of_a_name(store_app: Flask, names, code) -> None:
    refused(code, create_group, "Club", "UTC", names)
    group_id = create_group("Club", "UTC", names[:1])
    refused(code, add_player, group_id, names[1])
    assert [p.name for p in get_group(group_id).players] == [names[0]]


@pytest.mark.parametrize(
    ("name", "zone", "code"),
    [
        ("", "UTC", "name-empty"),
        ("x" * 81, "UTC", "name-long"),
        ("Club\u2067", "UTC", "name-hidden"),
        ("Club", "Mars/Olympus", "time-zone"),
        ("Club", "", "time-zone"),
        ("Club", "../../etc/passwd", "time-zone"),
        ("Club", "UTC\x00", "time-zone"),
    ],
)
def test_a_group_needs_a_name_and_a_time_zone(store_app: Flask, name, zone, code) -> None:
    refused(code, create_group, name, zone)


def test_renaming_keeps_the_id_and_old_seats_point_to_it(store_app: Flask) -> None:
    group_id = friday()
    table = blackout()
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": None})
    rename_player(group_id, "p1", "Anna")
    group = get_group(group_id)
    assert group.player("p1") == Member("p1", "Anna")
    assert group.tables[0].seats["Ann"] == "p1"  # the table keeps the name it was played under
    rename_player(group_id, "p1", "anna")  # one's own name, in another case
    refused("name-taken", rename_player, group_id, "p1", "BEN")
    refused("unknown-player", rename_player, group_id, "p99", "Zed")


def test_a_retired_player_keeps_their_name_and_frees_it(store_app: Flask) -> None:
    group_id = friday()
    retire_player(group_id, "p2")
    assert get_group(group_id).player("p2").retired
    new = add_player(group_id, "Ben")  # another Ben
    assert new == "p7"
    refused("name-taken", retire_player, group_id, "p2", retired=False)  # two Bens on the roster
    rename_player(group_id, "p2", "Ben senior")
    retire_player(group_id, "p2", retired=False)
    assert [p.name for p in get_group(group_id).players if not p.retired] == [
        "Ann",
        "Ben senior",
        "Cho",
        "Dee",
        "Eve",
        "Fay",
        "Ben",
    ]


def test_a_roster_holds_at_most_its_limit(store_app: Flask) -> None:
    group_id = create_group("Big", "UTC", [f"P{n}" for n in range(LONGEST_ROSTER)])
    refused("roster-full", add_player, group_id, "One more")
    refused("roster-full", create_group, "Big", "UTC", [f"P{n}" for n in range(LONGEST_ROSTER + 1)])


def test_two_seats_of_a_table_never_on_one_id(store_app: Flask) -> None:
    group_id = friday()
    table = blackout()
    error = refused(
        "same-id-twice",
        attach_table,
        group_id,
        table,
        {"Ann": "p1", "Ben": "p1", "Cho": None, "Gus": None},
    )
    assert error.params == {"name": "Ben", "other": "Ann", "player": "Ann", "player_id": "p1"}
    refused("seats", attach_table, group_id, table, {"Ann": "p1"})
    refused("seats", attach_table, group_id, table, {"Ann": None, "Ben": None, "Cho": None})
    extra = {"Ann": None, "Ben": None, "Cho": None, "Gus": None, "Zed": None}
    refused("seats", attach_table, group_id, table, extra)
    seats = {"Ann": "p1", "Ben": "p9", "Cho": None, "Gus": None}
    refused("unknown-player", attach_table, group_id, table, seats)
    assert get_group(group_id).tables == () and group_of_table(table) is None


def test_a_table_is_kept_by_one_group_at_a_time(store_app: Flask) -> None:
    first, second = friday(), friday()
    table = blackout()
    seats = {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": None}
    attach_table(first, table, seats)
    refused("table-kept", attach_table, second, table, seats)
    refused("unknown-table", attach_table, second, "no-such-table", seats)
    assert group_of_table(table) == first
    detach_table(first, table)
    assert group_of_table(table) is None and get_group(first).tables == ()
    attach_table(second, table, seats)
    assert group_of_table(table) == second
    refused("not-kept", detach_table, first, table)


def test_a_table_is_played_when_it_started_told_in_the_groups_zone(store_app: Flask) -> None:
    group_id = create_group("Club", "America/New_York", ["Ann", "Ben"])
    table = create_table(Setup("blackout", ("Ann", "Ben")))
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2"})
    kept = get_group(group_id).tables[0]
    assert kept.played.utcoffset() in (timedelta(hours=-5), timedelta(hours=-4))
    assert abs(kept.played - datetime.now(UTC)) < timedelta(minutes=1)
    assert kept.evening == kept.played.date()
    assert (kept.game, kept.players, kept.counts) == ("blackout", ("Ann", "Ben"), True)


def test_a_guest_merged_into_a_player_keeps_the_table(store_app: Flask) -> None:
    group_id = friday()
    table = blackout()
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": None})
    gus = add_player(group_id, "Gustav")
    set_seat(group_id, table, "Gus", gus)
    assert get_group(group_id).tables[0].seats == {
        "Ann": "p1",
        "Ben": "p2",
        "Cho": "p3",
        "Gus": gus,
    }
    refused("not-a-guest", set_seat, group_id, table, "Gus", gus)  # no guest any more
    refused("not-a-guest", set_seat, group_id, table, "Nobody", gus)
    other = blackout(("Ann", "Ben", "Gus", "Hal"))
    attach_table(group_id, other, {"Ann": "p1", "Ben": "p2", "Gus": None, "Hal": None})
    refused("same-id-twice", set_seat, group_id, other, "Hal", "p1")  # Ann sits there already
    refused("unknown-player", set_seat, group_id, other, "Hal", "p99")


def test_a_guest_merged_into_a_new_player_is_both_or_nothing(store_app: Flask) -> None:
    group_id = friday()
    table = blackout(("Ann", "Ben", "Gus", "Hal"))
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2", "Gus": None, "Hal": None})
    before = get_group(group_id)
    refused("not-a-guest", seat_new_player, group_id, table, "Zed")  # no such seat
    refused("not-a-guest", seat_new_player, group_id, table, "Ann")  # a roster player's
    refused("not-kept", seat_new_player, group_id, blackout(), "Gus")
    with pytest.raises(GroupChanged):
        seat_new_player(group_id, table, "Gus", expected=before.version - 1)
    assert get_group(group_id) == before  # no player added, no seat, no new version
    assert seat_new_player(group_id, table, "Gus", expected=before.version) == "p7"
    group = get_group(group_id)
    assert group.player("p7").name == "Gus" and group.kept(table).seats["Gus"] == "p7"
    add_player(group_id, "Hal")
    refused("name-taken", seat_new_player, group_id, table, "Hal")
    assert get_group(group_id).kept(table).seats["Hal"] is None


def test_counts_and_seasons(store_app: Flask) -> None:
    group_id = friday()
    table = blackout()
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": None})
    set_counts(group_id, table, False)
    assert not get_group(group_id).tables[0].counts
    add_season(group_id, "2027", date(2027, 1, 1))
    add_season(group_id, "Autumn", date(2026, 9, 1))
    group = get_group(group_id)
    assert [s.name for s in group.seasons] == ["Autumn", "2027"]
    assert group.season_of(date(2026, 8, 31)) is None
    assert group.season_of(date(2026, 12, 31)).name == "Autumn"
    assert group.season_of(date(2027, 1, 1)).name == "2027"
    refused("season-date-taken", add_season, group_id, "Another", date(2027, 1, 1))
    refused("name-taken", add_season, group_id, "autumn", date(2027, 9, 1))
    refused("name-hidden", add_season, group_id, "\u202e2028", date(2028, 1, 1))


def test_a_change_from_a_page_the_group_moved_on_from_writes_nothing(store_app: Flask) -> None:
    group_id = friday()
    shown = group_version(group_id)
    rename_player(group_id, "p1", "Anna", expected=shown)
    with pytest.raises(GroupChanged) as caught:
        rename_player(group_id, "p1", "Annie", expected=shown)  # the second phone, stale
    assert (caught.value.expected, caught.value.current) == (shown, shown + 1)
    with pytest.raises(GroupChanged):
        retire_player(group_id, "p2", expected=shown)
    group = get_group(group_id)
    assert group.player("p1").name == "Anna" and not group.player("p2").retired
    with pytest.raises(UnknownGroup):
        rename_player("no-such-group", "p1", "X")


def test_a_change_by_a_link_lands_only_while_it_keeps_the_group(store_app: Flask) -> None:
    group_id = friday()
    keeper = make_group_link(group_id, "keeper")
    other = make_group_link(group_id, "keeper")
    viewer = make_group_link(group_id, "viewer")
    add_player(group_id, "Gil", by=keeper)
    with pytest.raises(NoAccess):
        add_player(group_id, "Hal", by=viewer)
    with pytest.raises(NoAccess):
        add_player(group_id, "Hal", by="forged")
    assert revoke_group_links(group_id, "keeper", by=other) == 1  # the first one's
    with pytest.raises(NoAccess):
        rename_player(group_id, "p1", "Anna", by=keeper)
    with pytest.raises(NoAccess):
        make_group_link(group_id, "viewer", by=keeper)
    with pytest.raises(NoAccess):
        revoke_group_links(group_id, "keeper", by=keeper)
    assert group_access(keeper) is None and group_access(other).keeps
    names = [p.name for p in get_group(group_id).players]
    assert names == [*SIX, "Gil"]


def test_a_tables_links_and_a_groups_never_open_each_other(store_app: Flask) -> None:
    group_id = friday()
    table = blackout()
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": None})
    table_keeper = make_link(table, "keeper")
    group_keeper = make_group_link(group_id, "keeper")
    assert group_access(table_keeper) is None and group_access(table_keeper, group_id) is None
    assert access(group_keeper) is None and access(group_keeper, table) is None
    assert group_access(group_keeper, "another") is None
    with pytest.raises(NoAccess):
        add_player(group_id, "Hal", by=table_keeper)
    with pytest.raises(NoAccess):
        make_link(table, "viewer", by=group_keeper)
    hashes = db.session.scalars(select(GroupLink.token_hash)).all()
    assert group_keeper not in hashes and all(len(h) == 64 for h in hashes)  # only a hash


def test_a_new_group_can_keep_the_table_it_was_made_from(store_app: Flask) -> None:
    table = blackout()
    append_entry(table, 0, "event", {"type": "trump", "round": 1, "card": "H"})
    players = ("Ann", "Ben", "Cho", "Gus")
    seats = {name: place for place, name in enumerate(players)}
    group_id = create_group("Ann's table", "UTC", players, table=Attached(table, seats))
    group = get_group(group_id)
    assert group.tables[0].seats == {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Gus": "p4"}
    assert group_of_table(table) == group_id


def test_a_creator_makes_at_most_the_limit_of_groups_in_the_window(store_app: Flask) -> None:
    store_app.config["TABLE_LIMIT"] = 2
    create_group("One", "UTC", creator="me")
    create_group("Two", "UTC", creator="me")
    with pytest.raises(TooManyGroups):
        create_group("Three", "UTC", creator="me")
    create_group("Three", "UTC", creator="someone else")


def test_rename_the_group_and_its_time_zone(store_app: Flask) -> None:
    group_id = friday()
    rename_group(group_id, "Friday night", "Europe/London")
    group = get_group(group_id)
    assert (group.name, group.time_zone, group.version) == ("Friday night", "Europe/London", 2)
    refused("time-zone", rename_group, group_id, "Friday night", "Europe/Nowhere")


def test_two_phones_adding_one_name_at_once_add_it_once(store_app: Flask) -> None:
    group_id = friday()
    start = threading.Barrier(2)
    outcomes: list[object] = []

    def phone() -> None:
        with store_app.app_context():
            start.wait()
            try:
                outcomes.append(add_player(group_id, "Gil"))
            except GroupRefused as refusal:
                outcomes.append(refusal.code)

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(map(str, outcomes)) == ["name-taken", "p7"]
    assert [p.name for p in get_group(group_id).players].count("Gil") == 1


def test_a_tables_evening_is_its_date_in_the_groups_time_zone(store_app: Flask) -> None:
    from sqlalchemy import update

    from referee.store.models import Table

    group_id = create_group("Club", "Europe/Berlin", ["Ann", "Ben"])
    table = create_table(Setup("blackout", ("Ann", "Ben")))
    late = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)  # half past midnight in Berlin
    db.session.execute(update(Table).where(Table.id == table).values(created_at=late))
    db.session.commit()
    attach_table(group_id, table, {"Ann": "p1", "Ben": "p2"})
    kept = get_group(group_id).tables[0]
    assert kept.played.isoformat() == "2026-11-28T00:30:00+01:00"
    assert kept.evening == date(2026, 11, 28)
    assert get_group(group_id).today(late) == date(2026, 11, 28)
