"""``python -m referee stats`` equals the web: groups of random legal games
(``tests/groups/test_properties.py``'s, from ``tests/simulate.py``) loaded into the app from
their file; the statistics the pages are rendered from (``/g/<id>/stats.json``) are
``stats --json`` of the app's export of the group, and of the file it was loaded from (its
tables numbered in the order played, as the app keeps them), for all time and each season;
and the standings and a profile show exactly the document's numbers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.groups.rating import shown as as_shown
from referee.groups.report import stats_text
from referee.store import db
from tests.conftest import make_app
from tests.groups.test_properties import SCALE, SEEDS, draw_group
from tests.web.group_helpers import error_text, group_id_at, import_group_file, loading_here
from tests.web.test_groups_numbers import numbers_of, rows

EXAMPLES = settings(
    max_examples=25 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture
def roomy(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app, its limit on new groups out of the way of many examples."""
    app = make_app(request, tmp_path, TABLE_LIMIT=1_000_000)
    yield app
    with app.app_context():
        db.engine.dispose()


def cli(data: bytes | str, season: str | None = None) -> dict[str, Any]:
    status, output = stats_text(data, season, as_json=True)
    assert status in (0, 1), output
    return json.loads(output)


def renumbered(doc: dict[str, Any], numbers: dict[int, int]) -> dict[str, Any]:
    """``doc`` with each table's number (``best_game``, the ratings' history, ``breaking``)
    changed as ``numbers`` says."""
    doc = json.loads(json.dumps(doc))
    for figures in doc["games"].values():
        for player in figures["players"].values():
            if player["best_game"]:
                player["best_game"]["table"] = numbers[player["best_game"]["table"]]
            for entry in (player["rating"] or {}).get("history", []):
                entry["table"] = numbers[entry["table"]]
    doc["breaking"] = sorted(numbers[n] for n in doc["breaking"])
    return doc


def played_order(group: dict[str, Any]) -> dict[int, int]:
    """Each table's number in the file → its number in the order played (the app's)."""
    moments = [datetime.fromisoformat(t["played"]) for t in group["tables"]]
    order = sorted(range(len(moments)), key=lambda i: (moments[i], i))
    return {index + 1: place for place, index in enumerate(order, start=1)}


def shows_the_document(client, group_id: str, scope: str, doc: dict[str, Any], rng) -> None:
    """The standings page of ``scope`` lists each game's players with the document's numbers,
    and a profile shows a player's."""
    page = client.get(f"/g/{group_id}/standings?season={scope}").text
    for game, figures in doc["games"].items():
        section = page.split(f'id="game-{game}"')[1].split("</table>")[0]
        shown = rows(section)[1:]
        assert sorted(row[1] for row in shown) == sorted(
            p["name"] for p in figures["players"].values()
        )
        by_name = {row[1]: row for row in shown}
        for p in figures["players"].values():
            row = by_name[p["name"]]
            assert row[3].split(" ")[0] == f"{p['wins']}/{p['complete']}"
            rating = p["rating"]
            assert row[2] == (  # as every page shows a rating: a half rounded up
                "–"
                if rating is None
                else f"{as_shown(rating['mu']):.1f} ± {as_shown(rating['sigma']):.1f}"
            )
            place = p["average_place"]
            assert row[4] == ("–" if place is None else f"{place:.2f}")
        if not figures["players"]:
            continue  # only guests played it
        member = rng.choice(sorted(figures["players"]))
        p = figures["players"][member]
        profile = client.get(f"/g/{group_id}/p/{member}?game={game}&season={scope}").text
        numbers = numbers_of(profile)
        assert numbers["Tables"] == str(p["tables"]) and numbers["Wins"] == str(p["wins"])
        assert numbers["Rounds"] == str(p["rounds"])
        assert numbers["Points"] == str(p["points"]).replace("-", "−")
        assert numbers["Longest winning streak"] == str(p["streaks"]["longest"])
        best = p["best_game"]
        assert numbers["Best game"] == (
            "–" if best is None else str(best["total"]).replace("-", "−")
        )


@EXAMPLES
@given(SEEDS, st.integers(1, 6))
def test_the_web_shows_what_stats_says(roomy: Flask, seed: int, tables: int) -> None:
    group, _ = draw_group(seed, tables)
    data = json.dumps(group).encode()
    client = roomy.test_client()
    with loading_here():  # a loader process for each of the examples would take seconds
        response = import_group_file(client, data)
    assert response.status_code == 303, error_text(response)
    group_id = group_id_at(response.headers["Location"])
    exported = client.get(f"/g/{group_id}/group.json").data
    numbers = played_order(group)
    rng = random.Random(seed)
    scopes = [("all", None)] + [(s["from"], s["name"]) for s in group["seasons"]]
    for scope, season in scopes:
        web = client.get(f"/g/{group_id}/stats.json?season={scope}").get_json()
        assert web == cli(exported, season)
        assert web == renumbered(cli(data, season), numbers)
        shows_the_document(client, group_id, scope, web, rng)


def test_the_command_line_on_the_apps_export(app: Flask, client, tmp_path: Path) -> None:
    """The same through the command itself: ``python -m referee stats FILE --json`` (and with
    ``--season``) on the file the group page downloads."""
    import subprocess
    import sys

    from tests.groups.test_stats_by_hand import FRIDAY
    from tests.web.group_helpers import imported

    group_id = imported(client, FRIDAY.read_bytes())
    exported = tmp_path / "group.json"
    exported.write_bytes(client.get(f"/g/{group_id}/group.json").data)
    for scope, season in (("all", []), ("2025-01-01", ["--season", "2025"])):
        run = subprocess.run(
            [sys.executable, "-m", "referee", "stats", str(exported), "--json", *season],
            capture_output=True,
            check=False,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert run.returncode == 0, run.stderr
        web = client.get(f"/g/{group_id}/stats.json?season={scope}").get_json()
        assert json.loads(run.stdout) == web
