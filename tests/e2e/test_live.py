"""Shared tables in a real browser: spectators follow without reloading, TV mode, a player seals
a secret bid on their own phone and the scorekeeper's phone never shows it before the round ends.

The pages ask the server every 3 seconds whether the table changed; every wait here is for what
a page shows, with a limit well above that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import answered, chip
from tests.e2e.test_journeys import enter_counts, next_is, spectator_link, start_table, tap

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

#: Long enough for a page to notice a change (it asks every 1 to 6 s) and swap it in.
FOLLOW_MS = 10_000


def test_spectators_and_the_tv_follow_the_table_without_reloading(live_server, phone, shoot):
    keeper = phone()
    url = start_table(keeper, live_server, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, live_server, url)
    spectator = phone()
    spectator.goto(link)
    next_is(spectator, "Turn up the trump")
    tv = phone()
    tv.goto(link)
    tv.goto(url + "/tv")
    expect(tv.locator("body.tv")).to_be_visible()
    fetched = []  # the spectator's page asks for itself: its poll (this server answers at once)
    spectator.on("request", lambda r: fetched.append(r) if r.resource_type == "fetch" else None)
    tap(keeper, "♠ spades")
    next_is(keeper, "Ben bids")
    expect(spectator.locator("#next-title")).to_contain_text("Ben bids", timeout=FOLLOW_MS)
    # Each a conditional request of the page itself with the position it showed (a 304 until
    # the table moved, then the page), never a second request for the page.
    assert fetched and {r.url for r in fetched} == {url}, [r.url for r in fetched]
    assert {r.headers.get("if-none-match") for r in fetched} <= {'"seq-0"', '"seq-1"'}
    expect(tv.locator(".tv-next")).to_contain_text("Ben bids", timeout=FOLLOW_MS)
    shoot(tv, "tv")
    shoot(spectator, "following")


def test_a_shared_link_opens_in_one_step_and_leaves_no_token_in_the_history(live_server, phone):
    keeper = phone()
    url = start_table(keeper, live_server, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, live_server, url)
    spectator = phone()
    spectator.goto(link)  # as scanning the QR code does
    expect(spectator).to_have_url(url)
    spectator.go_back()  # (to where the phone was before, or to /j without the token)
    assert link.split("#")[1] not in spectator.url


def test_without_javascript_a_link_opens_by_pasting_it(live_server, phone, shoot):
    keeper = phone()
    url = start_table(keeper, live_server, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, live_server, url)
    plain = phone(javascript=False)
    plain.goto(link)
    expect(plain.get_by_role("heading", name="Open a shared link")).to_be_visible()
    expect(plain.get_by_text("This browser runs no JavaScript")).to_be_visible()
    shoot(plain, "paste")
    plain.get_by_label("Link", exact=True).fill(link)
    plain.get_by_role("button", name="Open the link").tap()
    expect(plain).to_have_url(url)
    next_is(plain, "Turn up the trump")


def test_a_page_whose_link_no_longer_opens_the_table_says_so(live_server, phone, shoot):
    keeper = phone()
    url = start_table(keeper, live_server, "Blackout", ["Ann", "Ben", "Cho"])
    spectator = phone()
    spectator.goto(spectator_link(keeper, live_server, url))
    next_is(spectator, "Turn up the trump")
    live_server.app.config["SECRET_KEY"] = "changed, and the old one kept nowhere"
    note = spectator.locator(".flash.error")
    expect(note).to_contain_text("this phone's link no longer opens it", timeout=FOLLOW_MS)
    expect(spectator).to_have_url(url)  # the page stays as it was
    shoot(spectator, "lost")


def test_a_page_with_input_keeps_it_and_says_the_table_changed(live_server, phone):
    first = phone()
    url = start_table(first, live_server, "Blackout", ["Ann", "Ben", "Cho"])
    first.get_by_role("link", name="Share", exact=True).tap()
    first.get_by_role("button", name="Make a scorekeeper link").tap()
    keeper_link = str(first.locator("#keeper-link").input_value())
    second = phone()  # a second scorekeeper
    second.goto(keeper_link)
    expect(second).to_have_url(url)
    first.goto(url)
    tap(first, "♠ spades")
    for bid in ("0", "0", "0"):  # Ben, Cho, Ann
        tap(first, bid)
    next_is(first, "Play the round")
    expect(second.locator("#next-title")).to_contain_text("Play the round", timeout=FOLLOW_MS)
    chip(second, "Ben", 1).tap()  # the second phone starts entering …
    first.get_by_role("button", name="Undo the last entry").tap()  # … as the first undoes
    note = second.locator(".stale-note")
    expect(note).to_contain_text("The table changed on another phone", timeout=FOLLOW_MS)
    expect(chip(second, "Ben", 1)).to_be_checked()  # nothing entered is lost
    note.get_by_role("link").tap()
    next_is(second, "Ann bids")


def test_a_sealed_bid_from_a_players_phone(live_server, phone, shoot):
    keeper = phone()
    url = start_table(keeper, live_server, "Alles oder Nichts", ["Ann", "Ben", "Cho"])
    tap(keeper, "red")
    next_is(keeper, "Ben declares")
    keeper.get_by_role("link", name="Share", exact=True).tap()
    keeper.get_by_role("button", name="Link for Ben").tap()
    ben_link = str(keeper.locator("#player-link").input_value())
    keeper.goto(url)
    ben = phone()
    ben.goto(ben_link)
    expect(ben).to_have_url(url)
    ben.get_by_role("link", name="Declare on this phone").tap()
    expect(ben.get_by_role("heading", name="Ben: your secret bid")).to_be_visible()
    shoot(ben, "seal")
    ben.get_by_role("button", name="5", exact=True).tap()
    expect(ben.get_by_role("status").first).to_contain_text("bid is sealed")
    expect(keeper.locator("#next-title")).to_contain_text("Cho declares", timeout=FOLLOW_MS)
    bids = keeper.locator("section[aria-labelledby=bids-title]")
    expect(bids).to_contain_text("Ben: secret")
    expect(bids).not_to_contain_text("5")
    shoot(keeper, "sealed")
    history = phone()
    history.goto(ben_link)
    history.goto(url + "/history")
    expect(history.get_by_text(re.compile("Ben declared secret, bid sealed until"))).to_be_visible()


class Held:
    """The app under gunicorn's gevent workers, as in production (``tests/durability``), so
    that a page's stream is held open; ``url("/new")`` is an address on it."""

    def __init__(self, tmp_path: Path) -> None:
        from app import create_app
        from referee.store import db
        from referee.store.db import upgrade_to_head
        from tests.durability.conftest import Server

        self.database = f"sqlite:///{tmp_path / 'held.sqlite3'}"
        app = create_app({"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": self.database})
        with app.app_context():
            upgrade_to_head()
            db.engine.dispose()
        self.server = Server(self.database, tmp_path / "gunicorn.log")

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.server.port}{path}"


