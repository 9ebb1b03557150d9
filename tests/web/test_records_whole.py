"""Records that come back whole: every table the app makes, downloaded as a record and loaded
back, is the same table — the same record, the same history page and score sheet, the same PDF
sheet with the same footnotes (their times too) and the same breaches kept.

The tables: every golden record the app loads (tests/records/), the tables the browser journeys
of tests/e2e/test_journeys.py make (built here through the web client, refused entries and all),
and tables with what a record used to lose: a revoke kept in a Blackout and an ebbes round
recorded card by card, a hook breach kept after a correction, undos, corrections, sealed bids
shown before the round was over.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.records import SCHEMA_FILE, export_record, load_record
from referee.records.history import REPLAY_BUDGET
from referee.records.log import LogEntry, effective_events
from referee.rules import Setup, replay, start
from referee.store.tables import get_table, table_state
from referee.web.sheet.footnotes import corrections
from tests.durability.legal import next_entry
from tests.sheets.reading import page_texts
from tests.web.helpers import hidden, kept_as_breach, new_table, ok, post, undo
from tests.web.test_records_web import REFUSED, assert_every_page_answers
from tests.web.test_sheet_corrections import history_lines

RECORDS = Path(__file__).resolve().parents[1] / "records"
SCHEMA = json.loads(SCHEMA_FILE.read_text())
LOCATION = re.compile(r"^/t/([A-Za-z0-9_-]{22})$")

GOLDEN = sorted(
    str(p.relative_to(RECORDS))
    for p in RECORDS.rglob("*.json")
    if not p.name.endswith(".expect.json") and p.parent.name != "unreadable"
)
LOADED = [name for name in GOLDEN if name not in REFUSED]


# --- what a phone does ----------------------------------------------------------------------------


def upload(client: FlaskClient, body: bytes):
    data = {"record": (io.BytesIO(body), "game.json")}
    return client.post("/records", data=data, content_type="multipart/form-data")


def load(client: FlaskClient, body: bytes) -> str:
    """Load a record as a new table; its id. The page it leads to is read, taking its messages."""
    response = upload(client, body)
    assert response.status_code == 303, response.text[-2000:]
    found = LOCATION.match(response.headers["Location"])
    assert found, response.headers["Location"]
    assert client.get(response.headers["Location"]).status_code == 200
    return found.group(1)


def correct(
    client: FlaskClient, table: str, target: int, action: str, keep: bool = False, **fields: str
) -> None:
    """Correct entry ``target`` on its correction page (``keep``: a correction that makes a
    breach, kept as one)."""
    page = client.get(f"/t/{table}/amend/{target}").text
    data = {"seq": hidden(page, "seq"), "round": hidden(page, "round"), "action": action}
    url = f"/t/{table}/amend/{target}"
    ok(kept_as_breach(client, url, data | fields) if keep else client.post(url, data=data | fields))
    client.get(f"/t/{table}")


def enter(client: FlaskClient, table: str, action: str, **fields: object) -> None:
    """Make an entry, and read the page it leads to (taking its messages)."""
    response = post(client, table, action, **{k: str(v) for k, v in fields.items()})
    ok(response)
    client.get(response.headers["Location"])


def refused(client: FlaskClient, table: str, action: str, **fields: object) -> None:
    """An entry the table refuses (as the journeys have one): nothing is written."""
    response = post(client, table, action, **{k: str(v) for k, v in fields.items()})
    assert response.status_code == 422, response.text[-1500:]


def play(client: FlaskClient, table: str, seat: int, card: str) -> None:
    enter(client, table, "play", player=seat, card=card, mode="cards")


def play_at_random(app: Flask, client: FlaskClient, table: str, rng: random.Random) -> None:
    """Play the round under way card by card, any card left to whoever is next (revokes too)."""
    while True:
        with app.app_context():
            state = table_state(table)
        assert state is not None
        step = state.next_step()
        rnd = state.current
        if step is None or step.action != "play" or rnd is None or rnd.plays_complete:
            return
        player = state.game.next_to_play(rnd)
        assert player is not None
        card = rng.choice(state.game.cards_left(rnd))
        play(client, table, state.setup.players.index(player) + 1, str(card))


ANN, BEN, CHO = 1, 2, 3


# --- the tables -----------------------------------------------------------------------------------


def blackout_journey(app: Flask, client: FlaskClient) -> str:
    """tests/e2e/test_journeys.py's Blackout table."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    enter(client, table, "trump", trump="H")
    for seat in (BEN, CHO, ANN):
        enter(client, table, "bid", player=seat, bid=0)
    refused(client, table, "tricks", tricks_1=1, tricks_2=1, tricks_3=0)
    enter(client, table, "tricks", tricks_1=1, tricks_2=0, tricks_3=0)
    for seat, bid in ((CHO, 1), (ANN, 0), (BEN, 0)):
        enter(client, table, "bid", player=seat, bid=bid)
    enter(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=1)
    enter(client, table, "trump", trump="S")
    for seat in (ANN, BEN, CHO):
        enter(client, table, "bid", player=seat, bid=0)
    enter(client, table, "tricks", tricks_1=1, tricks_2=0, tricks_3=0)
    return table


