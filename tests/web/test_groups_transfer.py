"""A group as one file through the web: downloaded by a keeper or a viewer, loaded into a new
group on a fresh server with the same roster, seasons, tables (with their histories), seats,
counts and evenings, and so the same pages and numbers; a file that cannot be read or loaded
refused with the reader's sentence and nothing made; the body limit; and a record added to a
group by a keeper, who says who is who first."""

from __future__ import annotations

import gzip
import html
import io
import json
import random
import re
import time
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.store import db
from referee.store.models import Group, GroupTable, Table
from tests.conftest import make_app
from tests.groups.test_stats_by_hand import FRIDAY
from tests.web.group_helpers import (
    error_text,
    import_group_file,
    imported,
    join_group,
    loaded,
    loading_here,
    main_text,
    new_group,
    stored,
)
from tests.web.test_groups_numbers import numbers_of, rows
from tests.web.test_newtable import form as new_table_form

RECORDS = Path(__file__).resolve().parents[1] / "records"


def counts(app: Flask) -> tuple[int, int, int]:
    """How many groups, tables and kept tables the app's database holds."""
    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (Group, Table, GroupTable)
        )


def pages(client, group_id: str) -> dict[str, object]:
    """What the numbers pages show: each standings row, each profile's numbers (all time and
    the current season), and the statistics."""
    shown: dict[str, object] = {}
    for season in ("all", "2025-01-01", "2026-01-01"):
        page = client.get(f"/g/{group_id}/standings?season={season}").text
        shown[f"standings {season}"] = rows(page)
        shown[f"json {season}"] = client.get(f"/g/{group_id}/stats.json?season={season}").get_json()
        for player in ("p1", "p2", "p3", "p4", "p5"):
            for game in ("blackout", "alles-oder-nichts", "ebbes"):
                url = f"/g/{group_id}/p/{player}?game={game}&season={season}"
                profile = client.get(url).text
                shown[url.split("/p/")[1]] = (numbers_of(profile), main_text_of(profile))
    return shown


def main_text_of(page: str) -> str:
    """The head-to-head and honesty sentences of a page (links' addresses aside)."""
    return re.sub(r'href="[^"]*"', "", page.split("<main>")[1].split("</main>")[0])


