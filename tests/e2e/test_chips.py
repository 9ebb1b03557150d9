"""Tap, don't type, counted: a whole round entered on a 360×740 phone in Chromium, every touch
counted twice — by the test as it taps, and by the page itself (every pointer down and every key
pressed, so a typed digit counts too). Targets (issue 16): a 4-player Blackout round (trump, four
bids, the tricks) in at most 10 touches, a 4-player ebbes quick round (number card, roles, cards
won per colour) in at most 14 (issue 33) for a hand whose colours went to two or three players
each, and 18 at most whatever the hand. And the card picker of a 13-card round fits one screen.

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
        page.get_by_role("button", name="Open the link").click()
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


#: Four players' cards won in ebbes' first round (8 cards a colour), but the trump's (red), in
#: the order the roles fell: yellow plus, green ebbes, blue minus, purple nix. A hand as the
#: cards go round in tricks that follow the colour led: each colour is won by two players, or
#: three. Every count starts at 0, and the last player left in a colour is filled in with what
#: is left, so a colour takes a tap per player who won cards of it, and never more than three.
WON = {
    "yellow": {"Ann": 4, "Ben": 0, "Cho": 4, "Dee": 0},
    "green": {"Ann": 0, "Ben": 5, "Cho": 3, "Dee": 0},
    "blue": {"Ann": 0, "Ben": 4, "Cho": 0, "Dee": 4},
    "purple": {"Ann": 4, "Ben": 0, "Cho": 0, "Dee": 4},
}

#: The same round with cards of every colour in every player's tricks: every colour takes three
#: taps (the fourth player's count is what is left), the most a 4-player round can take.
SPREAD = {
    "yellow": {"Ann": 2, "Ben": 3, "Cho": 1, "Dee": 2},
    "green": {"Ann": 2, "Ben": 1, "Cho": 4, "Dee": 1},
    "blue": {"Ann": 2, "Ben": 2, "Cho": 1, "Dee": 3},
    "purple": {"Ann": 2, "Ben": 2, "Cho": 3, "Dee": 1},
}


def tap_ebbes_round(counted: Counted, won: dict[str, dict[str, int]]) -> None:
    """Round 1: the number card, the four roles as they fall, the cards won per colour (only
    the players who won cards of it, the last of them filled in when the others are tapped)."""
    page = counted.page
    counted.tap(counted.button("3"), sends=True)  # the number card
    for colour in ("red", "yellow", "green", "blue"):  # trump, plus, ebbes, minus
        counted.tap(counted.button(colour), sends=True)
    expect(page.get_by_text("red is trump: its cards score nothing")).to_be_visible()
    boxes = counted.next_panel().locator("fieldset.chip-group > legend")
    expect(boxes).to_have_text(["yellow · plus", "green · ebbes", "blue · minus", "purple · nix"])
    for colour, counts in won.items():
        box = counted.next_panel().get_by_role("group", name=re.compile(f"^{colour}"))
        holders = [player for player in FOUR if counts[player]]
        for player in holders[:3]:
            counted.tap(chip(box, player, counts[player]))
        for player in FOUR:  # untouched: 0, or what is left for the last player
            expect(chip(box, player, counts[player])).to_be_checked()
        expect(box.locator("output.sum")).to_have_text("8 of 8")


def test_an_ebbes_round_takes_at_most_14_touches(live_server, phone, shoot):
    table = table_with(live_server, Setup("ebbes", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table)
    page = counted.page
    tap_ebbes_round(counted, WON)
    shoot(page, "cards-won-tapped")
    counted.tap(counted.button("Enter the cards won"), sends=True)
    expect(page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()
    totals = page.locator("section[aria-labelledby=totals-title]")
    # Ann 4 plus; Ben 4 minus; Cho 4 plus and the ebbes +3 (neither the most, Ben's 5, nor the
    # fewest, 0); Dee 4 minus. ★: the leader.
    expect(totals.locator("dd")).to_have_text(["4", "−4", "7 ★", "−4"])
    assert counted.taps == 1 + 4 + 4 * 2 + 1
    assert counted.touches == counted.taps, "the page felt touches the test did not make"
    assert counted.touches <= 14


def test_an_ebbes_round_with_every_colour_everywhere_takes_18_touches(live_server, phone):
    table = table_with(live_server, Setup("ebbes", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table)
    tap_ebbes_round(counted, SPREAD)
    counted.tap(counted.button("Enter the cards won"), sends=True)
    expect(counted.page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()
    assert counted.touches == counted.taps == 1 + 4 + 4 * 3 + 1


def test_an_ebbes_count_that_does_not_add_up_is_refused_and_kept(live_server, phone):
    """Without JavaScript nothing is filled in: the counts left at 0 are posted as 0, and a
    colour that does not add up to its cards is refused with the reason, the taps kept."""
    table = table_with(live_server, Setup("ebbes", FOUR, {}), [])
    counted = counted_phone(phone, live_server, table, javascript=False)
    page = counted.page
    counted.tap(counted.button("3"), sends=True)
    for colour in ("red", "yellow", "green", "blue"):
        counted.tap(counted.button(colour), sends=True)
    for colour, counts in WON.items():
        box = counted.next_panel().get_by_role("group", name=re.compile(f"^{colour}"))
        holders = [player for player in FOUR if counts[player]]
        for player in holders[:-1] if colour == "yellow" else holders:  # yellow: Cho's 4 left out
            counted.tap(chip(box, player, counts[player]))
    counted.tap(counted.button("Enter the cards won"), sends=True)
    expect(page.get_by_role("alert")).to_contain_text("yellow")
    expect(page.get_by_role("alert")).to_contain_text("4")
    box = counted.next_panel().get_by_role("group", name=re.compile("^yellow"))
    expect(chip(box, "Ann", 4)).to_be_checked()
    expect(chip(box, "Cho", 0)).to_be_checked()
    counted.tap(chip(box, "Cho", 4))
    counted.tap(counted.button("Enter the cards won"), sends=True)
    expect(page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()


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
