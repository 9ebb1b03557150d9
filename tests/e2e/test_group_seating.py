"""Seating a group's table as people sit, in Chromium on a 360 px phone: the seats list below the
chips is the table's seat order (docs/rules.md's order: the deal and the bidding go round in it).

By touch, the second table of the evening, four people seated differently from last time: the
chips tapped in the order they sit (two the wrong way round), one seat moved, the first dealer
as the rotation has it — 7 touches from the group page (at most 8). By keyboard: Tab to a seat's
↑, Enter moves it and keeps the focus on it, Space on a "deals first" chooses the dealer. Without
JavaScript the same buttons post the form and the page comes back with the seat moved. Each
screen looked at, light and dark, English and German."""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.store.tables import get_table
from tests.e2e.conftest import PHONE, LiveServer
from tests.e2e.helpers import answered
from tests.e2e.test_chips import COUNT_TOUCHES, Counted

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

SIX = ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay"]
TABLE_URL = re.compile(r"/t/([A-Za-z0-9_-]+)$")


def new_group(page: Any, server: LiveServer) -> str:
    """A group of six made on the phone; the group page's address."""
    page.goto(server.url("/groups/new"))
    page.locator("input[name=name]").fill("Friday club")
    page.locator("textarea[name=players]").fill("\n".join(SIX))
    create = page.get_by_role("button", name=re.compile("^(Create group|Gruppe anlegen)$"))
    answered(page, create.tap)
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+/my-link\?made=1$"))
    return page.url.split("/my-link", 1)[0]


def seats(page: Any) -> list[str]:
    return page.locator("#seating ol li .who").all_inner_texts()


def setup_of(server: LiveServer, url: str) -> Any:
    found = TABLE_URL.search(url)
    assert found is not None, url
    with server.app.app_context():
        return get_table(found[1]).setup


@pytest.mark.parametrize(("language", "scheme"), [("en", "light"), ("de", "dark")])
def test_seated_as_they_sit_by_touch(live_server, phone, shoot, language, scheme) -> None:
    page = phone(color_scheme=scheme)
    if language == "de":
        page.context.set_extra_http_headers({"Accept-Language": "de"})
    page.context.add_init_script(COUNT_TOUCHES)
    group_url = new_group(page, live_server)
    # Last time: Ann, Ben, Cho, Dee clockwise, Ben dealt first.
    page.goto(group_url + "/new?game=blackout")
    for name in ("Ann", "Ben", "Cho", "Dee"):
        page.get_by_role("checkbox", name=name, exact=True).tap()
    page.locator("#seating li", has_text="Ben").locator("label.deal").tap()
    answered(page, page.locator("button.wide[type=submit]").tap)
    first = setup_of(live_server, page.url)
    assert first.players == ("Ann", "Ben", "Cho", "Dee") and first.first == "Ben"

    # Tonight they sit Dee, Ann, Cho, Ben: tapped so, but Cho before Ann by mistake, then
    # Ann moved up a seat.
    page.goto(group_url)
    counted = Counted(page)
    counted.reset()
    counted.tap(page.get_by_role("link", name=re.compile(r"^Blackout \d")), sends=True)
    for name in ("Dee", "Cho", "Ann", "Ben"):
        counted.tap(page.get_by_role("checkbox", name=name, exact=True))
    assert seats(page) == ["Dee", "Cho", "Ann", "Ben"]
    up = "Ann nach oben" if language == "de" else "Move Ann up"
    counted.tap(page.get_by_role("button", name=up, exact=True))
    assert seats(page) == ["Dee", "Ann", "Cho", "Ben"]
    # The deal passes left from Ben, who dealt first last time: Cho sat on his left then and
    # is here, so Cho deals first, marked on his seat.
    dealer = page.locator("#seating input[name=dealer]:checked")
    expect(dealer).to_have_value("p3")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, f"seats-{language}-{scheme}")
    counted.tap(page.locator("button.wide[type=submit]"), sends=True)
    expect(page).to_have_url(TABLE_URL)
    second = setup_of(live_server, page.url)
    assert second.players == ("Dee", "Ann", "Cho", "Ben") and second.first == "Cho"
    assert counted.taps == 7 and counted.touches <= 8, (counted.taps, counted.touches)


def test_seated_by_keyboard(live_server, phone) -> None:
    page = phone()
    group_url = new_group(page, live_server)
    page.goto(group_url + "/new?game=alles-oder-nichts")
    for name in ("Eve", "Fay", "Ann"):
        box = page.get_by_role("checkbox", name=name, exact=True)
        box.focus()
        page.keyboard.press("Space")
    assert seats(page) == ["Eve", "Fay", "Ann"]
    up = page.get_by_role("button", name="Move Ann up", exact=True)
    up.focus()
    page.keyboard.press("Enter")
    expect(up).to_be_focused()  # the focus moved with the seat
    page.keyboard.press("Enter")
    assert seats(page) == ["Ann", "Eve", "Fay"]
    expect(page.locator("[data-seating-said]")).to_have_text("Ann: seat 1 of 3")
    deal = page.get_by_role("radio", name="Fay deals first", exact=True)
    deal.focus()
    page.keyboard.press("Space")
    expect(deal).to_be_checked()
    page.keyboard.press("Shift+Tab")  # the focus moves on: the dealer stays chosen
    expect(deal).to_be_checked()
    answered(page, page.locator("button.wide[type=submit]").click)
    table = setup_of(live_server, page.url)
    assert table.players == ("Ann", "Eve", "Fay") and table.first == "Fay"


def test_seated_without_javascript(live_server, phone) -> None:
    page = phone(javascript=False)
    group_url = new_group(page, live_server)
    page.goto(group_url + "/new?game=blackout")
    for name in ("Ann", "Cho", "Dee"):
        page.get_by_role("checkbox", name=name, exact=True).tap()
    answered(page, page.get_by_role("button", name="Show the seats of who is tapped").tap)
    assert seats(page) == ["Ann", "Cho", "Dee"]
    expect(page.get_by_role("checkbox", name="Cho", exact=True)).to_be_checked()
    answered(page, page.get_by_role("button", name="Move Dee up", exact=True).tap)
    assert seats(page) == ["Ann", "Dee", "Cho"]
    answered(page, page.locator("button.wide[type=submit]").tap)
    table = setup_of(live_server, page.url)
    assert table.players == ("Ann", "Dee", "Cho") and table.first == "Ann"
