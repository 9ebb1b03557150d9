"""A new table of each game, played in Chromium on a phone as the people at the table would.

Each journey starts on the home page, creates the table on /new, plays at least two rounds with
taps, has a breach refused with its sentence and then corrected, reads the
totals, downloads the record (and the PDF sheet when the page offers one), and opens the table
on a second phone with the spectator link that the first phone's share page shows: the second
phone follows the table without controls and shows the first phone's entry after a reload.
Nothing waits for a fixed time: every step waits for what the page shows. Screenshots land in
``artifacts/e2e/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from referee.records import load_record
from referee.rules.wording import number_text
from tests.durability import summary
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import answered, chip

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None


#: The round panel's facts: dealer, trump, number card, roles.
ROUND_FACTS = "section[aria-labelledby=round-title] .facts"


# --- what a person does on the pages -----------------------------------------------------------


def start_table(page: Any, server: Any, game: str, names: list[str], **options: str) -> str:
    """From the home page: pick the game, type the names and options, create; the table's URL.

    The filled-in form is kept as a screenshot (``artifacts/e2e/new-<game>.png``).
    """
    page.goto(server.url("/"))
    new_table_link = page.locator("a[href*='/new']")
    page.get_by_role("link", name=re.compile(f"^{re.escape(game)}")).and_(new_table_link).tap()
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile(f"^{re.escape(game)}"))).to_be_checked()
    for seat, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"{seat} Seat {seat}").fill(name)
    for label, value in options.items():
        page.get_by_label(label, exact=True).fill(value)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"new-{game.replace(' ', '-')}.png"), full_page=True)
    submit(page, page.get_by_role("button", name="Create table"))
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    return str(page.url)


def next_is(page: Any, text: str) -> None:
    """The page says what the table enters next."""
    expect(page.locator("#next-title")).to_contain_text(text)


def submit(page: Any, button: Any) -> None:
    """Tap a button that sends its form, and wait until what comes back is shown."""
    answered(page, button.tap)


def tap(page: Any, name: str) -> None:
    """Tap the button ``name`` in the "Next" panel (the entry buttons)."""
    panel = page.locator("section[aria-labelledby=next-title]")
    submit(page, panel.get_by_role("button", name=name, exact=True))


def enter_counts(page: Any, counts: dict[str, int | str], button: str) -> None:
    """Tap a count chip per player named, then press ``button``."""
    panel = page.locator("section[aria-labelledby=next-title]")
    for player, value in counts.items():
        chip(panel, player, value).tap()
    submit(page, panel.get_by_role("button", name=button))


def refused(page: Any, sentence: str) -> None:
    """The entry was refused: the error box says why."""
    expect(page.get_by_role("alert")).to_contain_text(sentence)


def totals_are(page: Any, totals: dict[str, int]) -> None:
    section = page.locator("section[aria-labelledby=totals-title]")
    for player, points in totals.items():
        expect(section.locator(f"dt:text-is('{player}') + dd")).to_have_text(
            re.compile(rf"^{number_text(points)}( ★)?$")  # a negative one with "−"
        )


def download(page: Any, link: Any, tmp_path: Path) -> Path:
    with page.expect_download() as info:
        link.click()
    target = tmp_path / info.value.suggested_filename
    info.value.save_as(target)
    return target


def check_downloads(page: Any, tmp_path: Path, game: str, players: list[str]) -> dict[str, int]:
    """The record from the nav's Record link reads back as this game; the PDF when offered.

    Returns the record's totals, replayed by the referee.
    """
    more = page.locator("nav.tabs details.more")
    if more.count() and not more.evaluate("details => details.open"):
        page.get_by_text("More", exact=True).click()  # the tab bar's menu of downloads
    record_file = download(page, page.get_by_role("link", name="Record", exact=True), tmp_path)
    assert record_file.suffix == ".json"
    data = json.loads(record_file.read_text(encoding="utf-8"))
    assert data["format"] == "table-referee/1"
    record = load_record(record_file.read_bytes())
    assert record.setup.game == game and list(record.setup.players) == players
    state = record.replay()
    assert state.violations == []
    pdf_links = page.locator("a[href$='sheet.pdf'], a:text-matches('Download PDF', 'i')")
    if pdf_links.count():  # the PDF sheet, where the page offers one
        pdf = download(page, pdf_links.first, tmp_path)
        assert pdf.read_bytes().startswith(b"%PDF")
        text = " ".join(sheet.extract_text() for sheet in PdfReader(pdf).pages)
        assert all(player in text for player in players), text[:500]
    return state.totals()


def spectator_link(page: Any, server: Any, url: str) -> str:
    """The spectator link as the scorekeeper's phone shows it on the share page of the table at
    ``url`` (with its QR code); the phone goes back to the table afterwards."""
    page.get_by_role("link", name="Share", exact=True).tap()
    expect(page.get_by_role("heading", name="Share this table")).to_be_visible()
    link = page.locator("#viewer-link")
    expect(link).to_have_value(re.compile("^" + re.escape(server.url("/j#")) + r"[\w-]+$"))
    expect(page.locator("section[aria-labelledby=viewer-title] figure.qr svg")).to_be_visible()
    shown = str(link.input_value())
    page.get_by_role("link", name="Table", exact=True).tap()
    expect(page).to_have_url(url)
    return shown


def see_on_second_phone(phone: Any, page: Any, server: Any, url: str, text: str) -> Any:
    """A second phone opens the spectator link from the first phone's share page: it shows the
    table at ``url``, follows it without the scorekeeper's controls, and says ``text`` is next."""
    link = spectator_link(page, server, url)
    second = phone()
    second.goto(link)
    expect(second).to_have_url(url)
    expect(second.locator("#next-title")).to_contain_text(text)
    panel = second.locator("section[aria-labelledby=next-title]")
    expect(panel).to_contain_text("this page follows along")
    expect(panel.get_by_role("button")).to_have_count(0)
    expect(second.get_by_role("link", name="Share", exact=True)).to_have_count(0)
    return second


