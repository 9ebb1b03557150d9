"""Joining, leaving and sitting out on a 360×740 phone in Chromium (docs/rules.md, "Joining,
leaving, sitting out"): a late join in three taps and the name typed, a sit-out in three taps,
ending the game in two, each screen looked at light and dark.

The table is set up through the store up to the round boundary the test taps at."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.rules import Setup, start
from referee.store.tables import table_state
from tests.durability.legal import next_entry
from tests.e2e.conftest import LiveServer
from tests.e2e.test_chips import counted_phone, table_with

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

FOUR = ("Ann", "Ben", "Cho", "Dee")


def two_rounds_played(server: LiveServer, game: str = "blackout") -> str:
    """Four players, two rounds complete, the third not begun."""
    rng = random.Random(4)
    state = start(Setup(game, FOUR))
    events = []
    while len([r for r in state.rounds if state.game.round_complete(r)]) < 2 or (
        state.game.upcoming(state) is state.current
    ):
        found = next_entry(state, rng)
        assert found is not None
        events.append(found[0])
        state = found[1]
    return table_with(server, Setup(game, FOUR), events)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_late_join_takes_three_taps_and_the_name(live_server, phone, shoot, scheme) -> None:
    table = two_rounds_played(live_server)
    counted = counted_phone(lambda **kw: phone(color_scheme=scheme, **kw), live_server, table)
    page = counted.page
    panel = page.locator("details.seat-changes")
    counted.tap(panel.locator("summary"))
    shoot(page, f"seat-changes-{scheme}")
    counted.tap(panel.get_by_label("Name"))
    page.keyboard.type("Eve")
    counted.tap(panel.get_by_role("button", name="Seat them from round 3"), sends=True)
    expect(page.locator("h1")).to_contain_text("Eve")
    assert counted.taps == 3
    assert counted.touches == counted.taps + len("Eve")  # the page counts each key typed too
    with live_server.app.app_context():
        state = table_state(table)
    assert state.players == (*FOUR, "Eve") and state.seating is not None
    page.goto(live_server.url(f"/t/{table}/sheet"))
    expect(
        page.get_by_text("Before round 3: Eve joined left of Dee, starting with")
    ).to_be_visible()
    shoot(page, f"sheet-with-newcomer-{scheme}")


def test_a_sit_out_takes_three_taps_and_a_game_ends_in_two(live_server, phone, shoot) -> None:
    table = two_rounds_played(live_server)
    counted = counted_phone(phone, live_server, table)
    page = counted.page
    panel = page.locator("details.seat-changes")
    counted.tap(panel.locator("summary"))
    panel.get_by_label("Sits out round 3").select_option(label="Cho")
    counted.taps += 1  # choosing in the list is one touch (a select is not tapped in tests)
    counted.tap(panel.get_by_role("button", name="Sit out"), sends=True)
    assert counted.taps == 3
    with live_server.app.app_context():
        rnd = table_state(table).game.upcoming(table_state(table))
    assert rnd is not None and "Cho" not in rnd.seats
    counted.reset()
    end = page.locator("details.end-early:not(.seat-changes)")
    counted.tap(end.locator("summary"))
    counted.tap(end.get_by_role("button", name="End after round 2 of 25"), sends=True)
    expect(page.get_by_text("Ended after round 2 of 25")).to_be_visible()
    assert counted.taps == 2 and counted.touches == 2
    shoot(page, "ended-after-sit-out")


def test_the_panel_in_german(live_server, phone, shoot) -> None:
    table = two_rounds_played(live_server, "alles-oder-nichts")
    page: Any = counted_phone(phone, live_server, table).page
    page.get_by_role("link", name="Deutsch").tap()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    panel = page.locator("details.seat-changes")
    panel.locator("summary").click()
    shoot(page, "seat-changes-de")
    expect(panel.locator("summary")).not_to_have_text("Someone joins, leaves or sits out")
