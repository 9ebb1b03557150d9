"""Benchmark: a group of 1,000 tables in the app, in process (issue 30, "fast at a real group's
size").

The group is ``bench/group_stats.py``'s: random legal games of all three games, one a week for
twenty years, twelve players on the roster, recorded with their results. It is loaded through the
app (``POST /groups/import``, as a keeper's phone does) into a temporary SQLite database, with
the speed layer on as in production and CSRF off. Figures, each measured side by side in one
run:

- import and export: the 1,000-table file loaded (from its upload until the group opens, its
  loader a process of its own, which on SQLite pauses between its pieces for the tables being
  played), ≤ 20 s, and the group's file downloaded (``/g/<id>/group.json``, its first
  download), ≤ 10 s: wall seconds on this machine (see ``bench/README.md``).
- group page after a round: a 4-player Blackout table started from the group; after each round
  recorded there, the group page's first view (``/g/<id>``) and the first render of that
  table's score sheet (``/t/<id>/sheet``), in turns: the medians' ratio ≤ 3.
- recording at a group's table: one entry at a time into a table of a group of 10, of 100 and of
  1,000 tables, in turns: the slowest median ÷ the fastest ≤ 1.5.

Times are processor time of this process (the app runs in it), steadier than the clock on a
shared machine, except import and export (the clock: they are waited for). Exit 1 when a budget
is broken.

    python bench/group_pages.py [--tables N] [--runs N]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from bench.group_stats import group  # noqa: E402

SECONDS_BUDGET = 10.0
#: The import waits for a process to start and, on SQLite, pauses for the tables being played.
IMPORT_BUDGET = 20.0
PAGE_BUDGET = 3.0
GROWTH_BUDGET = 1.5
SIZES = (10, 100, 1000)


def app_in(folder: str) -> Flask:
    from app import create_app

    return create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/groups.sqlite3",
            "WTF_CSRF_ENABLED": False,
            "TABLE_LIMIT": 10_000,
        }
    )


def imported(client: FlaskClient, tables: int) -> tuple[str, float]:
    """A new group of ``tables`` tables loaded through the app; its id and the seconds taken."""
    data = json.dumps(group(tables, "summary", seed=tables, roster=12)).encode()
    start = time.perf_counter()
    response = client.post(
        "/groups/import",
        data={"group": (io.BytesIO(data), "group.json"), "time_zone": "Europe/Berlin"},
        content_type="multipart/form-data",
    )
    status_page = response.headers.get("Location", "")
    while response.status_code in (200, 303) and "/groups/import/" in status_page:
        time.sleep(0.05)  # its loader (a process of its own) works: ask as the browser does
        response = client.get(status_page)
        if response.status_code == 303:
            status_page = response.headers["Location"]
    took = time.perf_counter() - start
    if response.status_code != 303:
        raise SystemExit(f"the group of {tables} tables was not loaded: {response.status_code}")
    # To the group's keeper link first ("Keep this link": /g/<id>/my-link?made=1), then on.
    found = re.search(r"/g/([^/?#]+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return found[1], took


def started(client: FlaskClient, group_id: str) -> str:
    """A 4-player Blackout table started from the group's page; its id."""
    data = {"game": "blackout", "dealer": "next", "here": ["p0", "p1", "p2", "p3"]}
    response = client.post(f"/g/{group_id}/new", data=data)
    if response.status_code != 303:
        raise SystemExit(f"no table started from the group: {response.status_code}")
    return response.headers["Location"].rsplit("/", 1)[-1]


