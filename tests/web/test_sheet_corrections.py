"""The score sheet as a phone gets it, and correcting a round from it.

The sheet: names and running totals head the columns, each cell has the round's score and the
running total, a score's explanation is a full-width row below its round (an anchor), ebbes'
roles a row of their own, open and secret marked; the round number leads the scorekeeper to
the round's entries; the sheet of a whole 25-round game stays within its byte budget. A
correction gets the checks of a live entry: refused with the sentence and the input kept,
recorded with a breach only when the box naming it is ticked, never when the entry cannot be
used at all. The history: newest first, each time as an ISO ``<time>`` said
in UTC, each replaced or undone entry marked with the entry that did it.
"""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules import events as ev
from referee.store.tables import append_entry, get_table, table_state
from tests.links import join
from tests.web.helpers import checked, chips, error_of, hidden, new_table, ok, post
from tests.web.test_sheets_web import GOLDEN, upload

#: The most the score sheet's page of a whole 4-player Blackout (25 rounds) may weigh, as a
#: spectator gets it (issue 16: about 22 KB, so that its first view keeps within 60 KB).
SHEET_BUDGET = 22 * 1024


def blackout_round(app: Flask, client: FlaskClient, bids: tuple[int, int, int]) -> str:
    """A 3-player Blackout table with round 1 (one card, Ann deals) bid ``bids`` (Ben, Cho,
    Ann) and Ben taking the trick: entries 1 (trump) to 5 (tricks)."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in zip((2, 3, 1), bids, strict=True):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0))
    return table


def last_seq(app: Flask, table: str) -> int:
    with app.app_context():
        stored = get_table(table)
    assert stored is not None
    return stored.last_seq


def correction(client: FlaskClient, table: str, target: int, **fields: str):
    """Post a correction of entry ``target`` from its page."""
    page = client.get(f"/t/{table}/amend/{target}").text
    data = {"seq": hidden(page, "seq"), "round": hidden(page, "round"), "action": fields["action"]}
    return client.post(f"/t/{table}/amend/{target}", data=data | fields)


# --- the sheet ------------------------------------------------------------------------------


def test_names_and_running_totals_head_the_columns(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    ok(post(client, table, "trump", trump="S"))
    for seat in (3, 1, 2):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=1, tricks_3=0))
    sheet = client.get(f"/t/{table}/sheet").text
    head = sheet[sheet.index("<thead>") : sheet.index("</thead>")]
    totals = re.findall(r'<span class="name">(\w+)</span> <span class="total">(-?\d+)</span>', head)
    assert totals == [("Ann", "10"), ("Ben", "11"), ("Cho", "10")]
    # Each round's cells: the score, then the running total after it.
    rounds = re.findall(r"<tr class=round-row id=round-(\d)>(.*?)(?=<tr|</tbody>)", sheet, re.S)
    assert [n for n, _ in rounds] == ["1", "2"]
    scored = [re.findall(r">(-?\d+)</a><small>(-?\d+)<", row) for _, row in rounds]
    assert scored == [
        [("10", "10"), ("11", "11"), ("0", "0")],
        [("0", "10"), ("0", "11"), ("10", "10")],
    ]


def test_a_score_opens_its_explanation_in_a_full_width_row_below_its_round(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    sheet = html.unescape(client.get(f"/t/{table}/sheet").text)
    assert "<a href=#why-1-2>11</a>" in sheet
    explained = r"<tr class=round-row id=round-1>.*?(<tr id=why-.*?)(?=<tr class|</tbody>)"
    row = re.search(explained, sheet)
    assert row is not None
    assert "<tr id=why-1-1><td colspan=4>Ann: bid 0, took 0: " in row.group(1)
    assert re.search(r"<tr id=why-1-2><td colspan=4>Ben: bid 1, took 1: [^<]+<tr", sheet)


def test_ebbes_roles_are_a_row_and_secret_bids_are_marked(app, client):
    ebbes = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    with app.app_context():
        append_entry(ebbes, 0, "event", ev.Starter(1, "Ann").to_dict())
        append_entry(ebbes, 1, "event", ev.Number(1, 2).to_dict())
        append_entry(ebbes, 2, "event", ev.Designate(1, "green").to_dict())
    sheet = client.get(f"/t/{ebbes}/sheet").text
    roles = re.search(r"<tr class=roles><td colspan=4>(.*?)<tr", sheet)
    assert roles is not None and "<span class=role>trump green</span>" in roles.group(1)
    assert sheet.index("class=roles") < sheet.index("id=round-1")
    alles = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    with app.app_context():
        append_entry(alles, 0, "event", ev.Trump(1, "red").to_dict())
        append_entry(alles, 1, "event", ev.Declare(1, "Ben", True, 2).to_dict())
        append_entry(alles, 2, "event", ev.Declare(1, "Cho", False, None).to_dict())
    sheet = client.get(f"/t/{alles}/sheet").text
    assert '2<abbr class=mark title="open">o</abbr> · ·' in sheet
    assert '·<abbr class=mark title="secret">s</abbr> · ·' in sheet


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_sheet_of_a_long_game_stays_within_its_budget(app, client, language):
    table = upload(client, GOLDEN.read_bytes())
    viewer = app.test_client()
    join(app, viewer, table, "viewer")
    sheet = viewer.get(f"/t/{table}/sheet?lang={language}")
    assert sheet.status_code == 200
    assert len(sheet.data) <= SHEET_BUDGET, len(sheet.data)
    assert sheet.text.count("<tr id=why-") == 100  # still every score of 25 rounds explained
    assert ("Ansage" in sheet.text) == (language == "de")


def test_only_the_scorekeeper_gets_the_round_number_as_a_link_to_correct_it(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    link = f'<a href="/t/{table}/history?round=1" aria-label="Correct round 1">1</a>'
    assert link in client.get(f"/t/{table}/sheet").text
    viewer = app.test_client()
    join(app, viewer, table, "viewer")
    sheet = viewer.get(f"/t/{table}/sheet").text
    assert "history?round=1" not in sheet and "<th scope=row>1<span>" in sheet
    assert "history?round=1" not in client.get(f"/t/{table}/tv").text


# --- corrections ----------------------------------------------------------------------------


def test_a_correction_that_makes_a_later_entry_a_breach_is_refused_with_the_input_kept(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    # Cho's bid (entry 3) corrected to 0: the dealer Ann's 0 then makes the bids add up.
    response = correction(client, table, 3, action="bid", player="3", bid="0")
    assert response.status_code == 422
    hook = "Ann (the dealer) cannot bid 0: the bids would add up to 1, the number of tricks."
    assert error_of(response) == f"This correction would make a breach of the rules: {hook}"
    assert 'name="bid" value="0" checked' in response.text  # the chip tapped, kept
    assert f"Keep the correction with this breach: {hook}" in html.unescape(response.text)
    assert last_seq(app, table) == 5  # nothing written


def test_a_breach_is_kept_only_when_its_box_is_ticked(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    page = client.get(f"/t/{table}/amend/3").text
    data = {"seq": hidden(page, "seq"), "round": "1", "action": "bid", "player": "3", "bid": "0"}
    refused = client.post(f"/t/{table}/amend/3", data=data)
    box = hidden(refused.text, "keep_breach")
    # A box ticked for other breaches (or none) keeps nothing.
    assert client.post(f"/t/{table}/amend/3", data=data | {"keep_breach": "x"}).status_code == 422
    assert last_seq(app, table) == 5
    ok(client.post(f"/t/{table}/amend/3", data=data | {"keep_breach": box}))
    with app.app_context():
        state = table_state(table)
    assert [(b.rule, b.player) for b in state.violations] == [("hook", "Ann")]
    assert state.rounds[0].bids == {"Ben": 1, "Cho": 0, "Ann": 0}
    shown = html.unescape(client.get(f"/t/{table}").text)
    assert "Corrected, kept as a breach: Round 1: Cho bid 0" in shown


def test_a_correction_that_is_itself_a_breach_can_be_kept_too(app, client):
    table = blackout_round(app, client, (0, 0, 0))
    response = correction(client, table, 4, action="bid", player="1", bid="1")
    assert response.status_code == 422
    hook = "Ann (the dealer) cannot bid 1: the bids would add up to 1, the number of tricks."
    assert error_of(response) == f"This correction would make a breach of the rules: {hook}"
    assert 'name="keep_breach"' in response.text


def test_an_entry_the_rules_cannot_use_is_refused_without_the_box(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    response = correction(client, table, 1, action="trump", trump="XX", keep_breach="x")
    assert response.status_code == 422
    assert error_of(response) == "'XX' is not a suit, colour or card of this deck."
    assert 'name="keep_breach"' not in response.text
    assert last_seq(app, table) == 5


def test_a_correction_within_the_rules_is_recorded_at_once(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    ok(
        correction(
            client, table, 5, action="tricks", **{"tricks-1": "0", "tricks-2": "0", "tricks-3": "1"}
        )
    )
    with app.app_context():
        assert table_state(table).totals() == {"Ann": 10, "Ben": 0, "Cho": 11}
    assert "Corrected: Round 1:" in html.unescape(client.get(f"/t/{table}").text)


def test_bids_declarations_and_trumps_are_corrected_on_the_chips_of_a_live_entry(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    page = client.get(f"/t/{table}/amend/4").text  # Ann's bid, in a one-card round
    assert re.findall(r'name="bid" value="(\d+)"', page) == ["0", "1"]
    assert 'name="bid" value="0" checked' in page
    page = client.get(f"/t/{table}/amend/1").text
    chips = re.findall(r'name="trump" value="(\w+)" (checked)? ?required><span>([^<]+)<', page)
    assert sorted((value, label) for value, _, label in chips) == [
        ("C", "♣ clubs"),
        ("D", "♦ diamonds"),
        ("H", "♥ hearts"),
        ("S", "♠ spades"),
    ]
    assert [value for value, checked, _ in chips if checked] == ["H"]
    alles = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    with app.app_context():
        append_entry(alles, 0, "event", ev.Trump(1, "green-12").to_dict())
        append_entry(alles, 1, "event", ev.Declare(1, "Ben", True, 2).to_dict())
    page = client.get(f"/t/{alles}/amend/1").text
    assert 'name="trump" value="green-12" checked' in page  # the turned card, kept
    page = client.get(f"/t/{alles}/amend/2").text
    assert 'name="choice" value="open-2" checked' in page
    assert 'name="choice" value="secret"' in page


def test_trick_counts_are_corrected_on_the_chips_of_a_live_entry(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    page = client.get(f"/t/{table}/amend/5").text  # the tricks: Ann 0, Ben 1, Cho 0
    assert 'type="number"' not in page
    assert checked(page, "tricks-1") == "0" and checked(page, "tricks-2") == "1"
    assert chips(page, "tricks-3") == ["0", "1"]  # a one-card round: 0 or 1 trick
    response = correction(
        client, table, 5, action="tricks", **{"tricks-1": "1", "tricks-2": "0", "tricks-3": "0"}
    )
    assert response.status_code in (302, 303), response.text[-800:]


def test_a_card_played_is_offered_undo_not_a_correction_form_without_fields(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat in (2, 3, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "play", player="2", card="QS", mode="cards"))
    assert client.get(f"/t/{table}/amend/5").status_code == 404
    page = client.get(f"/t/{table}/history").text
    entry5 = page[page.index('id="entry-5"') : page.index('id="entry-4"')]
    assert "/amend/" not in entry5 and f'href="/t/{table}/amend/4"' in page


def test_a_spectator_cannot_correct(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    page = client.get(f"/t/{table}/amend/3").text
    viewer = app.test_client()
    join(app, viewer, table, "viewer")
    data = {"seq": hidden(page, "seq"), "round": "1", "action": "bid", "player": "3", "bid": "1"}
    assert viewer.post(f"/t/{table}/amend/3", data=data).status_code == 403
    assert 'class="button quiet correct"' not in viewer.get(f"/t/{table}/history?round=1").text


# --- the history ----------------------------------------------------------------------------


def history_lines(client: FlaskClient, path: str) -> list[tuple[str, str]]:
    """Each line of a history page: its entry number and its text, tags dropped."""
    text = client.get(path).text
    lines = re.findall(r'<li class="[^"]*" id="entry-(\d+)">(.*?)</li>', text, re.S)
    return [(seq, " ".join(re.sub(r"<[^>]+>", " ", body).split())) for seq, body in lines]


def test_the_history_is_newest_first_with_replaced_and_undone_entries_marked(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    ok(
        correction(
            client, table, 5, action="tricks", **{"tricks-1": "0", "tricks-2": "0", "tricks-3": "1"}
        )
    )
    ok(
        correction(
            client, table, 5, action="tricks", **{"tricks-1": "1", "tricks-2": "0", "tricks-3": "0"}
        )
    )
    ok(post(client, table, "trump", trump="S"))
    page = client.get(f"/t/{table}").text
    ok(client.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")}))
    lines = history_lines(client, f"/t/{table}/history")
    assert [seq for seq, _ in lines] == ["9", "8", "7", "6", "5", "4", "3", "2", "1"]
    said = dict(lines)
    assert said["8"].startswith("8 Round 2: ") and "Undone by entry 9" in said["8"]
    assert "Replaced by entry 7" in said["6"] and "Replaced by entry 6" in said["5"]
    assert "Replaced" not in said["7"] and "Undone" not in said["7"]
    text = client.get(f"/t/{table}/history").text
    # The correction in force carries the link that corrects the event (entry 5) again.
    entry7 = text[text.index('id="entry-7"') : text.index('id="entry-6"')]
    assert f'href="/t/{table}/amend/5"' in entry7
    assert text.count(f'href="/t/{table}/amend/5"') == 1
    times = re.findall(r'<time datetime="([^"]+)" data-local>([^<]+)</time>', text)
    assert len(times) == 9
    for iso, shown in times:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", iso)
        assert shown == f"{iso[11:19]} UTC"


def test_a_rounds_entries_are_the_history_of_that_round(app, client):
    table = blackout_round(app, client, (1, 1, 0))
    ok(post(client, table, "trump", trump="S"))
    ok(post(client, table, "bid", player=3, bid=0))
    ok(correction(client, table, 7, action="bid", player="3", bid="1"))
    lines = history_lines(client, f"/t/{table}/history?round=2")
    assert [seq for seq, _ in lines] == ["8", "7", "6"]
    assert "Correction of entry 7: Round 2: Cho bid 1" in lines[0][1]
    page = client.get(f"/t/{table}/history?round=2").text
    assert "Round 2: its entries" in page
    assert f'href="/t/{table}/sheet#round-2"' in page
