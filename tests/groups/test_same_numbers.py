"""The group's numbers stay the same, byte for byte, while the group's code changes shape
(issue 42): a group of 1,000 random legal tables (``bench/group_stats.py``'s, a seed fixed
here) gives the statistics documents kept in ``tests/groups/same_numbers/`` (gzip-compressed),
written before the group was given one model. Both ways to ask give them: ``python -m referee
stats --json`` of its file (``stats_text``), and the web's ``/g/<id>/stats.json`` (standings and
profiles are rendered from it) once the file is loaded through ``POST /groups/import`` as a
keeper's phone loads it, for every table, each season and the current one.

A change that means to change a number writes the files again (``python -m
tests.groups.test_same_numbers``) and says why in its commit."""

from __future__ import annotations

import gzip
import io
import json
import sys
import tempfile
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from bench.group_stats import group
from referee.groups.report import stats_text
from tests.web.group_helpers import group_id_at, loaded, loading_here

KEPT = Path(__file__).with_name("same_numbers")
TABLES = 1000
SEED = 42
#: Each kept document, and how the web asks for it: every table, a season by its first day, and
#: the current season (no ``season``: the file's last, 2025).
SCOPES = {"all": "?season=all", "2024": "?season=2024-01-01", "2025": ""}


def the_file() -> bytes:
    """The group file, the same at every call: a few of its tables do not count."""
    doc = group(TABLES, "mixed", seed=SEED, roster=9)
    for table in doc["tables"][::97]:
        table["counts"] = False
    return json.dumps(doc, ensure_ascii=False).encode()


def command_line(text: bytes) -> dict[str, str]:
    found = {}
    for season in (None, "2024", "2025"):
        status, out = stats_text(text, season=season, as_json=True)
        assert status in (0, 1), out
        found[season or "all"] = out
    return found


def web(app: Flask, text: bytes) -> dict[str, str]:
    client = app.test_client()
    # The form's body made here: a body this large that the test client made itself would be
    # spooled to a file it never closes.
    boundary, body = encode_multipart(
        MultiDict(
            {"group": FileStorage(io.BytesIO(text), "group.json"), "time_zone": "Europe/Berlin"}
        )
    )
    with app.app_context(), loading_here():
        answer = client.post(
            "/groups/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
        )
        answer = loaded(client, answer, seconds=120)
    assert answer.status_code == 303, answer.text
    group_id = group_id_at(answer.headers["Location"])
    found = {}
    for scope, query in SCOPES.items():
        response = client.get(f"/g/{group_id}/stats.json{query}")
        assert response.status_code == 200, response.text
        found[scope] = response.text
    return found


def web_app(folder: str) -> Flask:
    from app import create_app

    return create_app(
        {
            "SECRET_KEY": "same numbers",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/groups.sqlite3",
            "WTF_CSRF_ENABLED": False,
        }
    )


@pytest.fixture(scope="module")
def text() -> bytes:
    return the_file()


def kept(scope: str) -> str:
    return gzip.decompress((KEPT / f"{scope}.json.gz").read_bytes()).decode()


def test_the_command_lines_numbers_are_those_kept(text: bytes) -> None:
    found = command_line(text)
    assert found.keys() == SCOPES.keys()
    for scope, document in found.items():
        assert document == kept(scope), scope


def test_the_webs_numbers_are_those_kept(text: bytes, tmp_path: Path) -> None:
    found = web(web_app(str(tmp_path)), text)
    assert found.keys() == SCOPES.keys()
    for scope, document in found.items():
        assert document == kept(scope), scope


def write() -> None:
    """Write the kept files from the code as it is."""
    text = the_file()
    found = command_line(text)
    with tempfile.TemporaryDirectory() as folder:
        assert web(web_app(folder), text) == found, "the web and the command line differ"
    for scope, document in found.items():
        (KEPT / f"{scope}.json.gz").write_bytes(gzip.compress(document.encode(), mtime=0))
        print(scope, len(document), file=sys.stderr)


if __name__ == "__main__":
    write()
