"""The score sheet on a 360×740 phone, and correcting a round from it.

For each game at its largest table every player's name and running total lies inside the
screen (bounding boxes, nothing scrolls sideways), and a tapped score's explanation opens below
its round in full, with JavaScript and without. A bid corrected from the sheet gets the live
entry's hook check: refused with its sentence and the chip kept, recorded only when the
scorekeeper ticks that it is to be kept as a breach. A finished game's "Log this play in BG
Stats" is a short link of ours that takes the phone on to BG Stats with the play.

The tables are set up through the store; the taps are the test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from referee.rules import GAMES, Setup, start
from referee.rules import events as ev
from referee.store.tables import append_entry, create_table
from referee.web.sheet.rows import short_names
from tests.durability.legal import next_entry
from tests.e2e.conftest import PHONE, LiveServer
from tests.e2e.helpers import answered
from tests.links import new_link

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

#: Names as long as a table's names get, so a narrow column must wrap them, not hide them.
NAMES = ("Alexandra", "Bartholomew", "Cho", "Dee", "Evangeline", "Fay", "Gus", "Hal")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("sheet")) as live:
        yield live


def open_table(page: Any, server: LiveServer, table: str, javascript: bool = True) -> str:
    """Open the table on ``page``'s phone through a new scorekeeper link; its address. Without
    JavaScript the link is pasted into the page's form, as its page asks."""
    url = server.url(f"/t/{table}")
    link = server.url(f"/j#{new_link(server.app, table, 'keeper')}")
    page.goto(link)
    if not javascript:
        page.get_by_role("textbox", name="Link").fill(link)
        page.get_by_role("button", name="Open the link").tap()
    expect(page).to_have_url(url)
    return url


def played(server: LiveServer, game: str, players: tuple[str, ...], rounds: int) -> str:
    """A new table with ``rounds`` rounds played (legally, at random but repeatably)."""
    setup = Setup(game, players)
    rng = random.Random(5)
    with server.app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (now := state.next_step()) is not None and now.round <= rounds:
            found = next_entry(state, rng)
            assert found is not None
            event, state = found
            seq = append_entry(table, seq, "event", event.to_dict())
    return table


