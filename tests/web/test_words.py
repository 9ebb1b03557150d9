"""Saying it right on the pages: a step still to come and a warning are not breaches, the breach
panel speaks of the breaches at hand, cards are named as the table sees them, and a breach is
said in the page's language (a test-only catalog)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask

from tests.links import join
from tests.sheets.reading import page_texts
from tests.web.helpers import error_of, new_table, ok, post
from tests.web.test_i18n import german  # noqa: F401 (a fixture)
from tests.web.test_records_web import upload
from tests.web.test_sealed import round_two, seal

RECORDS = Path(__file__).resolve().parents[1] / "records"


def section(page: str, heading: str) -> str:
    """The text of the panel under ``heading`` ('' when the page has none)."""
    start = page.find(f">{heading}</h2>")
    if start < 0:
        return ""
    end = page.find("</section>", start)
    return page[start : end if end > 0 else None]


def secret_waiting(app, client) -> str:
    """An Alles oder Nichts table whose round 1 is played; Ben's secret bid is to be turned up."""
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    for seat, choice in ((2, "secret"), (3, "open-0"), (1, "open-0")):
        ok(post(client, table, "declare", player=seat, choice=choice))
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=2))
    return table


def test_a_secret_bid_waiting_to_be_turned_up_is_a_step_not_a_breach(app, client):
    table = secret_waiting(app, client)
    waiting = "Ben's secret bid in round 1 has not been turned up."
    for address in (f"/t/{table}", f"/t/{table}/sheet"):
        page = html.unescape(client.get(address).text)
        assert "Breaches noted" not in page, address
        assert ">Still to be entered</h2>" in page and waiting in page, address


def test_a_bid_above_the_hand_is_a_warning_not_a_breach(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    for seat in (2, 3, 1):
        ok(post(client, table, "declare", player=seat, choice="open-2"))
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=2))
    ok(post(client, table, "trump", trump="blue"))  # round 2: five cards each
    ok(post(client, table, "declare", player=3, choice="open-6"))
    page = html.unescape(client.get(f"/t/{table}").text)
    assert "Breaches noted" not in page
    warned = section(page, "Worth knowing")
    assert "Cho bid 6 with 5 cards: legal, but it can never be made exactly." in warned


@pytest.mark.parametrize(
    ("record", "intro", "not_said"),
    [
        ("breach-hook.json", "An entry breaks a rule. The table decides", "A revoke"),
        ("breach-follow-suit.json", "A revoke: the rules set no penalty", "An entry breaks"),
    ],
)
def test_the_breach_panel_speaks_of_the_breach_at_hand(client, record, intro, not_said):
    response = upload(client, (RECORDS / "blackout" / record).read_bytes())
    page = html.unescape(client.get(response.headers["Location"]).text)
    panel = section(page, "Breaches noted")
    assert intro in panel and not_said not in panel


def test_history_and_announcements_name_cards_as_the_table_sees_them(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="KH"))
    for seat, bid in ((2, 0), (3, 1), (1, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    for seat, card in ((2, "AS"), (3, "AC")):
        ok(post(client, table, "play", player=seat, card=card, mode="cards"))
    history = html.unescape(client.get(f"/t/{table}/history").text)
    assert "Round 1: trump ♥K" in history
    assert "Round 1: Ben played ♠A" in history and "Round 1: Cho played ♣A" in history
    shown = history.split("<main>")[1].replace('value="AS"', "").replace(table, "")
    assert "AS" not in shown  # (the table's random id, in its links, may hold the letters)
    page = html.unescape(client.get(f"/t/{table}").text)
    assert "♥ hearts (♥K)" in page


@pytest.mark.speed_layer
def test_a_refused_entry_says_its_breach_in_the_pages_language(german: Flask) -> None:  # noqa: F811
    client = german.test_client()
    table = new_table(german, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat in (2, 3, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    refused = post(client, table, "tricks", tricks_1=1, tricks_2=1, tricks_3=0)
    assert error_of(refused) == "Die Stiche ergeben 2; Runde 1 hat 1 Stich."


def test_the_seal_page_speaks_to_the_player_on_their_own_phone(app, client):
    table = round_two(app, client)  # Cho declares first
    own = app.test_client()
    join(app, own, table, "player", "Cho")
    page = html.unescape(own.get(f"/t/{table}/seal/3").text)
    assert "Your turn to declare, Cho" in page and "Hand the phone" not in page
    keeper = html.unescape(client.get(f"/t/{table}/seal/3").text)
    assert "Hand the phone to Cho" in keeper
    ok(seal(own, table, 3, 1))
    told = html.unescape(own.get(f"/t/{table}").text)
    assert "Your bid is sealed: nobody sees it before the round is over." in told
    assert "Pass the phone back" not in told


def test_the_declare_step_warns_of_bids_above_the_hand_only_when_there_are_such_bids(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    page = html.unescape(client.get(f"/t/{table}").text)
    assert "cannot be made exactly this round" not in page  # 6 cards: every bid 0–6 can be made
    round_two_table = round_two(app, client)  # 5 cards each: a bid of 6 cannot
    page = html.unescape(client.get(f"/t/{round_two_table}").text)
    assert "Bids above 5 (marked ✕) cannot be made exactly this round." in page
    # The chip of 6 carries the mark and says why to a screen reader; 0–5 are plain.
    chips = re.findall(
        r'<button type="submit" name="choice" value="open-(\d)"([^>]*)>(.*?)</button>', page
    )
    marked = {bid for bid, attrs, text in chips if "✕" in text}
    assert marked == {"6"}
    six = next(attrs for bid, attrs, _ in chips if bid == "6")
    assert 'aria-description="cannot be made exactly this round"' in six
    assert all("aria-description" not in attrs for bid, attrs, _ in chips if bid != "6")


def test_the_pdf_lists_a_secret_bid_waiting_as_still_to_be_entered(app, client):
    table = secret_waiting(app, client)
    text = " ".join(page_texts(client.get(f"/t/{table}/sheet.pdf").data)).replace("\n", " ")
    assert "Still to be entered" in text and "Breaches noted" not in text
    assert "Round 1: Ben's secret bid in round 1 has not been turned up." in text


def test_the_ebbes_play_heading_says_what_each_way_of_entering_asks(app, client):
    """Quick: the colours as they get their roles, then the cards won. Card by card: each card
    as it is played (issue 33: it said "tap each colour" there too)."""
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "number", number=2))
    heading = re.compile(r'<h2 id="next-title">(.*?)</h2>', re.S)
    quick = " ".join(heading.search(client.get(f"/t/{table}").text).group(1).split())
    assert "tap each colour as it gets its role, then count the cards won" in quick
    cards = html.unescape(client.get(f"/t/{table}?mode=cards").text)
    said = " ".join(heading.search(cards).group(1).split())
    assert "card by card: tap each card as it is played" in said
    assert "colour" not in said and "count" not in said