def alles_journey(app: Flask, client: FlaskClient) -> str:
    """tests/e2e/test_journeys.py's Alles oder Nichts table."""
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    enter(client, table, "trump", trump="red")
    enter(client, table, "declare", player=BEN, choice="open-2")
    enter(client, table, "declare", player=CHO, choice="secret")
    enter(client, table, "declare", player=ANN, choice="open-1")
    refused(client, table, "tricks", tricks_1=1, tricks_2=2, tricks_3=2)
    enter(client, table, "tricks", tricks_1=1, tricks_2=2, tricks_3=3)
    enter(client, table, "reveal", player=CHO, bid=3)
    enter(client, table, "trump", trump="blue")
    enter(client, table, "declare", player=CHO, choice="open-0")
    enter(client, table, "declare", player=ANN, choice="secret")
    enter(client, table, "declare", player=BEN, choice="open-0")
    enter(client, table, "tricks", tricks_1=5, tricks_2=0, tricks_3=0)
    enter(client, table, "reveal", player=ANN, bid=5)
    return table


EBBES_WON = {
    "Ann": {"red": 2, "yellow": 3, "green": 3, "blue": 1, "purple": 3},
    "Ben": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "purple": 1},
    "Cho": {"red": 2, "yellow": 1, "green": 1, "blue": 3, "purple": 2},
}


def won_fields(won: dict[str, dict[str, int]]) -> dict[str, int]:
    seats = {"Ann": ANN, "Ben": BEN, "Cho": CHO}
    return {f"won_{seats[p]}_{c}": n for p, counts in won.items() for c, n in counts.items()}


def ebbes_journey(app: Flask, client: FlaskClient) -> str:
    """tests/e2e/test_journeys.py's ebbes table."""
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    enter(client, table, "number", number=3)
    for colour in ("red", "yellow", "green", "blue"):
        enter(client, table, "designate", colour=colour)
    bad = {player: dict(counts) for player, counts in EBBES_WON.items()}
    bad["Ann"]["red"] = 3
    refused(client, table, "won", **won_fields(bad))
    enter(client, table, "won", **won_fields(EBBES_WON))
    enter(client, table, "starter", player=BEN, chosen_by=ANN)
    enter(client, table, "number", number=4)
    for colour in ("blue", "purple", "red", "green"):
        enter(client, table, "designate", colour=colour)
    enter(client, table, "won", **won_fields(EBBES_WON))
    return table


