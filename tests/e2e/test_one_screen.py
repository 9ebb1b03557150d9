"""One round, one screen (issue 33): a 4-player round of each game played on a 360×740 phone,
and at every step what confirms it — the chips or buttons tapped to enter it, or the button that
enters the chips tapped — is on the screen without scrolling, above the tab bar; after the round
the page opens at its summary with the next step right below. Every touch is counted as in
``test_chips.py``: Blackout in at most 9, Alles oder Nichts with every bid open in at most 9.
Every tap target of the round screen is a thumb's: at least 44 px wide and 48 px tall, and a
number on it is never broken across lines.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.rules import Setup
from referee.rules import events as ev
from tests.e2e.conftest import PHONE
from tests.e2e.helpers import answered, chip
from tests.e2e.test_chips import FOUR, WON, Counted, blackout_round_one, counted_phone, table_with

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

#: The tap targets of a step: its chips, buttons and button-like links.
TARGETS = ".chip, button, a.button"


def screen_bottom(page: Any) -> float:
    """Where the screen ends for the page's content: the top of the tab bar."""
    tabs = page.locator("nav.tabs").bounding_box()
    return tabs["y"] if tabs else PHONE["height"]


def on_screen(page: Any, target: Any) -> None:
    """``target`` is wholly on the screen, above the tab bar, without scrolling."""
    box = target.bounding_box()
    assert box is not None, "not shown"
    what = target.evaluate("e => e.outerHTML.slice(0, 120)")
    assert box["y"] >= 0, f"above the screen: {what} at {box}"
    assert box["y"] + box["height"] <= screen_bottom(page) + 0.5, f"below: {what} at {box}"


def step_confirmed_on_screen(page: Any) -> None:
    """What confirms the step is on screen: the confirm button of a step of chips, else every
    button that enters the step with one tap (a bid, a colour, a card)."""
    step = page.locator("section#next")
    confirm = step.locator("p.confirm button")
    tapped = step.locator("form").locator("button:enabled, a.button")
    targets = confirm if confirm.count() else tapped
    assert targets.count() > 0, "no way to confirm the step"
    for target in targets.all():
        on_screen(page, target)


def thumb_sized(page: Any) -> None:
    """Every tap target of the step is at least 44 × 48 px, its text on one line."""
    found = (
        page.locator("section#next")
        .locator(TARGETS)
        .evaluate_all(
            """targets => targets.map((t) => {
          const box = t.getBoundingClientRect();
          const text = t.querySelector("span") || t;
          const range = document.createRange();
          range.selectNodeContents(text);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          return {what: t.textContent.trim(), width: box.width, height: box.height,
                  lines: lines.size, digits: /^\\d+$/.test(t.textContent.trim())};
        })"""
        )
    )
    assert found, "no tap targets"
    for target in found:
        assert target["width"] >= 44 and target["height"] >= 48, target
        if target["digits"]:
            assert target["lines"] == 1, f"a number broken across lines: {target}"


def summary_then_step(page: Any, scored: int) -> None:
    """The page is at the summary of round ``scored``, the next step right below it."""
    summary = page.locator("section#summary")
    expect(summary.get_by_role("heading", name=f"Round {scored} scored")).to_be_visible()
    on_screen(page, summary.get_by_role("heading"))
    step_confirmed_on_screen(page)


def tap_and_check(phone: Counted, target: Any) -> None:
    """Tap ``target``, which sends its form; then the next step is confirmed on screen."""
    phone.tap(target, sends=True)
    if phone.page.locator("section#next form").count():
        step_confirmed_on_screen(phone.page)


def test_a_blackout_round_is_confirmed_on_one_screen_in_9_touches(live_server, phone, shoot):
    counted = counted_phone(phone, live_server, blackout_round_one(live_server))
    page = counted.page
    summary_then_step(page, 1)  # opened afresh at round 1's summary, the trump below it
    thumb_sized(page)
    tap_and_check(counted, counted.button("♠ spades"))
    for made, bid in enumerate(("3", "3", "3", "2")):  # Cho, Dee, Ann, Ben the dealer (hooked)
        expect(page.locator("#next-title")).to_contain_text("bids")
        if made:  # the fact box says what the bids add up to, and who is left, on screen
            line = page.locator("section#round .bid-line")
            expect(line).to_have_text(
                f"Bids add up to {3 * made} of 12 tricks · {4 - made} "
                + ("player" if made == 3 else "players")
                + " still to bid"
            )
            on_screen(page, line)
        thumb_sized(page)
        tap_and_check(counted, counted.button(bid))
    line = page.locator("section#round .bid-line")
    expect(line).to_have_text("Bids add up to 11 of 12 tricks: under")
    thumb_sized(page)  # 13 chips a row: none below 44 × 48, "10" to "12" on one line each
    for player, tricks in (("Ann", 4), ("Ben", 2), ("Cho", 3)):
        counted.tap(chip(counted.next_panel(), player, tricks))
        step_confirmed_on_screen(page)
    shoot(page, "tricks")
    tap_and_check(counted, counted.button("Enter the tricks"))
    summary_then_step(page, 2)
    shoot(page, "summary")
    assert counted.taps == 9
    assert counted.touches == counted.taps, "the page felt touches the test did not make"
    assert counted.touches <= 9


