"""A phone set to German: the app speaks German from the first page, the script's own notes too,
and the switcher at the foot of the page turns it to English and keeps it so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import PHONE, TIMEOUT_MS
from tests.e2e.helpers import answered, chip

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None


@pytest.fixture
def german_phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="de-DE",
        viewport=PHONE,
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_a_german_phone_plays_in_german_and_can_switch(live_server, german_phone):
    page = german_phone
    page.goto(live_server.url("/"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("link", name=re.compile("^Blackout")).first.tap()
    expect(page.get_by_role("heading", name="Neuer Tisch")).to_be_visible()
    for seat, name in enumerate(["Jörg", "Zoë", "Anna"], start=1):
        page.get_by_role("textbox", name=f"{seat} Platz {seat}").fill(name)
    page.get_by_label("Höchste Kartenzahl auf der Hand", exact=True).fill("2")
    answered(page, page.get_by_role("button", name="Tisch anlegen").tap)
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    expect(page.locator("#next-title")).to_contain_text("Trumpf aufdecken")
    panel = page.locator("section[aria-labelledby=next-title]")
    answered(page, panel.get_by_role("button", name="♥ Herz").tap)
    for bid in ("0", "0", "0"):
        answered(page, panel.get_by_role("button", name=bid, exact=True).tap)
    expect(page.locator("#next-title")).to_contain_text("gewonnenen Stiche eingeben")
    chip(panel, "Zoë", 1).tap()
    expect(panel.locator("output.sum")).to_have_text("1 von 1")  # the script's words, German
    page.get_by_role("link", name="English").tap()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#next-title")).to_contain_text("enter the tricks won")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "en")  # remembered on this phone
