"""The counts the "proof under fire" suites report: journeys walked, requests fuzzed, writes raced,
kills survived.

Each suite adds to ``counts`` as it goes (only what it has checked); at the end of the pytest
session its conftest calls ``write()``, which puts them in ``artifacts/test-summary.json`` (or
``$REFEREE_TEST_SUMMARY``). ``.ci/run`` prints that file and fails when a count is zero, so a
suite that silently ran nothing cannot pass CI.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The counts and what each one is, in the order they are printed.
NAMES = {
    "journeys": "browser journeys walked",
    "fuzzed_requests": "hostile requests fuzzed",
    "concurrent_writes": "acknowledged concurrent writes checked",
    "kills_survived": "server kills survived",
}

counts: Counter[str] = Counter()


def count(name: str, n: int = 1) -> None:
    """Add ``n`` to the count ``name`` (one of ``NAMES``)."""
    assert name in NAMES, name
    counts[name] += n


def path() -> Path:
    return Path(os.environ.get("REFEREE_TEST_SUMMARY") or ROOT / "artifacts" / "test-summary.json")


def write() -> None:
    """Write this session's counts (only those that were counted) to the summary file."""
    if not counts:
        return
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(dict(sorted(counts.items())), indent=2) + "\n")
