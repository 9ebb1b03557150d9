"""Benchmark: ``python -m referee check`` on the largest game against a bare interpreter start.

The record is a complete 3-player Blackout (33 rounds) with every trick recorded card by card
(``bench/blackout-3p-card-by-card.json``, made by ``tests/simulate.py``). Both commands run
alternately in one process tree, so a busy machine slows both alike; the medians are compared.
Budget: the check costs at most 3 times ``python -c "import json"`` (issue 20). Exit 1 when it is
broken.

    python bench/check_replay.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORD = HERE / "blackout-3p-card-by-card.json"
BUDGET = 3.0


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=HERE.parent, check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    check = [sys.executable, "-m", "referee", "check", str(RECORD)]
    bare = [sys.executable, "-c", "import json"]
    # Compile once, as an installed package would be: later runs read the bytecode.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "referee"],
        cwd=HERE.parent,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    status = subprocess.run(check, cwd=HERE.parent, capture_output=True).returncode
    if status != 0:
        print(f"the benchmark record does not check clean (exit {status})")
        return 1
    checks, bares = [], []
    for _ in range(runs):
        checks.append(timed(check))
        bares.append(timed(bare))
    ratio = statistics.median(checks) / statistics.median(bares)
    cards = RECORD.read_text().count('"cards"')
    print(
        f"check of 33-round card-by-card Blackout ({cards} tricks): "
        f"median {1000 * statistics.median(checks):.1f} ms; bare interpreter "
        f"{1000 * statistics.median(bares):.1f} ms; ratio {ratio:.2f} (budget ≤ {BUDGET})"
    )
    return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
