"""Ending a game early (docs/rules.md, "Ending early") at the table, through the web as the
scorekeeper's phone does: two taps after a complete round; refused mid-round with the rule's
sentence and nothing stored; undone like any entry; kept through the record's round trip."""

from __future__ import annotations

import json
import random
import re

import pytest

from referee.records import load_record
from referee.rules import GAMES
from referee.store.tables import get_table, table_state
from tests.durability.legal import entry_form, next_entry
from tests.groups.figures import statistics_of
from tests.web.group_helpers import main_text, new_group
from tests.web.helpers import error_of, new_table, ok, undo
from tests.web.test_groups_numbers import numbers_of
from tests.web.test_groups_roster import new_group_with_csrf
from tests.web.test_groups_start import started
from tests.web.test_language import pdf_text_and_fonts

NAMES = ("Ann", "Ben", "Cho", "Dee")


def play_rounds(app, client, table_id: str, rounds: int, seed: int = 7) -> None:
    """Legal entries posted through the page until ``rounds`` rounds are complete."""
    rng = random.Random(seed)
    while True:
        with app.app_context():
            record = get_table(table_id)
            state = table_state(table_id)
        assert record is not None and state is not None
        done = [r for r in state.rounds if state.game.round_complete(r)]
        if len(done) >= rounds and state.game.upcoming(state) is not state.current:
            return
        found = next_entry(state, rng)
        assert found is not None, "the game ended before the rounds were played"
        ok(client.post(f"/t/{table_id}/entry", data=entry_form(state, found[0], record.last_seq)))


def end_form(page: str) -> dict[str, str]:
    """The fields of the page's "End after round N of M" form."""
    form = re.search(r'<details class="end-early panel">(.*?)</details>', page, re.S)
    assert form, "no way to end the game on the page"
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_scorekeeper_ends_a_game_after_a_complete_round(app, client, game) -> None:
    table_id = new_table(app, client, game, NAMES)
    play_rounds(app, client, table_id, 2)
    page = client.get(f"/t/{table_id}").text
    with app.app_context():
        rounds = table_state(table_id).game.round_count
    assert f"End after round 2 of {rounds}" in page
    ok(client.post(f"/t/{table_id}/entry", data=end_form(page)))
    page = client.get(f"/t/{table_id}").text
    assert f"Ended after round 2 of {rounds}" in page
    assert "End the game here" not in page
    with app.app_context():
        state = table_state(table_id)
    assert state.complete and state.ended == 2 and state.winners()
    best = max(state.totals().values())
    assert state.winners() == [p for p in NAMES if state.totals()[p] == best]
    assert re.search(r'class="winner">(Winner|Shared win)', page)

    # The sheet, TV mode, the PDF and the record say so; the record reads back as the same
    # ended game.
    assert f"Ended after round 2 of {rounds}" in client.get(f"/t/{table_id}/sheet").text
    assert f"Ended after round 2 of {rounds}" in client.get(f"/t/{table_id}/tv").text
    text, _fonts = pdf_text_and_fonts(client.get(f"/t/{table_id}/sheet.pdf").data)
    assert f"ended after round 2 of {rounds}" in " ".join(text.split())
    doc = client.get(f"/t/{table_id}/record.json").get_json()
    assert doc["ended_after"] == 2
    again = load_record(json.dumps(doc)).replay()
    assert again.ended == 2 and again.totals() == state.totals() and not again.violations

    # The history tells it.
    assert "the game ended after round 2" in client.get(f"/t/{table_id}/history").text

    # Undo takes it back: the game goes on at round 3.
    undo(client, table_id)
    with app.app_context():
        state = table_state(table_id)
    assert state.ended is None and state.round_to_play == 3
    assert "End after round 2" in client.get(f"/t/{table_id}").text


def test_no_end_is_offered_or_taken_before_round_one_is_over_or_mid_round(app, client) -> None:
    table_id = new_table(app, client, "blackout", NAMES)
    assert "End the game here" not in client.get(f"/t/{table_id}").text
    play_rounds(app, client, table_id, 1)
    page = client.get(f"/t/{table_id}").text
    fields = end_form(page)
    # One more entry, round 2 under way: the page shown before it is out of date, and an end
    # posted for round 2 itself breaks the rule.
    with app.app_context():
        record, state = get_table(table_id), table_state(table_id)
    event, _after = next_entry(state, random.Random(1))
    ok(client.post(f"/t/{table_id}/entry", data=entry_form(state, event, record.last_seq)))
    stale = client.post(f"/t/{table_id}/entry", data=fields)
    assert stale.status_code == 409
    page = client.get(f"/t/{table_id}").text
    assert "End the game here" not in page
    refused = client.post(
        f"/t/{table_id}/entry", data=fields | {"seq": str(record.last_seq + 1), "round": "2"}
    )
    assert refused.status_code == 422
    assert error_of(refused) == (
        "The game can end only after a complete round: round 2 is not over."
    )
    with app.app_context():
        assert table_state(table_id).ended is None
        assert get_table(table_id).last_seq == record.last_seq + 1


