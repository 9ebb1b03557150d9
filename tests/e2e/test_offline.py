"""A dead signal loses nothing (issue 19), in Chromium with the network cut and restored.

Playwright's offline mode (``context.set_offline``) cuts the phone's network, its service
worker's included. A phone has seen a page once with a connection (its service worker then
keeps it); offline the page opens from the phone with the "Offline — as of" line; an entry
tapped offline waits on the phone and reaches the table by itself once the connection is back,
exactly once; two phones offline with different entries for the same step end with one entry
and one refusal that says why; and the manifest and service worker pass Chromium's own
installability check. Online, the server's page is always the one shown.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from referee.store.groups import create_group, get_group, make_group_link
from referee.store.tables import append_entry, get_table, table_state
from tests.durability.legal import next_entry
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer
from tests.e2e.test_accessibility import played_table
from tests.e2e.test_journeys import enter_counts, next_is, start_table, tap, totals_are
from tests.links import new_link

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

OFFLINE_LINE = re.compile(r"Offline — as of \d")


def keeper_phone(phone: Any, server: LiveServer, table: str) -> Any:
    """A phone that opened the table's scorekeeper link and whose service worker now controls
    the table page (so the page is kept on the phone)."""
    page = phone()
    page.goto(server.url(f"/j#{new_link(server.app, table)}"))
    expect(page).to_have_url(server.url(f"/t/{table}"))
    controlled(page)
    expect(page.locator(".offline-line")).to_be_hidden()
    return page


def controlled(page: Any) -> None:
    """Wait until the page's service worker controls it. (Not ``wait_for_function``: its
    string is evaluated in the page, which the Content-Security-Policy forbids.)"""
    for _ in range(100):
        if page.evaluate("() => Boolean(navigator.serviceWorker.controller)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("no service worker controls the page")


#: What an entry posts to: while a phone is cut off, its posts there fail as without a network.
ENTRIES = "**/t/*/entry"


def cut_off(page: Any) -> None:
    """Cut the phone's network, and wait until the page and its service worker both know it.
    Chromium does not always hold a page loaded meanwhile to the cut at once (under load, a
    waiting entry sent by the next page it opened reached the server), so an entry's post
    also fails at the browser's own door, as it would without a network."""
    page.context.set_offline(True)
    page.context.route(ENTRIES, lambda route: route.abort("internetdisconnected"))
    for _ in range(100):
        workers = page.context.service_workers
        if not page.evaluate("() => navigator.onLine") and not any(
            worker.evaluate("() => navigator.onLine") for worker in workers
        ):
            return
        page.wait_for_timeout(50)
    raise AssertionError("the phone still says it is online")


def reconnect(page: Any) -> None:
    """Give the phone its network back (``cut_off``)."""
    page.context.unroute(ENTRIES)
    page.context.set_offline(False)


def bids_of(server: LiveServer, table: str) -> list[tuple[str, int]]:
    """The bids in the table's log (every entry, undone or not)."""
    with server.app.app_context():
        record = get_table(table)
    assert record is not None
    return [
        (e.payload["player"], e.payload["bid"])
        for e in record.entries
        if e.kind == "event" and e.payload["type"] == "bid"
    ]


def bid_button(page: Any, bid: str) -> Any:
    panel = page.locator("section[aria-labelledby=next-title]")
    return panel.get_by_role("button", name=bid, exact=True)


