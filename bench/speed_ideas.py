"""Benchmark: what each idea the speed layer keeps buys, in process, side by side.

The complete 4-player Blackout (``tests/records/blackout/default-4p.json``, 25 rounds) is loaded
as a table; apps are made with the speed layer off (``SPEED`` false), then with one idea of it
installed on that plain app through the interface it implements, and with the whole layer on:

- kept tables (``KeptTables`` as the app's ``referee.web.loading.Tables``): replayed once and
  caught up entry by entry;
- pages rendered once per change (``Shelves`` as the app's ``referee.web.memo.Memo``);
- the translation binding (``speed/translations.py``);
- the whole layer (``SPEED`` on), which also answers a page's poll in front of Flask.

Each request is the median of ``--runs`` repeats, the first (which fills what is kept) left out;
the apps take turns, one request each, so a spell of load on the machine weighs on all alike.
Prints each request's time with the layer off, with each idea, and off ÷ on. The live pages'
streams are measured under gunicorn with phones, by ``bench/capacity.py`` and
``bench/see_change.py``.

    python bench/speed_ideas.py [--runs 200]
"""

from __future__ import annotations

import argparse
import html
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from flask import Flask

from bench.page_weight import load_game  # noqa: E402


def plain(folder: str) -> Flask:
    from app import create_app

    return create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/ideas.sqlite3",
            "SPEED": False,
        }
    )


def with_kept_tables(app: Flask) -> None:
    from referee.web import loading
    from referee.web.speed.kept import KeptTables

    loading.init_app(app, KeptTables(2048, links=16384, positions=65536, sweep_every=0.25))


def with_pages_once(app: Flask) -> None:
    from referee.web import memo
    from referee.web.speed import Shelves
    from referee.web.speed.beside import for_app

    memo.init_app(app, Shelves(2048, for_app(app)))


def with_translation_binding(app: Flask) -> None:
    from referee.web.speed import translations

    translations.install(app)


def with_everything(app: Flask) -> None:
    from referee.web import speed

    speed.init_app(app)


#: The apps measured: the layer off, then each idea alone on it, then the whole layer.
IDEAS: dict[str, Callable[[Flask], None] | None] = {
    "off": None,
    "kept tables": with_kept_tables,
    "pages once": with_pages_once,
    "translation binding": with_translation_binding,
    "whole layer": with_everything,
}

#: The requests measured, by who asks: address after ``/t/<id>``.
REQUESTS = [
    ("spectator's table page", "viewer", ""),
    ("spectator's score sheet", "viewer", "/sheet"),
    ("scorekeeper's table page", "keeper", ""),
    ("score sheet PDF", "viewer", "/sheet.pdf"),
    ("record download", "viewer", "/record.json"),
    ("page's poll", "viewer", "poll"),
]


def asker(app: Flask, table: str, kind: str, path: str) -> Callable[[], float]:
    """A phone holding a ``kind`` link that asks for ``path`` once (after a first time): the
    seconds it took."""
    from tests.links import join

    client = app.test_client()
    join(app, client, table, kind)
    if path == "poll":
        page = client.get(f"/t/{table}").text
        found = re.search(r'data-poll="/t/[^/]+([^"]+)"', page)
        assert found is not None, "the page names no poll"
        path = html.unescape(found.group(1))
    address = f"/t/{table}{path}"
    assert client.get(address).status_code == 200, address

    def ask() -> float:
        start = time.perf_counter()
        response = client.get(address)
        took = time.perf_counter() - start
        assert response.status_code == 200, (address, response.status_code)
        return took

    return ask


def measure(runs: int) -> dict[str, dict[str, float]]:
    """Median seconds per request, by request and idea."""
    found: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        apps = {}
        for number, (idea, install) in enumerate(IDEAS.items()):
            Path(folder, str(number)).mkdir()
            app = plain(str(Path(folder, str(number))))
            if install is not None:
                install(app)
            apps[idea] = (app, load_game(app))
        for name, kind, path in REQUESTS:
            askers = {idea: asker(app, table, kind, path) for idea, (app, table) in apps.items()}
            times: dict[str, list[float]] = {idea: [] for idea in apps}
            for _ in range(runs):
                for idea, ask in askers.items():
                    times[idea].append(ask())
            found[name] = {idea: statistics.median(taken) for idea, taken in times.items()}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    for name, times in measure(args.runs).items():
        off = times["off"]
        ideas = ", ".join(
            f"{idea} {1000 * seconds:.2f} ms ({off / seconds:.1f} ×)"
            for idea, seconds in times.items()
            if idea != "off"
        )
        print(f"{name}: off {1000 * off:.2f} ms; {ideas}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
