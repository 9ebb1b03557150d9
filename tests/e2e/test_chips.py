"""Tap, don't type, counted: a whole round entered on a 360×740 phone in Chromium, every touch
counted twice — by the test as it taps, and by the page itself (every pointer down and every key
pressed, so a typed digit counts too). Targets (issue 16): a 4-player Blackout round (trump, four
bids, the tricks) in at most 10 touches, a 4-player ebbes quick round (number card, roles, cards
won per colour) in at most 25. And the card picker of a 13-card round fits one screen.

The table is set up through the store up to the round the test taps; the touches are the round's.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.rules import Setup
from referee.rules import events as ev
from referee.store.tables import append_entry, create_table
from tests.e2e.conftest import PHONE, LiveServer
from tests.e2e.helpers import answered, chip
from tests.links import new_link

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

FOUR = ("Ann", "Ben", "Cho", "Dee")

#: Counts every touch the page receives (a tap, a click, a key), across pages of the tab.
COUNT_TOUCHES = """
for (const kind of ["pointerdown", "keydown"]) {
  addEventListener(kind, () => {
    sessionStorage.touches = String(Number(sessionStorage.touches || 0) + 1);
  }, true);
}
"""


class Counted:
    """A phone whose touches are counted: ``tap`` taps and counts; ``touches`` is what the page
    itself counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def tap(self, target: Any, sends: bool = False) -> None:
        """Tap ``target``; ``sends``: it sends a form, so wait for the answer to be shown."""
        self.taps += 1
        if sends:
            answered(self.page, target.tap)
        else:
            target.tap()

    def next_panel(self) -> Any:
        return self.page.locator("section[aria-labelledby=next-title]")

    def button(self, name: str) -> Any:
        return self.next_panel().get_by_role("button", name=name, exact=True)

    @property
    def touches(self) -> int:
        return int(self.page.evaluate("Number(sessionStorage.touches || 0)"))

    def reset(self) -> None:
        self.page.evaluate("sessionStorage.touches = '0'")
        self.taps = 0


def table_with(server: LiveServer, setup: Setup, events: list[ev.Event]) -> str:
    with server.app.app_context():
        table, seq = create_table(setup), 0
        for event in events:
            seq = append_entry(table, seq, "event", event.to_dict())
    return table


def counted_phone(phone: Any, server: LiveServer, table: str, javascript: bool = True) -> Counted:
    """The table open on a new phone as its scorekeeper, its touches counted from now."""
    page = phone(javascript=javascript)
    page.context.add_init_script(COUNT_TOUCHES)  # runs only where scripts do
    link = server.url(f"/j#{new_link(server.app, table)}")
    page.goto(link)
    if not javascript:  # without a script the shared link is pasted into the page's form
        page.get_by_label("Link", exact=True).fill(link)
        page.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(server.url(f"/t/{table}"))
    counted = Counted(page)
    counted.reset()
    return counted


def blackout_round_one(server: LiveServer) -> str:
    """Four players, 13 cards down to 1: round 1 (the whole deck, no trump) is in; round 2 (12
    cards) is next, starting with its trump."""
    setup = Setup("blackout", FOUR, {"sequence": "down"})
    bids = [ev.Bid(1, player, 3) for player in ("Ben", "Cho", "Dee")] + [ev.Bid(1, "Ann", 3)]
    tricks = ev.Tricks(1, {"Ann": 4, "Ben": 3, "Cho": 3, "Dee": 3})
    return table_with(server, setup, [*bids, tricks])


def tap_blackout_round(phone: Counted) -> None:
    """Round 2: the trump, four bids (the dealer's 3 is hooked), the tricks."""
    page = phone.page
    expect(page.get_by_role("heading", name="Round 2 of 13")).to_be_visible()
    phone.tap(phone.button("♠ spades"), sends=True)
    for bid in ("3", "3", "3", "2"):  # Cho, Dee, Ann, then Ben the dealer
        expect(page.locator("#next-title")).to_contain_text("bids")
        phone.tap(phone.button(bid), sends=True)
    expect(page.locator("#next-title")).to_contain_text("Play the round")
    for player, tricks in (("Ann", 4), ("Ben", 2), ("Cho", 3)):
        phone.tap(chip(phone.next_panel(), player, tricks))


def test_a_blackout_round_takes_at_most_10_touches(live_server, phone, shoot):
    counted = counted_phone(phone, live_server, blackout_round_one(live_server))
    tap_blackout_round(counted)
    last = chip(counted.next_panel(), "Dee", 3)
    expect(last).to_be_checked()  # filled in from what is left: 12 − 4 − 2 − 3
    expect(counted.page.locator("output.sum")).to_have_text("12 of 12")
    shoot(counted.page, "tricks-tapped")
    counted.tap(counted.button("Enter the tricks"), sends=True)
    expect(counted.page.get_by_role("heading", name="Round 3 of 13")).to_be_visible()
    assert counted.taps == 9
    assert counted.touches == counted.taps, "the page felt touches the test did not make"
    assert counted.touches <= 10


def test_a_blackout_round_without_javascript_takes_at_most_10_touches(live_server, phone):
    counted = counted_phone(phone, live_server, blackout_round_one(live_server), javascript=False)
    tap_blackout_round(counted)
    last = chip(counted.next_panel(), "Dee", 3)
    expect(last).not_to_be_checked()  # nothing fills it in without a script: one tap more
    counted.tap(last)
    counted.tap(counted.button("Enter the tricks"), sends=True)
    expect(counted.page.get_by_role("heading", name="Round 3 of 13")).to_be_visible()
    assert counted.taps == 10  # counted by the test alone: the page runs no script to count


