"""Benchmark: refusing a record made to cost against loading a small good one, in process.

A 1 MB Blackout record whose one round lists 21,000 tricks (each illegal) is uploaded to
``POST /records`` and refused (422, "lists 21000 tricks; round 1 has 1"); a small legal record
(the 4-player Blackout golden record, its rounds removed) is uploaded and loaded as a new table.
The two take turns, the least processor time of each is compared. Budget: refusing costs at most
25 times the loading (it was 250 times when every trick was read before the count was checked).
Exit 1 when it is broken.

    python bench/refusal_cost.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
BUDGET = 25.0


def records() -> tuple[bytes, bytes]:
    """The record made to cost and the small good one."""
    good = json.loads(GOLDEN.read_text())
    trick = {"leader": "Ben", "cards": ["2H", "2H", "2H", "2H"]}
    big = {**good, "rounds": [{"trump": "H", "plays": [trick] * 21_000}]}
    small = {**good, "rounds": []}
    return json.dumps(big, separators=(",", ":")).encode(), json.dumps(small).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    from app import create_app

    big, small = records()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/refusal.sqlite3",
                "WTF_CSRF_ENABLED": False,
                "TABLE_LIMIT": 10_000,
            }
        )
        client = app.test_client()

        def upload(content: bytes, status: int) -> Callable[[], None]:
            def post() -> None:
                data = {"record": (io.BytesIO(content), "game.json")}
                response = client.post("/records", data=data, content_type="multipart/form-data")
                if response.status_code != status:
                    raise SystemExit(f"expected {status}, got {response.status_code}")

            return post

        refuse, load = upload(big, 422), upload(small, 303)
        refuse(), load()
        refusing: list[float] = []
        loading: list[float] = []
        for _ in range(runs):
            for post, times in ((refuse, refusing), (load, loading)):
                start = time.process_time()
                post()
                times.append(time.process_time() - start)
    ratio = min(refusing) / min(loading)
    print(
        f"refusing a 1 MB record of 21,000 tricks: {1000 * min(refusing):.1f} ms; loading a small "
        f"record: {1000 * min(loading):.1f} ms; ratio {ratio:.1f} (budget ≤ {BUDGET:.0f})"
    )
    return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
