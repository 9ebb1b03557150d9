"""Benchmark: recording a card and re-rendering the round screen, against a bare route.

The worst case of referee mode: the last trick of the 17-card round of a 3-player Blackout, with
the whole game before it recorded card by card (about 500 entries per table). Tables are copied
in bulk into a fresh SQLite database; the app runs under gunicorn (2 workers, production
settings, CSRF on). One driver — threads with keep-alive connections — measures both: each
unit is the POST of a card plus the GET of the round screen it redirects to, sent with the
session cookie of that table's scorekeeper phone (its keeper link and the form's CSRF token,
signed by ``bench/server.py`` with the app's own serializer), and the bare route
(``GET /bare``) is fetched the same way. Prints units per second against bare requests per
second (a unit is two requests, so the ratio is conservative). The tables are viewed a few times
first, as the game before was played through the app. Budget: ≥ 10 %; exit 1 when it is broken
or a request did not succeed (a card must answer 303, a page 200).

    python bench/web_cards.py [--tables 60] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server import Phone, Request, Server, copy_tables, instance, open_app, phones

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


def seed(database: str, tables: int) -> tuple[list[Phone], int, list[tuple[str, str]]]:
    """``tables`` tables at the last trick of round 17, and each one's scorekeeper phone."""
    from referee.rules import Setup

    events, last = game_events()
    app = open_app(database)
    ids = copy_tables(app, tables, Setup("blackout", ("Ann", "Ben", "Cho")), events)
    return phones(app, ids, "keeper", csrf=True), len(events), last


class Driver:
    """Keep-alive HTTP from several threads; counts what it did and how long it took."""

    def __init__(self, port: int, threads: int) -> None:
        self.port = port
        self.threads = threads

    def run(self, jobs: list[list[Request]]) -> tuple[int, float]:
        """Each job is a list of requests done in order on one connection."""
        done = [0]
        lock = threading.Lock()
        failures: list[str] = []

        def worker(queue: list[list[Request]]) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", self.port)
            for job in queue:
                for r in job:
                    headers = {"Cookie": r.cookie} if r.cookie else {}
                    if r.body:
                        headers["Content-Type"] = "application/x-www-form-urlencoded"
                    conn.request(r.method, r.path, body=r.body or None, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    if response.status != (303 if r.method == "POST" else 200):
                        failures.append(f"{r.method} {r.path}: {response.status}")
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    with instance("referee-cards-") as (_, database):
        keepers, seq, last = seed(database, args.tables)
        units = []
        for keeper in keepers:
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
                        "csrf_token": keeper.csrf,
                    }
                )
                page = f"/t/{keeper.table_id}?mode=cards"
                steps += [
                    Request(f"/t/{keeper.table_id}/entry", keeper.cookie, body=body, method="POST"),
                    Request(page, keeper.cookie),
                ]
            units.append(steps)
        with Server(database, workers=2) as server:
            driver = Driver(server.port, args.threads)
            # The game before was played through the app, so the workers know the tables: warm up.
            driver.run([[Request(f"/t/{k.table_id}?mode=cards", k.cookie)] * 4 for k in keepers])
            bare_jobs = [[Request("/bare")] * 2 for _ in range(len(units) * 3)]
            bare_count, bare_time = driver.run(bare_jobs)
            card_count, card_time = driver.run(units)
            bare_count2, bare_time2 = driver.run(bare_jobs)
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