def test_a_table_page_and_its_sheet_reloaded_offline_still_show_the_table(
    live_server, phone, shoot
):
    table = played_table(live_server, "blackout", "bid", 1, max_cards=2)
    page = keeper_phone(phone, live_server, table)
    next_step = page.locator("#next-title").inner_text()
    page.get_by_role("link", name="Score sheet").first.tap()
    expect(page.get_by_role("table", name="Score sheet")).to_be_visible()
    page.go_back()
    expect(page.locator("#next-title")).to_have_text(next_step)

    cut_off(page)
    kept = page.reload()
    assert "script-src 'self'" in kept.headers["content-security-policy"]  # as strict as online
    expect(page.locator("#next-title")).to_have_text(next_step)
    expect(page.locator(".offline-line")).to_be_visible()
    expect(page.locator(".offline-line")).to_have_text(OFFLINE_LINE)
    shoot(page, "table-offline")
    page.get_by_role("button", name="Undo the last entry").tap()  # needs the table: it says so
    expect(page.locator(".needs-table-note")).to_contain_text("No connection: this needs the table")
    expect(page.locator("#next-title")).to_have_text(next_step)
    page.get_by_role("link", name="Score sheet").first.tap()
    expect(page.get_by_role("table", name="Score sheet")).to_be_visible()
    expect(page.locator(".offline-line")).to_have_text(OFFLINE_LINE)
    shoot(page, "sheet-offline")

    reconnect(page)  # back online: the page is fetched again, as it is now
    expect(page.locator(".offline-line")).to_be_hidden()
    expect(page.locator("body[data-offline]")).to_have_count(0)


def test_online_the_page_shown_is_the_servers_never_the_kept_one(live_server, phone):
    table = played_table(live_server, "blackout", "bid", 1, max_cards=2)
    page = keeper_phone(phone, live_server, table)
    page.reload()  # now certainly kept by the service worker
    before = page.locator("#next-title").inner_text()
    with live_server.app.app_context():  # another phone enters the next step meanwhile
        record, state = get_table(table), table_state(table)
        assert record is not None and state is not None
        found = next_entry(state, random.Random(1))
        assert found is not None
        append_entry(table, record.last_seq, "event", found[0].to_dict())
    page.reload()
    expect(page.locator("#next-title")).not_to_have_text(before)
    expect(page.locator(".offline-line")).to_be_hidden()
    expect(page.locator("body[data-offline]")).to_have_count(0)


def test_a_bid_tapped_offline_reaches_the_table_once_online_without_another_tap(
    live_server, phone, shoot
):
    table = played_table(live_server, "blackout", "bid", 1, max_cards=2)
    page = keeper_phone(phone, live_server, table)
    page.get_by_role("link", name="Score sheet").first.tap()  # seen once, so kept
    expect(page.get_by_role("table", name="Score sheet")).to_be_visible()
    page.go_back()
    bidder = page.locator("#next-title").inner_text()
    before = bids_of(live_server, table)

    cut_off(page)
    bid_button(page, "0").tap()
    expect(page.locator(".waiting-note").first).to_be_visible()
    expect(page.locator("main")).to_contain_text("Waiting to be sent")
    expect(page.locator("main")).to_contain_text("what comes next depends on it")
    expect(page.locator("form.held").first).to_be_visible()  # no second entry meanwhile
    page.reload()  # still offline: the kept page, with the entry still waiting
    expect(page.locator(".offline-line")).to_have_text(OFFLINE_LINE)
    expect(page.locator("main")).to_contain_text("Waiting to be sent")
    shoot(page, "waiting")
    page.get_by_role("link", name="Score sheet").first.tap()  # another page says where it waits
    expect(page.get_by_role("table", name="Score sheet")).to_be_visible()
    elsewhere = page.locator(".waiting-note a")
    expect(elsewhere).to_contain_text("An entry made offline is waiting to be sent")
    elsewhere.tap()
    expect(page.locator("main")).to_contain_text("Waiting to be sent")
    assert bids_of(live_server, table) == before

    reconnect(page)  # no tap: the entry goes by itself
    expect(page.locator(".sent-note")).to_contain_text("has reached the table")
    expect(page.locator("#next-title")).not_to_have_text(bidder)
    expect(page.locator(".waiting-note")).to_have_count(0)
    shoot(page, "sent")
    page.wait_for_timeout(3500)  # a round of the retry timer: nothing is sent again
    after = bids_of(live_server, table)
    assert len(after) == len(before) + 1 and after[-1][1] == 0
    assert page.evaluate("localStorage.getItem('referee-waiting')") == "[]"


