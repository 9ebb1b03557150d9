"""The counts the "proof under fire" suites report: journeys walked, requests fuzzed, writes raced,
kills survived.

Each suite adds to ``counts`` as it goes (only what it has checked); at the end of the pytest
session ``tests/conftest.py`` calls ``write()``, which puts them in ``artifacts/test-summary.json``
(or ``$REFEREE_TEST_SUMMARY``). When pytest-xdist runs the tests in several processes, each worker
writes its counts to a part of its own beside that file, and the main process adds the parts up
into it. ``.ci/run`` prints that file and fails when a count is zero, so a suite that silently ran
nothing cannot pass CI.
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


def parts() -> list[Path]:
    """The counts of pytest-xdist's workers, one file each, beside the summary file."""
    return sorted(path().parent.glob(path().name + ".part-*"))


def forget_parts() -> None:
    """Remove the parts a run that did not finish left behind (at the start of a session)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        for part in parts():
            part.unlink()


def write() -> None:
    """Write this session's counts (only those that were counted): a pytest-xdist worker's to
    its part, the main process's with every worker's part added to the summary file."""
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        if counts:
            target.with_name(f"{target.name}.part-{worker}").write_text(json.dumps(counts))
        return
    total = Counter(counts)
    for part in parts():
        total.update(json.loads(part.read_text()))
        part.unlink()
    if total:
        target.write_text(json.dumps(dict(sorted(total.items())), indent=2) + "\n")
