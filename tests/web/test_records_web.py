"""Records on the web: download a table's record, load a record as a new table, refuse bad ones."""

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import func, select

from referee.records import export_record, load_record
from referee.records.check import check_text
from referee.store import db
from referee.store.models import Table
from referee.store.tables import get_table, table_state
from referee.web.records import NOTES_SHOWN

RECORDS = Path(__file__).resolve().parents[1] / "records"
GOLDEN = RECORDS / "blackout" / "default-4p.json"
LOCATION = re.compile(r"^/t/([A-Za-z0-9_-]{22})$")


def expected(path: Path) -> dict:
    return json.loads(path.with_name(path.name[: -len(".json")] + ".expect.json").read_text())


def cases(exit_status: int) -> list[Path]:
    paths = sorted(p for p in RECORDS.rglob("*.json") if not p.name.endswith(".expect.json"))
    return [p for p in paths if expected(p)["exit"] == exit_status]


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(RECORDS)) for p in paths]


def upload(client: FlaskClient, content: bytes, name: str = "game.json", **extra):
    data = {"record": (io.BytesIO(content), name), **extra}
    return client.post("/records", data=data, content_type="multipart/form-data")


def upload_bytes(client: FlaskClient, content: bytes, **extra: str):
    """``upload`` with the multipart body built here: the test client would spool a body this
    big to a temporary file that it never closes (a ResourceWarning)."""
    parts = [
        f'--b\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in extra.items()
    ]
    parts.append(
        b'--b\r\nContent-Disposition: form-data; name="record"; filename="game.json"\r\n'
        b"Content-Type: application/json\r\n\r\n" + content + b"\r\n"
    )
    body = b"".join(parts) + b"--b--\r\n"
    return client.post("/records", data=body, content_type="multipart/form-data; boundary=b")


def loaded_id(response) -> str:
    assert response.status_code == 303, response.text
    found = LOCATION.match(response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def table_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Table))


# --- loading a valid record -----------------------------------------------------------------------


def test_a_golden_record_becomes_a_table_with_the_referees_totals(
    app: Flask, client: FlaskClient
) -> None:
    text = GOLDEN.read_bytes()
    table_id = loaded_id(upload(client, text))
    status, output = check_text(text, as_json=True)  # python -m referee check --json
    assert status == 0
    verdict = json.loads(output)
    with app.app_context():
        state = table_state(table_id)
        table = get_table(table_id)
    assert state is not None and table is not None
    assert state.totals() == verdict["totals"]
    assert state.winners() == verdict["winners"]
    assert state.complete
    assert table.setup.first_player == "Dee"
    events = [e for e in load_record(text).events if e.type != "begin-round"]
    assert [(e.seq, e.kind) for e in table.entries] == [
        (n, "event") for n in range(1, len(events) + 1)
    ]
    assert [e.payload for e in table.entries] == [e.to_dict() for e in events]
    with client.session_transaction() as session:
        assert session["tables"][0] == table_id


def test_a_game_in_progress_loads(app: Flask, client: FlaskClient) -> None:
    table_id = loaded_id(upload(client, (RECORDS / "blackout" / "default-4p.json").read_bytes()))
    with app.app_context():
        state = table_state(table_id)
        record = get_table(table_id)
    assert state is not None and record is not None
    document = export_record(state)
    document["rounds"][-1] = {
        "trump": "H",
        "bids": dict(list(document["rounds"][-1]["bids"].items())[:2]),
    }
    in_progress = loaded_id(upload(client, json.dumps(document).encode()))
    with app.app_context():
        state = table_state(in_progress)
    assert state is not None and not state.complete


def test_a_game_in_progress_that_skipped_a_step_is_refused(client: FlaskClient) -> None:
    """Legal for the referee (a trump is only needed once tricks are in), but the app enters a
    round in order, so a table whose last round has bids and no trump could not go on."""
    response = upload(client, (RECORDS / "blackout" / "in-progress.json").read_bytes())
    assert response.status_code == 422
    assert "before the bids" in response.get_data(as_text=True)