def test_two_phones_offline_with_the_same_step_end_with_one_entry_and_one_refusal(
    live_server, phone, shoot
):
    table = played_table(live_server, "blackout", "bid", 1, max_cards=2)
    first = keeper_phone(phone, live_server, table)
    second = keeper_phone(phone, live_server, table)
    before = bids_of(live_server, table)
    for page, bid in ((first, "0"), (second, "1")):
        cut_off(page)
        bid_button(page, bid).tap()
        expect(page.locator("main")).to_contain_text("Waiting to be sent")

    reconnect(first)
    expect(first.locator(".sent-note")).to_contain_text("has reached the table")
    reconnect(second)
    expect(second.locator(".sent-note")).to_contain_text("was not recorded")
    expect(second.locator(".error-box")).to_contain_text(
        "The table changed on another phone since this page was shown"
    )
    shoot(second, "refused")
    after = bids_of(live_server, table)
    assert len(after) == len(before) + 1 and after[-1][1] == 0


def test_the_manifest_and_service_worker_pass_chromiums_installability_check(
    live_server, browser, tmp_path
):
    # A profile of its own: Chromium never offers to install from an incognito window, which
    # every other phone of these tests is.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    try:
        page = context.new_page()
        icons: list[str] = []
        context.on("request", lambda r: icons.append(r.url) if "/icon-" in r.url else None)
        page.goto(live_server.url("/"))
        controlled(page)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert re.match(
            re.escape(live_server.url("/static/manifest.")) + r"[0-9a-f]{12}\.webmanifest$",
            manifest["url"],
        )
        assert manifest["errors"] == []
        assert manifest["manifest"]["display"] == "kStandalone"
        assert manifest["manifest"]["startUrl"] == live_server.url("/")
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        for size in (192, 512):
            icon = page.request.get(live_server.url(f"/static/icon-{size}.png"))
            assert icon.ok and icon.headers["content-type"] == "image/png"
    finally:
        context.close()


def test_two_rounds_with_one_entry_made_offline_hold_every_entry_once(live_server, phone, shoot):
    """The issue's "done when": a phone plays two rounds, loses its connection for one entry,
    gets it back, and the table holds every entry once without a second tap; the sheet opens
    offline. Every address the phone asked reached the server once at most per page shown."""
    asked: list[str] = []
    inner = live_server.app.wsgi_app

    def counted(environ: dict[str, Any], start_response: Any) -> Any:
        poll = "HTTP_X_TABLE_POLL" in environ  # the page's own poll (static/app.js)
        stream = "text/event-stream" in environ.get("HTTP_ACCEPT", "")  # … or its stream
        method = "POLL" if poll else "STREAM" if stream else environ["REQUEST_METHOD"]
        asked.append(f"{method} {environ['PATH_INFO']}")
        return inner(environ, start_response)

    live_server.app.wsgi_app = counted  # type: ignore[method-assign]
    page = phone()
    url = start_table(
        page, live_server, "Blackout", ["Ann", "Ben", "Cho"], **{"Most cards in a hand": "2"}
    )
    table = url.rsplit("/", 1)[1]
    controlled(page)
    tap(page, "♥ hearts")
    for bid in ("0", "0", "0"):  # Ben, Cho, Ann
        tap(page, bid)
    enter_counts(page, {"Ann": 1, "Ben": 0, "Cho": 0}, "Enter the tricks")
    expect(page.get_by_role("heading", name="Round 2 of 3")).to_be_visible()
    next_is(page, "Cho bids")

    cut_off(page)  # the signal goes for one entry
    bid_button(page, "1").tap()
    expect(page.locator("main")).to_contain_text("Waiting to be sent: Cho bids: 1")
    reconnect(page)
    expect(page.locator(".sent-note")).to_contain_text("has reached the table: Cho bids: 1")
    next_is(page, "Ann bids")
    tap(page, "0")
    tap(page, "0")  # Ben
    enter_counts(page, {"Ann": 0, "Ben": 1, "Cho": 1}, "Enter the tricks")
    expect(page.get_by_role("heading", name="Round 3 of 3")).to_be_visible()
    totals_are(page, {"Ann": 10, "Ben": 10, "Cho": 21})

    page.get_by_role("link", name="Score sheet").first.tap()  # seen once online …
    expect(page.get_by_role("table", name="Score sheet")).to_be_visible()
    cut_off(page)
    page.reload()  # … and open offline
    rounds = page.get_by_role("table", name="Score sheet").locator("tbody tr.round-row")
    expect(rounds).to_have_count(2)
    expect(page.locator(".offline-line")).to_have_text(OFFLINE_LINE)
    shoot(page, "sheet-offline")

    with live_server.app.app_context():
        record = get_table(table)
    assert record is not None
    kinds = [e.payload["type"] for e in record.entries if e.kind == "event"]
    assert kinds == ["trump", "bid", "bid", "bid", "tricks", "bid", "bid", "bid", "tricks"]
    assert [e.kind for e in record.entries].count("undo") == 0
    pages = [line for line in asked if line.startswith("GET /t/")]
    assert pages.count(f"GET /t/{table}") <= 1, pages  # the service worker asked for no copy
    assert asked.count("GET /sw.js") >= 1


