"""The evening at a glance in a real browser: the summary after a round, the standings and the
chart one tap away, the keep-awake switch, and a watching phone swapping in a change in place."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from referee.rules import Setup, start
from referee.store.tables import append_entry, create_table
from tests.durability.legal import next_entry
from tests.e2e.test_accessibility import open_link
from tests.e2e.test_journeys import enter_counts, start_table, tap

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

#: Long enough for a watching page to notice a change and swap it in.
FOLLOW_MS = 10_000


def test_a_round_is_summed_up_and_the_chart_is_one_tap_away(live_server, phone, shoot):
    page = phone()
    names = ["Ann", "Ben", "Cho"]
    start_table(page, live_server, "Blackout", names, **{"Most cards in a hand": "2"})
    tap(page, "♥ hearts")
    for bid in ("0", "0", "0"):  # Ben, Cho, Ann (the dealer)
        tap(page, bid)
    enter_counts(page, {"Ann": 0, "Ben": 1, "Cho": 0}, "Enter the tricks")
    summary = page.locator("section[aria-labelledby=summary-title]")
    expect(summary.get_by_role("heading", name="Round 1 scored")).to_be_visible()
    expect(summary).to_contain_text("Ann bid 0, took 0 and made it: 10 points.")
    expect(summary).to_contain_text("Ben bid 0, took 1 and blacked out: 0 points.")
    expect(summary).to_contain_text("Cho bid 0, took 0 and made it: 10 points.")
    expect(summary).to_contain_text("Ann and Cho share the lead with 10.")
    shoot(page, "summary")

    page.get_by_role("link", name="Standings", exact=True).tap()
    expect(page.get_by_role("heading", name="Standings: Blackout")).to_be_visible()
    chart = page.get_by_role("img", name="Running totals after each round")
    expect(chart).to_be_visible()
    labels = chart.locator("g.series text")
    expect(labels).to_have_text(["Ann 10", "Ben 0", "Cho 10"])
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 360 and box["x"] >= 0  # on the phone's screen
    for scheme in ("light", "dark"):  # each line in its own colour, readable on the page
        page.emulate_media(color_scheme=scheme)
        colours = labels.evaluate_all("els => els.map((e) => getComputedStyle(e).color)")
        assert len(set(colours)) == 3, colours
        shoot(page, f"chart-{scheme}")


def game_after(server: Any, rounds: int, game: str = "blackout") -> str:
    """A table of ``game`` with ``rounds`` rounds entered at random (repeatably); its id."""
    setup = Setup(game, ("Ann", "Ben", "Cho", "Dee"), {})
    rng = random.Random(11)
    with server.app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (entry := next_entry(state, rng)) is not None:
            event, state = entry
            if event.round > rounds:
                break
            seq = append_entry(table, seq, "event", event.to_dict())
    return table


#: Counts the page's requests for a screen wake lock (``window.lockAsked``).
COUNT_LOCKS = """
const request = WakeLock.prototype.request;
WakeLock.prototype.request = function (...args) {
  window.lockAsked = (window.lockAsked || 0) + 1;
  return request.apply(this, args);
};
"""


def test_the_screen_is_kept_on_from_the_start_and_switching_it_off_is_remembered(
    live_server, phone
):
    page = phone()
    page.add_init_script(COUNT_LOCKS)
    url = open_link(page, live_server, game_after(live_server, 1))
    switch = page.get_by_role("checkbox", name="Keep the screen on")
    expect(switch).to_be_enabled()  # Chromium has the Wake Lock API
    expect(page.get_by_text("not available in this browser")).to_be_hidden()
    expect(switch).to_be_checked()  # on from the start: asked for as the page opens
    place = page.locator("[data-awake]")
    expect(place).to_have_attribute("data-held", re.compile("^(yes|no)$"))  # asked for the lock
    assert page.evaluate("window.lockAsked") >= 1
    if place.get_attribute("data-held") == "no":  # the browser would not: the page says so
        expect(page.get_by_text("would not keep its screen on")).to_be_visible()
    page.goto(url + "/tv")  # TV mode asks as it opens too
    expect(page.get_by_role("checkbox", name="Keep the screen on")).to_be_checked()
    expect(page.locator("[data-awake]")).to_have_attribute("data-held", re.compile("^(yes|no)$"))
    assert page.evaluate("window.lockAsked") >= 1
    page.goto(url)
    page.get_by_role("checkbox", name="Keep the screen on").uncheck()  # this phone: off
    page.goto(url + "/tv")
    expect(page.get_by_role("checkbox", name="Keep the screen on")).not_to_be_checked()
    assert page.evaluate("window.lockAsked || 0") == 0  # switched off: not asked for
    page.get_by_role("checkbox", name="Keep the screen on").check()
    page.goto(url)
    expect(page.get_by_role("checkbox", name="Keep the screen on")).to_be_checked()


def test_the_wake_lock_is_asked_for_again_when_the_page_is_shown_again(live_server, phone):
    page = phone()
    page.add_init_script(COUNT_LOCKS)
    open_link(page, live_server, game_after(live_server, 1))
    expect(page.locator("[data-awake]")).to_have_attribute("data-held", re.compile("^(yes|no)$"))
    asked = page.evaluate("window.lockAsked")
    assert asked == 1
    # The screen went off: the browser let the lock go (if it held one); then it is shown again.
    page.evaluate("async () => { if (awakeLock) await awakeLock.release(); }")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.lockAsked === 2")
    expect(page.locator("[data-awake]")).to_have_attribute("data-held", re.compile("^(yes|no)$"))


def test_without_the_wake_lock_api_the_switch_says_it_is_not_available(live_server, phone):
    page = phone()
    page.add_init_script("delete Navigator.prototype.wakeLock")
    open_link(page, live_server, game_after(live_server, 1))
    expect(page.get_by_role("checkbox", name="Keep the screen on")).to_be_disabled()
    said = page.get_by_text("Keeping the screen on is not available in this browser.")
    expect(said).to_be_visible()


def test_a_watching_phone_swaps_in_a_change_keeping_its_place(live_server, phone, shoot):
    keeper = phone()
    table = game_after(live_server, 8)
    url = open_link(keeper, live_server, table)
    watcher = phone()
    open_link(watcher, live_server, table, "viewer")
    watcher.goto(url + "/sheet")
    requests: list[str] = []
    watcher.on("request", lambda request: requests.append(request.url))
    watcher.evaluate("window.sameDocument = true")  # gone if the page were loaded again
    score = watcher.locator("table.sheet td > a").nth(2)
    why = score.get_attribute("aria-controls")
    score.tap()
    expect(watcher.locator(f"#{why}")).to_have_class(re.compile(r"\bshown\b"))
    score.scroll_into_view_if_needed()
    watcher.evaluate("window.scrollBy(0, 40)")
    scrolled = watcher.evaluate("window.scrollY")
    assert scrolled > 0
    rows = watcher.locator("table.sheet tbody tr.round-row")
    before = rows.count()
    requests.clear()

    keeper.locator("section[aria-labelledby=next-title] .choices button:enabled").first.tap()
    expect(rows).to_have_count(before + 1, timeout=FOLLOW_MS)  # round 9 begun: a new row
    assert watcher.evaluate("window.sameDocument") is True  # swapped in, not reloaded
    assert watcher.evaluate("window.scrollY") == scrolled
    expect(watcher.locator(f"#{why}")).to_have_class(re.compile(r"\bshown\b"))  # still open
    # The page sends no aria-controls: app.js gives them to the score links it swapped in too.
    expect(score).to_have_attribute("aria-expanded", "true")
    given = "a => a.getAttribute('aria-controls') === a.hash.slice(1)"
    assert watcher.evaluate(f"[...document.querySelectorAll('table.sheet td > a')].every({given})")
    # Only the page's own poll (a 304 while nothing changed, then the page), nothing else.
    assert requests and set(requests) == {url + "/sheet"}, requests
    shoot(watcher, "swapped")


def test_tv_mode_shows_the_totals_and_the_round_on_its_first_screen(live_server, phone, shoot):
    tv = phone()
    tv.set_viewport_size({"width": 1280, "height": 720})
    url = open_link(tv, live_server, game_after(live_server, 24))
    tv.goto(url + "/tv")
    expect(tv.locator("table.sheet tbody tr.round-row")).to_have_count(24)
    expect(tv.locator(".tv-now h2")).to_have_text("Round 25 of 25")
    for part in (".tv-ranks li", ".tv-now h2", ".tv-now .tv-next"):
        for box in (e.bounding_box() for e in tv.locator(part).all()):
            assert box is not None and box["y"] + box["height"] <= 720, part  # above the fold
    size = tv.locator(".tv-total").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 28  # large print across a room
    shoot(tv, "tv-first-screen")
