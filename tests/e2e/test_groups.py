"""A group's evening in Chromium on a 360 px phone: a new group of six from the home page, two
tables started on one evening from the group page (the first, a 4-player Blackout table, counted:
at most 6 touches from the group page), then the roster — rename, retire, a guest merged into it —
and a new season. The group page and the roster show every player without sideways scrolling.
Screenshots land in ``artifacts/e2e/``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.durability import summary
from tests.e2e.conftest import PHONE
from tests.e2e.helpers import answered
from tests.e2e.test_chips import COUNT_TOUCHES, Counted

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

SIX = ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay"]
GROUP_URL = re.compile(r"/g/[A-Za-z0-9_-]+$")
TABLE_URL = re.compile(r"/t/[A-Za-z0-9_-]+$")


def fits(page: Any) -> None:
    """Nothing on the page scrolls sideways at 360 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_groups_evening(live_server, phone, shoot) -> None:
    page = phone()
    page.context.add_init_script(COUNT_TOUCHES)
    page.goto(live_server.url("/"))
    page.get_by_role("link", name="New group").tap()
    page.get_by_label("Group name").fill("Friday club")
    page.get_by_label("Players, one name per line").fill("\n".join(SIX))
    answered(page, page.get_by_role("button", name="Create group").tap)
    # First the keeper link to keep (copy, share, QR), then on to the group.
    expect(page.get_by_role("heading", name="Keep this link")).to_be_visible()
    expect(page.locator("#keeper-link")).to_have_value(re.compile(r"/j#[A-Za-z0-9_-]+$"))
    expect(page.locator(".qr svg")).to_have_count(1)
    fits(page)
    shoot(page, "keep-this-link")
    answered(page, page.get_by_role("link", name="Kept: on to the group").tap)
    expect(page).to_have_url(GROUP_URL)
    group_url = page.url
    for name in SIX:
        expect(page.locator("ul.roster-names")).to_contain_text(name)
    fits(page)
    shoot(page, "new-group")

    # Tonight's first table: Blackout for Ann, Ben, Cho and Dee, counted from the group page.
    counted = Counted(page)
    counted.reset()
    counted.tap(page.get_by_role("link", name=re.compile(r"^Blackout \d")), sends=True)
    expect(page.get_by_role("radio", name=re.compile("^Blackout"))).to_be_checked()
    for name in ("Ann", "Ben", "Cho", "Dee"):
        counted.tap(page.get_by_role("checkbox", name=name, exact=True))
    shoot(page, "start-blackout")
    counted.tap(page.get_by_role("button", name="Start the table", exact=True), sends=True)
    expect(page).to_have_url(TABLE_URL)
    expect(page.get_by_role("heading", name="Round 1 of 25")).to_be_visible()
    assert counted.taps == 6 and counted.touches <= 6, (counted.taps, counted.touches)
    first_table = page.url

    # The second table of the evening: ebbes for Eve, Fay, Ann and a guest typed once.
    page.goto(group_url)
    answered(page, page.get_by_role("link", name=re.compile(r"^ebbes \d")).tap)
    for name in ("Eve", "Fay", "Ann"):
        page.get_by_role("checkbox", name=name, exact=True).tap()
    page.get_by_label("Guests", exact=True).fill("Gus")
    answered(page, page.get_by_role("button", name="Start the table", exact=True).tap)
    expect(page).to_have_url(TABLE_URL)
    second_table = page.url
    page.goto(group_url)
    tonight = page.locator("section[aria-labelledby=tonight-title]")
    expect(tonight.locator("article")).to_have_count(2)
    expect(tonight).to_contain_text("Gus (guest)")
    fits(page)
    shoot(page, "tonight")
    assert first_table != second_table

    # The roster: Ann is renamed, Fay retires.
    answered(page, page.get_by_role("link", name="Edit the roster").tap)
    ann = page.locator("ul.roster > li", has=page.locator("summary", has_text="Ann"))
    ann.locator("summary").tap()
    ann.get_by_label("Name").fill("Anna")
    answered(page, ann.get_by_role("button", name="Rename").tap)
    expect(page.locator(".flash")).to_contain_text("Renamed to Anna")
    fay = page.locator("ul.roster > li", has=page.locator("summary", has_text="Fay"))
    fay.locator("summary").tap()
    answered(page, fay.get_by_role("button", name="Retire").tap)
    expect(page.locator(".flash")).to_contain_text("Retired")
    fits(page)
    shoot(page, "roster")

    # The guest is merged into the roster, from the second table's seats.
    page.goto(group_url)
    expect(page.locator("ul.roster-names")).to_contain_text("Anna")
    seats = page.locator("article", has_text="ebbes").get_by_role("link", name="Seats and settings")
    answered(page, seats.tap)
    page.get_by_label("Gus was a guest. Who was it?").select_option(label="New on the roster: Gus")
    answered(page, page.get_by_role("button", name="Merge into the roster").tap)
    expect(page.locator(".flash")).to_contain_text("Gus is on the roster now")
    shoot(page, "merged")

    # A new season, and the start page offers neither Fay nor a guest any more.
    page.goto(group_url)
    page.get_by_label("New season's name").fill("Autumn")
    answered(page, page.get_by_role("button", name="Start the season").tap)
    expect(page.locator("#seasons")).to_contain_text("Autumn")
    answered(page, page.get_by_role("link", name=re.compile(r"^Blackout \d")).tap)
    chips = page.locator(".person-chips").first
    expect(chips.get_by_role("checkbox", name="Fay", exact=True)).to_have_count(0)
    expect(chips.get_by_role("checkbox", name="Gus", exact=True)).to_have_count(1)
    expect(chips.get_by_role("checkbox", name="Anna", exact=True)).to_have_count(1)
    summary.count("journeys")


def test_a_group_without_javascript(live_server, phone, shoot) -> None:
    """The same forms work as plain forms: a group made and a table started without a script."""
    page = phone(javascript=False)
    page.goto(live_server.url("/groups/new"))
    page.get_by_label("Group name").fill("Cabin")
    page.get_by_label("Players, one name per line").fill("Ann\nBen\nCho")
    page.get_by_role("button", name="Create group").click()
    page.get_by_role("link", name="Kept: on to the group").click()
    expect(page).to_have_url(GROUP_URL)
    page.get_by_role("link", name=re.compile("^Alles oder Nichts")).click()
    for name in ("Ann", "Ben", "Cho"):
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Start the table", exact=True).click()
    expect(page).to_have_url(TABLE_URL)
    summary.count("journeys")