class Table:
    """A table the benchmark records legal entries into, as its scorekeeper's phone would."""

    def __init__(self, app: Flask, client: FlaskClient, table_id: str, seed: int) -> None:
        self.app, self.client, self.id = app, client, table_id
        self.rng = random.Random(seed)

    def entry(self) -> Callable[[], None]:
        """The post of the table's next legal entry, ready to time."""
        from referee.store.tables import get_table, table_state
        from tests.durability.legal import entry_form, next_entry

        with self.app.app_context():
            record = get_table(self.id)
            state = table_state(self.id)
        assert record is not None and state is not None
        found = next_entry(state, self.rng)
        if found is None:
            raise SystemExit("the table is over: fewer runs")
        form = entry_form(state, found[0], record.last_seq)

        def post() -> None:
            response = self.client.post(f"/t/{self.id}/entry", data=form)
            if response.status_code != 303:
                raise SystemExit(f"an entry was refused: {response.status_code}")

        return post

    def round_number(self) -> int:
        from referee.store.tables import table_state

        with self.app.app_context():
            state = table_state(self.id)
        assert state is not None
        return len(state.rounds) if state.round_to_play is None else state.round_to_play


def cpu(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def got(client: FlaskClient, path: str) -> Callable[[], None]:
    def get() -> None:
        response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code}")

    return get


class Result(NamedTuple):
    """One figure: what, the measured value (text), the figure compared with its budget."""

    name: str
    measured: str
    value: float
    budget: float
    unit: str

    def line(self) -> str:
        ok = "ok" if self.value <= self.budget else "BROKEN"
        figure = f"{self.value:.2f}{self.unit} (budget ≤ {self.budget:g}{self.unit})"
        return f"{self.name}: {self.measured}; {figure} {ok}"


def measure(size: int = 1000, runs: int = 15) -> list[Result]:
    """The figures for a group of ``size`` tables (see the module)."""
    sizes = sorted({*SIZES[:-1], size})
    results = []
    with tempfile.TemporaryDirectory() as folder:
        app = app_in(folder)
        client = app.test_client()
        groups = {each: imported(client, each) for each in sizes}
        big, import_seconds = groups[size]
        start = time.perf_counter()
        got(client, f"/g/{big}/group.json")()
        export_seconds = time.perf_counter() - start
        for what, seconds, budget in (
            ("import", import_seconds, IMPORT_BUDGET),
            ("export", export_seconds, SECONDS_BUDGET),
        ):
            results.append(
                Result(f"group {what}, {size} tables", "wall clock", seconds, budget, " s")
            )

        tables = {
            each: Table(app, client, started(client, group_id), each)
            for each, (group_id, _) in groups.items()
        }
        got(client, f"/g/{big}")()  # every other table's facts kept, as on a server in use
        pages: list[float] = []
        sheets: list[float] = []
        table = tables[size]
        for run in range(runs):
            number = table.round_number()
            while table.round_number() == number:
                table.entry()()
            views = [
                (pages, got(client, f"/g/{big}")),
                (sheets, got(client, f"/t/{table.id}/sheet")),
            ]
            for times, view in views if run % 2 else reversed(views):
                times.append(cpu(view))
        page, sheet = statistics.median(pages), statistics.median(sheets)
        results.append(
            Result(
                f"group page of {size} tables, first view after a round",
                f"median {1000 * page:.1f} ms against the table's score sheet, first render, "
                f"{1000 * sheet:.1f} ms",
                page / sheet,
                PAGE_BUDGET,
                " ×",
            )
        )

        posts: dict[int, list[float]] = {each: [] for each in sizes}
        for run in range(runs * 2):
            for each in sizes if run % 2 else list(reversed(sizes)):
                posts[each].append(cpu(tables[each].entry()))
        medians = {each: statistics.median(times) for each, times in posts.items()}
        results.append(
            Result(
                "growth of recording an entry at a group's table, by the group's tables",
                ", ".join(f"{each}: {1000 * median:.2f} ms" for each, median in medians.items()),
                max(medians.values()) / min(medians.values()),
                GROWTH_BUDGET,
                " ×",
            )
        )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    results = measure(args.tables, args.runs)
    for result in results:
        print(result.line())
    return 1 if any(result.value > result.budget for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
