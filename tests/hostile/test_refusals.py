"""Refusals that must stay cheap and harmless, on SQLite and on PostgreSQL: text that is not
Unicode anywhere in a record or a form, a record made to cost, and the count of refused uploads
per address that the limit on new tables includes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask

from tests.hostile.test_fuzz import answered, post_upload
from tests.web.test_newtable import form
from tests.web.test_records_web import assert_every_page_answers

pytestmark = pytest.mark.hostile

SURROGATE = "\ud800"

BLACKOUT: dict[str, Any] = {
    "format": "table-referee/1",
    "game": "blackout",
    "players": ["Ann", "Ben", "Cho"],
    "rounds": [
        {
            "trump": "H",
            "bids": {"Ben": 0, "Cho": 0, "Ann": 0},
            "plays": [{"leader": "Ben", "cards": ["2H", "3H", "4H"]}],
        }
    ],
}
ALLES: dict[str, Any] = {
    "format": "table-referee/1",
    "game": "alles-oder-nichts",
    "players": ["Ann", "Ben", "Cho"],
    "options": {"colours": ["red", "yellow", "green", "blue"]},
}
EBBES: dict[str, Any] = {
    "format": "table-referee/1",
    "game": "ebbes",
    "players": ["Ann", "Ben", "Cho"],
    "rounds": [{"number": 2, "won": {"Ann": {"red": 0}}}],
}


def with_text(record: dict[str, Any], *path: str | int, key: bool = False) -> dict[str, Any]:
    """The record with a lone surrogate added to the string at ``path`` (``key``: to the key
    its last step names)."""
    changed = copy.deepcopy(record)
    place: Any = changed
    for step in path[:-1]:
        place = place[step]
    last = path[-1]
    if key:
        place[f"{last}{SURROGATE}"] = place.pop(last)
    else:
        place[last] += SURROGATE
    return changed


@pytest.mark.parametrize(
    ("record", "field"),
    [
        (with_text(BLACKOUT, "players", 0), "players[0]"),
        (with_text(BLACKOUT, "rounds", 0, "trump"), "rounds[0].trump"),
        (with_text(BLACKOUT, "rounds", 0, "bids", "Ben", key=True), "rounds[0].bids.Ben\\ud800"),
        (with_text(BLACKOUT, "rounds", 0, "plays", 0, "cards", 2), "cards[2]"),
        (with_text(BLACKOUT, "rounds", 0, "plays", 0, "leader"), "plays[0].leader"),
        ({**BLACKOUT, "first_dealer": "Ann" + SURROGATE}, "first_dealer"),
        ({**BLACKOUT, "options": {"sequence": "up" + SURROGATE}}, "options.sequence"),
        (with_text(ALLES, "options", "colours", 3), "options.colours[3]"),
        (
            with_text(EBBES, "rounds", 0, "won", "Ann", "red", key=True),
            "rounds[0].won.Ann.red\\ud800",
        ),
    ],
    ids=["name", "trump", "key", "card", "leader", "first-dealer", "option", "colour", "won"],
)
def test_text_that_is_not_unicode_anywhere_in_a_record(
    hostile_app: Flask, record: dict[str, Any], field: str
) -> None:
    client = hostile_app.test_client()
    loaded = post_upload(client, {"record": (json.dumps(BLACKOUT).encode(), "game.json")})
    assert loaded.status_code == 303
    body = json.dumps(record).encode()  # the surrogate as a \ud800 escape, as an attacker sends
    for _ in range(2):
        response = post_upload(client, {"record": (body, "game.json")})
        text = answered(response)
        assert response.status_code == 422
        assert f"{field}: is not valid Unicode text" in text
    assert_every_page_answers(client)


@pytest.mark.parametrize("path", ["/new", "/scorecards"])
def test_a_form_that_is_not_utf8(hostile_app: Flask, path: str) -> None:
    client = hostile_app.test_client()
    body = b"game=blackout&player_1=Ann&player_2=B\xed\xa0\x80n"
    response = client.post(path, data=body, content_type="application/x-www-form-urlencoded")
    answered(response)
    assert response.status_code == 400
    response = client.post("/new", data=form(names=["Ann", "Be\u200bn", "Ben"]))
    assert "holds a character that does not show" in answered(response)
    assert response.status_code == 422
    assert_every_page_answers(client)


def test_a_record_made_to_cost_is_refused_at_once(hostile_app: Flask) -> None:
    client = hostile_app.test_client()
    trick = {"leader": "Ben", "cards": ["2H", "2H", "2H"]}
    record = {**BLACKOUT, "rounds": [{"trump": "H", "plays": [trick] * 23_500}]}
    body = json.dumps(record, separators=(",", ":")).encode()
    assert len(body) < 1_000_000
    response = post_upload(client, {"record": (body, "game.json")})
    assert "rounds[0].plays: lists 23500 tricks; round 1 has 1" in answered(response)
    assert response.status_code == 422 and len(response.data) < 20_000


def test_refused_uploads_are_counted_per_address_in_the_database(
    hostile_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count every worker process sees: three refusals, then nothing more is read."""
    monkeypatch.setitem(hostile_app.config, "TABLE_LIMIT", 3)
    client = hostile_app.test_client()
    client.environ_base["REMOTE_ADDR"] = "198.51.100.3"  # an address of its own in this module
    for body in (b"{", b"[]", json.dumps({**BLACKOUT, "players": [SURROGATE]}).encode()):
        assert post_upload(client, {"record": (body, "x.json")}).status_code == 422
    refused = post_upload(client, {"record": (json.dumps(BLACKOUT).encode(), "game.json")})
    assert "Too many records and new tables" in answered(refused)
    assert refused.status_code == 429