def test_warnings_do_not_stop_a_record_and_are_shown(client: FlaskClient) -> None:
    path = RECORDS / "alles-oder-nichts" / "breach-bid-above-hand.json"
    assert expected(path)["exit"] == 0
    response = upload(client, path.read_bytes())
    loaded_id(response)
    with client.session_transaction() as session:
        flashes = session["_flashes"]
    assert ("info", "The record is loaded as a new table.") in flashes
    assert any(kind == "warning" and "can never be made exactly" in text for kind, text in flashes)


#: Records the app loads: all that keep the rules but the games in progress that skipped a step
#: (``test_a_game_in_progress_that_skipped_a_step_is_refused``).
LOADABLE = [p for p in cases(0) if p.name != "in-progress.json"]


@pytest.mark.parametrize("path", LOADABLE, ids=ids(LOADABLE))
def test_download_upload_download_gives_the_same_document(
    app: Flask, client: FlaskClient, path: Path
) -> None:
    first_id = loaded_id(upload(client, path.read_bytes()))
    first = client.get(f"/t/{first_id}/record.json")
    assert first.status_code == 200
    second_id = loaded_id(upload(client, first.data, name="downloaded.json"))
    assert second_id != first_id
    second = client.get(f"/t/{second_id}/record.json")
    assert second.json == first.json
    assert second.json["format"] == "table-referee/1"
    status, output = check_text(first.data, as_json=True)  # the download is a valid record
    assert status == 0
    assert json.loads(output)["totals"] == expected(path)["totals"]


# --- downloading ----------------------------------------------------------------------------------