def sheet_has(page: Any, rows: int, totals: dict[str, int]) -> None:
    """The page shows the score sheet: a table with a row per round and the totals below."""
    table = page.get_by_role("table", name="Score sheet")
    expect(table.locator("tbody tr.round-row")).to_have_count(rows)
    foot = table.locator("tfoot td")
    expect(foot).to_have_text([str(n) for n in totals.values()])


# --- Blackout ----------------------------------------------------------------------------------


def test_blackout_journey(live_server, phone, shoot, tmp_path):
    page = phone()
    url = start_table(
        page, live_server, "Blackout", ["Ann", "Ben", "Cho"], **{"Most cards in a hand": "2"}
    )
    expect(page.get_by_role("heading", name="Round 1 of 3")).to_be_visible()
    next_is(page, "Turn up the trump")
    shoot(page, "round-1")
    tap(page, "♥ hearts")
    next_is(page, "Ben bids")  # Ann deals, Ben bids first
    tap(page, "0")
    next_is(page, "Cho bids")
    tap(page, "0")
    # The hook: the dealer may not make the bids add up to the tricks. The button says so.
    next_is(page, "Ann bids")
    hooked = page.get_by_role("button", name="1", exact=True)
    expect(hooked).to_be_disabled()
    expect(page.locator("#why-1")).to_contain_text("Ann (the dealer) cannot bid 1")
    shoot(page, "hook")
    tap(page, "0")
    next_is(page, "Play the round")
    # Tricks that do not add up are refused, the reason shown, the tapped counts kept.
    enter_counts(page, {"Ann": 1, "Ben": 1, "Cho": 0}, "Enter the tricks")
    refused(page, "The tricks won add up to 2; round 1 has 1 trick.")
    expect(chip(page, "Ben", 1)).to_be_checked()
    shoot(page, "refused")
    enter_counts(page, {"Ben": 0}, "Enter the tricks")
    expect(page.get_by_role("heading", name="Round 2 of 3")).to_be_visible()
    totals_are(page, {"Ann": 0, "Ben": 10, "Cho": 10})

    # Round 2 deals the whole deck: no trump, bidding straight away.
    expect(page.locator(ROUND_FACTS)).to_contain_text("no trump")
    next_is(page, "Cho bids")
    tap(page, "1")
    tap(page, "0")  # Ann
    next_is(page, "Ben bids")
    expect(page.get_by_role("button", name="1", exact=True)).to_be_disabled()
    tap(page, "0")
    enter_counts(page, {"Ann": 0, "Ben": 1, "Cho": 1}, "Enter the tricks")
    expect(page.get_by_role("heading", name="Round 3 of 3")).to_be_visible()
    totals_are(page, {"Ann": 10, "Ben": 10, "Cho": 21})

    # A second phone at the table sees the same, and the first phone's next entry on reload.
    second = see_on_second_phone(phone, page, live_server, url, "Turn up the trump")
    tap(page, "♠ spades")
    next_is(page, "Ann bids")
    second.reload()
    next_is(second, "Ann bids")
    expect(second.locator(ROUND_FACTS)).to_contain_text("♠ spades")
    shoot(second, "second-phone")

    for bid in ("0", "0", "0"):  # Ann, Ben, then Cho (the dealer: 1 is hooked)
        tap(page, bid)
    enter_counts(page, {"Ann": 1, "Ben": 0, "Cho": 0}, "Enter the tricks")
    next_is(page, "The game is over")
    expect(page.locator(".winner")).to_contain_text("Cho")
    shoot(page, "winner")
    totals = {"Ann": 10, "Ben": 20, "Cho": 31}
    assert check_downloads(page, tmp_path, "blackout", ["Ann", "Ben", "Cho"]) == totals
    summary.count("journeys")


