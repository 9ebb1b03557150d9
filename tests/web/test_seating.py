"""Joining, leaving and sitting out at the table (docs/rules.md, "Joining, leaving, sitting
out"), through the web as the scorekeeper's phone does: the panel between rounds, its refusals
with the rule's sentence and the input kept, the sheet, the PDF, the history, undo and the
record's round trip."""

from __future__ import annotations

import json
import random
import re

from referee.groups.facts import table_facts
from referee.records import load_record
from referee.store.tables import get_table, table_state
from tests.durability.legal import entry_form, next_entry
from tests.groups.figures import statistics_of
from tests.web.group_helpers import main_text, new_group, stored, version_of
from tests.web.helpers import error_of, new_table, ok, undo
from tests.web.test_end_early import end_form, play_rounds
from tests.web.test_groups_numbers import numbers_of
from tests.web.test_groups_start import started
from tests.web.test_language import pdf_text_and_fonts

NAMES = ("Ann", "Ben", "Cho", "Dee")


def seat_form(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the panel's ``action`` form (join, leave, sit-out)."""
    panel = re.search(
        r'<details class="end-early seat-changes panel"[^>]*>(.*?)</details>', page, re.S
    )
    assert panel, "no seat changes on the page"
    for form in re.findall(r"<form.*?</form>", panel.group(1), re.S):
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
        if fields.get("action") == action:
            return fields
    raise AssertionError(f"no {action} form on the page")


def change_seats(client, table_id: str, action: str, **fields: str) -> None:
    """Post the panel's ``action`` form from the table's page as it is now, with ``fields``."""
    page = client.get(f"/t/{table_id}").text
    ok(client.post(f"/t/{table_id}/entry", data=seat_form(page, action) | fields))


def test_a_late_join_a_sit_out_and_a_leave_at_a_blackout_table(app, client) -> None:
    """Ann, Ben, Cho and Dee play two rounds (Ann and Ben deal); Eve sits down left of Ben
    with the lowest total and deals round 3; Cho sits out round 4; Dee leaves before round 5."""
    table_id = new_table(app, client, "blackout", NAMES)
    play_rounds(app, client, table_id, 2)
    with app.app_context():
        lowest = min(table_state(table_id).totals().values())
    page = client.get(f"/t/{table_id}").text
    assert "Someone joins, leaves or sits out" in page
    assert f"the lowest total: {lowest}" in page
    join = seat_form(page, "join") | {"name": " Eve ", "after": "2", "start": "lowest"}
    ok(client.post(f"/t/{table_id}/entry", data=join))
    with app.app_context():
        state = table_state(table_id)
    assert state.players == (*NAMES, "Eve") and state.totals()["Eve"] == lowest
    rnd = state.game.upcoming(state)
    assert rnd.dealer == "Eve" and state.game.round_count == 19  # 52 ÷ 5 = 10 cards at most

    play_rounds(app, client, table_id, 3)
    change_seats(client, table_id, "sit-out", player="3")
    assert re.search(r"Sits out</dt>\s*<dd>Cho</dd>", client.get(f"/t/{table_id}").text)
    play_rounds(app, client, table_id, 4)
    change_seats(client, table_id, "leave", player="4")
    play_rounds(app, client, table_id, 5)
    with app.app_context():
        state = table_state(table_id)
    assert [r.seats for r in state.rounds[3:5]] == [
        ("Ann", "Ben", "Eve", "Dee"),
        ("Ann", "Ben", "Eve", "Cho"),
    ]

    sheet = client.get(f"/t/{table_id}/sheet").text
    assert f"Eve joined left of Ben, starting with {lowest} (the lowest total)" in sheet
    assert "Cho sat out round 4" in sheet and "Dee left the table; their total stands" in sheet
    assert sheet.count('<td class=away><abbr title="sat out">–</abbr>') == 1
    assert sheet.count("<td class=away>") == 2 + 1 + 1  # Eve in 1–2, Cho in 4, Dee in 5

    text, _fonts = pdf_text_and_fonts(client.get(f"/t/{table_id}/sheet.pdf").data)
    flat = " ".join(text.split())
    assert "Who came and went" in flat and "Before round 3: Eve joined left of Ben" in flat
    history = client.get(f"/t/{table_id}/history").text
    assert "Eve joined left of Ben, starting with the lowest total" in history

    doc = client.get(f"/t/{table_id}/record.json").get_json()
    assert doc["rounds"][2]["seats"] == [{"join": "Eve", "after": "Ben", "start": "lowest"}]
    again = load_record(json.dumps(doc)).replay()
    assert again.totals() == state.totals() and not again.violations


def test_a_refused_join_keeps_the_input_and_stores_nothing(app, client) -> None:
    table_id = new_table(app, client, "alles-oder-nichts", NAMES)
    play_rounds(app, client, table_id, 1)
    with app.app_context():
        seq = get_table(table_id).last_seq
    form = seat_form(client.get(f"/t/{table_id}").text, "join")
    refused = client.post(f"/t/{table_id}/entry", data=form | {"name": "ben", "start": "zero"})
    assert refused.status_code == 422
    assert error_of(refused) == "'ben' sits at the table twice (names must differ, ignoring case)."
    page = refused.text
    assert 'value="ben"' in page and re.search(r'value="zero" checked', page)
    assert re.search(r'<details class="end-early seat-changes panel" open>', page)
    with app.app_context():
        assert get_table(table_id).last_seq == seq
    # The seventh player: Alles oder Nichts seats six at most, so no join is offered then.
    for name in ("Eve", "Fay"):
        ok(
            client.post(
                f"/t/{table_id}/entry",
                data=seat_form(client.get(f"/t/{table_id}").text, "join") | {"name": name},
            )
        )
    page = client.get(f"/t/{table_id}").text
    assert "Seat them from round" not in page
    full = client.post(f"/t/{table_id}/entry", data=form | {"name": "Gus", "seq": str(seq + 2)})
    assert full.status_code == 422
    assert error_of(full) == "Gus cannot join: Alles oder Nichts takes at most 6 players."


def test_no_seat_change_mid_round_in_ebbes_or_twice_from_two_phones(app, client) -> None:
    table_id = new_table(app, client, "ebbes", NAMES[:3])
    play_rounds(app, client, table_id, 1)
    assert "Someone joins" not in client.get(f"/t/{table_id}").text

    table_id = new_table(app, client, "blackout", NAMES)
    play_rounds(app, client, table_id, 1)
    form = seat_form(client.get(f"/t/{table_id}").text, "join") | {"name": "Eve"}
    ok(client.post(f"/t/{table_id}/entry", data=form))
    again = client.post(f"/t/{table_id}/entry", data=form)  # the second phone, same page
    assert again.status_code == 303
    with app.app_context():
        record = get_table(table_id)
    assert [e.payload["type"] for e in record.entries].count("join") == 1
    undo(client, table_id)
    with app.app_context():
        assert table_state(table_id).players == NAMES
    # Mid-round: the trump of round 2 is in, so the page offers nothing and a post is refused.
    play_rounds(app, client, table_id, 1)
    page = client.get(f"/t/{table_id}").text
    form = seat_form(page, "sit-out") | {"player": "1"}
    with app.app_context():
        record, state = get_table(table_id), table_state(table_id)

    event, _after = next_entry(state, random.Random(2))
    ok(client.post(f"/t/{table_id}/entry", data=entry_form(state, event, record.last_seq)))
    refused = client.post(f"/t/{table_id}/entry", data=form | {"seq": str(record.last_seq + 1)})
    assert refused.status_code == 422
    assert (
        error_of(refused) == "Players join, leave or sit out between rounds: round 2 is not over."
    )


def test_a_join_is_corrected_like_any_entry(app, client) -> None:
    """The newcomer's name was typed wrong and their start chosen wrong: the history corrects
    both, and everything after is checked again."""
    table_id = new_table(app, client, "blackout", NAMES)
    play_rounds(app, client, table_id, 1)
    form = seat_form(client.get(f"/t/{table_id}").text, "join")
    ok(client.post(f"/t/{table_id}/entry", data=form | {"name": "Evee", "start": "zero"}))
    with app.app_context():
        record = get_table(table_id)
    target = record.last_seq
    page = client.get(f"/t/{table_id}/amend/{target}").text
    assert 'value="Evee"' in page and re.search(r'value="zero" checked', page)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    fixed = fields | {"name": "Eve", "start": "average", "after": "1"}
    ok(client.post(f"/t/{table_id}/amend/{target}", data=fixed))
    with app.app_context():
        state = table_state(table_id)
    assert state.players == (*NAMES, "Eve") and state.ring[:2] == ("Ann", "Eve")
    totals = [state.totals()[p] for p in NAMES]
    assert state.totals()["Eve"] == (2 * sum(totals) + 4) // 8


def test_a_groups_table_where_people_come_and_go(app, client) -> None:
    """At a group's table of four, a guest joins after round 1 and a roster player sits out
    round 3 and leaves before round 5; the table ends after round 5. The group's pages show the
    table with everyone at it, and its numbers count each roster player's own rounds: 5 for
    those who stayed, 3 for the one who sat out round 3 and left before round 5; the newcomer,
    no roster player, has 4 and counts for nobody."""
    group_id = new_group(client)
    table_id = started(client, group_id, here=["p1", "p2", "p3", "p4"])
    play_rounds(app, client, table_id, 1)
    page = client.get(f"/t/{table_id}").text
    ok(client.post(f"/t/{table_id}/entry", data=seat_form(page, "join") | {"name": "Gus"}))
    play_rounds(app, client, table_id, 2)
    with app.app_context():
        left = table_state(table_id).setup.players[3]
    change_seats(client, table_id, "sit-out", player="4")
    play_rounds(app, client, table_id, 4)
    change_seats(client, table_id, "leave", player="4")
    play_rounds(app, client, table_id, 5)
    ok(client.post(f"/t/{table_id}/entry", data=end_form(client.get(f"/t/{table_id}").text)))
    assert "Gus" in main_text(client.get(f"/g/{group_id}"))
    assert client.get(f"/g/{group_id}/standings?season=all").status_code == 200
    with app.app_context():
        state = table_state(table_id)
    facts = table_facts(state)
    rounds = {seat.name: seat.rounds for seat in facts.seats}
    assert rounds[left] == 3 and rounds["Gus"] == 4
    assert all(rounds[p] == 5 for p in state.setup.players if p != left)


def test_a_roster_player_who_joins_late_counts_for_the_group(app, client) -> None:
    """Ann, Ben, Cho and Dee (the roster's p1–p4) begin; Eve, on the roster as p5, arrives after
    round 2 and is typed as "eve": the group seats her as the roster's Eve, so her 3 rounds and
    her place count for her (her starting points place her, they are not points she scored),
    on the web as in the group's file and `referee stats` of it. Gus, no roster player, joins
    too and stays a guest until merged on the table's page; a join taken back takes its seat
    out of the file."""
    group_id = new_group(client)
    table_id = started(client, group_id, here=["p1", "p2", "p3", "p4"])
    play_rounds(app, client, table_id, 2)
    page = client.get(f"/t/{table_id}").text
    ok(client.post(f"/t/{table_id}/entry", data=seat_form(page, "join") | {"name": "eve"}))
    kept = stored(app, group_id).kept(table_id)
    assert kept.seats["eve"] == "p5"
    play_rounds(app, client, table_id, 5)
    ok(client.post(f"/t/{table_id}/entry", data=end_form(client.get(f"/t/{table_id}").text)))
    with app.app_context():
        state = table_state(table_id)
    facts = table_facts(state)
    eve = facts.seat("eve")
    assert eve.rounds == 3
    started_with = state.start_points()["eve"]
    assert eve.points == state.totals()["eve"] - started_with  # scored at the table
    exported = client.get(f"/g/{group_id}/group.json").data
    table = json.loads(exported)["tables"][0]
    assert table["seats"] == {"Ann": "p1", "Ben": "p2", "Cho": "p3", "Dee": "p4", "eve": "p5"}
    figures = statistics_of(exported).games["blackout"].players["p5"]
    assert figures.rounds == 3 and figures.complete == 1
    profile = numbers_of(client.get(f"/g/{group_id}/p/p5?game=blackout&season=all").text)
    assert profile["Rounds"] == "3", profile

    # A guest newcomer, merged by hand on the table's page (he is a newcomer, not a seat yet).
    other = started(client, group_id, here=["p1", "p2", "p3"])
    play_rounds(app, client, other, 1)
    page = client.get(f"/t/{other}").text
    ok(client.post(f"/t/{other}/entry", data=seat_form(page, "join") | {"name": "Gus"}))
    assert "Gus" not in stored(app, group_id).kept(other).seats
    page = client.get(f"/g/{group_id}/t/{other}")
    assert "Gus was a guest. Who was it?" in main_text(page)
    data = {"version": version_of(page.text), "action": "merge", "seat": "Gus", "into": "new"}
    ok(client.post(f"/g/{group_id}/t/{other}", data=data))
    assert stored(app, group_id).kept(other).seats["Gus"] == "p7"
    undo(client, other)  # the join taken back: Gus's seat leaves the file
    exported = json.loads(client.get(f"/g/{group_id}/group.json").data)
    assert "Gus" not in exported["tables"][1]["seats"]
    assert statistics_of(json.dumps(exported).encode()).games  # the file still reads