def test_the_download_is_an_attachment_with_a_safe_name(app: Flask, client: FlaskClient) -> None:
    record = json.loads(GOLDEN.read_text())
    # A newline would make the name refused (a hidden character): the rest of the attack stays.
    record["players"] = ['../../etc/"x"; Set-Cookie: a=b', "Ben", "Cho", "Dee"]
    record["rounds"] = []
    record["first_dealer"] = "Dee"
    table_id = loaded_id(upload(client, json.dumps(record).encode(), name='evil"\r\n.json'))
    response = client.get(f"/t/{table_id}/record.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    disposition = response.headers["Content-Disposition"]
    found = re.fullmatch(r"attachment; filename=(\S+)", disposition)
    assert found, disposition
    assert re.fullmatch(r"blackout-\d{4}-\d{2}-\d{2}-[A-Za-z0-9_-]{8}\.json", found.group(1))
    assert "Set-Cookie" not in response.headers
    assert response.json["players"][0] == record["players"][0]


def test_a_new_table_downloads_as_a_record_without_rounds(client: FlaskClient) -> None:
    response = client.post(
        "/new",
        data={
            "game": "ebbes",
            "player_1": "Ann",
            "player_2": "Ben",
            "player_3": "Cho",
            "first": "2",
            "ebbes_variant": "standard",
            "ebbes_trump_from": "now",
        },
    )
    table_id = loaded_id(response)
    record = client.get(f"/t/{table_id}/record.json").json
    assert record == {
        "format": "table-referee/1",
        "game": "ebbes",
        "players": ["Ann", "Ben", "Cho"],
        "options": {
            "extended": False,
            "variant": "standard",
            "discard": False,
            "trump_from": "now",
        },
        "first_starter": "Ben",
        "rounds": [],
    }


@pytest.mark.parametrize("table_id", ["nope", "A" * 22, "x" * 300])
def test_an_unknown_table_has_no_record(client: FlaskClient, table_id: str) -> None:
    response = client.get(f"/t/{table_id}/record.json")
    assert response.status_code == 404
    assert "There is no table at this address." in response.text
    assert response.mimetype == "text/html"


# --- refusing what cannot be loaded ---------------------------------------------------------------


#: The golden records the app refuses to load, and why (docs/record-format.md,
#: "Loading a record into the app"): entries the app's order of entry never takes, players no
#: table seats.
REFUSED = {
    "alles-oder-nichts/breach-missing-tricks-player.json": "Cho's tricks in round 2 are missing",
    "alles-oder-nichts/breach-players.json": "is played by 3 to 6 players, not 7",
    "alles-oder-nichts/breach-trump-missing.json": "Turn up the trump for round 2 before the bids",
    "alles-oder-nichts/breach-trump-not-in-deck.json": "'red-13' is not a suit, colour or card",
    "alles-oder-nichts/in-progress.json": "Turn up the trump for round 2 before the bids",
    "blackout/breach-end-mid-round.json": "The game can end only after a complete round",
    "blackout/breach-missing-middle-round.json": "Round 3 has not started; the table is in round 2",
    "blackout/breach-missing-tricks-player.json": "Ben's tricks in round 3 are missing",
    "blackout/breach-trump-missing.json": "Turn up the trump for round 2 before the bids",
    "blackout/breach-trump-not-in-deck.json": "'JC' is not a suit, colour or card of this deck",
    "blackout/breach-trump-whole-deck.json": "Round 3 deals the whole deck: there is no trump",
    "blackout/in-progress.json": "Turn up the trump for round 4 before the bids",
    "ebbes/breach-designation-too-many.json": "Only four colours get a role",
    "ebbes/breach-missing.json": "The number card of round 2 is missing",
    "ebbes/breach-missing-designations.json": "Round 4 names 3 of the 4 colour designations",
    "ebbes/breach-missing-number-plays.json": "The number card of round 1 is missing",
    "ebbes/breach-missing-won-colour.json": "Ben's green cards won in round 2 are missing",
    "ebbes/breach-missing-won-player.json": "Ann's cards won in round 5 are missing",
    "ebbes/breach-number-placed-designators.json": "With placed designators no number card",
}
#: The records that break the rules and load: every one but those the app's order of entry
#: refuses.
KEPT = [p for p in cases(1) if str(p.relative_to(RECORDS)) not in REFUSED]


@pytest.mark.parametrize("path", KEPT, ids=ids(KEPT))
def test_a_record_whose_breaches_a_table_keeps_loads_with_them_listed(
    app: Flask, client: FlaskClient, path: Path
) -> None:
    response = upload(client, path.read_bytes())
    table_id = loaded_id(response)
    html = client.get(response.headers["Location"]).text
    _, output = check_text(path.read_bytes(), as_json=True)
    violations = json.loads(output)["violations"]
    count = len(violations)
    assert f"with the {count} breach{'es' if count > 1 else ''} of the rules it holds kept" in html
    for breach in violations[:NOTES_SHOWN]:
        assert str(escape(breach["message"])) in html
        if breach["round"] is not None:
            assert f"Round {breach['round']}" in html
        if breach["player"] is not None:
            assert str(escape(breach["player"])) in html
    with app.app_context():
        state = table_state(table_id)
    assert state is not None
    kept = [
        {k: b.to_dict()[k] for k in ("rule", "round", "trick", "player")} for b in state.violations
    ]
    referee = [{k: b[k] for k in ("rule", "round", "trick", "player")} for b in violations]
    assert sorted(kept, key=str) == sorted(referee, key=str)


def test_a_kept_breach_is_listed_with_its_round_and_player(client: FlaskClient) -> None:
    response = upload(client, (RECORDS / "blackout" / "breach-hook.json").read_bytes())
    html = client.get(response.headers["Location"]).text
    assert re.search(
        r'class="flash warning"[^>]*>Round 3, Dee: Dee \(the dealer\) cannot bid', html
    )


@pytest.mark.parametrize("path", cases(2), ids=ids(cases(2)))
def test_an_unreadable_record_is_refused_naming_the_field(
    app: Flask, client: FlaskClient, path: Path
) -> None:
    response = upload(client, path.read_bytes())
    assert response.status_code == 422
    _, output = check_text(path.read_bytes(), as_json=True)
    error = json.loads(output)
    assert "This record cannot be read:" in response.text
    assert str(escape(error["error"])) in response.text
    assert str(escape(error["field"])) in response.text
    assert table_count(app) == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "The file is empty: it holds no game record."),
        (b"  \n", "The file is empty: it holds no game record."),
        (b"Ann 13, Ben 0", "This record cannot be read: not JSON"),
        (b"\xff\xfe\x00garbage", "This record cannot be read: not JSON"),
        (b"[1, 2, 3]", "This record cannot be read: a record is a JSON object"),
        (b"[" * 100_000, "This record cannot be read: not JSON"),
    ],
    ids=["empty", "blank", "text", "binary", "array", "deeply-nested"],
)
def test_a_file_that_is_no_record_is_refused(
    app: Flask, client: FlaskClient, content: bytes, message: str
) -> None:
    response = upload(client, content)
    assert response.status_code == 422
    assert message in response.text
    assert 'id="load-record"' in response.text  # back on the home page, by the upload form
    assert table_count(app) == 0


