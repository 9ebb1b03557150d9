"""Benchmark: ``python -m referee stats`` on a group file of many tables, against ``check`` of
the largest game.

The group is made by ``tests/simulate.py`` (the same seed, the same file): ``--tables`` random
legal games (default 1,000), Blackout, Alles oder Nichts and ebbes in turn, 3–5 players, written
with their results only (``summary``) or every trick card by card (``plays``), seven roster
players and guests. The check is of ``bench/blackout-3p-card-by-card.json`` (a complete 3-player
Blackout of 33 rounds, card by card). Each command runs ``--runs`` times; the medians are shown.
No budget: the figures are for the record (docs/group-format.md, "Limits").

    python bench/group_stats.py [--tables N] [--runs N] [--detail summary|plays]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests import simulate as sim  # noqa: E402

RECORD = HERE / "blackout-3p-card-by-card.json"
GAMES = ("blackout", "alles-oder-nichts", "ebbes")


def group(tables: int, detail: str, seed: int = 0) -> dict[str, Any]:
    """A group of ``tables`` random legal games, one an evening."""
    rng = random.Random(seed)
    ids = {name: f"p{i}" for i, name in enumerate(sim.NAMES[:7])}
    start = datetime(2024, 1, 1, 19, 30, tzinfo=timezone(timedelta(hours=1)))
    out = []
    for number in range(tables):
        game = GAMES[number % len(GAMES)]
        low, high = sim.PLAYER_RANGE[game]
        truth = sim.simulate(rng, game, rng.randint(low, min(high, 5)))
        out.append(
            {
                "played": (start + timedelta(days=number)).isoformat(),
                "seats": {p: ids.get(p) for p in truth.players},
                "record": sim.to_record(truth, rng, detail),
            }
        )
    return {
        "format": "table-referee-group/1",
        "name": "Bench club",
        "players": [{"id": member, "name": name} for name, member in ids.items()],
        "seasons": [{"name": "2024", "from": "2024-01-01"}, {"name": "2025", "from": "2025-01-01"}],
        "tables": out,
    }


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=HERE.parent, capture_output=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)}: exit {done.returncode}")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--detail", choices=("summary", "plays"), default="summary")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "group.json")
        path.write_text(json.dumps(group(args.tables, args.detail)), encoding="utf-8")
        python = [sys.executable, "-m", "referee"]
        stats = median_seconds([*python, "stats", str(path), "--json"], args.runs)
        check = median_seconds([*python, "check", str(RECORD)], args.runs)
        size = path.stat().st_size / 1e6
    print(
        f"stats of {args.tables} tables ({args.detail}, {size:.1f} MB): median {stats:.2f} s, "
        f"{1000 * stats / args.tables:.1f} ms a table; check of the 33-round card-by-card "
        f"Blackout: {1000 * check:.0f} ms; ratio {stats / check:.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
