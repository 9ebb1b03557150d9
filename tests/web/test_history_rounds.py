"""The whole history a round at a time (issue 33): each round a ``<details>``, the newest first
and open, its summary line the round's number, who dealt it and how it scored; "Correct" only
beside an entry that can still be corrected (in force, of a kind the correction form has, not a
sealed bid); and a correction goes back to the score sheet at its round.
"""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from referee.store.tables import table_state
from tests.web.helpers import new_table, ok, post, undo
from tests.web.test_sealed import round_two, seal
from tests.web.test_sheet_corrections import correction


def three_rounds(app: Flask, client: FlaskClient) -> str:
    """Ann, Ben and Cho at Blackout, one card up to three: rounds 1 and 2 scored, round 3's
    trump and Ben's bid in (entries 1–5 round 1, 6–10 round 2, 11–12 round 3)."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"sequence": "up"})
    ok(post(client, table, "trump", trump="H"))  # round 1: Ann deals, Ben bids first
    for seat, bid in ((2, 1), (3, 0), (1, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0))
    ok(post(client, table, "trump", trump="S"))  # round 2: Ben deals, Cho bids first
    for seat, bid in ((3, 1), (1, 0), (2, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=1))
    ok(post(client, table, "trump", trump="D"))  # round 3: Cho deals, Ann bids first
    ok(post(client, table, "bid", player=1, bid=2))
    return table


def rounds_of(page: str) -> list[tuple[str, bool, str, list[str]]]:
    """Each round of a history page, in its order: its id, whether it is open, its summary as
    read, and the entry numbers inside it."""
    found = re.findall(
        r'<details class="history-round" id="([^"]+)"( open)?>\s*<summary>(.*?)</summary>(.*?)'
        r"</details>",
        page,
        re.S,
    )
    return [
        (
            id_,
            bool(opened),
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", summary)).split()),
            re.findall(r'id="entry-(\d+)"', body),
        )
        for id_, opened, summary, body in found
    ]


def correctable(page: str) -> set[str]:
    """The entry numbers with a "Correct" beside them."""
    lines = re.findall(r'id="entry-(\d+)">(.*?)</li>', page, re.S)
    return {seq for seq, body in lines if 'class="button quiet correct"' in body}


def test_rounds_are_grouped_newest_first_and_only_the_newest_is_open(app, client):
    table = three_rounds(app, client)
    page = client.get(f"/t/{table}/history").text
    rounds = rounds_of(page)
    assert [id_ for id_, *_ in rounds] == [
        "history-round-3",
        "history-round-2",
        "history-round-1",
    ]
    assert [opened for _, opened, *_ in rounds] == [True, False, False]
    assert [entries for *_, entries in rounds] == [
        ["12", "11"],
        ["10", "9", "8", "7", "6"],
        ["5", "4", "3", "2", "1"],
    ]
    summaries = [summary for _, _, summary, _ in rounds]
    assert summaries[0] == "Round 3 · Deals: Cho not scored yet"
    # Round 2: Ann bid 0 and took 0 (10), Ben bid 0 and took 1 (blacked out), Cho 1 and 1 (11).
    assert summaries[1] == "Round 2 · Deals: Ben Ann 10, Ben 0, Cho 11"
    assert summaries[2] == "Round 1 · Deals: Ann Ann 0, Ben 11, Cho 10"
    # Every entry once, and no more rows than before: the page holds the same entries.
    assert page.count('id="entry-') == 12


def test_an_ebbes_round_names_who_started_it_and_a_negative_score_with_a_minus_sign(app, client):
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho", "Dee"))
    ok(post(client, table, "number", number=3))
    for colour in ("red", "yellow", "green", "blue"):
        ok(post(client, table, "designate", colour=colour))
    won = {"yellow": (8, 0, 0, 0), "green": (2, 4, 0, 2), "blue": (0, 0, 3, 5), "purple": (2,) * 4}
    fields = {f"won_{seat}_{c}": n[seat - 1] for c, n in won.items() for seat in range(1, 5)}
    ok(post(client, table, "won", **fields))
    (_, opened, summary, _) = rounds_of(client.get(f"/t/{table}/history").text)[0]
    assert opened
    assert summary == "Round 1 · Starts: Ann Ann 11, Ben 0, Cho −3, Dee −2"


def test_correct_is_beside_the_entries_still_in_force_only(app, client):
    table = three_rounds(app, client)
    undo(client, table)  # entry 13 undoes Ann's bid, entry 12
    ok(post(client, table, "bid", player=1, bid=1))  # entry 14
    ok(correction(client, table, 7, action="bid", player="3", bid="0"))  # entry 15 replaces 7
    page = client.get(f"/t/{table}/history").text
    rounds = rounds_of(page)
    assert rounds[0][3] == ["14", "13", "12", "11"]
    # The undone bid (12), the undo itself (13) and the replaced bid (7) have none; the
    # correction (15) has one, which corrects entry 7 again; every other entry in force too.
    assert correctable(page) == {"1", "2", "3", "4", "5", "6", "8", "9", "10", "11", "14", "15"}
    assert f'href="/t/{table}/amend/7"' in page.split('id="entry-15"', 1)[1].split("</li>", 1)[0]
    # The correction is an entry about round 2: it is told there, newest first.
    assert rounds[1][3] == ["15", "10", "9", "8", "7", "6"]


def test_a_sealed_bid_has_no_correct_until_its_round_is_over(app, client):
    table = round_two(app, client)  # Alles oder Nichts: round 1 in, round 2's trump is entry 6
    ok(seal(client, table, 3, 2))  # entry 7: Cho's bid, sealed
    page = client.get(f"/t/{table}/history").text
    assert "7" not in correctable(page)
    assert {"1", "2", "3", "4", "5", "6"} <= correctable(page)


def test_a_correction_goes_back_to_the_sheet_at_its_round(app, client):
    table = three_rounds(app, client)
    tricks = {"tricks-1": "1", "tricks-2": "0", "tricks-3": "1"}
    response = correction(client, table, 10, action="tricks", **tricks)
    assert response.status_code == 303, response.text[-3000:]
    assert response.headers["Location"] == f"/t/{table}/sheet#round-2"
    with app.app_context():
        assert table_state(table).rounds[1].tricks == {"Ann": 1, "Ben": 0, "Cho": 1}
    sheet = html.unescape(client.get(f"/t/{table}/sheet").text)
    assert "id=round-2" in sheet
    assert "Corrected: Round 2:" in sheet  # said once, on this phone's sheet
    again = html.unescape(client.get(f"/t/{table}/sheet").text)
    assert "Corrected: Round 2:" not in again


def test_a_newest_round_with_only_an_entry_undone_opens_the_round_before_too(app, client):
    table = three_rounds(app, client)
    undo(client, table)  # entry 13 undoes round 3's bid (12)
    undo(client, table)  # entry 14 undoes round 3's trump (11): nothing of round 3 in force
    rounds = rounds_of(client.get(f"/t/{table}/history").text)
    assert [(id_, opened) for id_, opened, *_ in rounds] == [
        ("history-round-3", True),
        ("history-round-2", True),
        ("history-round-1", False),
    ]