def test_no_file_chosen_is_refused(client: FlaskClient) -> None:
    response = client.post("/records", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a record file to load." in response.text


def test_a_huge_file_is_refused_with_a_page(app: Flask, client: FlaskClient) -> None:
    assert loaded_id(upload_bytes(client, b" " * 1000_000 + GOLDEN.read_bytes()))  # just fits
    body = b" " * (1024 * 1024) + GOLDEN.read_bytes()
    response = upload_bytes(client, body)
    assert response.status_code == 413
    assert "The file is larger than 1 MB" in response.text
    assert 'id="load-record"' in response.text
    assert table_count(app) == 1  # only the one that fits


def test_a_reload_of_the_upload_address_leads_home(client: FlaskClient) -> None:
    response = client.get("/records")
    assert response.status_code == 302
    assert response.headers["Location"] == "/#load-record"


# --- untrusted names in records -------------------------------------------------------------------

XSS = '<img src=x onerror="alert(1)">'


def test_a_name_with_markup_from_a_record_is_shown_escaped(client: FlaskClient) -> None:
    record = json.loads(GOLDEN.read_text())
    record["players"] = [XSS, "Ben", "Cho", "Dee"]
    record["rounds"] = record["rounds"][:1]
    for key in ("bids", "tricks"):
        record["rounds"][0][key][XSS] = record["rounds"][0][key].pop("Ann")
    loaded_id(upload(client, json.dumps(record).encode()))
    home = client.get("/").text
    assert XSS not in home
    assert str(escape(XSS)) in home

    record["rounds"][0]["bids"][XSS] = 5  # a bid out of range, by the marked-up player: kept
    response = upload(client, json.dumps(record).encode())
    loaded_id(response)
    page = client.get(response.headers["Location"]).text
    assert "breach of the rules it holds kept" in page
    assert XSS not in page
    assert str(escape(XSS)) in page


# --- CSRF -----------------------------------------------------------------------------------------


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.mark.csrf
def test_an_upload_without_the_token_is_refused_and_works_with_it(
    app: Flask, client: FlaskClient
) -> None:
    refused = upload(client, GOLDEN.read_bytes())
    assert refused.status_code == 400
    assert "This page was stale" in refused.text
    assert "Choose the file again." in refused.text
    assert table_count(app) == 0
    token = csrf_token(client.get("/").text)
    loaded_id(upload(client, GOLDEN.read_bytes(), csrf_token=token))


@pytest.mark.csrf
def test_a_huge_upload_is_refused_before_its_token_is_read(client: FlaskClient) -> None:
    response = upload_bytes(client, b" " * (2 * 1024 * 1024))
    assert response.status_code == 413
    assert "The file is larger than 1 MB" in response.text


# --- text that is not Unicode, and records made to cost -----------------------------------------


def pages_of(client: FlaskClient) -> list[str]:
    """Every page this browser can open: the app's own and each of its tables'."""
    with client.session_transaction() as session:
        tables = list(session.get("tables", []))
    pages = ["/", "/new", "/scorecards", "/rules/blackout", "/tools/trick"]
    for table in tables:
        pages += [
            f"/t/{table}{page}"
            for page in ("", "/sheet", "/tv", "/history", "/share", "/record.json", "/sheet.pdf")
        ]
    return pages


def assert_every_page_answers(client: FlaskClient) -> None:
    for page in pages_of(client):
        assert client.get(page).status_code == 200, page


ALLES = {
    "format": "table-referee/1",
    "game": "alles-oder-nichts",
    "players": ["Ann", "Ben", "Cho"],
    "options": {"colours": ["red", "yellow", "green", "blue"]},
    "rounds": [],
}


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({**ALLES, "players": ["Ann", "Ben", "\ud800"]}, "players[2]"),
        ({**ALLES, "options": {"colours": ["red", "yellow", "green", "\udcff"]}}, "colours[3]"),
        ({**ALLES, "first_dealer": "\ud800"}, "first_dealer"),
        ({**ALLES, "rounds": [{"trump": "red-\ud800"}]}, "rounds[0].trump"),
        (
            {**ALLES, "rounds": [{"trump": "red-7", "bids": {"Ann\ud800": {"open": False}}}]},
            "rounds[0].bids.Ann\\ud800",
        ),
    ],
    ids=["name", "colour", "first-dealer", "card", "key"],
)
def test_a_record_with_text_that_is_not_unicode_is_refused_and_every_page_still_answers(
    app: Flask, client: FlaskClient, record: dict, field: str
) -> None:
    loaded_id(upload(client, GOLDEN.read_bytes()))  # a table of this browser's, on its pages
    body = json.dumps(record).encode()  # ASCII: the lone surrogate as a \ud800 escape
    for _ in range(2):  # a refusal after a refusal too
        response = upload(client, body)
        assert response.status_code == 422
        assert "This record cannot be read:" in response.text
        assert f"{field}: is not valid Unicode text" in response.text
    assert table_count(app) == 1
    assert_every_page_answers(client)


