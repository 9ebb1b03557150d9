"""A group's numbers in Chromium on a 360 px phone: the Friday club loaded from its file on the
home page (``tests/groups/friday-club.json``), its standings for all time picked with the season
picker, Ann's profile opened from them, a number tapped for what it counts, and her head-to-head
as worked out by hand below; then the same without JavaScript. Screenshots land in
``artifacts/e2e/``.

By hand (``tests/groups/test_stats_by_hand.py`` has every table): in Blackout, Ann finished two
games, table 1 (Ann 22, Ben 31, the guest Gus 10) and table 2 (Chloe — Cho, renamed since — 33,
Dee 30, Ann 0); table 3 is still in play and table 4 does not count. So she finished behind Ben,
Cho and Dee once each and ahead of none of them (Gus is a guest: no one's rival). In ebbes, one
game: Ann 12, Dee 3 — ahead of Dee once. In the 2026 season alone (the current one), Blackout is
table 2 finished: behind Cho and Dee; Ben sat with her only at table 3, still in play: no
meeting.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.durability import summary
from tests.e2e.helpers import answered
from tests.e2e.test_groups import GROUP_URL, fits

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

FRIDAY = Path(__file__).resolve().parents[1] / "groups" / "friday-club.json"


def load_friday(page: Any, url: str, send: Any) -> None:
    page.goto(url)
    send(page.get_by_role("link", name="A group from its file"))
    page.get_by_label("Group file (.json)").set_input_files(str(FRIDAY))
    send(page.get_by_role("button", name="Load the group"))
    expect(page.locator(".flash")).to_contain_text("The group is loaded with its 7 tables.")
    send(page.get_by_role("link", name="Kept: on to the group"))
    expect(page).to_have_url(GROUP_URL)


def rival(page: Any, name: str) -> Any:
    return page.locator("ul.rivals > li", has=page.get_by_role("link", name=name, exact=True))


def test_a_players_profile_and_head_to_head(live_server, phone, shoot) -> None:
    page = phone()
    load_friday(page, live_server.url("/"), lambda target: answered(page, target.tap))
    answered(page, page.get_by_role("link", name="Standings", exact=True).tap)
    expect(page.locator("h1")).to_contain_text("Standings: Friday club")
    expect(page.get_by_text("Season 2026, from")).to_be_visible()  # the current season
    blackout = page.locator("section", has=page.locator("#game-blackout"))
    ann = blackout.locator("tbody tr", has=page.get_by_role("link", name="Ann", exact=True))
    expect(ann).to_contain_text("0/1")  # 2026: table 2 finished, table 3 in play
    page.get_by_label("Season").select_option(label="All time")
    answered(page, page.get_by_role("button", name="Show").tap)
    expect(blackout.locator("tbody tr")).to_have_count(4)
    expect(blackout.locator("tbody tr").nth(3)).to_contain_text("Ann")
    expect(ann).to_contain_text("0/2")
    fits(page)
    shoot(page, "standings")

    answered(page, blackout.get_by_role("link", name="Ann", exact=True).tap)
    expect(page.locator("h1")).to_have_text("Ann")
    # what she came for, in view on a phone without scrolling: place, rating, win rate, points
    glance = page.get_by_role("definition")
    for label, value in (
        ("Place", "4 of 4"),
        ("Rating", "22.2 ± 7.8"),
        ("Win rate", "0% 0/2"),
        ("Points", "33"),
    ):
        item = page.locator("dl.glance > div", has=page.locator("dt", has_text=label))
        expect(item.locator("dd")).to_have_text(value)
        expect(item.locator("dd")).to_be_in_viewport(ratio=1)
    expect(glance).to_have_count(4)
    heading = page.locator("section[aria-labelledby=h2h-title]")
    expect(heading).to_contain_text("Finishes behind Ben, Cho and Dee most often: 1 time.")
    expect(heading).to_contain_text("Has finished ahead of nobody yet.")
    for name in ("Ben", "Cho", "Dee"):
        expect(rival(page, name)).to_contain_text(
            "ahead 0 · behind 1 · level 0, of 1 finished game together"
        )
    expect(page.locator("ul.rivals > li")).to_have_count(3)  # Gus is a guest
    wins = page.locator("details.number", has=page.locator("summary", has_text="Wins"))
    expect(wins.locator("p")).to_be_hidden()
    wins.locator("summary").tap()
    expect(wins.locator("p")).to_contain_text("Finished games where nobody's total beat Ann's")
    expect(page.locator("figure.rating-chart svg")).to_be_visible()
    fits(page)
    shoot(page, "ann-blackout")

    answered(page, page.get_by_role("link", name="ebbes", exact=True).tap)
    expect(rival(page, "Dee")).to_contain_text("ahead 1 · behind 0 · level 0, of 1 finished game")
    expect(page.locator("section[aria-labelledby=h2h-title]")).to_contain_text(
        "Finishes ahead of Dee most often: 1 time."
    )
    fits(page)
    summary.count("journeys")


def test_the_numbers_without_javascript(live_server, phone, shoot) -> None:
    page = phone(javascript=False, color_scheme="dark")
    load_friday(page, live_server.url("/"), lambda target: target.click())
    page.get_by_role("link", name="Standings", exact=True).click()
    blackout = page.locator("section", has=page.locator("#game-blackout"))
    blackout.get_by_role("link", name="Ann", exact=True).click()
    heading = page.locator("section[aria-labelledby=h2h-title]")
    expect(heading).to_contain_text("Finishes behind Cho and Dee most often: 1 time.")  # 2026
    expect(page.locator("ul.rivals > li")).to_have_count(2)
    page.get_by_label("Season").select_option(label="All time")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("ul.rivals > li")).to_have_count(3)
    rating = page.locator("details#rating")
    rating.locator("summary").click()
    expect(rating.locator("p")).to_contain_text(re.compile(r"22\.2 is Ann's rating and ± 7\.8"))
    fits(page)
    shoot(page, "ann-dark-no-script")
    summary.count("journeys")
