"""The new-table form in Chromium: "Deals first" names the players as they are typed."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser tests skip without Playwright
    expect = None


def test_deals_first_lists_the_names_as_they_are_typed(live_server, phone):
    page = phone()
    page.goto(live_server.url("/new"))
    first = page.locator("select[name=first]")
    expect(first.locator("option").first).to_have_text("Seat 1")
    page.locator("input[name=player_1]").fill("Ann")
    page.locator("input[name=player_2]").fill("Ben")
    expect(first.locator("option[value='1']")).to_have_text("Seat 1: Ann")
    expect(first.locator("option[value='2']")).to_have_text("Seat 2: Ben")
    page.locator("input[name=player_1]").fill("")
    expect(first.locator("option[value='1']")).to_have_text("Seat 1")