#: Four players' cards won in ebbes' first round (8 cards a colour), but the trump's.
WON = {
    "yellow": {"Ann": 2, "Ben": 3, "Cho": 1, "Dee": 2},
    "green": {"Ann": 2, "Ben": 1, "Cho": 4, "Dee": 1},
    "blue": {"Ann": 2, "Ben": 2, "Cho": 0, "Dee": 4},
    "purple": {"Ann": 2, "Ben": 2, "Cho": 3, "Dee": 1},
}


def test_an_ebbes_round_takes_at_most_25_touches(live_server, phone, shoot):
    table = table_with(live_server, Setup("ebbes", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table)
    page = counted.page
    counted.tap(counted.button("3"), sends=True)  # the number card
    for colour in ("red", "yellow", "green", "blue"):  # trump, plus, ebbes, minus
        counted.tap(counted.button(colour), sends=True)
    expect(page.get_by_text("red is trump: its cards score nothing")).to_be_visible()
    for colour, counts in WON.items():
        box = counted.next_panel().get_by_role("group", name=re.compile(f"^{colour}"))
        for player in ("Ann", "Ben", "Cho"):
            counted.tap(chip(box, player, counts[player]))
        expect(chip(box, "Dee", counts["Dee"])).to_be_checked()  # what is left of the 8
    shoot(page, "cards-won-tapped")
    counted.tap(counted.button("Enter the cards won"), sends=True)
    expect(page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()
    totals = page.locator("section[aria-labelledby=totals-title]")
    expect(totals.locator("dd")).to_have_text(["3 ★", "1", "1", "-2"])  # ★: the leader
    assert counted.taps == 1 + 4 + 4 * 3 + 1
    assert counted.touches == counted.taps, "the page felt touches the test did not make"
    assert counted.touches <= 25


def test_the_card_picker_of_a_13_card_round_fits_one_screen(live_server, phone, shoot):
    """Four players, 13 cards each: all 52 cards on the picker, the prompt above them, in one
    screen of 360×740 with the "Next" heading at its top."""
    setup = Setup("blackout", FOUR, {"sequence": "down"})
    bids = [ev.Bid(1, player, 3) for player in ("Ben", "Cho", "Dee")] + [ev.Bid(1, "Ann", 3)]
    table = table_with(live_server, setup, bids)
    page = phone()
    page.goto(live_server.url(f"/j#{new_link(live_server.app, table)}"))
    expect(page).to_have_url(live_server.url(f"/t/{table}"))
    page.goto(live_server.url(f"/t/{table}?mode=cards"))
    picker = page.locator(".picker")
    expect(picker.get_by_role("button")).to_have_count(52)
    page.locator("#next-title").evaluate("heading => heading.scrollIntoView()")
    shoot(page, "picker")
    box = picker.bounding_box()
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= PHONE["height"], f"the picker ends at {box}"
    for name in ("♠ spades", "♥ hearts", "♦ diamonds", "♣ clubs"):
        group = picker.get_by_role("group", name=name)
        expect(group.get_by_role("button")).to_have_count(13)
    answered(page, picker.get_by_role("button", name="♥Q").tap)
    expect(page.get_by_text("Cho's card")).to_be_visible()
    expect(page.locator(".picker").get_by_role("button")).to_have_count(51)


def test_the_trick_tool_is_tapped_and_its_trumps_follow_the_game(live_server, phone, shoot):
    page = phone()
    page.goto(live_server.url("/tools/trick"))
    trumps = page.get_by_role("group", name="Trump").get_by_role("radio")
    expect(trumps).to_have_count(5)  # no trump, ♠ ♥ ♦ ♣
    answered(page, page.get_by_role("link", name="ebbes", exact=True).tap)
    expect(trumps).to_have_count(6)  # no trump and ebbes' five colours, not the suits
    expect(page.get_by_role("radio", name="♠ spades")).to_have_count(0)
    answered(page, page.get_by_role("radio", name="blue").tap)  # sent at once, by the script
    expect(page.get_by_role("radio", name="blue")).to_be_checked()
    picker = page.locator(".picker")
    answered(page, picker.get_by_role("button", name="red 5", exact=True).tap)
    answered(page, picker.get_by_role("button", name="blue 3", exact=True).tap)
    expect(page.locator("#answer")).to_have_text("Card 2, blue 3, wins: highest trump.")
    expect(picker.get_by_role("button", name="blue 3", exact=True)).to_have_count(0)
    shoot(page, "trick-tool")


def test_the_last_designator_is_the_number_left(live_server, phone):
    setup = Setup("ebbes", FOUR, {"variant": "placed-designators"})
    counted = counted_phone(phone, live_server, table_with(live_server, setup, []))
    panel = counted.next_panel()
    for colour, number in (("red", 3), ("yellow", 1), ("green", 5), ("blue", 2)):
        counted.tap(chip(panel, colour, number))
    expect(chip(panel, "purple", 4)).to_be_checked()  # 1 + 2 + 3 + 4 + 5, each once
    counted.tap(counted.button("Place the designators"), sends=True)
    expect(counted.page.locator("#next-title")).to_contain_text("Play the round")
    assert counted.touches == counted.taps == 5
