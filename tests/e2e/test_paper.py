"""Paper in, on a phone (360 × 740): a Blackout table created on the home page, its readable
card photographed (a photo made from the printed card, ``tests/paper/photos.py``), the
questions answered by tapping chips; the same game then entered by taps on a second table.
The two tables are the same: their totals, their score-sheet PDFs (read back as text) and
their records (the game's events), and the card's entries are marked "from paper"."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from referee.paper.reader import entries
from referee.records import load_record
from referee.rules import Setup, replay
from referee.rules import events as ev
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_journeys import (
    check_downloads,
    enter_counts,
    start_table,
    submit,
    tap,
    totals_are,
)
from tests.paper.photos import Shot, card_photo
from tests.tools import tool

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Ben", "Cho", "Dee"]
SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}


def fetched(page: Any, url: str) -> bytes:
    """What ``url`` answers this phone (its cookies: its scorekeeper link)."""
    answer = page.context.request.get(url)
    assert answer.ok, answer.status
    return bytes(answer.body())


def pdf_text(data: bytes, url: str) -> str:
    """The PDF's words, the table's own address left out (each table has its own)."""
    text = " ".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(data)).pages)
    return text.replace(url.rsplit("/", 1)[-1], "<table>")


def test_a_photographed_card_becomes_the_table_entered_by_taps(
    phone: Any, live_server: Any, tmp_path: Path
):
    from playwright.sync_api import expect

    tool("pdftoppm")
    setup = Setup("blackout", tuple(NAMES), {"max_cards": 3}, "Ann")
    shot = Shot(tilt=22, turn=-12, blur=1.0, quality=70)
    data, values = card_photo(random.Random(22), setup, shot)
    page = phone()
    url = start_table(page, live_server, "Blackout", NAMES, **{"Most cards in a hand": "3"})
    page.get_by_role("link", name=re.compile("^Keeping score on paper")).tap()
    expect(page.get_by_role("heading", name="Keep score on paper")).to_be_visible()
    page.locator("input#photo").set_input_files(
        {"name": "card.jpg", "mimeType": "image/jpeg", "buffer": data}
    )
    submit(page, page.get_by_role("button", name="Read the card"))
    expect(page.get_by_role("heading", name="Check the card")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "paper-confirm.png"), full_page=True)
    questions = page.locator("fieldset.paper-question").all()
    assert questions, "a photo this blurred and tilted asks about a box or two"
    for question in questions:
        name = question.locator("input[type=radio]").first.get_attribute("name")
        assert name is not None
        value = values[name[2:]]
        question.locator("label.chip").filter(has=page.locator(f"input[value='{value}']")).tap()
        expect(question.locator(f"input[value='{value}']")).to_be_checked()
    submit(page, page.get_by_role("button", name="Enter the card"))
    expect(page).to_have_url(re.compile(re.escape(url) + r"(\?.*)?(#.*)?$"))
    expect(page.get_by_role("status").or_(page.locator(".flash")).first).to_contain_text(
        "The paper card is entered"
    )
    expected = replay(setup, entries(setup, values, 5)).totals()
    totals_are(page, expected)
    assert check_downloads(page, tmp_path, "blackout", NAMES) == expected
    page.goto(url + "/history")
    expect(page.locator(".history .fate", has_text="from paper").first).to_be_visible()
    page.goto(url + "/paper")
    expect(page.get_by_role("img", name="The paper card as it was read")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "paper-kept.png"), full_page=True)

    # The same game by taps, on a second table.
    tapped = start_table(page, live_server, "Blackout", NAMES, **{"Most cards in a hand": "3"})
    for event in entries(setup, values, 5):
        if isinstance(event, ev.Trump):
            tap(page, SUITS[event.card])
        elif isinstance(event, ev.Bid):
            tap(page, str(event.bid))
        elif isinstance(event, ev.Tricks):
            enter_counts(page, dict(event.tricks), "Enter the tricks")
    totals_are(page, expected)
    records = [load_record(fetched(page, u + "/record.json")) for u in (url, tapped)]
    assert records[0].setup == records[1].setup
    assert [e.to_dict() for e in records[0].events] == [e.to_dict() for e in records[1].events]
    documents = [json.loads(fetched(page, u + "/record.json")) for u in (url, tapped)]
    assert documents[0]["rounds"] == documents[1]["rounds"]
    pdfs = [pdf_text(fetched(page, u + "/sheet.pdf"), u) for u in (url, tapped)]
    assert pdfs[0] == pdfs[1]
    assert all(name in pdfs[0] for name in NAMES)
