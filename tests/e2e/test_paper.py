"""Paper in, on a phone: a Blackout table created on the home page, its readable card
photographed (a photo made from the printed card, ``tests/paper/photos.py``), the questions
answered by tapping chips, and the table then keeps the game: the totals the rules give the
card, and a record that replays to them."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from referee.paper.reader import entries
from referee.rules import Setup, replay
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_journeys import check_downloads, start_table, submit, totals_are
from tests.paper.photos import Shot, card_photo
from tests.tools import tool

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Ben", "Cho", "Dee"]


def test_a_photographed_card_becomes_the_table(phone: Any, live_server: Any, tmp_path: Path):
    from playwright.sync_api import expect

    tool("pdftoppm")
    setup = Setup("blackout", tuple(NAMES), {"max_cards": 3}, "Ann")
    data, values = card_photo(random.Random(21), setup, Shot(tilt=20, turn=-12, blur=0.6))
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
    for question in page.locator("fieldset.paper-question").all():
        name = question.locator("input[type=radio]").first.get_attribute("name")
        assert name is not None
        question.locator(f"input[value='{values[name[2:]]}']").check()
    submit(page, page.get_by_role("button", name="Enter the card"))
    expect(page).to_have_url(re.compile(re.escape(url) + r"(\?.*)?(#.*)?$"))
    expect(page.get_by_role("status").or_(page.locator(".flash")).first).to_contain_text(
        "The paper card is entered"
    )
    expected = replay(setup, entries(setup, values, 5)).totals()
    totals_are(page, expected)
    assert check_downloads(page, tmp_path, "blackout", NAMES) == expected
