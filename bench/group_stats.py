"""Benchmark: ``python -m referee stats`` on a group file of many tables, against ``check`` of
the largest game.

``stats`` replays a large file's tables in a process per core (``referee.groups.stats``), so
the processor time of each command (its own and its processes', summed) is printed beside the
wall times: it says what the work costs, the wall what a person waits.

The group is made by ``tests/simulate.py`` (the same seed, the same file): ``--tables`` random
legal games (default 1,000), Blackout, Alles oder Nichts and ebbes in turn, 3–5 players, written
with their results only (``summary``) or every trick card by card (``plays``), seven roster
players and guests. The check is of ``bench/blackout-3p-card-by-card.json`` (a complete 3-player
Blackout of 33 rounds, card by card). Each command runs ``--runs`` times, in turns; the medians
are compared. Budget (issue 30): ``stats`` of 1,000 tables costs at most 10 times the ``check``.
Exit 1 when it is broken.

    python bench/group_stats.py [--tables N] [--runs N] [--detail summary|plays]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
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


def group(tables: int, detail: str, seed: int = 0, roster: int = 7) -> dict[str, Any]:
    """A group of ``tables`` random legal games, one an evening; the first ``roster`` of
    ``tests/simulate.py``'s names are on the roster, the others guests."""
    rng = random.Random(seed)
    ids = {name: f"p{i}" for i, name in enumerate(sim.NAMES[:roster])}
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


def median_seconds(command: list[str], runs: int) -> tuple[float, float]:
    """The median wall seconds of ``runs`` runs of ``command``, and the median processor
    seconds (user and system, of the command and the processes it waited for)."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=HERE.parent, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)}: exit {done.returncode}")
    return statistics.median(walls), statistics.median(cpus)


BUDGET = 10.0


def measure(
    tables: int = 1000, runs: int = 3, detail: str = "summary"
) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The median (wall, processor) seconds of ``stats --json`` on a group of ``tables`` and of
    the ``check``, and the group file's size in MB."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "group.json")
        # As the app exports a group (referee/web/groups/transfer.py).
        document = json.dumps(group(tables, detail), ensure_ascii=False, indent=2) + "\n"
        path.write_text(document, encoding="utf-8")
        python = [sys.executable, "-m", "referee"]
        stats: list[tuple[float, float]] = []
        checks: list[tuple[float, float]] = []
        for _ in range(runs):
            stats.append(median_seconds([*python, "stats", str(path), "--json"], 1))
            checks.append(median_seconds([*python, "check", str(RECORD)], 1))
        median = statistics.median
        return (
            (median(s[0] for s in stats), median(s[1] for s in stats)),
            (median(c[0] for c in checks), median(c[1] for c in checks)),
            path.stat().st_size / 1e6,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--detail", choices=("summary", "plays"), default="summary")
    args = parser.parse_args()
    (stats, stats_cpu), (check, check_cpu), size = measure(args.tables, args.runs, args.detail)
    ratio = stats / check
    print(
        f"stats of {args.tables} tables ({args.detail}, {size:.1f} MB): median {stats:.2f} s, "
        f"{1000 * stats / args.tables:.1f} ms a table; check of the 33-round card-by-card "
        f"Blackout: {1000 * check:.0f} ms; ratio {ratio:.1f} (budget ≤ {BUDGET:g}) "
        f"{'ok' if ratio <= BUDGET else 'BROKEN'}\n"
        f"processor time: stats {stats_cpu:.2f} s, check {1000 * check_cpu:.0f} ms, "
        f"ratio {stats_cpu / check_cpu:.1f}"
    )
    return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