def blackout_cards_with_a_revoke(app: Flask, client: FlaskClient) -> str:
    """Card by card (tests/web/test_cards.py): Ann revokes and the table plays on, keeping it;
    a card played by mistake is undone and played again."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    enter(client, table, "trump", trump="KH")
    for seat, bid in ((BEN, 0), (CHO, 1), (ANN, 1)):
        enter(client, table, "bid", player=seat, bid=bid)
    for seat, card in ((BEN, "AS"), (CHO, "AC"), (ANN, "AH")):
        play(client, table, seat, card)
    for seat, bid in ((CHO, 1), (ANN, 0), (BEN, 0)):
        enter(client, table, "bid", player=seat, bid=bid)
    play(client, table, CHO, "KS")
    play(client, table, ANN, "AD")  # the wrong card tapped …
    undo(client, table)
    play(client, table, ANN, "AC")  # … Ann shows out of spades
    for seat, card in ((BEN, "AD"), (CHO, "KH"), (ANN, "AS"), (BEN, "AH")):  # AS: a revoke
        play(client, table, seat, card)
    with app.app_context():
        state = table_state(table)
    assert state is not None
    assert [(b.rule, b.round, b.player) for b in state.violations] == [("follow-suit", 2, "Ann")]
    return table


def ebbes_cards_with_a_revoke(app: Flask, client: FlaskClient) -> str:
    """An ebbes round card by card, any card played (so players revoke, kept), then round 2's
    starter and number."""
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    enter(client, table, "number", number=2)
    play_at_random(app, client, table, random.Random(5))
    with app.app_context():
        state = table_state(table)
    assert state is not None and state.rounds[0].plays_complete
    assert "follow-suit" in {b.rule for b in state.violations}
    majority = state.game.nix_majority(state, state.rounds[0])
    chooser = state.setup.players.index(majority[0]) + 1 if majority else ""
    enter(client, table, "starter", player=CHO, chosen_by=chooser)
    enter(client, table, "number", number=5)
    return table


def blackout_hook_kept_after_a_correction(app: Flask, client: FlaskClient) -> str:
    """tests/web/test_sheets_web.py's table: Cho's bid corrected, so the dealer's bid breaks the
    hook (kept); round 2's trump entered and undone; round 2 played with a correction of its
    trump and a trump corrected twice."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    enter(client, table, "trump", trump="H")
    for seat, bid in ((BEN, 1), (CHO, 1), (ANN, 0)):
        enter(client, table, "bid", player=seat, bid=bid)
    enter(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0)
    correct(client, table, 3, "bid", keep=True, player="3", bid="0")
    enter(client, table, "trump", trump="S")
    undo(client, table)
    enter(client, table, "trump", trump="D")
    correct(client, table, 9, "trump", trump="C")
    correct(client, table, 9, "trump", trump="QC")
    with app.app_context():
        state = table_state(table)
    assert state is not None
    assert [(b.rule, b.round, b.player) for b in state.violations] == [("hook", 1, "Ann")]
    return table


def alles_sealed_and_shown_early(app: Flask, client: FlaskClient) -> str:
    """Sealed bids: Cho's sealed before play in round 1; in round 2 Ann's sealed bid is shown by
    tricks entered, which are undone (the bids sealed again: shown early) and entered again;
    Ben's open bid is corrected."""
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    enter(client, table, "trump", trump="green-12")
    enter(client, table, "declare", player=BEN, choice="open-2")
    enter(client, table, "declare", player=CHO, choice="sealed-3")
    enter(client, table, "declare", player=ANN, choice="secret")
    enter(client, table, "tricks", tricks_1=1, tricks_2=2, tricks_3=3)
    enter(client, table, "reveal", player=ANN, bid=1)
    enter(client, table, "trump", trump="yellow")
    enter(client, table, "declare", player=CHO, choice="open-1")
    enter(client, table, "declare", player=ANN, choice="sealed-2")
    enter(client, table, "declare", player=BEN, choice="open-2")
    enter(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=1)
    undo(client, table)
    enter(client, table, "tricks", tricks_1=2, tricks_2=1, tricks_3=2)
    correct(client, table, 10, "declare", player="2", choice="open-1")
    history = client.get(f"/t/{table}/history").text
    assert "The sealed bids of round 2 were shown before the round was over" in history
    return table


TABLES: dict[str, Callable[[Flask, FlaskClient], str]] = {
    "blackout-journey": blackout_journey,
    "alles-oder-nichts-journey": alles_journey,
    "ebbes-journey": ebbes_journey,
    "blackout-cards-revoke-kept": blackout_cards_with_a_revoke,
    "ebbes-cards-revoke-kept": ebbes_cards_with_a_revoke,
    "blackout-hook-kept-after-a-correction": blackout_hook_kept_after_a_correction,
    "alles-oder-nichts-sealed-shown-early": alles_sealed_and_shown_early,
}


# --- the same table -------------------------------------------------------------------------------