def illegal_tricks(count: int) -> bytes:
    """One Blackout round of ``count`` tricks, every one of them illegal."""
    trick = {"leader": "Ben", "cards": ["2H", "2H", "2H", "2H"]}
    record = {
        **json.loads(GOLDEN.read_text()),
        "rounds": [{"trump": "H", "plays": [trick] * count}],
    }
    return json.dumps(record, separators=(",", ":")).encode()


def test_a_record_that_gives_a_key_twice_is_refused_naming_it(
    app: Flask, client: FlaskClient
) -> None:
    loaded_id(upload(client, GOLDEN.read_bytes()))
    text = GOLDEN.read_text()
    twice = text.replace('"first_dealer": "Dee",', '"first_dealer": "Dee", "first_dealer": "Ann",')
    assert twice != text
    response = upload(client, twice.encode())
    assert response.status_code == 422
    assert "This record cannot be read: first_dealer: appears twice in its object" in response.text
    assert table_count(app) == 1
    assert_every_page_answers(client)


def test_a_record_made_to_cost_is_refused_cheaply_with_a_small_page(client: FlaskClient) -> None:
    big = illegal_tricks(21_000)
    assert 900_000 < len(big) < 1_000_000
    response = upload_bytes(client, big)
    assert response.status_code == 422
    assert "rounds[0].plays: lists 21000 tricks; round 1 has 1" in response.text
    assert len(response.data) < 20_000
    # What the refusal costs against loading a small record: bench/refusal_cost.py (≤ 25 ×).


def test_a_loaded_record_lists_its_first_kept_breaches_and_counts_the_rest(
    client: FlaskClient,
) -> None:
    record = json.loads(GOLDEN.read_text())
    for rnd in record["rounds"]:
        rnd["bids"]["Ann"] = 99  # a bid-range breach in each of the 25 rounds …
        rnd["bids"]["Ben"] = 99  # … and another
    response = upload(client, json.dumps(record).encode())
    table_id = loaded_id(response)
    html = client.get(response.headers["Location"]).text
    assert "with the 50 breaches of the rules it holds kept" in html
    assert len(re.findall(r"(Ann|Ben): \1 cannot bid 99", html)) == NOTES_SHOWN
    assert html.count('class="flash warning"') == NOTES_SHOWN + 1
    assert f"… and {50 - NOTES_SHOWN} more breaches: the sheet lists them all." in html
    sheet = client.get(f"/t/{table_id}/sheet").text
    assert sheet.count("rule: bid-range") == 50


def test_refused_uploads_count_toward_the_limit_and_then_none_is_read(
    app: Flask, client: FlaskClient
) -> None:
    app.config["TABLE_LIMIT"] = 4
    loaded_id(upload(client, GOLDEN.read_bytes()))  # a table made counts …
    for body in (b"{not json", illegal_tricks(2), b""):  # … and so does every refusal
        assert upload(client, body).status_code == 422
    for body in (b"{not json", GOLDEN.read_bytes()):
        refused = upload(client, body)
        assert refused.status_code == 429
        assert "Too many records and new tables from this network" in refused.text
        assert "cannot be read" not in refused.text  # answered before the body was read
    assert table_count(app) == 1
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    loaded_id(upload(elsewhere, GOLDEN.read_bytes()))  # another address is not held up
    app.config["TABLE_LIMIT_SECONDS"] = 0  # the window has passed: counted no more
    loaded_id(upload(client, GOLDEN.read_bytes()))