# --- Alles oder Nichts ---------------------------------------------------------------------


def test_alles_oder_nichts_journey(live_server, phone, shoot, tmp_path):
    page = phone()
    url = start_table(page, live_server, "Alles oder Nichts", ["Ann", "Ben", "Cho"])
    expect(page.get_by_role("heading", name="Round 1 of 7")).to_be_visible()
    next_is(page, "Turn up the trump")
    tap(page, "red")
    next_is(page, "Ben declares open or secret")
    tap(page, "open 2")
    next_is(page, "Cho declares")
    tap(page, "Secret (turned up after the round)")
    next_is(page, "Ann declares")
    tap(page, "open 1")
    # Cho's secret bid stays hidden until the round is over.
    bids = page.locator("section[aria-labelledby=bids-title]")
    expect(bids).to_contain_text("Cho: secret")
    shoot(page, "declared")
    # Tricks that do not add up to the six dealt are refused.
    enter_counts(page, {"Ann": 1, "Ben": 2, "Cho": 2}, "Enter the tricks")
    refused(page, "The tricks won add up to 5; round 1 has 6 tricks.")
    shoot(page, "refused")
    enter_counts(page, {"Cho": 3}, "Enter the tricks")
    next_is(page, "Turn up Cho's secret bid")
    tap(page, "3")
    expect(page.get_by_role("heading", name="Round 2 of 7")).to_be_visible()
    totals_are(page, {"Ann": 5, "Ben": 7, "Cho": 6})

    # Round 2: Ben deals; Cho, Ann, Ben declare. A second phone joins.
    tap(page, "blue")
    second = see_on_second_phone(phone, page, live_server, url, "Cho declares")
    tap(page, "open 0")
    second.reload()
    next_is(second, "Ann declares")
    tap(page, "Secret (turned up after the round)")
    tap(page, "open 0")  # Ben
    enter_counts(page, {"Ann": 5, "Ben": 0, "Cho": 0}, "Enter the tricks")
    next_is(page, "Turn up Ann's secret bid")
    tap(page, "5")
    expect(page.get_by_role("heading", name="Round 3 of 7")).to_be_visible()
    second.reload()
    expect(second.get_by_role("heading", name="Round 3 of 7")).to_be_visible()
    totals = check_downloads(page, tmp_path, "alles-oder-nichts", ["Ann", "Ben", "Cho"])
    totals_are(second, totals)
    shoot(second, "second-phone")
    summary.count("journeys")


# --- ebbes -------------------------------------------------------------------------------------

