"""Benchmark: recording a card and re-rendering the round screen, against a bare route.

The worst case of referee mode: the last trick of the 17-card round of a 3-player Blackout, with
the whole game before it recorded card by card (about 500 entries per table). Tables are copied
in bulk into a fresh SQLite database; the app runs under gunicorn (2 workers, production
settings, CSRF on). One driver — threads with keep-alive connections — measures both: each
unit is the POST of a card plus the GET of the round screen it redirects to, and the bare route
(``GET /bare``) is fetched the same way. Prints units per second against bare requests per
second (a unit is two requests, so the ratio is conservative). The tables are viewed a few times
first, as the game before was played through the app. Budget: ≥ 10 %.

    python bench/web_cards.py [--tables 60] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PORT = 5393
BUDGET = 0.10


def game_events() -> tuple[list[dict], list[tuple[str, str]]]:
    """A 3-player Blackout up to the last trick of its 17-card round, card by card; and that
    trick's three cards (player, card) still to be played."""
    from referee.records import parse_record
    from referee.rules import events as ev
    from tests.simulate import benchmark_record

    record = parse_record(benchmark_record(seed=1))
    players = record.setup.players
    events: list[dict] = []
    last: list[tuple[str, str]] = []
    for event in record.events:
        if event.round > 17 or event.type == "begin-round":
            continue
        if isinstance(event, ev.Trick):
            seat = players.index(event.leader)
            cards = [(players[(seat + i) % 3], card) for i, card in enumerate(event.cards)]
            if (
                event.round == 17
                and len(last) == 0
                and sum(1 for e in events if e["type"] == "play" and e["round"] == 17) == 16 * 3
            ):
                last = cards
                continue
            events += [ev.Play(event.round, card, player).to_dict() for player, card in cards]
        elif not isinstance(event, ev.Tricks):
            events.append(event.to_dict())
    return events, last


def seed(database: str, tables: int) -> tuple[list[str], int, list[tuple[str, str]]]:
    from sqlalchemy import insert

    from app import create_app
    from referee.rules import Setup
    from referee.store import db
    from referee.store.models import Entry, Table
    from referee.store.tables import create_table

    events, last = game_events()
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    ids = []
    with app.app_context():
        for _ in range(tables):
            table = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
            db.session.execute(
                insert(Entry),
                [
                    {"table_id": table, "seq": i, "kind": "event", "payload": e}
                    for i, e in enumerate(events, start=1)
                ],
            )
            db.session.query(Table).filter_by(id=table).update({"last_seq": len(events)})
            db.session.commit()
            ids.append(table)
    return ids, len(events), last


class Driver:
    """Keep-alive HTTP from several threads; counts what it did and how long it took."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def run(self, jobs: list[list[tuple[str, str, bytes | None]]]) -> tuple[int, float]:
        """Each job is a list of (method, path, body) done in order on one connection."""
        done = [0]
        lock = threading.Lock()
        failures: list[str] = []

        def worker(queue: list[list[tuple[str, str, bytes | None]]]) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", PORT)
            for job in queue:
                for method, path, body in job:
                    headers = {"Cookie": self.cookie}
                    if body is not None:
                        headers["Content-Type"] = "application/x-www-form-urlencoded"
                    conn.request(method, path, body=body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    if response.status not in (200, 303):
                        failures.append(f"{method} {path}: {response.status}")
                with lock:
                    done[0] += 1

        queues = [jobs[i :: self.threads] for i in range(self.threads)]
        pool = [threading.Thread(target=worker, args=(q,)) for q in queues]
        start = time.perf_counter()
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        elapsed = time.perf_counter() - start
        if failures:
            raise SystemExit(f"{len(failures)} failed requests, e.g. {failures[0]}")
        return done[0], elapsed

    cookie = ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    instance = Path(tempfile.mkdtemp(prefix="referee-cards-"))
    database = f"sqlite:///{instance / 'bench.sqlite3'}"
    ids, seq, last = seed(database, args.tables)
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            "2",
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
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/bare")
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.5)
        conn = http.client.HTTPConnection("127.0.0.1", PORT)
        conn.request("GET", f"/t/{ids[0]}")
        response = conn.getresponse()
        page = response.read().decode()
        cookie = response.getheader("Set-Cookie", "").split(";")[0]
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
        driver = Driver(args.threads)
        driver.cookie = cookie
        units = []
        for table in ids:
            steps = []
            for i, (player, card) in enumerate(last):
                body = urllib.parse.urlencode(
                    {
                        "seq": seq + i,
                        "round": 17,
                        "action": "play",
                        "mode": "cards",
                        "player": ("Ann", "Ben", "Cho").index(player) + 1,
                        "card": card,
                        "csrf_token": token,
                    }
                ).encode()
                steps += [
                    ("POST", f"/t/{table}/entry", body),
                    ("GET", f"/t/{table}?mode=cards", None),
                ]
            units.append(steps)
        # The game before was played through the app, so the workers know the tables: warm up.
        driver.run([[("GET", f"/t/{table}?mode=cards", None)] * 4 for table in ids])
        bare_jobs = [[("GET", "/bare", None)] * 2 for _ in range(len(units) * 3)]
        bare_count, bare_time = driver.run(bare_jobs)
        card_count, card_time = driver.run(units)
        bare_count2, bare_time2 = driver.run(bare_jobs)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    bare_rate = 2 * (bare_count + bare_count2) / (bare_time + bare_time2)
    card_rate = 3 * card_count / card_time
    ratio = card_rate / bare_rate
    print(f"bare route: {bare_rate:.0f} requests/s (same driver, gunicorn 2 workers, SQLite)")
    print(
        f"record a card + re-render (last trick, {seq} entries before): {card_rate:.0f}/s, "
        f"ratio {ratio:.2f} (budget ≥ {BUDGET:.2f}) {'ok' if ratio >= BUDGET else 'BROKEN'}"
    )
    return 0 if ratio >= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