def main_of(client: FlaskClient, table: str, page: str) -> str:
    """The page's content (no header, whose links differ by table), the table's id blanked."""
    text = client.get(f"/t/{table}{page}").text
    main = text[text.index("<main>") : text.index("</main>")]
    return main.replace(table, "TABLE")


def looks(app: Flask, client: FlaskClient, table: str) -> dict[str, object]:
    """Everything a table shows of itself: its record, history page, score sheet and breaches,
    its PDF sheet and that sheet's footnotes."""
    with app.app_context():
        state, stored = table_state(table), get_table(table)
    assert state is not None and stored is not None
    pdf = client.get(f"/t/{table}/sheet.pdf")
    assert pdf.status_code == 200
    with app.test_request_context():
        footnotes = corrections(stored.entries)
    return {
        "record": client.get(f"/t/{table}/record.json").json,
        "history": main_of(client, table, "/history"),
        "sheet": main_of(client, table, "/sheet"),
        "pdf": page_texts(pdf.data),
        "footnotes": footnotes,
        "log": [(e.seq, e.kind, e.payload, e.created_at) for e in stored.entries],
        "violations": [b.to_dict() for b in state.violations],
        "warnings": [b.to_dict() for b in state.warnings],
    }


def assert_comes_back_whole(app: Flask, client: FlaskClient, table: str) -> str:
    """Download the table's record, load it: the new table is the same table. Its id."""
    before = looks(app, client, table)
    jsonschema.validate(before["record"], SCHEMA)
    download = client.get(f"/t/{table}/record.json")
    again = load(client, download.data)
    assert again != table
    after = looks(app, client, again)
    for key, value in before.items():
        assert after[key] == value, key
    return again


@pytest.mark.parametrize("name", TABLES)
def test_a_table_comes_back_whole_from_its_record(
    app: Flask, client: FlaskClient, name: str
) -> None:
    table = TABLES[name](app, client)
    with app.app_context():
        stored = get_table(table)
    assert stored is not None
    assert_comes_back_whole(app, client, table)


@pytest.mark.parametrize("name", LOADED)
def test_a_golden_record_loads_and_comes_back_whole(
    app: Flask, client: FlaskClient, name: str
) -> None:
    body = (RECORDS / name).read_bytes()
    table = load(client, body)
    with app.app_context():
        state = table_state(table)
    assert state is not None
    referee = load_record(body).replay()  # python -m referee check notes the same breaches
    assert [b.to_dict() for b in state.violations] == [b.to_dict() for b in referee.violations]
    assert_comes_back_whole(app, client, table)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_golden_record_the_app_could_not_have_entered_is_refused(
    client: FlaskClient, name: str
) -> None:
    response = upload(client, (RECORDS / name).read_bytes())
    assert response.status_code == 422
    assert "This record cannot be loaded: " in response.text
    assert REFUSED[name].replace("'", "&#39;") in response.text


def test_every_table_here_keeps_what_it_is_about(app: Flask, client: FlaskClient) -> None:
    """The tables above hold what a record used to lose: undos, corrections, kept breaches,
    bids sealed before play, a round whose sealed bids were shown early."""
    kinds: set[str] = set()
    rules: set[str] = set()
    sealed = early = False
    for build in TABLES.values():
        table = build(app, client)
        with app.app_context():
            stored, state = get_table(table), table_state(table)
        assert stored is not None and state is not None
        kinds |= {e.kind for e in stored.entries}
        rules |= {b.rule for b in state.violations}
        record = json.loads(client.get(f"/t/{table}/record.json").data)
        sealed |= any(
            e.get("event", {}).get("type") == "declare"
            and not e["event"]["open"]
            and e["event"]["bid"] is not None
            for e in record.get("history", [])
        )
        early |= "were shown before the round was over" in main_of(client, table, "/history")
    assert kinds == {"event", "undo", "amend"}
    assert {"follow-suit", "hook"} <= rules
    assert sealed and early


