"""Benchmark: requests per second of the score sheet and of recording a bid, against a bare route.

Starts the app under gunicorn (production settings, SQLite in a temporary instance folder, CSRF
on), seeds a complete 4-player Blackout (25 rounds) and thousands of tables waiting for their
first bid, then drives load with wrk, alternating the bare route (``GET /bare``, a short string
from the same server) with the measured requests. Prints each ratio against its budget; exit 1
when a budget is broken or a measured request did not succeed.

    python bench/web_requests.py [--seconds 5] [--workers 2]

Budgets: score sheet ≥ 20 % of the bare route; recording a bid ≥ 10 %.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAME = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
PORT = 5391
BUDGETS = {"score sheet": 0.20, "record a bid": 0.10}


def seed(database: str, tables: int) -> tuple[str, list[str]]:
    """A complete 4-player Blackout and ``tables`` new tables with their trump turned up."""
    from app import create_app
    from referee.records import load_record
    from referee.rules import Setup
    from referee.rules import events as ev
    from referee.store.tables import append_entry, create_table

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    with app.app_context():
        record = load_record(GAME.read_bytes())
        game = create_table(record.setup)
        seq = 0
        for event in record.events:
            if event.type != "begin-round":
                seq = append_entry(game, seq, "event", event.to_dict())
        setup = Setup("blackout", ("Ann", "Ben", "Cho", "Dee"))
        fresh = []
        for _ in range(tables):
            table = create_table(setup)
            append_entry(table, 0, "event", ev.Trump(1, "H").to_dict())
            fresh.append(table)
    return game, fresh


def wrk(
    url: str,
    seconds: int,
    threads: int,
    script: Path | None = None,
    env: dict[str, str] | None = None,
) -> tuple[float, int]:
    """Requests per second and the count of failed (non-2xx/3xx) responses."""
    command = ["wrk", "-t", str(threads), "-c", str(threads * 4), "-d", f"{seconds}s", url]
    if script is not None:
        command[1:1] = ["-s", str(script)]
    out = subprocess.run(
        command, capture_output=True, text=True, check=True, env={**os.environ, **(env or {})}
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: .*", out)
    return rate, int(failed.group(1)) if failed else 0 + (1 if errors else 0) * 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)")
        return 1
    instance = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    database = f"sqlite:///{instance / 'bench.sqlite3'}"
    game, fresh = seed(database, tables=6000 * args.seconds // 5)
    ids = instance / "bid-ids.txt"
    ids.write_text("\n".join(fresh) + "\n")
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            str(args.workers),
            "-b",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
            "bench.bench_app:make()",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{PORT}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/bare", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(f"{base}/t/{fresh[-1]}").read().decode()
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
        threads = 2
        bare_rates = []
        results = {}
        bare_rates.append(wrk(f"{base}/bare", args.seconds, threads)[0])
        results["score sheet"] = wrk(f"{base}/t/{game}/sheet", args.seconds, threads)
        bare_rates.append(wrk(f"{base}/bare", args.seconds, threads)[0])
        results["record a bid"] = wrk(
            base,
            args.seconds,
            threads,
            ROOT / "bench" / "bid.lua",
            {"BID_IDS": str(ids), "CSRF": token, "COOKIE": cookie, "WRK_THREADS": str(threads)},
        )
        bare_rates.append(wrk(f"{base}/bare", args.seconds, threads)[0])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        shutil.rmtree(instance, ignore_errors=True)
    bare = sum(bare_rates) / len(bare_rates)
    print(f"bare route: {bare:.0f} requests/s (gunicorn, {args.workers} workers, SQLite)")
    broken = False
    for name, (rate, failed) in results.items():
        ratio = rate / bare
        ok = ratio >= BUDGETS[name] and failed == 0
        broken |= not ok
        note = f"; {failed} failed responses" if failed else ""
        print(
            f"{name}: {rate:.0f} requests/s, ratio {ratio:.2f} "
            f"(budget ≥ {BUDGETS[name]:.2f}){note} {'ok' if ok else 'BROKEN'}"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
