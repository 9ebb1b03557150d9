"""Benchmark: printing sheets as PDF against a minimal one-page reportlab document.

Two sheets: the score sheet of a complete 3-player Blackout (33 rounds; the game of
``bench/blackout-3p-card-by-card.json``, made by ``tests/simulate.py``'s ``benchmark_record``,
replayed once beforehand) and a blank 8-player Blackout card. Each is timed side by side with a
minimal document (one paragraph, built-in font), in interleaved repetitions within one process
after a warm-up, so a busy machine slows all alike; the medians are compared. Budget: each
sheet costs at most 10 times the minimal document. Exit 1 when it is broken.

    python bench/sheets_pdf.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

# reportlab ships no type hints (pyproject.toml lets mypy read it as untyped).
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate  # noqa: E402

from referee.records import load_record  # noqa: E402
from referee.sheets import BlankCard, SheetInfo, blank_card, table_sheet  # noqa: E402

RECORD = HERE / "blackout-3p-card-by-card.json"
BUDGET = 10.0


def minimal() -> bytes:
    """The baseline: a one-page document with one paragraph in a built-in font."""
    out = io.BytesIO()
    doc = SimpleDocTemplate(out)
    doc.build([Paragraph("Table Referee", getSampleStyleSheet()["Normal"])])
    return out.getvalue()


def timed(make: Callable[[], bytes]) -> float:
    """The processor time ``make`` takes (steadier than the clock on a shared machine)."""
    start = time.process_time()
    make()
    return time.process_time() - start


def measure(runs: int = 30) -> dict[str, tuple[float, float]]:
    """Each sheet's median processor time and that of the minimal document timed beside it
    (seconds). ``SystemExit`` when the benchmark record is not a clean, complete 33-round game."""
    state = load_record(RECORD.read_bytes()).replay()
    if not state.complete or state.game.round_count != 33 or state.violations:
        raise SystemExit("the benchmark record is not a clean, complete 33-round game")
    sheets: dict[str, Callable[[], bytes]] = {
        "score sheet, 3-player Blackout, 33 rounds": lambda: table_sheet(state, SheetInfo()),
        "blank card, 8-player Blackout": lambda: blank_card(BlankCard("blackout", 8)),
    }
    for make in [minimal, *sheets.values()]:  # warm-up: imports, font loading
        make()
    times: dict[str, list[float]] = {name: [] for name in sheets}
    bases: dict[str, list[float]] = {name: [] for name in sheets}
    for _ in range(runs):
        for name, make in sheets.items():
            bases[name].append(timed(minimal))
            times[name].append(timed(make))
    return {
        name: (statistics.median(times[name]), statistics.median(bases[name])) for name in sheets
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    broken = False
    for name, (sheet, base) in measure(runs).items():
        ratio = sheet / base
        broken |= ratio > BUDGET
        print(
            f"{name}: median {1000 * sheet:.1f} ms; minimal document {1000 * base:.1f} ms; "
            f"ratio {ratio:.2f} (budget ≤ {BUDGET:g})"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
