"""Usable without a pointer (issue 33): a Blackout round played with the keyboard alone — Tab,
the arrow keys, Space and Enter — on a 360×740 phone, from the skip link to the round's summary.

The skip link is the first thing Tab reaches and takes the focus to the step; a bid is a button
(Tab to it, Enter); each player's trick count is a radio group (Tab reaches the group, the arrow
keys move in it, Space checks the one focused), and a screen reader hears each chip as a radio
button of its group ("Ann: tricks won"). Nothing here clicks or taps: the page counts every
pointer down, and there must be none.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import LiveServer
from tests.e2e.helpers import chip
from tests.e2e.test_chips import COUNT_TOUCHES, blackout_round_one
from tests.links import new_link

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

#: Counts the pointer downs the page receives (there must be none).
COUNT_POINTERS = COUNT_TOUCHES.replace('["pointerdown", "keydown"]', '["pointerdown"]')


def focused(page: Any) -> str:
    """What has the focus: its tag, name or value, and text."""
    return str(
        page.evaluate(
            """() => { const e = document.activeElement;
              return `${e.tagName.toLowerCase()} ${e.name || e.id || ""}=${e.value || ""} `
                + (e.textContent || "").trim().slice(0, 40); }"""
        )
    )


def tab_to(page: Any, target: Any, most: int = 30) -> None:
    """Press Tab until ``target`` has the focus (at most ``most`` times)."""
    for _ in range(most):
        if target.evaluate("e => e === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target}; the focus is on {focused(page)}")


def press_and_wait(page: Any, key: str) -> None:
    """Press ``key`` on what has the focus, which sends its form; wait for the answer."""
    page.locator("main").evaluate("main => { main.dataset.sent = 'yes' }")
    page.keyboard.press(key)
    expect(page.locator("main[data-sent]")).to_have_count(0)


def test_a_blackout_round_is_played_with_the_keyboard_alone(live_server: LiveServer, phone):
    page = phone()
    page.context.add_init_script(COUNT_POINTERS)
    table = blackout_round_one(live_server)
    page.goto(live_server.url(f"/j#{new_link(live_server.app, table)}"))
    expect(page).to_have_url(live_server.url(f"/t/{table}"))
    page.evaluate("sessionStorage.touches = '0'")

    # The skip link comes first and takes the focus to the step.
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the round")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url(f"/t/{table}#next"))
    page.keyboard.press("Tab")
    step = page.locator("section#next")
    spades = step.get_by_role("button", name="♠ spades")
    expect(spades).to_be_focused()  # the step's first control, right after the skip
    press_and_wait(page, "Enter")

    # Four bids: after each entry the focus is on the step's heading, the bids right after it.
    for bid in ("3", "3", "3", "2"):  # Cho, Dee, Ann, then Ben the dealer (3 is hooked)
        expect(page.locator("#next-title")).to_be_focused()
        expect(page.locator("#next-title")).to_contain_text("bids")
        tab_to(page, step.get_by_role("button", name=bid, exact=True))
        press_and_wait(page, "Enter")

    # The tricks: Tab reaches each player's radio group, the arrow keys move in it.
    expect(page.locator("#next-title")).to_contain_text("Play the round")
    ann = chip(step, "Ann", 0)
    tab_to(page, ann)
    expect(ann).not_to_be_checked()  # Tab only reaches the group: nothing chosen yet
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(chip(step, "Ann", 4)).to_be_checked()
    page.keyboard.press("Tab")  # the next group: Ben's
    expect(chip(step, "Ben", 0)).to_be_focused()
    page.keyboard.press("Space")  # checks the chip that has the focus
    expect(chip(step, "Ben", 0)).to_be_checked()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(chip(step, "Ben", 2)).to_be_checked()
    page.keyboard.press("Tab")
    expect(chip(step, "Cho", 0)).to_be_focused()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")  # back and forth: 3
    expect(chip(step, "Cho", 3)).to_be_checked()
    expect(chip(step, "Dee", 3)).to_be_checked()  # what is left of the 12
    confirm = step.get_by_role("button", name="Enter the tricks")
    tab_to(page, confirm, most=3)  # Dee's group (its checked chip), then the button
    press_and_wait(page, "Enter")

    # Recorded: round 2's summary, the next round's trump step right below it.
    summary = page.locator("section#summary")
    expect(summary.get_by_role("heading", name="Round 2 scored")).to_be_in_viewport()
    expect(summary).to_contain_text("Ann bid 3, took 4")
    expect(page.get_by_role("heading", name="Round 3 of 13")).to_be_attached()
    totals = page.locator("section[aria-labelledby=totals-title] dd")
    expect(totals).to_have_count(4)
    assert page.evaluate("Number(sessionStorage.touches || 0)") == 0, "a pointer was used"
