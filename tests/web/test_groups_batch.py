"""A group's pages read its many tables together (issue 40: the standings of ten thousand tables
in a second on first view): a server process that has nothing in memory yet reads the database
as often for the standings of a group of twelve tables as for one of three (positions and logs in
batches: ``referee.web.loading``'s ``recent_seqs`` and ``each_table``), with the speed layer on
and off; and a table this version cannot replay hides none of the others."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bench.group_stats import group
from referee.rules import Setup, State
from referee.store.tables import create_table
from referee.web import loading
from referee.web.loading import each_table, recent_seqs
from tests.conftest import make_app
from tests.databases import statements
from tests.web.group_helpers import SIX, imported


def cold_look(request: pytest.FixtureRequest, folder: Path, speed: bool, tables: int) -> int:
    """The statements a new server process runs for the first look at the standings of all time
    of a group of ``tables`` random legal games, loaded from its file."""
    app = make_app(request, folder, SPEED=speed)
    client = app.test_client()
    group_id = imported(client, json.dumps(group(tables, "summary", seed=tables)).encode())
    fresh = make_app(request, folder, SPEED=speed)  # the same database, nothing in memory
    if speed:  # one sweep of the positions (two statements), however long the look takes
        fresh.extensions["referee.speed"].positions.every = 3600.0
    reader = fresh.test_client()
    with client.session_transaction() as kept, reader.session_transaction() as session:
        session.update(kept)
    with statements(fresh) as ran:
        response = reader.get(f"/g/{group_id}/standings?season=all")
    assert response.status_code == 200
    return len(ran)


def test_a_cold_look_at_the_standings_reads_as_often_however_many_tables(
    app: Flask, request: pytest.FixtureRequest, tmp_path: Path, speed: bool
) -> None:
    """Each of the three games in both (what the page says of each game reads its tables)."""
    few, many = (cold_look(request, tmp_path / str(n), speed, n) for n in (3, 12))
    assert few == many


def test_a_table_that_cannot_be_replayed_hides_no_other(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """It is logged and left out, as an unknown table is; its position is still known."""
    unreadable = ("Dee", "Eve", "Fay")  # the players of the table whose log cannot be read
    replay = loading.replay

    def refusing(setup: Setup, *args: Any, **kwargs: Any) -> State:
        if setup.players == unreadable:
            raise KeyError("a log this version cannot read")
        return replay(setup, *args, **kwargs)

    monkeypatch.setattr(loading, "replay", refusing)
    with app.app_context():
        made = [create_table(Setup("blackout", players)) for players in (SIX[:3], unreadable)]
        made.append(create_table(Setup("ebbes", SIX[:3])))
        asked = [*made, "no-such-table"]
        with caplog.at_level(logging.ERROR):
            found = [record.id for record, _state in each_table(asked)]
        assert recent_seqs(asked) == dict.fromkeys(made, 0)
    assert sorted(found) == sorted([made[0], made[2]])
    assert f"table {made[1]} cannot be replayed" in caplog.text