def test_a_group_exported_and_imported_on_a_fresh_app_shows_the_same(
    app: Flask, client, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    group = imported(client, FRIDAY.read_bytes())
    exported = client.get(f"/g/{group}/group.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    disposition = exported.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and f"{group[:8]}.json" in disposition
    document = json.loads(exported.data)
    assert [t["record"]["history"][0]["seq"] for t in document["tables"]] == [1] * 7
    (tmp_path / "other").mkdir()
    other = make_app(request, tmp_path / "other")
    phone = other.test_client()
    again = imported(phone, exported.data)
    assert json.loads(phone.get(f"/g/{again}/group.json").data) == document  # the same file
    first, second = pages(client, group), pages(phone, again)
    assert first.keys() == second.keys()
    for key in first:
        if key.startswith(("standings", "json")):
            assert first[key] == second[key], key
        else:
            assert first[key][0] == second[key][0], key  # every number
            assert first[key][1].replace(group, "G") == second[key][1].replace(again, "G"), key
    original, loaded = stored(app, group), stored(other, again)
    assert [(p.id, p.name, p.retired) for p in original.players] == [
        (p.id, p.name, p.retired) for p in loaded.players
    ]
    assert original.seasons == loaded.seasons
    assert [(t.seats, t.counts, t.played, t.evening) for t in original.tables] == [
        (t.seats, t.counts, t.played, t.evening) for t in loaded.tables
    ]
    with other.app_context():
        db.engine.dispose()


def test_a_groups_file_is_written_once_while_the_group_is_unchanged(app, client) -> None:
    """The first download writes the file and keeps it; the next ones send what was kept
    (gzip-compressed to a client that takes it); a change of the group or a new entry at one of
    its tables writes it anew."""
    from referee.rules import Setup, start
    from referee.store.groups import attach_table
    from referee.store.models import GroupExport
    from referee.store.tables import append_entry, create_table
    from tests.durability.legal import next_entry

    group = imported(client, FRIDAY.read_bytes())

    def kept() -> list[str]:
        with app.app_context():
            return list(db.session.scalars(select(GroupExport.made_for)))

    first = client.get(f"/g/{group}/group.json")
    assert first.is_streamed and "Content-Encoding" not in first.headers
    document = json.loads(first.data)
    assert len(kept()) == 1
    zipped = client.get(f"/g/{group}/group.json", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.vary
    assert zipped.headers["Content-Disposition"] == first.headers["Content-Disposition"]
    assert json.loads(gzip.decompress(zipped.data)) == document
    plain = client.get(f"/g/{group}/group.json", headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in plain.headers and json.loads(plain.data) == document
    assert client.post(f"/g/{group}/roster", data={"action": "add", "name": "Gil"}).status_code
    renamed = json.loads(client.get(f"/g/{group}/group.json").data)
    assert [p["name"] for p in renamed["players"]][-1] == "Gil"
    setup = Setup("blackout", ("Ann", "Ben", "Cho"))
    with app.app_context():  # a table of the group's that goes on
        table_id = create_table(setup)
        attach_table(group, table_id, {"Ann": "p1", "Ben": "p2", "Cho": None})
    played = len(json.loads(client.get(f"/g/{group}/group.json").data)["tables"])
    assert not json.loads(client.get(f"/g/{group}/group.json").data)["tables"][-1]["record"].get(
        "history"
    )
    with app.app_context():
        event, _ = next_entry(start(setup), random.Random(1))
        append_entry(table_id, 0, "event", event.to_dict())
    deadline = time.monotonic() + 10  # a page is at most a sweep behind the tables' entries
    while True:
        again = client.get(f"/g/{group}/group.json", headers={"Accept-Encoding": "gzip"})
        if "Content-Encoding" not in again.headers:  # written anew
            break
        assert time.monotonic() < deadline, "the entry never made the file written anew"
        time.sleep(0.1)
    tables = json.loads(again.data)["tables"]
    assert len(tables) == played and tables[-1]["record"]["history"]
    assert len(kept()) == 1 and kept()[0] != ""


def friday() -> dict:
    return json.loads(FRIDAY.read_bytes())


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (lambda doc: b"{not json", "This group file cannot be read:"),
        (
            lambda doc: doc | {"format": "table-referee/1"},
            'format: must be "table-referee-group/1"',
        ),
        (
            lambda doc: (
                doc
                | {
                    "tables": [
                        doc["tables"][0] | {"seats": {"Ann": "p1", "Ben": "p9", "Gus": None}}
                    ]
                }
            ),
            'table 1: seats.Ben: "p9" is no roster player\'s id',
        ),
        (
            lambda doc: (
                doc
                | {
                    "tables": [
                        *doc["tables"][:2],
                        {
                            "played": "2026-05-01T20:00:00+02:00",
                            "seats": dict.fromkeys(("Ann", "Ben", "Cho", "Dee")),
                            "record": json.loads(
                                (RECORDS / "blackout" / "breach-trump-missing.json").read_bytes()
                            ),
                        },
                    ]
                }
            ),
            "Table 3 of the file: This record cannot be loaded: Turn up the trump for round 2",
        ),
        (
            lambda doc: (
                doc
                | {"players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(101)], "tables": []}
            ),
            "A roster holds at most 100 players.",
        ),
        (lambda doc: b"", "The file is empty: it holds no group."),
    ],
)
def test_a_file_that_cannot_be_loaded_is_refused_whole(app, client, change, sentence) -> None:
    made = change(friday())
    data = made if isinstance(made, bytes) else json.dumps(made).encode()
    before = counts(app)
    response = import_group_file(client, data)
    assert response.status_code == 422, response.status_code
    assert sentence in error_text(response)
    assert counts(app) == before
    assert "/g/" not in client.get("/").text.split("Your groups")[1]


def uploaded(client, monkeypatch, data: bytes) -> str:
    """The job of a group file uploaded with no loader started for it: its id."""
    from referee.web.groups import transfer

    monkeypatch.setattr(transfer, "start_loader", lambda: None)
    response = client.post(
        "/groups/import",
        data={"group": (io.BytesIO(data), "group.json"), "time_zone": "Europe/Berlin"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def run_loader(app: Flask) -> None:
    """A loader's work done in this process, as the loader process does it."""
    from referee.web.groups.import_job import lock_path, work

    work(app, lock_path(app))


def test_the_loader_leaves_sqlites_write_lock_free_between_its_pieces(app, client, monkeypatch):
    """SQLite has one write lock (the web tests' database): after each piece the loader waits
    at least as long as the piece held it, so the tables being played meanwhile write."""
    from referee.web.groups import import_job

    monkeypatch.setattr(import_job, "PIECE_TABLES", 1)
    monkeypatch.setattr(import_job, "PAUSE", 0.05)
    real, spans = import_job.keep_imported, []

    def timed(group_id, tables, roster, time_zone):
        began = time.monotonic()
        real(group_id, tables, roster, time_zone)
        spans.append((began, time.monotonic()))

    monkeypatch.setattr(import_job, "keep_imported", timed)
    uploaded(client, monkeypatch, FRIDAY.read_bytes())
    run_loader(app)
    assert len(spans) == 7 and counts(app) == (1, 7, 7)
    gaps = [(later[0] - earlier[1], earlier[1] - earlier[0]) for earlier, later in pairwise(spans)]
    assert all(gap >= max(0.05, held) for gap, held in gaps), gaps


@pytest.mark.parametrize(
    ("failure", "sentence"),
    [
        (ValueError("not a valid event entry after entry 3"), "cannot be loaded"),
        (RuntimeError("the disk is full"), "An error of the app: the group could not be loaded."),
    ],
)
def test_a_failure_while_saving_the_tables_leaves_nothing(
    app, client, monkeypatch, failure, sentence
) -> None:
    from referee.web.groups import import_job

    real, pieces = import_job.keep_imported, []

    def failing(group_id, tables, roster, time_zone):
        pieces.append(len(tables))
        if len(pieces) == 3:
            raise failure
        return real(group_id, tables, roster, time_zone)

    monkeypatch.setattr(import_job, "PIECE_TABLES", 2)
    monkeypatch.setattr(import_job, "keep_imported", failing)
    before = counts(app)
    job_id = uploaded(client, monkeypatch, FRIDAY.read_bytes())
    waiting = client.get(f"/groups/import/{job_id}")
    assert "waits its turn" in main_text(waiting)
    assert waiting.headers["Cache-Control"] == "no-store"
    run_loader(app)
    response = client.get(f"/groups/import/{job_id}")
    assert response.status_code == 422 and sentence in error_text(response)
    assert counts(app) == before and pieces == [2, 2, 2]  # two pieces were saved, then removed


def test_a_loader_that_stops_midway_is_found_silent_and_what_it_saved_removed(
    app, client, monkeypatch
) -> None:
    from referee.store.models import GroupImport
    from referee.web.groups import import_job

    real, pieces = import_job.keep_imported, []

    def killed(group_id, tables, roster, time_zone):
        pieces.append(len(tables))
        if len(pieces) == 3:
            raise KeyboardInterrupt  # as a signal ends it: nothing of the loader's own runs
        return real(group_id, tables, roster, time_zone)

    monkeypatch.setattr(import_job, "PIECE_TABLES", 2)
    monkeypatch.setattr(import_job, "keep_imported", killed)
    before = counts(app)
    job_id = uploaded(client, monkeypatch, FRIDAY.read_bytes())
    with pytest.raises(KeyboardInterrupt):
        run_loader(app)
    assert counts(app)[1] == before[1] + 4
    page = client.get(f"/groups/import/{job_id}")
    assert "Saving table 4 of" in main_text(page)  # not silent yet: the page waits
    with app.app_context():
        long_ago = datetime(2020, 1, 1)
        db.session.execute(
            GroupImport.__table__.update().where(GroupImport.id == job_id), {"updated_at": long_ago}
        )
        db.session.commit()
    monkeypatch.undo()  # the page starts a real loader for a silent job
    response = loaded(client, client.get(f"/groups/import/{job_id}"))
    assert response.status_code == 422
    assert "stopped before it was done" in error_text(response)
    assert counts(app) == before
    again = imported(client, FRIDAY.read_bytes())  # the same file loads when tried again
    assert stored(app, again) is not None


def test_a_loading_is_shown_only_to_the_browser_that_uploaded_it(app, client, monkeypatch):
    job_id = uploaded(client, monkeypatch, FRIDAY.read_bytes())
    assert client.get(f"/groups/import/{job_id}").status_code == 200
    other = app.test_client()
    for address in (job_id, "x" * 500, "%00", "n\u200fo"):
        assert other.get(f"/groups/import/{address}").status_code == 404


def test_the_body_limit(app, client, monkeypatch) -> None:
    from referee.web.groups import transfer

    monkeypatch.setattr(transfer, "GROUP_UPLOAD_LIMIT", 4096)
    data = FRIDAY.read_bytes()
    body = (
        b'--b\r\nContent-Disposition: form-data; name="group"; filename="g.json"\r\n'
        b"Content-Type: application/json\r\n\r\n" + data + b"\r\n--b--\r\n"
    )
    response = client.post(
        "/groups/import", data=body, content_type="multipart/form-data; boundary=b"
    )
    assert response.status_code == 413 and "larger than" in error_text(response)
    assert counts(app) == (0, 0, 0)


def test_a_file_of_the_largest_size_is_taken_and_one_byte_more_is_not(app, client, monkeypatch):
    """The limit is the file's: the form around it (token, time zone, boundaries) has room."""
    from referee.web.groups import transfer

    data = FRIDAY.read_bytes()
    monkeypatch.setattr(transfer, "GROUP_UPLOAD_LIMIT", len(data))
    uploaded(client, monkeypatch, data)
    monkeypatch.setattr(transfer, "GROUP_UPLOAD_LIMIT", len(data) - 1)
    response = client.post(
        "/groups/import",
        data={"group": (io.BytesIO(data), "group.json"), "time_zone": "Europe/Berlin"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413 and "larger than" in error_text(response)


@pytest.mark.csrf
def test_an_import_without_its_form_token_is_stale(app, client) -> None:
    response = import_group_file(client, FRIDAY.read_bytes())
    assert response.status_code == 400 and "Choose the file again." in error_text(response)
    page = client.get("/groups/import").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post(
        "/groups/import",
        data={"group": (io.BytesIO(FRIDAY.read_bytes()), "g.json"), "csrf_token": token},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303


def record_of(client, group_id: str, number: int = 1) -> bytes:
    """A table's record as the group's file has it (its history too)."""
    document = client.get(f"/g/{group_id}/group.json").get_json()
    return json.dumps(document["tables"][number - 1]["record"]).encode()


def post_record(client, group_id: str, data: dict):
    return client.post(f"/g/{group_id}/add-record", data=data, content_type="multipart/form-data")


def test_a_keeper_adds_a_record_saying_who_is_who(app, client) -> None:
    source = imported(client, FRIDAY.read_bytes())
    record = record_of(client, source, 2)  # Chloe, Ann, Dee
    group = new_group(client, players=("Ann", "Chloe", "Zed"))
    assert f'href="/g/{group}/add-record"' in client.get(f"/g/{group}").text
    confirm = post_record(client, group, {"record": (io.BytesIO(record), "r.json")})
    assert confirm.status_code == 200
    chosen = dict(
        re.findall(
            r'<select id="seat-\d+" name="(seat-\d+)">.*?<option value="([^"]*)" selected',
            confirm.text,
            re.S,
        )
    )
    assert chosen == {"seat-0": "p2", "seat-1": "p1", "seat-2": ""}  # Dee: a guest
    assert "Who is who?" in main_text(confirm)
    text = re.search(r'name="record_text" value="([^"]*)"', confirm.text).group(1)
    before = counts(app)
    twice = {
        "action": "confirm",
        "record_text": text_of(text),
        "seat-0": "p1",
        "seat-1": "p1",
        "seat-2": "",
    }
    refused = post_record(client, group, twice)
    assert refused.status_code == 422 and "one person has one seat" in error_text(refused)
    assert counts(app) == before
    said = {"seat-0": "p2", "seat-1": "p1", "seat-2": "p3"}  # Chloe, Ann, and Dee is Zed
    done = post_record(client, group, twice | said)
    assert done.status_code == 303
    kept = stored(app, group).tables
    assert len(kept) == 1 and kept[0].seats == {"Chloe": "p2", "Ann": "p1", "Dee": "p3"}
    first = json.loads(record)["history"][0]["at"]
    assert kept[0].played == datetime.fromisoformat(first)  # its history's first entry
    doc = client.get(f"/g/{group}/stats.json?season=all").get_json()
    assert doc["games"]["blackout"]["players"]["p2"]["wins"] == 1  # Chloe won that table


def test_every_way_a_table_is_made_counts_toward_the_addresss_limit(app, client) -> None:
    """A record added to a group is a new table; a group file uploaded counts once, whether it
    loads or not (its tables are the group's: how many a file holds is bound by its size)."""
    source = imported(client, FRIDAY.read_bytes())
    record = record_of(client, source, 2)
    app.config["TABLE_LIMIT"] = 3  # the import above is one
    group = new_group(client, players=("Ann", "Chloe", "Dee"))
    seats = {"seat-0": "p2", "seat-1": "p1", "seat-2": "p3"}
    added = {"action": "confirm", "record_text": record.decode(), **seats}
    assert post_record(client, group, added).status_code == 303  # two
    with loading_here():
        refused = import_group_file(client, b"[]")  # three, though it loads nothing
    assert refused.status_code == 422
    before = counts(app)
    again = post_record(client, group, added)
    assert again.status_code == 429 and "Too many" in error_text(again)
    assert client.post("/new", data=new_table_form()).status_code == 429
    with loading_here():
        assert import_group_file(client, FRIDAY.read_bytes()).status_code == 429
    assert counts(app) == before


def text_of(value: str) -> str:
    import html

    return html.unescape(value)


def test_only_a_keeper_adds_a_record(app, client) -> None:
    group = new_group(client)
    viewer = app.test_client()
    join_group(app, viewer, group, "viewer")
    record = (RECORDS / "blackout" / "breach-hook.json").read_bytes()
    before = counts(app)
    assert viewer.get(f"/g/{group}/add-record").status_code == 403
    response = post_record(viewer, group, {"record": (io.BytesIO(record), "r.json")})
    assert response.status_code == 403
    confirm = {"action": "confirm", "record_text": record.decode()}
    assert post_record(viewer, group, confirm).status_code == 403
    assert post_record(app.test_client(), group, confirm).status_code == 403
    assert counts(app) == before
    unreadable = post_record(client, group, {"record": (io.BytesIO(b"[]"), "r.json")})
    assert unreadable.status_code == 422 and "This record cannot be read" in error_text(unreadable)


@pytest.mark.parametrize("member_id", ["ann smith", "Zoë", "p?1", "p%2F1", "p#1", "p\\1", "..."])
def test_every_roster_id_a_file_may_hold_makes_profile_links_that_open(app, client, member_id):
    doc = {
        "format": "table-referee-group/1",
        "name": "Club",
        "players": [{"id": member_id, "name": "Ann"}, {"id": "p2", "name": "Ben"}],
        "tables": [
            {
                "played": "2026-11-27T19:30:00+01:00",
                "seats": {"Ann": member_id, "Ben": "p2"},
                "record": {
                    "format": "table-referee/1",
                    "game": "blackout",
                    "players": ["Ann", "Ben"],
                },
            }
        ],
    }
    group_id = imported(client, json.dumps(doc).encode())
    standings = client.get(f"/g/{group_id}/standings?season=all").text
    links = set(re.findall(r'href="(/g/[^"]+/p/[^"?]+)', standings))
    assert len(links) == 2, links
    for link in links:
        profile = client.get(html.unescape(link))
        assert profile.status_code == 200, link
    assert stored(app, group_id).player(member_id).name == "Ann"