@pytest.fixture
def held_server(tmp_path: Path) -> Iterator[Held]:
    held = Held(tmp_path)
    held.server.start()
    yield held
    held.server.stop()


def test_a_watching_phone_shows_each_entry_from_its_stream(held_server, phone):
    """Under the production server a spectator's page holds its stream open, which brings each
    entry as the page itself: no request per change at all."""
    keeper = phone()
    url = start_table(keeper, held_server, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, held_server, url)
    spectator = phone()
    streams: list[str] = []
    spectator.on(
        "request", lambda r: streams.append(r.url) if r.resource_type == "eventsource" else None
    )
    spectator.goto(link)
    next_is(spectator, "Turn up the trump")
    sent: list[str] = []
    spectator.on("request", lambda r: sent.append(f"{r.method} {r.url}"))
    spectator.wait_for_timeout(1000)  # the stream is open
    assert streams == [f"{url}?stream=0"], streams
    shown = ["Ben bids", "Cho bids", "Ann bids", "Play the round"]
    for tapped, then in zip(["♠ spades", "0", "0", "0"], shown, strict=True):
        tap(keeper, tapped)
        expect(spectator.locator("#next-title")).to_contain_text(then, timeout=FOLLOW_MS)
    spectator.wait_for_timeout(500)
    assert sent == [], sent  # every change came by the stream


def test_a_groups_page_and_tv_mode_follow_tonights_table_by_their_stream(held_server, phone, shoot):
    """Under the production server the group page and its TV mode hold their streams open: a
    round scored at tonight's table shows on both without a reload, one request of the page for
    the change (its live part read again), and the roster form's typing on the group page kept."""
    keeper = phone()
    url = start_table(keeper, held_server, "Blackout", ["Ann", "Ben", "Cho"])
    keeper.goto(url + "/group")
    keeper.get_by_label("Group name", exact=True).fill("Club")
    answered(keeper, keeper.get_by_role("button", name="Create the group with this table").tap)
    found = re.match(r"^(.*?/g/[^/?#]+)", keeper.url)
    assert found, keeper.url
    group = found[1]
    tv = keeper.context.new_page()
    tv.goto(group + "/tv")
    page = keeper.context.new_page()
    page.goto(group)
    expect(tv.locator(".tv-progress")).to_contain_text("Round 1 of", timeout=FOLLOW_MS)
    sent: list[str] = []
    for watcher in (tv, page):
        watcher.on(
            "request", lambda r: sent.append(r.url) if r.resource_type != "eventsource" else None
        )
    page.wait_for_timeout(1000)  # the streams are open
    for watcher in (tv, page):
        watcher.evaluate("window.notReloaded = true")
    season = page.get_by_label("New season's name")
    season.fill("Autumn")  # typed, not sent: kept while the tables part follows
    keeper.goto(url)
    tap(keeper, "♠ spades")
    for _ in range(3):
        tap(keeper, "0")
    enter_counts(keeper, {"Ann": 1, "Ben": 0, "Cho": 0}, "Enter the tricks")
    expect(tv.locator(".tv-progress")).to_contain_text("Round 2 of", timeout=FOLLOW_MS)
    expect(page.locator("#evenings")).to_contain_text("Round 2 of", timeout=FOLLOW_MS)
    expect(season).to_have_value("Autumn")
    assert tv.evaluate("window.notReloaded") and page.evaluate("window.notReloaded")
    assert all(u.split("?")[0] in (group, group + "/tv") for u in sent), sent
    shoot(tv, "group-tv-followed")