WON = {  # 3 players, 6 cards a colour, whole tricks of 3 cards (the trump's are not asked)
    "Ann": {"red": 2, "yellow": 3, "green": 3, "blue": 1, "purple": 3},
    "Ben": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "purple": 1},
    "Cho": {"red": 2, "yellow": 1, "green": 1, "blue": 3, "purple": 2},
}


def colour_box(page: Any, colour: str) -> Any:
    """The chips of the cards won of ``colour``."""
    panel = page.locator("section[aria-labelledby=next-title]")
    return panel.get_by_role("group", name=re.compile(f"^{colour}"))


def enter_cards_won(page: Any, won: dict[str, dict[str, int]], trump: str) -> None:
    """Tap each player's count of each colour but the trump (not asked: it scores nothing)."""
    expect(colour_box(page, trump)).to_have_count(0)
    for colour in ("red", "yellow", "green", "blue", "purple"):
        if colour != trump:
            for player, counts in won.items():
                chip(colour_box(page, colour), player, counts[colour]).tap()
    submit(page, page.get_by_role("button", name="Enter the cards won"))


def designate(page: Any, colours: list[str]) -> None:
    for colour in colours:
        tap(page, colour)
        expect(page.locator(ROUND_FACTS)).to_contain_text(colour)


def test_ebbes_journey(live_server, phone, shoot, tmp_path):
    page = phone()
    url = start_table(page, live_server, "ebbes", ["Ann", "Ben", "Cho"])
    expect(page.get_by_role("heading", name="Round 1 of 5")).to_be_visible()
    next_is(page, "Reveal the number card")
    tap(page, "3")
    next_is(page, "Play the round")
    designate(page, ["red", "yellow", "green", "blue"])
    # Cards won of a colour that do not add up to its cards are refused, the counts kept.
    bad = {player: dict(counts) for player, counts in WON.items()}
    bad["Cho"]["yellow"] = 2
    enter_cards_won(page, bad, trump="red")
    refused(page, "7 yellow cards are won in all; 6 are in play.")
    expect(chip(colour_box(page, "yellow"), "Cho", 2)).to_be_checked()
    shoot(page, "refused")
    chip(colour_box(page, "yellow"), "Cho", 1).tap()
    submit(page, page.get_by_role("button", name="Enter the cards won"))
    expect(page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()
    totals_are(page, {"Ann": 2, "Ben": 3, "Cho": -2})

    # Round 2: Ann had the most nix (purple) cards and chooses who starts.
    next_is(page, "Who starts this round?")
    expect(page.get_by_text("Ann had the most nix cards")).to_be_visible()
    second = see_on_second_phone(phone, page, live_server, url, "Who starts this round?")
    tap(page, "Ben")
    next_is(page, "Reveal the number card")
    expect(page.locator("section[aria-labelledby=next-title]").get_by_role("button")).to_have_text(
        ["1", "2", "4", "5"]  # the 3 was used in round 1
    )
    second.reload()
    next_is(second, "Reveal the number card")
    shoot(second, "second-phone")
    tap(page, "4")
    designate(page, ["blue", "purple", "red", "green"])
    enter_cards_won(page, WON, trump="blue")
    expect(page.get_by_role("heading", name="Round 3 of 5")).to_be_visible()
    totals = check_downloads(page, tmp_path, "ebbes", ["Ann", "Ben", "Cho"])
    totals_are(page, totals)
    summary.count("journeys")


# --- the score sheet ---------------------------------------------------------------------------


def test_the_score_sheet_after_a_game(live_server, phone, shoot):
    page = phone()
    one_card = {"Most cards in a hand": "1"}
    url = start_table(page, live_server, "Blackout", ["Ann", "Ben"], **one_card)
    next_is(page, "Ben bids")  # one card each: the whole deck is dealt, no trump
    tap(page, "1")  # Ben
    tap(page, "1")  # Ann, the dealer: 0 is hooked
    enter_counts(page, {"Ann": 0, "Ben": 1}, "Enter the tricks")
    next_is(page, "The game is over")
    page.get_by_role("link", name="See the score sheet").tap()
    expect(page).to_have_url(url + "/sheet")
    shoot(page, "sheet")
    sheet_has(page, 1, {"Ann": 0, "Ben": 11})
