"""Sealed secret bids (Alles oder Nichts): entered privately, shown nowhere until the round ends.

The leak test is a comparison: two tables identical but for the sealed bid (6, which draws a
"bid above the hand" warning in a 5-card round, and 0) must give the same answer to every request
any phone can make before the round ends, once table ids, tokens and times are blanked out.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.store.tables import current_seq, table_state
from tests.links import join
from tests.sheets.reading import page_texts
from tests.web.helpers import hidden, new_table, ok, post

PLAYERS = ("Ann", "Ben", "Cho")


def round_two(app: Flask, client: FlaskClient) -> str:
    """A table in round 2 (5 cards each), trump turned: Cho declares first."""
    table = new_table(app, client, "alles-oder-nichts", PLAYERS)
    ok(post(client, table, "trump", trump="red"))
    for seat in (2, 3, 1):
        ok(post(client, table, "declare", player=seat, choice="open-2"))
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=2))
    ok(post(client, table, "trump", trump="blue"))
    return table


def seal(client: FlaskClient, table: str, seat: int, bid: int):
    """The pass-the-phone page's tap: the player's bid, sealed."""
    page = client.get(f"/t/{table}/seal/{seat}").text
    assert "sealed-0" in page, html.unescape(page)[-800:]
    return client.post(
        f"/t/{table}/entry",
        data={
            "seq": hidden(page, "seq"),
            "round": hidden(page, "round"),
            "action": "declare",
            "player": str(seat),
            "choice": f"sealed-{bid}",
        },
    )


def blanked(text: str, table: str) -> str:
    """A response with what differs between two tables anyway blanked out."""
    text = text.replace(table, "TABLE")
    text = re.sub(r'name="csrf_token"[^>]*? value="[^"]*"', "CSRF", text)
    text = re.sub(r"/j[/#][A-Za-z0-9_-]+", "/j#TOKEN", text)
    text = re.sub(r"seq\?k=[A-Za-z0-9_-]+", "seq?k=KEY", text)
    text = re.sub(r"<svg.*?</svg>", "QR", text, flags=re.S)
    return re.sub(r"\d\d:\d\d:\d\d", "TIME", text)


def everything(app: Flask, table: str, phones: dict[str, FlaskClient], sealed_at: int):
    """Every answer every phone gets from the table: pages, downloads (the PDF as its text)."""
    answers = {}
    paths = ["", "/sheet", "/tv", "/history", "/record.json", "/seq", "/share"]
    paths += [f"/seal/{seat}" for seat in (1, 2, 3)] + [f"/amend/{sealed_at}"]
    for who, phone in phones.items():
        for path in paths:
            response = phone.get(f"/t/{table}{path}")
            answers[who, path] = (response.status_code, blanked(response.text, table))
        pdf = phone.get(f"/t/{table}/sheet.pdf")
        answers[who, "pdf"] = (pdf.status_code, blanked("\n".join(page_texts(pdf.data)), table))
    return answers


@pytest.mark.parametrize("how", ["pass the phone", "player link"])
def test_a_sealed_bid_shows_nowhere_before_the_round_is_over(app, client, how):
    answers = []
    for bid in (6, 0):
        keeper = app.test_client()
        table = round_two(app, keeper)
        phones = {"keeper": keeper}
        for kind, player in (("viewer", None), ("player", "Cho"), ("player", "Ann")):
            phones[f"{kind} {player}"] = other = app.test_client()
            join(app, other, table, kind, player)
        sealer = phones["player Cho"] if how == "player link" else keeper
        response = seal(sealer, table, 3, bid)
        ok(response)
        told = sealer.get(f"/t/{table}").text
        assert "bid is sealed" in told and "never be made" not in told  # no telling warning
        with app.app_context():
            sealed_at = current_seq(table)  # the sealed declaration is the newest entry
        answers.append(everything(app, table, phones, sealed_at))
    six, zero = answers
    assert six.keys() == zero.keys()
    for key in six:
        assert six[key] == zero[key], key
    status, page = six["keeper", "/amend/7"]  # correcting it would show or erase it
    assert status == 422 and "sealed until the round is over" in html.unescape(page)
    assert "<form" not in page.split("<main>")[1]


def test_after_the_round_the_sealed_bid_is_shown_and_said_to_be_sealed_before_play(app, client):
    table = round_two(app, client)
    ok(seal(client, table, 3, 1))
    ok(post(client, table, "declare", player=1, choice="open-2"))
    ok(post(client, table, "declare", player=2, choice="secret"))  # the other way: turned up later
    history = html.unescape(client.get(f"/t/{table}/history").text)
    assert "Cho declared secret, bid sealed until the round is over" in history
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=1))
    # No turning up needed for Cho: only Ben's unsealed secret bid is asked for.
    page = html.unescape(client.get(f"/t/{table}").text)
    assert "Turn up Ben's secret bid" in page and "Cho's secret" not in page
    ok(post(client, table, "reveal", player=2, bid=2))
    assert client.get(f"/t/{table}/amend/7").status_code == 200  # now it can be corrected
    history = html.unescape(client.get(f"/t/{table}/history").text)
    assert "Cho declared secret, bid sealed before play: 1" in history
    record = json.loads(client.get(f"/t/{table}/record.json").text)
    assert record["rounds"][1]["bids"]["Cho"] == {"bid": 1, "open": False}
    with app.app_context():
        state = table_state(table)
    assert state.rounds[1].bids["Cho"] == 1
    assert state.totals()["Cho"] == 7 + 4  # open 2 took 2: 2 × 2 + 3; secret 1 took 1: 1 + 3