def inside_the_screen(page: Any, locator: Any) -> None:
    """Every element ``locator`` finds lies within the phone's width, whole."""
    assert locator.count() > 0
    for box in (locator.nth(i).bounding_box() for i in range(locator.count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_player_is_in_view_at_the_largest_table(game, server, phone, shoot):
    players = NAMES[: GAMES[game].max_players]
    page = phone()
    url = open_table(page, server, played(server, game, players, rounds=3))
    page.goto(url + "/sheet")
    sheet = page.get_by_role("table", name="Score sheet")
    expect(sheet.locator("tbody tr.round-row")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    head = sheet.locator("thead th.player")
    expect(head.locator(".name")).to_have_text(list(short_names(players).values()))
    inside_the_screen(page, head.locator(".name"))
    inside_the_screen(page, head.locator(".total"))
    inside_the_screen(page, sheet.locator("tbody td > small"))  # the running totals
    # The last player's score in round 2: its explanation opens below the round, whole.
    score = sheet.locator("#round-2 td > a").last
    expect(score).to_have_attribute("aria-controls", f"why-2-{len(players)}")  # set by app.js
    score.tap()
    why = sheet.locator(f"#why-2-{len(players)}")
    expect(why).to_be_visible()
    expect(why).to_contain_text(f"{players[-1]}: ")
    inside_the_screen(page, why)
    clipped = "td => td.scrollWidth > td.clientWidth || td.scrollHeight > td.clientHeight"
    assert not why.locator("td").evaluate(clipped)
    shoot(page, f"sheet-{game}-{len(players)}")
    score.tap()  # a second tap closes it
    expect(why).to_be_hidden()


#: Eight long names, two alike at the start (issue 33: "Ben/edik/t", "Han/s-/Pete/r").
LONG_NAMES = ("Benedikt", "Hans-Peter", "Hansjörg", "Maximiliane", "Friederike", "Konstantin",
              "Wilhelmine", "Christopher")  # fmt: skip

#: Per element: how many lines its text takes, and whether it is cut off.
LINES_OF_TEXT = """el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  return {lines: tops.size, clipped: el.scrollWidth > el.clientWidth};
}"""


@pytest.mark.parametrize(("count", "scheme"), [(8, "light"), (8, "dark"), (7, "light")])
def test_seven_or_eight_long_names_head_the_sheet_whole_and_in_full_a_tap_away(
    server, phone, shoot, count, scheme
):
    players = LONG_NAMES[:count]
    page = phone(color_scheme=scheme)
    url = open_table(page, server, played(server, "blackout", players, rounds=2))
    page.goto(url + "/sheet")
    sheet = page.get_by_role("table", name="Score sheet")
    names = sheet.locator("thead th.player .name")
    expect(names).to_have_count(count)
    shown = names.all_inner_texts()
    assert len(set(shown)) == count, shown  # every player told apart
    for i, name in enumerate(players):
        cell = names.nth(i)
        drawn = cell.evaluate(LINES_OF_TEXT)
        assert drawn == {"lines": 1, "clipped": False}, (name, shown[i], drawn)
        assert name.startswith(shown[i].split("…")[0])
        expect(cell.locator("abbr")).to_have_attribute("title", name)
    inside_the_screen(page, names)
    shoot(page, f"sheet-{count}-long-names-{scheme}")
    names.nth(1).tap()  # Hans-Peter's shortened name: the names in full
    legend = page.locator("#sheet-names")
    expect(legend).to_be_in_viewport()
    for name in players:
        expect(legend).to_contain_text(name)


def test_the_names_and_totals_stay_pinned_while_the_rounds_scroll(server, phone):
    page = phone()
    url = open_table(page, server, played(server, "blackout", NAMES, rounds=99))  # all 11
    page.goto(url + "/sheet")
    totals = page.locator("table.sheet thead .total")
    start = totals.first.bounding_box()
    assert start is not None and start["y"] > 0
    page.locator("#round-11").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > start["y"] + start["height"]  # scrolled past it
    for box in (totals.nth(i).bounding_box() for i in range(len(NAMES))):
        assert box is not None and 0 <= box["y"] < PHONE["height"] / 4, box


def test_an_explanation_opens_without_javascript(server, phone):
    page = phone(javascript=False)
    url = open_table(page, server, played(server, "blackout", NAMES, rounds=2), javascript=False)
    page.goto(url + "/sheet")
    why = page.locator("#why-1-8")
    expect(why).to_be_hidden()
    page.locator("#round-1 td > a").last.tap()
    expect(why).to_be_visible()
    inside_the_screen(page, why)


def test_a_bid_corrected_from_the_sheet_is_checked_like_a_live_one(server, phone, shoot):
    setup = Setup("blackout", ("Ann", "Ben", "Cho"))
    with server.app.app_context():
        table, seq = create_table(setup), 0
        for event in (
            ev.Trump(1, "H"),
            ev.Bid(1, "Ben", 1),
            ev.Bid(1, "Cho", 1),
            ev.Bid(1, "Ann", 0),
            ev.Tricks(1, {"Ann": 0, "Ben": 1, "Cho": 0}),
        ):
            seq = append_entry(table, seq, "event", event.to_dict())
    page = phone()
    url = open_table(page, server, table)
    page.goto(url + "/sheet")
    answered(page, lambda: page.get_by_role("link", name="Correct round 1").tap())
    expect(page.get_by_role("heading", name="Round 1: its entries")).to_be_visible()
    line = page.locator("ol.history li", has_text="Cho bid 1")
    answered(page, lambda: line.get_by_role("link", name="Correct").tap())
    page.get_by_role("radio", name="0", exact=True).tap()  # the chip: Cho bid 0
    answered(page, lambda: page.get_by_role("button", name="Save the correction").tap())
    hook = "Ann (the dealer) cannot bid 0: the bids would add up to 1, the number of tricks."
    expect(page.get_by_role("alert")).to_contain_text(hook)
    expect(page.get_by_role("radio", name="0")).to_be_checked()  # the input kept
    shoot(page, "correct-refused")
    page.get_by_role("checkbox", name=re.compile("^Keep the correction with this breach")).check()
    answered(page, lambda: page.get_by_role("button", name="Save the correction").tap())
    expect(page.get_by_text("Corrected, kept as a breach: Round 1: Cho bid 0")).to_be_visible()
    page.goto(url + "/sheet")
    cho = page.locator("#round-1 td").nth(2)
    expect(cho.locator("a")).to_have_text("10")
    assert cho.evaluate("td => td.firstChild.textContent") == "0 · 0"  # bid · took, then score
    expect(page.locator(".breaches")).to_contain_text(hook)
    page.goto(url + "/history")
    expect(page.locator("ol.history li").first).to_contain_text("Correction of entry 3")
    expect(page.locator("#entry-3")).to_contain_text("Replaced by entry 6")
    shoot(page, "history")


def test_a_finished_game_is_logged_in_bg_stats_through_the_sheets_short_link(server, phone):
    page = phone()
    url = open_table(page, server, played(server, "blackout", NAMES[:3], rounds=99))
    bgstats = "https://app.bgstatsapp.com/createPlay.html"
    page.route(
        f"{bgstats}*", lambda route: route.fulfill(body="BG Stats", content_type="text/plain")
    )
    page.goto(url + "/sheet")
    link = page.get_by_role("link", name="Log this play in BG Stats")
    expect(link).to_have_attribute("href", re.compile(r"^/t/[\w-]+/bgstats$"))
    link.tap()
    expect(page).to_have_url(re.compile(rf"^{re.escape(bgstats)}\?data="))
