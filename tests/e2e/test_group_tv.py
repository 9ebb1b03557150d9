"""A group's TV mode in Chromium on a 1280×720 screen (issue 41, item 7): however many tables
tonight has, what is shown fits the screen, nothing under the keep-awake switch and the
languages at its foot, in type large enough to read across a room; tables beyond a screen are on
the next (``?page=``), which the page's refresh goes on to. In the system's light and dark
scheme (TV mode is dark either way). Screenshots land in ``artifacts/e2e/``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from referee.rules import Setup, start
from referee.store.groups import attach_table, create_group, make_group_link
from referee.store.tables import append_entry, create_table
from tests.durability.legal import next_entry
from tests.e2e.conftest import LiveServer

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

TV = {"width": 1280, "height": 720}
#: The roster, long names first: the longest make the columns' widths and the fit hardest.
ROSTER = ("Bartholomäus", "Maximiliane", "Jean-Luc", "Wolfgang", "Li Wei", "O'Neil", "Zoë", "Ann")
#: Smallest type on a table a room reads: the players' names (at 1280×720, px).
NAMES_AT_LEAST = 24


def group_tonight(server: LiveServer, sizes: list[int]) -> tuple[str, str]:
    """A group with a table tonight for each of ``sizes`` (its number of players, the last
    of them a guest), each Blackout table two rounds in (legal, repeatable); the group's id
    and a keeper link's token."""
    rng = random.Random(41)
    with server.app.app_context():
        group = create_group("Freitagsrunde am Marktplatz", "Europe/Berlin", ROSTER)
        for size in sizes:
            players = (*ROSTER[: size - 1], "Gast mit langem Namen")
            setup = Setup("blackout", players, {"max_cards": 5})
            table, state, seq = create_table(setup), start(setup), 0
            while len(state.rounds) < 3:  # two rounds scored, the third begun
                event, state = next_entry(state, rng) or pytest.fail("the game ended")
                seq = append_entry(table, seq, "event", event.to_dict())
            seats = {name: f"p{place + 1}" for place, name in enumerate(players[:-1])}
            attach_table(group, table, {**seats, players[-1]: None})
        return group, make_group_link(group, "viewer")


@pytest.fixture
def tv(browser: Any) -> Iterator[Any]:
    """Open a page on a new 1280×720 screen: ``tv(color_scheme="dark")``."""
    contexts: list[Any] = []

    def open_tv(color_scheme: str = "light") -> Any:
        context = browser.new_context(viewport=TV, color_scheme=color_scheme)
        contexts.append(context)
        return context.new_page()

    yield open_tv
    for context in contexts:
        context.close()


def fits(page: Any) -> None:
    """The page is no taller nor wider than the screen, every table ends above the foot (the
    keep-awake switch, the languages) and the names are large enough to read across a room."""
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= TV["width"] and size[1] <= TV["height"], size
    foot = page.evaluate(
        "Math.min(...[...document.querySelectorAll('.awake, footer')]"
        ".map(e => e.getBoundingClientRect().top))"
    )
    assert foot < TV["height"]
    for bottom in page.locator("section.tv-totals").evaluate_all(
        "sections => sections.map(s => s.getBoundingClientRect().bottom)"
    ):
        assert bottom <= foot, (bottom, foot)
    names = page.locator(".tv-name").evaluate_all(
        "names => names.map(n => parseFloat(getComputedStyle(n).fontSize))"
    )
    assert names and min(names) >= NAMES_AT_LEAST, min(names)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("sizes", "screens"),
    [
        ([6] * 6, [6]),  # six tables of six: one screen, three across, two down
        ([4, 5, 6, 3, 8, 4], [3, 3]),  # a table of eight: three tables to a screen
        ([5, 4, 6, 3] * 3, [6, 6]),  # tonight's twelve: two screens
    ],
    ids=["six-of-six", "one-of-eight", "twelve"],
)
def test_the_tv_fits_1280_by_720(live_server, tv, shoot, sizes, screens, scheme) -> None:
    group, token = group_tonight(live_server, sizes)
    page = tv(scheme)
    page.goto(live_server.url(f"/j#{token}"))
    expect(page).to_have_url(live_server.url(f"/g/{group}"))
    seen: list[str] = []
    for number, count in enumerate(screens, start=1):
        page.goto(live_server.url(f"/g/{group}/tv?page={number}"))
        expect(page.locator("section.tv-totals")).to_have_count(count)
        fits(page)
        shoot(page, f"{scheme}-{number}")
        seen += page.locator("section.tv-totals").all_inner_texts()
        if len(screens) == 1:
            # One screen: it follows by its stream; without a script it reads itself again.
            expect(page.locator("meta[http-equiv=refresh]")).to_have_count(0)
            assert 'http-equiv="refresh" content="15"' in page.locator("noscript").inner_html()
            assert page.locator("body").get_attribute("data-follow")
            expect(page.get_by_text(re.compile(r"^Page \d"))).to_have_count(0)
        else:
            then = number % len(screens) + 1  # the next screen, then round again
            refresh = page.locator("meta[http-equiv=refresh]").get_attribute("content")
            assert refresh == f"15; url=/g/{group}/tv?page={then}"
            expect(page.get_by_text(f"Page {number} of {len(screens)}")).to_be_visible()
    assert len(set(seen)) == len(seen) == len(sizes)  # every table on one screen, once