def test_a_groups_pages_seen_once_open_offline_marked_as_kept(live_server, phone, shoot):
    """A group's page, standings and a player's profile, seen once online, open offline from
    the phone with the "Offline — as of" line, as a table's pages do."""
    with live_server.app.app_context():
        group_id = create_group("Friday club", "Europe/Berlin", ["Ann", "Ben", "Cho"])
        token = make_group_link(group_id, "viewer")
        ann = get_group(group_id).players[0].id
    page = phone()
    page.goto(live_server.url(f"/j#{token}"))
    expect(page).to_have_url(live_server.url(f"/g/{group_id}"))
    controlled(page)
    seen = {
        f"/g/{group_id}": "Friday club",
        f"/g/{group_id}/standings": "Standings",
        f"/g/{group_id}/p/{ann}": "Ann",
    }
    for path in seen:
        page.goto(live_server.url(path))
    cut_off(page)
    for path, heading in seen.items():
        page.goto(live_server.url(path))
        expect(page.locator("h1").first).to_contain_text(heading)
        expect(page.locator(".offline-line")).to_have_text(OFFLINE_LINE)
    shoot(page, "group-profile-offline")
    reconnect(page)  # back online: the page is fetched again by itself (a reload here raced it)
    expect(page.locator("body[data-offline]")).to_have_count(0)


def kept_paths(page: Any, wanted: str) -> list[str]:
    """The paths of the pages the phone keeps for offline, once ``wanted`` is among them (the
    service worker keeps a page after answering it)."""
    script = """async () => (await (await caches.open("pages")).keys())
        .map((request) => new URL(request.url).pathname)"""
    for _ in range(100):
        kept: list[str] = page.evaluate(script)
        if wanted in kept:
            return kept
        page.wait_for_timeout(50)
    raise AssertionError(f"{wanted} was not kept")


def test_a_share_page_is_never_kept_for_offline(live_server, phone):
    """A share page shows links that may be revoked a moment later (``no-store``): the phone
    keeps the pages around it for offline, never it."""
    table = played_table(live_server, "blackout", "bid", 1, max_cards=2)
    page = keeper_phone(phone, live_server, table)
    with live_server.app.app_context():
        group_id = create_group("Friday club", "Europe/Berlin", ["Ann", "Ben", "Cho"])
        token = make_group_link(group_id, "keeper")
    page.goto(live_server.url(f"/j#{token}"))
    expect(page).to_have_url(live_server.url(f"/g/{group_id}"))
    for path in (f"/t/{table}/share", f"/g/{group_id}/share", f"/t/{table}/sheet"):
        page.goto(live_server.url(path))
        expect(page.locator("h1").first).to_be_visible()
    kept = kept_paths(page, f"/t/{table}/sheet")
    assert f"/t/{table}" in kept and f"/g/{group_id}" in kept
    assert f"/t/{table}/share" not in kept and f"/g/{group_id}/share" not in kept