def test_a_sealed_bid_of_a_round_under_way_is_not_in_the_record(
    app: Flask, client: FlaskClient
) -> None:
    """Anyone with a link may download the record: a sealed bid is in it only once its round is
    over. The table loaded from it has a secret bid to turn up after the round instead."""
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    enter(client, table, "trump", trump="red")
    enter(client, table, "declare", player=BEN, choice="sealed-5")
    record = client.get(f"/t/{table}/record.json").json
    assert record["rounds"][0]["bids"] == {"Ben": {"open": False}}
    assert record["history"][1]["event"]["bid"] is None
    again = load(client, json.dumps(record).encode())
    enter(client, again, "declare", player=CHO, choice="open-1")
    enter(client, again, "declare", player=ANN, choice="open-0")
    enter(client, again, "tricks", tricks_1=0, tricks_2=5, tricks_3=1)
    assert "Turn up Ben&#39;s secret bid" in client.get(f"/t/{again}").text


def test_a_history_the_app_could_not_have_made_is_refused_naming_its_entry(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    enter(client, table, "trump", trump="H")
    for seat, bid in ((BEN, 1), (CHO, 1), (ANN, 1)):
        enter(client, table, "bid", player=seat, bid=bid)
    record = client.get(f"/t/{table}/record.json").json
    at = record["history"][-1]["at"]
    # Ben's bid undone though it is not the newest entry, then the tricks: Ben has no bid.
    record["history"] += [
        {"seq": 5, "at": at, "undo": 2},
        {"seq": 6, "at": at, "event": {"type": "tricks", "round": 1, "tricks": {"Ann": 1}}},
    ]
    record["rounds"] = [{"trump": "H", "bids": {"Cho": 1, "Ann": 1}, "tricks": {"Ann": 1}}]
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 422, response.text[-1500:]
    assert "This record cannot be loaded: entry 6 of its history: " in response.text
    assert "All bids of round 1 are needed before the tricks." in response.text


@pytest.mark.parametrize("at", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_history_time_no_clock_shows_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, at: str
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    enter(client, table, "trump", trump="H")
    record = client.get(f"/t/{table}/record.json").json
    record["history"][0]["at"] = at
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 422, response.text[-1500:]
    assert "This record cannot be read: history[0].at: must be a time from the year 1000" in (
        response.text
    )
    assert 'id="load-record"' in response.text  # the form, to choose another file
    with app.app_context():
        assert get_table(table) is not None and len(get_table(table).entries) == 1
    assert_every_page_answers(client)  # nothing lost: the table that was, and every page


def test_a_history_whose_clock_went_back_loads_in_its_order_and_says_where(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    enter(client, table, "trump", trump="H")
    enter(client, table, "bid", player=BEN, bid=1)
    enter(client, table, "bid", player=CHO, bid=0)
    record = client.get(f"/t/{table}/record.json").json
    times = ["2025-03-01T20:00:00.000000Z", "2025-03-01T19:00:00.000000Z"]  # set back an hour
    times.append("2025-03-01T19:01:00.000000Z")
    for entry, at in zip(record["history"], times, strict=True):
        entry["at"] = at
    again = load(client, json.dumps(record).encode())
    said = dict(history_lines(client, f"/t/{again}/history"))
    assert "The clock went back here" in said["2"]
    assert "clock" not in said["1"] + said["3"]
    assert "clock" not in client.get(f"/t/{table}/history").text  # the clock that kept time
    assert client.get(f"/t/{again}/record.json").json == record  # in the log's order, as it was


def test_a_history_made_to_cost_is_refused_before_it_costs_much(
    app: Flask, client: FlaskClient
) -> None:
    """Every correction of entry 1 replays all that follows it: a long game's first entry
    corrected a few hundred times is more than a table is ever checked with."""
    setup = Setup("blackout", ("Ann", "Ben"), {"sequence": "up-down-double"})
    rng, state, events = random.Random(1), start(setup), []
    while (made := next_entry(state, rng)) is not None:
        events.append(made[0])
        state = made[1]
    now = datetime.now(UTC)
    log = [LogEntry(n, "event", e.to_dict(), now) for n, e in enumerate(events, start=1)]
    first = {"target": 1, "event": events[0].to_dict()}
    log += [LogEntry(n, "amend", first, now) for n in range(len(log) + 1, len(log) + 300)]
    body = json.dumps(export_record(replay(setup, effective_events(log), lenient=True), log))
    response = upload(client, body.encode())
    assert response.status_code == 422
    assert "corrects or undoes so many earlier entries" in response.text
    assert f"more than {REPLAY_BUDGET} entries" in response.text