def test_two_phones_ending_the_same_game_end_it_once(app, client) -> None:
    table_id = new_table(app, client, "blackout", NAMES)
    play_rounds(app, client, table_id, 1)
    fields = end_form(client.get(f"/t/{table_id}").text)
    ok(client.post(f"/t/{table_id}/entry", data=fields))
    second = client.post(f"/t/{table_id}/entry", data=fields)
    assert second.status_code == 303  # the same entry, already recorded
    assert "That entry was already recorded." in client.get(f"/t/{table_id}").text
    with app.app_context():
        record = get_table(table_id)
    assert [e.payload["type"] for e in record.entries].count("end") == 1


def ended_at_a_group(app, client):
    """A group's Blackout table of Ann, Ben, Cho and Dee (p1–p4) ended after round 2: the
    group's id and the table's state."""
    group_id = new_group(client)
    table_id = started(client, group_id, here=["p1", "p2", "p3", "p4"])
    play_rounds(app, client, table_id, 2)
    ok(client.post(f"/t/{table_id}/entry", data=end_form(client.get(f"/t/{table_id}").text)))
    with app.app_context():
        return group_id, table_state(table_id)


def test_a_group_counts_a_game_ended_early_as_finished_and_says_so(app, client) -> None:
    """Ann, Ben, Cho and Dee play two rounds of Blackout and stop: the group's page and the
    table's line say where it ended; the standings count it as a finished game with its winner."""
    group_id, state = ended_at_a_group(app, client)
    rounds = state.game.round_count
    assert f"Ended after round 2 of {rounds}" in main_text(client.get(f"/g/{group_id}"))
    standings = client.get(f"/g/{group_id}/standings?season=all")
    winner = state.winners()[0]
    page = client.get(f"/g/{group_id}/p/p{NAMES.index(winner) + 1}?game=blackout&season=all")
    profile = numbers_of(page.text)
    assert profile["Finished games"] == "1" and profile["Wins"] == "1", profile
    assert standings.status_code == 200
    assert '<span class="mark">in play</span>' not in standings.text


def test_a_group_that_does_not_count_games_ended_early_leaves_them_out(app, client) -> None:
    """The group's choice, beside the standings: a keeper taps "Don't count games ended early";
    the game ended after round 2 leaves the standings and the profile (and the group's file says
    so), the evenings still show it; "Count games ended early" brings it back."""
    group_id, state = ended_at_a_group(app, client)
    winner = f"p{NAMES.index(state.winners()[0]) + 1}"
    standings = client.get(f"/g/{group_id}/standings?season=all")
    assert "counts as a finished game" in main_text(standings)
    form = dict(re.findall(r'name="(csrf_token|version)"[^>]*value="([^"]*)"', standings.text))
    assert set(form) == {"csrf_token", "version"}, form

    done = client.post(f"/g/{group_id}/ended-early", data={**form, "counts": "no"})
    assert done.status_code == 303 and done.location.endswith("#ended-early")
    page = client.get(done.location)
    text = main_text(page)
    assert "Games ended early count for nothing now." in text
    assert "counts for nothing in these numbers" in text
    assert "Not counted, as this group chose:" in text
    assert f"ended after round 2 of {state.game.round_count}" in text
    profile = numbers_of(client.get(f"/g/{group_id}/p/{winner}?game=blackout&season=all").text)
    assert profile.get("Finished games", "0") == "0", profile
    exported = client.get(f"/g/{group_id}/group.json").data
    assert json.loads(exported)["ended_early_counts"] is False
    assert statistics_of(exported).games == {}  # the command line leaves it out as well
    assert "Ended after round 2" in main_text(client.get(f"/g/{group_id}"))

    form = dict(re.findall(r'name="(csrf_token|version)"[^>]*value="([^"]*)"', page.text))
    again = client.post(f"/g/{group_id}/ended-early", data={**form, "counts": "yes"})
    assert "Games ended early count again" in main_text(client.get(again.location))
    profile = numbers_of(client.get(f"/g/{group_id}/p/{winner}?game=blackout&season=all").text)
    assert profile["Finished games"] == "1", profile
    exported = client.get(f"/g/{group_id}/group.json").data
    assert "ended_early_counts" not in json.loads(exported)
    assert statistics_of(exported).games["blackout"].players[winner].wins == 1


@pytest.mark.csrf
def test_a_stale_choice_of_games_ended_early_changes_nothing(app, client) -> None:
    group_id = new_group_with_csrf(client)
    page = client.get(f"/g/{group_id}/standings").text
    version = re.search(r'name="version"[^>]*value="([^"]*)"', page)
    assert version is not None
    data = {"version": version[1], "counts": "no", "csrf_token": "stale"}
    stale = client.post(f"/g/{group_id}/ended-early", data=data)
    assert stale.status_code == 303
    text = main_text(client.get(stale.location))
    assert "This page was stale" in text and "counts as a finished game" in text
