"""A group's season in Chromium on a 360 px phone: a group of six made from the home page, three
evenings of two tables each started from the group page — one table marked as not counting, a
guest merged into the roster, a player renamed and a new season between the evenings — then the
standings, a profile and its head-to-head checked against the numbers worked out by hand below;
the group's file downloaded and loaded on a fresh server, where the same pages say the same.

The taps that make the group, start the tables and change the roster are the phone's; the
entries of each table are made through the store (the journeys of ``test_journeys.py`` tap
them), and each evening's tables are moved back in time, as a week between evenings would.

By hand, Blackout of one card (a bid made scores 1 in front of the bid: 0 → 10, 1 → 11; a bid
missed scores 0), all time:

- evening 1: table 1, Ann 10, Ben 11 (bid 1, won the trick), Cho 0 (bid 1), Dee 10;
- evening 2: table 3, Ann 11 (bid 1, won), Ben 10, Eve 0 (bid 1), Fay 10; table 4 (Cho, Dee,
  Eve, Fay) does not count;
- evening 3, season "Spring": table 5, Ann 10, Benno (Ben renamed) 0 (bid 1), Cho 10, Gus 11
  (bid 1, won) — Gus, a guest at evening 1's ebbes table, merged into the roster since.

So Ann: 3 tables, 1 win, 31 points, every bid made (two of them zero bids). Head-to-head: ahead
of Benno twice and behind once (of 3), ahead of Cho once and level once (of 2), level with Dee,
ahead of Eve and of Fay, behind Gus (of 1 each). In Spring alone: table 5 only, no win.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from referee.store import db
from referee.store.models import Group, GroupTable
from referee.store.tables import append_entry, get_table, table_state
from tests.durability import summary
from tests.durability.legal import next_entry
from tests.e2e.conftest import LiveServer
from tests.e2e.helpers import answered
from tests.e2e.test_group_numbers import rival
from tests.e2e.test_groups import GROUP_URL, SIX, TABLE_URL, fits

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None


def blackout(server: LiveServer, table: str, bids: Mapping[str, int], winner: str) -> None:
    """Play a table's one-card round: the bids (everyone else bids 0), in the bidding order
    (left of the dealer, the dealer last), and the trick to ``winner``."""
    with server.app.app_context():
        record = get_table(table)
        assert record is not None
        players = record.setup.players
        dealer = players.index(record.setup.first)
        order = players[dealer + 1 :] + players[: dealer + 1]
        step = table_state(table).next_step()  # type: ignore[union-attr]
        events: list[dict[str, Any]] = []
        if step is not None and step.action == "trump":  # (one card a hand for 52: no trump)
            events.append({"type": "trump", "round": 1, "card": "H"})
        events += [
            {"type": "bid", "round": 1, "player": name, "bid": bids.get(name, 0)} for name in order
        ]
        won = {name: int(name == winner) for name in players}
        events.append({"type": "tricks", "round": 1, "tricks": won})
        seq = record.last_seq
        for event in events:
            seq = append_entry(table, seq, "event", event)
        state = table_state(table)
        assert state is not None and state.complete and not state.violations


def to_the_end(server: LiveServer, table: str, seed: int) -> None:
    """Play a table to its end with legal entries chosen at random (repeatably)."""
    rng = random.Random(seed)
    with server.app.app_context():
        record = get_table(table)
        assert record is not None
        seq = record.last_seq
        state = table_state(table)
        while state is not None and not state.complete:
            found = next_entry(state, rng)
            assert found is not None
            event, state = found
            seq = append_entry(table, seq, "event", event.to_dict())


def weeks_ago(server: LiveServer, group: str, tables: list[str], weeks: int) -> None:
    """Move ``tables`` back ``weeks`` weeks, to an evening of their own; the group's version
    rises, as with every change of a group (its pages are kept by version)."""
    with server.app.app_context():
        when = datetime.now(UTC) - timedelta(weeks=weeks)
        db.session.execute(
            update(GroupTable).where(GroupTable.table_id.in_(tables)).values(played_at=when)
        )
        db.session.execute(update(Group).where(Group.id == group).values(version=Group.version + 1))
        db.session.commit()


def number(page: Any, label: str) -> str:
    """The value a profile shows for ``label``."""
    found = page.locator("details.number > summary", has=page.locator(".label", has_text=label))
    return found.first.locator(".value").inner_text()


def main_text(page: Any) -> str:
    return re.sub(r"\s+", " ", page.locator("main").inner_text()).strip()


def test_three_evenings_of_a_group(live_server, phone, shoot, tmp_path: Path) -> None:
    page = phone()
    send: Callable[[Any], None] = lambda target: answered(page, target.tap)  # noqa: E731
    page.goto(live_server.url("/"))
    page.get_by_role("link", name="New group").tap()
    page.get_by_label("Group name").fill("Friday club")
    page.get_by_label("Players, one name per line").fill("\n".join(SIX))
    send(page.get_by_role("button", name="Create group"))
    send(page.get_by_role("link", name="Kept: on to the group"))
    expect(page).to_have_url(GROUP_URL)
    group_url = page.url
    group_id = group_url.rsplit("/", 1)[-1]

    def start(game: str, names: list[str], guests: str = "", one_card: bool = False) -> str:
        page.goto(group_url)
        send(page.get_by_role("link", name=re.compile(rf"^{game} \d")))
        for name in names:
            page.get_by_role("checkbox", name=name, exact=True).tap()
        if guests:
            page.get_by_label("Guests", exact=True).fill(guests)
        if one_card:  # set once: the next Blackout tables start with it
            page.locator("summary", has_text="Options, as last played").tap()
            page.get_by_label("Hand sizes").select_option(label="Up only: 1…most")
            page.get_by_label("Most cards in a hand").fill("1")
        send(page.get_by_role("button", name="Start the table", exact=True))
        expect(page).to_have_url(TABLE_URL)
        return page.url.rsplit("/", 1)[-1]

    # Evening 1: Blackout of one card, and ebbes with a guest.
    first = start("Blackout", ["Ann", "Ben", "Cho", "Dee"], one_card=True)
    expect(page.get_by_role("heading", name="Round 1 of 1")).to_be_visible()
    blackout(live_server, first, {"Ben": 1, "Cho": 1}, "Ben")
    second = start("ebbes", ["Eve", "Fay", "Ann"], guests="Gus")
    to_the_end(live_server, second, 1)
    weeks_ago(live_server, group_id, [first, second], 2)

    # Evening 2: two Blackout tables (the options as last played); the second does not count.
    third = start("Blackout", ["Ann", "Ben", "Eve", "Fay"])
    expect(page.get_by_role("heading", name="Round 1 of 1")).to_be_visible()
    blackout(live_server, third, {"Ann": 1, "Eve": 1}, "Ann")
    fourth = start("Blackout", ["Cho", "Dee", "Eve", "Fay"])
    blackout(live_server, fourth, {"Cho": 1, "Dee": 1}, "Cho")
    page.goto(group_url)
    tonight = page.locator("section[aria-labelledby=tonight-title] article")
    send(tonight.nth(1).get_by_role("link", name="Seats and settings"))
    send(page.get_by_role("button", name="Mark as not counting"))
    weeks_ago(live_server, group_id, [third, fourth], 1)

    # Between the evenings: Ben is renamed, Gus joins the roster, a new season begins.
    send(page.get_by_role("link", name="Group", exact=True))
    earlier = page.locator("section[aria-labelledby=earlier-title]")
    expect(earlier.locator("ul.evenings > li")).to_have_count(2)
    expect(earlier).to_contain_text("doesn't count")
    send(page.get_by_role("link", name="Edit the roster"))
    ben = page.locator("ul.roster > li", has=page.locator("summary", has_text="Ben"))
    ben.locator("summary").tap()
    ben.get_by_label("Name").fill("Benno")
    send(ben.get_by_role("button", name="Rename"))
    expect(page.locator(".flash")).to_contain_text("Renamed to Benno")
    page.goto(group_url)
    send(earlier.get_by_role("link", name="ebbes"))
    page.get_by_label("Gus was a guest. Who was it?").select_option(label="New on the roster: Gus")
    send(page.get_by_role("button", name="Merge into the roster"))
    expect(page.locator(".flash")).to_contain_text("Gus is on the roster now")
    page.goto(group_url)
    page.get_by_label("New season's name").fill("Spring")
    send(page.get_by_role("button", name="Start the season"))
    expect(page.locator("#seasons")).to_contain_text("Spring")

    # Evening 3, tonight: Blackout with Gus from the roster, and ebbes.
    fifth = start("Blackout", ["Ann", "Benno", "Cho", "Gus"])
    blackout(live_server, fifth, {"Benno": 1, "Gus": 1}, "Gus")
    sixth = start("ebbes", ["Dee", "Eve", "Fay"])
    to_the_end(live_server, sixth, 2)
    page.goto(group_url)
    expect(page.locator("section[aria-labelledby=tonight-title] article")).to_have_count(2)
    expect(page.locator("section[aria-labelledby=tonight-title]")).to_contain_text("Won by Gus")
    fits(page)
    shoot(page, "tonight")

    # Ann's numbers: Spring first (the current season), then all time.
    send(page.get_by_role("link", name="Standings", exact=True))
    blackout_part = page.locator("section", has=page.locator("#game-blackout"))
    send(blackout_part.get_by_role("link", name="Ann", exact=True))
    expect(page.locator("h1")).to_have_text("Ann")
    spring = (number(page, "Tables"), number(page, "Wins"), number(page, "Points"))
    assert spring == ("1", "0", "10")
    page.get_by_label("Season").select_option(label="All time")
    send(page.get_by_role("button", name="Show"))
    assert number(page, "Tables") == "3"
    assert number(page, "Finished games") == "3"
    assert number(page, "Wins") == "1"
    assert number(page, "Points") == "31"
    assert number(page, "Rounds") == "3"
    for name, line in {
        "Benno": "ahead 2 · behind 1 · level 0, of 3 finished games together",
        "Cho": "ahead 1 · behind 0 · level 1, of 2 finished games together",
        "Dee": "ahead 0 · behind 0 · level 1, of 1 finished game together",
        "Eve": "ahead 1 · behind 0 · level 0, of 1 finished game together",
        "Fay": "ahead 1 · behind 0 · level 0, of 1 finished game together",
        "Gus": "ahead 0 · behind 1 · level 0, of 1 finished game together",
    }.items():
        expect(rival(page, name)).to_contain_text(line)
    fits(page)
    shoot(page, "ann-all-time")
    profile = page.url
    pages = {"standings": "/standings?season=all", "profile": profile.split(group_id, 1)[1]}
    seen = {}
    for name, path in pages.items():
        page.goto(live_server.url(f"/g/{group_id}{path}"))
        seen[name] = main_text(page)
    assert "Benno" in seen["standings"] and "ahead 2 · behind 1" in seen["profile"]

    # The group's file, loaded on a fresh server: the same pages say the same.
    page.goto(group_url)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the group").tap()
    saved = tmp_path / "friday-club.json"
    download.value.save_as(saved)
    (tmp_path / "fresh").mkdir()
    with LiveServer(tmp_path / "fresh") as fresh:
        other = phone()
        other.goto(fresh.url("/"))
        answered(other, other.get_by_role("link", name="A group from its file").tap)
        other.get_by_label("Group file (.json)").set_input_files(str(saved))
        answered(other, other.get_by_role("button", name="Load the group").tap)
        expect(other.locator(".flash")).to_contain_text("The group is loaded with its 6 tables.")
        answered(other, other.get_by_role("link", name="Kept: on to the group").tap)
        expect(other).to_have_url(GROUP_URL)
        moved = other.url.rsplit("/", 1)[-1]
        for name, path in pages.items():
            other.goto(fresh.url(f"/g/{moved}{path}"))
            assert main_text(other) == seen[name], name
        shoot(other, "loaded-elsewhere")
    summary.count("journeys")
