"""Printable sheets on the web: a table's sheet as a PDF download, and the blank scorecard page."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.records.check import check_text
from referee.store.tables import table_state
from tests.sheets.reading import line_of, page_sizes, page_texts, round_numbers
from tests.web.helpers import hidden, kept_as_breach, new_table, ok, post

GOLDEN = Path(__file__).resolve().parents[1] / "records" / "blackout" / "default-4p.json"
LOCATION = re.compile(r"^/t/([A-Za-z0-9_-]{22})$")


def upload(client: FlaskClient, content: bytes) -> str:
    response = client.post(
        "/records",
        data={"record": (io.BytesIO(content), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.text
    found = LOCATION.match(response.headers["Location"])
    assert found
    return found.group(1)


def pdf_of(response) -> bytes:
    assert response.status_code == 200, response.text[-800:]
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    return response.data


# --- a table's sheet --------------------------------------------------------------------------


def test_an_uploaded_golden_record_prints_the_referees_totals(client: FlaskClient) -> None:
    text = GOLDEN.read_bytes()
    table_id = upload(client, text)
    status, output = check_text(text, as_json=True)  # python -m referee check --json
    assert status == 0
    verdict = json.loads(output)
    pdf = pdf_of(client.get(f"/t/{table_id}/sheet.pdf"))
    players = json.loads(text)["players"]
    assert line_of(pdf, "Total") == [str(verdict["totals"][p]) for p in players]
    assert verdict["winners"] == ["Dee"]
    assert "Winner: Dee with 103 points" in page_texts(pdf)[0]
    assert round_numbers(pdf) == [r["number"] for r in verdict["rounds"]]


def test_the_sheet_is_an_attachment_with_a_safe_name(app: Flask, client: FlaskClient) -> None:
    evil = '../../etc/"x"; Set-Cookie: a=b'  # a newline is refused in a name (a hidden character)
    table_id = new_table(app, client, "blackout", (evil, "Ben"), {"max_cards": 2})
    response = client.get(f"/t/{table_id}/sheet.pdf")
    pdf = pdf_of(response)
    disposition = response.headers["Content-Disposition"]
    found = re.fullmatch(r"attachment; filename=(\S+)", disposition)
    assert found, disposition
    assert re.fullmatch(
        r"blackout-\d{4}-\d{2}-\d{2}-[A-Za-z0-9_-]{8}-sheet\.pdf", found.group(1)
    ), found.group(1)
    assert "Set-Cookie" not in response.headers
    assert "Ben" in page_texts(pdf)[0]


@pytest.mark.parametrize("table_id", ["nope", "A" * 22, "x" * 300])
def test_an_unknown_table_has_no_sheet(client: FlaskClient, table_id: str) -> None:
    response = client.get(f"/t/{table_id}/sheet.pdf")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "There is no table at this address." in response.text


def test_paper_and_orientation_come_from_the_query(app: Flask, client: FlaskClient) -> None:
    table_id = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    letter = pdf_of(client.get(f"/t/{table_id}/sheet.pdf?paper=letter&orientation=landscape"))
    assert page_sizes(letter) == [(792.0, 612.0)]
    odd = pdf_of(client.get(f"/t/{table_id}/sheet.pdf?paper=a0&orientation=diagonal"))
    assert page_sizes(odd) == [(595.3, 841.9)]  # the defaults: A4, portrait for 3 players


def test_undone_and_corrected_rounds_are_marked_and_breaches_listed(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in ((2, 1), (3, 1), (1, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0))
    # Correct Cho's bid (entry 3) to 0: the dealer's 0 now makes the bids even (a hook breach).
    page = client.get(f"/t/{table}/amend/3").get_data(as_text=True)
    data = {"seq": hidden(page, "seq"), "round": "1", "action": "bid", "player": "3", "bid": "0"}
    ok(kept_as_breach(client, f"/t/{table}/amend/3", data))
    # Round 2: a trump entered and undone.
    ok(post(client, table, "trump", trump="S"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    ok(client.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")}))
    pdf = pdf_of(client.get(f"/t/{table}/sheet.pdf"))
    assert round_numbers(pdf) == [1]  # round 2 has no entry left
    assert line_of(pdf, "1*")[:3] == ["1", "Ann", "hearts"]
    text = " ".join(page_texts(pdf)).replace("\n", " ")
    assert "Corrections (* on a round number)" in text
    assert "* Round 1: entry 3 “Cho bid 1” was corrected to “Cho bid 0”" in text
    assert "* Round 2: entry 7 “trump spades” was undone" in text
    assert "Breaches noted" in text
    assert "Round 1: Ann (the dealer) cannot bid 0" in text


def test_the_sheet_follows_the_table(app: Flask, client: FlaskClient) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 2})
    before = pdf_of(client.get(f"/t/{table}/sheet.pdf"))
    assert round_numbers(before) == []
    ok(post(client, table, "trump", trump="H"))
    after = pdf_of(client.get(f"/t/{table}/sheet.pdf"))
    assert line_of(after, "1")[:3] == ["1", "Ann", "hearts"]


def test_a_correction_that_leaves_an_earlier_round_without_a_count_ends_no_game(
    app: Flask, client: FlaskClient
) -> None:
    """An ebbes table whose round 1 was entered without the trump's cards won (they score
    nothing), then its trump corrected to the nix colour: the old trump, now nix, must be
    counted, so round 1 is not complete and the game is not over, though every round is
    played. The pages, the sheet and its exports say what the referee says."""
    doc = json.loads((GOLDEN.parent.parent / "ebbes" / "default-3p.json").read_text())
    first = doc["rounds"][0]
    assert first["designations"][0] == "blue"  # trump; red is nix
    for counts in first["won"].values():
        del counts["blue"]
    table_id = upload(client, json.dumps(doc).encode())
    page = client.get(f"/t/{table_id}").text
    assert 'class="winner"' in page and "Finished" in client.get("/").text
    url = f"/t/{table_id}/amend/3"  # round 1: starter, number, then the trump's designation
    data = {"seq": hidden(client.get(url).text, "seq"), "round": "1", "action": "designate"}
    ok(kept_as_breach(client, url, data | {"colour": "red"}))
    with app.app_context():
        state = table_state(table_id)
    assert state is not None and not state.complete and state.winners() == []
    assert state.round_to_play == 1
    page = client.get(f"/t/{table_id}").text
    assert 'class="winner"' not in page and "bgstats" not in page
    home = client.get("/").text
    assert "Finished" not in home and "Round 1 of 5" in home
    assert 'class="winner"' not in client.get(f"/t/{table_id}/sheet").text
    text = page_texts(pdf_of(client.get(f"/t/{table_id}/sheet.pdf")))[0]
    assert "round 1 of 5 to play" in text and "Winner" not in text


# --- blank scorecards -------------------------------------------------------------------------


def card_form(**fields: str) -> dict[str, str]:
    data = {
        "game": "blackout",
        "players": "4",
        "first": "",
        "blackout_sequence": "up-down",
        "blackout_max_cards": "",
        "paper": "a4",
        "orientation": "auto",
    }
    data.update(fields)
    return data


def field_value(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else ""


def test_the_scorecard_page_offers_every_choice(client: FlaskClient) -> None:
    page = client.get("/scorecards")
    assert page.status_code == 200
    html = page.text
    for name in ("game", "players", "first", "blackout_sequence", "blackout_max_cards"):
        assert f'name="{name}"' in html
    assert 'name="player_8"' in html and 'value="letter"' in html and 'value="landscape"' in html
    assert 'href="/scorecards"' in client.get("/").text  # linked from the home page


def test_a_scorecard_downloads_as_a_pdf(client: FlaskClient) -> None:
    data = card_form(player_1="Zoë", player_2="Даша", first="2", paper="letter")
    response = client.post("/scorecards", data=data)
    pdf = pdf_of(response)
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=blackout-4-players-scorecard.pdf"
    )
    assert round_numbers(pdf) == list(range(1, 26))
    assert page_sizes(pdf) == [(612.0, 792.0)]
    assert line_of(pdf, "1")[:2] == ["1", "Даша"]  # seat 2 deals round 1
    assert "Zoë" in page_texts(pdf)[0]


def test_the_blackout_options_shape_the_ladder(client: FlaskClient) -> None:
    data = card_form(players="3", blackout_sequence="up", blackout_max_cards="4")
    pdf = pdf_of(client.post("/scorecards", data=data))
    assert round_numbers(pdf) == [1, 2, 3, 4]


def test_other_games_ignore_the_blackout_options(client: FlaskClient) -> None:
    data = card_form(game="ebbes", players="5", blackout_max_cards="not read")
    pdf = pdf_of(client.post("/scorecards", data=data))
    assert round_numbers(pdf) == [1, 2, 3, 4, 5]
    assert page_sizes(pdf) == [(841.9, 595.3)]  # five players: landscape


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "alles-oder-nichts", "players": "2"}, "Alles oder Nichts is played by 3 to 6"),
        ({"game": "ebbes", "players": "7"}, "ebbes is played by 3 to 5 players, not 7."),
        ({"blackout_max_cards": "14"}, "must be a whole number from 1 to 13, not 14."),
        ({"blackout_max_cards": "lots"}, "Most cards in a hand must be a whole number"),
        ({"players": "3", "player_4": "Dee"}, "Seat 4 has a name, but the card is for 3 players."),
        ({"players": "3", "first": "5"}, "There is no seat 5 at a table of 3."),
        ({"player_1": "Ann", "player_3": "ANN"}, "sits at the table twice"),
        ({"player_1": "x" * 41}, "is longer than 40 characters"),
        ({"game": "poker"}, "Not a valid choice"),
        ({"players": "99"}, "Not a valid choice"),
        ({"paper": "a0"}, "Not a valid choice"),
    ],
)
def test_what_cannot_be_printed_is_refused_on_the_page_with_the_input_kept(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    data = card_form(player_2="Kept Name", **fields)
    response = client.post("/scorecards", data=data)
    assert response.status_code == 422
    assert response.mimetype == "text/html"
    assert message in response.text.replace("&#39;", "'")
    assert field_value(response.text, "player_2") == "Kept Name"


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert found
    return found.group(1)


@pytest.mark.csrf
def test_a_stale_scorecard_form_is_shown_again_and_works_with_the_new_token(
    client: FlaskClient,
) -> None:
    data = card_form(player_1="Ann")
    refused = client.post("/scorecards", data=data)
    assert refused.status_code == 400
    assert "This page was stale" in refused.text
    assert field_value(refused.text, "player_1") == "Ann"
    token = csrf_token(refused.text)
    pdf_of(client.post("/scorecards", data={**data, "csrf_token": token}))


def test_a_download_name_that_is_not_ascii_gets_its_rfc_5987_form(app) -> None:
    from referee.web.downloads import attachment

    with app.test_request_context():
        response = attachment("x", "text/plain", "Spielstand-Jürgen.csv")
    disposition = response.headers["Content-Disposition"]
    assert "filename*=UTF-8''Spielstand-J%C3%BCrgen.csv" in disposition, disposition
    assert response.headers["Cache-Control"] == "no-store"
