"""A fourth game through the whole app: Plain Whist (``tests/fourth_game``), a game no file of
the app names, added by its one line in the registry of games. The app offers it, creates its
table, takes a round card by card, writes its record (which the JSON schema the registry builds
accepts), loads that record back as a new table, and prints its score sheet and blank card."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import jsonschema
import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.records import SCHEMA_FILE, record_schema
from referee.records.check import check_text
from referee.rules import GAMES
from tests.fourth_game import ENTRY
from tests.sheets.reading import page_texts
from tests.web.helpers import ok, post
from tests.web.test_records_web import loaded_id, upload

NAMES = ("Ann", "Ben", "Cho")
#: Round 1, trick by trick: Ben (left of Ann, who deals) leads spades and wins every trick, Cho
#: follows, and Ann, without spades, throws clubs.
TRICKS = [("AS", "9S", "KC"), ("KS", "8S", "QC"), ("QS", "7S", "JC"), ("JS", "6S", "10C")]
TRICKS += [("10S", "5S", "9C")]


@pytest.fixture
def fourth_game() -> Iterator[str]:
    """Plain Whist registered, for this test only."""
    GAMES.register(ENTRY)
    yield ENTRY.name
    GAMES.unregister(ENTRY.name)


def record_of(client: FlaskClient, table: str) -> dict:
    response = client.get(f"/t/{table}/record.json")
    assert response.status_code == 200, response.text[-800:]
    return json.loads(response.data)


def test_a_game_added_by_its_line_in_the_registry_is_played_recorded_and_printed(
    fourth_game: str, app: Flask, client: FlaskClient
) -> None:
    home = client.get("/").text
    assert "referee for Blackout, Alles oder Nichts, ebbes, and Plain Whist." in home
    assert f'href="/new?game={fourth_game}"' in home
    offered = client.get(f"/new?game={fourth_game}").text
    assert re.search(rf'<input checked[^>]*value="{fourth_game}"', offered)

    data = {"game": fourth_game, "first": "1"}
    data |= {f"player_{seat}": name for seat, name in enumerate(NAMES, start=1)}
    created = client.post("/new", data=data)
    assert created.status_code == 303, created.text[-1500:]
    table = created.headers["Location"].rsplit("/", 1)[1]
    ok(post(client, table, "trump", trump="H"))
    seat = {name: number for number, name in enumerate(NAMES, start=1)}
    for cards in TRICKS:
        for player, card in zip(("Ben", "Cho", "Ann"), cards, strict=True):
            ok(post(client, table, "play", player=seat[player], card=card, mode="cards"))
    page = client.get(f"/t/{table}").text
    assert "Round 2 of 3" in page

    record = record_of(client, table)
    assert record["game"] == fourth_game and record["first_dealer"] == "Ann"
    assert record["rounds"] == [
        {"trump": "H", "plays": [{"leader": "Ben", "cards": list(cards)} for cards in TRICKS]}
    ]
    jsonschema.validate(record, record_schema())  # the schema of the games registered now
    with pytest.raises(jsonschema.ValidationError):  # the reference copy knows three games
        jsonschema.validate(record, json.loads(SCHEMA_FILE.read_text()))
    status, report = check_text(json.dumps(record).encode(), as_json=True)
    assert status == 0 and json.loads(report)["totals"] == {"Ann": 0, "Ben": 5, "Cho": 0}

    loaded = loaded_id(upload(client, json.dumps(record).encode()))
    again = record_of(client, loaded)
    assert again["rounds"] == record["rounds"] and again["game"] == fourth_game

    sheet = client.get(f"/t/{loaded}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    [text] = page_texts(sheet.data)
    assert "Plain Whist — score sheet" in text and "Deals round 1: Ann" in text
    assert "\n1 5 Ann hearts 0 0 5 5 0 0\nTotal 0 5 0\n" in text, text
    blank = client.post("/scorecards", data={"game": fourth_game, "players": "3"})
    assert blank.status_code == 200 and blank.mimetype == "application/pdf", blank.text[-800:]
    assert "Plain Whist" in page_texts(blank.data)[0]
