"""axe-core's accessibility rules on the main pages (issue 33), as a 360×740 phone shows them, in
light and dark and in English and German: no violation of impact "serious" or "critical", and
every part of every page in a landmark.

axe-core comes with ``axe-playwright-python`` (requirements-dev.txt), which runs it in the page.
The pages: home, a new table, the round screen of each game (a Blackout round with bids, Alles
oder Nichts' declarations, ebbes' cards won, a round card by card), the score sheet, the
history, a table's standings, a group's standings and a rules page. Their tables are set up
through the store, once for the module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.e2e.conftest import LiveServer
from tests.e2e.helpers import answered
from tests.e2e.test_accessibility import friday_club, open_link, played_table

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

#: The impacts that fail a page.
FAILING = ("serious", "critical")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("axe")) as live:
        yield live


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> dict[str, str]:
    """The tables the pages show, by name: their ids."""
    return {
        "blackout": played_table(server, "blackout", "bid", 2),
        "alles": played_table(server, "alles-oder-nichts", "declare", 1),
        "ebbes": played_table(server, "ebbes", "play", 0),
        "cards": played_table(server, "blackout", "play", 1),
        "fresh": played_table(server, "blackout", "trump", 0),
    }


#: A page: takes the phone, the server, the tables and the phone's language, and leaves the
#: phone showing the page.
Page = Callable[[Any, LiveServer, dict[str, str], str], None]


def plain(path: str) -> Page:
    def show(page: Any, server: LiveServer, tables: dict[str, str], lang: str) -> None:
        page.goto(server.url(path))

    return show


def table_page(name: str, path: str = "") -> Page:
    def show(page: Any, server: LiveServer, tables: dict[str, str], lang: str) -> None:
        url = open_link(page, server, tables[name])
        page.goto(f"{url}{path}")

    return show


def ebbes_cards_won(page: Any, server: LiveServer, tables: dict[str, str], lang: str) -> None:
    """ebbes' count step: the four roles tapped on a table of its own."""
    open_link(page, server, played_table(server, "ebbes", "play", 0))
    for _ in range(4):
        colours = page.locator("section#next .choices button")
        answered(page, colours.first.click)
    expect(page.locator("section#next p.confirm button")).to_be_visible()


def group_standings(page: Any, server: LiveServer, tables: dict[str, str], lang: str) -> None:
    """The Friday club's standings for all time (the group loaded from its file in English)."""
    page.set_extra_http_headers({"Accept-Language": "en"})
    group = friday_club(page, server)
    page.set_extra_http_headers({"Accept-Language": lang})
    page.goto(group + "/standings?season=all")


PAGES: dict[str, Page] = {
    "home": plain("/"),
    "new-table": plain("/new"),
    "blackout-bids": table_page("blackout"),
    "alles-declare": table_page("alles"),
    "ebbes-roles": table_page("ebbes"),
    "ebbes-cards-won": ebbes_cards_won,
    "card-by-card": table_page("cards", "?mode=cards"),
    "sheet": table_page("blackout", "/sheet"),
    "history": table_page("alles", "/history"),
    "standings": table_page("blackout", "/standings"),
    "group-standings": group_standings,
    "rules": plain("/rules/ebbes"),
    "paper-card": table_page("fresh", "/paper"),
}


#: The rules that fail a page whatever their impact: every part of a page in a landmark (the
#: language switcher was outside any), a page with a main landmark.
ALWAYS = ("region", "landmark-one-main")


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, and those of ``ALWAYS``, one line
    per element."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['impact']} {v['id']}: {v['help']} — {node['target']} {node['failureSummary']}"
        for v in found
        if v["impact"] in FAILING or v["id"] in ALWAYS
        for node in v["nodes"]
    ]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_or_critical_axe_violation(name, lang, server, tables, phone):
    """Each page, opened once, is checked light and then dark (the phone's colour scheme
    switched, as its setting does)."""
    page = phone()
    page.set_extra_http_headers({"Accept-Language": lang})  # the phone's own language
    PAGES[name](page, server, tables, lang)
    page.wait_for_load_state("load")
    assert page.locator("html").get_attribute("lang") == lang
    violations = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        violations += [f"{scheme}: {violation}" for violation in serious(page)]
    assert not violations, f"{name} ({lang}):\n" + "\n".join(violations)