def test_an_alles_oder_nichts_round_all_open_is_confirmed_on_one_screen_in_9_touches(
    live_server, phone, shoot
):
    table = table_with(live_server, Setup("alles-oder-nichts", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table)
    page = counted.page
    step_confirmed_on_screen(page)
    tap_and_check(counted, counted.button("red"))
    for bid in ("open 2", "open 1", "open 0", "open 2"):
        expect(page.locator("#next-title")).to_contain_text("declares open or secret")
        thumb_sized(page)
        shoot(page, "declare")
        tap_and_check(counted, counted.button(bid))
    line = page.locator("section#round .bid-line")
    expect(line).to_have_text("Bids add up to 5 of 6 tricks: under")
    thumb_sized(page)
    panel = counted.next_panel()
    players = panel.locator("fieldset.chip-row legend [aria-hidden=true]").all_inner_texts()
    for player, tricks in zip(players[:3], (2, 1, 1), strict=True):  # the last gets the 2 left
        counted.tap(chip(panel, player, tricks))
        step_confirmed_on_screen(page)
    tap_and_check(counted, counted.button("Enter the tricks"))
    summary_then_step(page, 1)
    shoot(page, "summary")
    assert counted.touches == counted.taps == 9


def test_an_ebbes_round_is_confirmed_on_one_screen(live_server, phone, shoot):
    table = table_with(live_server, Setup("ebbes", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table)
    page = counted.page
    step_confirmed_on_screen(page)
    tap_and_check(counted, counted.button("3"))  # the number card
    for colour in ("red", "yellow", "green", "blue"):  # trump, plus, ebbes, minus
        thumb_sized(page)
        tap_and_check(counted, counted.button(colour))
    thumb_sized(page)
    for colour, counts in WON.items():
        box = counted.next_panel().get_by_role("group", name=re.compile(f"^{colour}"))
        holders = [player for player in FOUR if counts[player]]
        for player in holders[:3]:  # the others stay at 0, the last is filled in
            counted.tap(chip(box, player, counts[player]))
            step_confirmed_on_screen(page)
    shoot(page, "cards-won")
    tap_and_check(counted, counted.button("Enter the cards won"))
    summary_then_step(page, 1)
    shoot(page, "summary")


def test_a_round_card_by_card_keeps_the_cards_on_screen(live_server, phone, shoot):
    """Blackout's round 2 of 12 cards down to 1 recorded card by card: the trick's cards to tap
    are on screen for every card, and the summary after the last."""
    setup = Setup("blackout", FOUR, {"sequence": "up", "max_cards": 2})
    bids = [ev.Trump(1, "S"), *(ev.Bid(1, p, 0) for p in ("Ben", "Cho", "Dee", "Ann"))]
    counted = counted_phone(phone, live_server, table_with(live_server, setup, bids))
    page = counted.page
    link = page.get_by_role("link", name="Record every card instead")
    with page.expect_navigation():
        link.tap()
    expect(page.locator(".picker")).to_be_visible()
    for _card in range(4):  # one trick of four cards: the round's only one
        step_confirmed_on_screen(page)
        thumb_sized(page)
        answered(page, page.locator(".picker button").first.tap)
    summary_then_step(page, 1)
    shoot(page, "summary")


def test_without_javascript_the_redirect_opens_at_the_summary(live_server, phone):
    counted = counted_phone(phone, live_server, blackout_round_one(live_server), javascript=False)
    page = counted.page
    counted.tap(counted.button("♠ spades"), sends=True)
    expect(page).to_have_url(re.compile(r"#round$"))  # the facts, the bids below them
    step_confirmed_on_screen(page)
    for bid in ("3", "3", "3", "2"):
        counted.tap(counted.button(bid), sends=True)
    for player, tricks in (("Ann", 4), ("Ben", 2), ("Cho", 3), ("Dee", 3)):
        counted.tap(chip(counted.next_panel(), player, tricks))
    step_confirmed_on_screen(page)
    counted.tap(counted.button("Enter the tricks"), sends=True)
    expect(page).to_have_url(re.compile(r"#summary$"))
    summary_then_step(page, 2)
