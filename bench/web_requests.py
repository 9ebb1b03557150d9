"""Benchmark: requests per second of the score sheet and of recording a bid, against a bare route.

Starts the app under gunicorn (production settings, SQLite in a temporary instance folder, CSRF
on), seeds a complete 4-player Blackout (25 rounds) and thousands of tables waiting for their
first bid, then drives load with wrk, alternating the bare route (``GET /bare``, a short string
from the same server) with the measured requests. Every measured request carries the session
cookie of a phone that opened one of the table's links (``bench/server.py`` signs it with the
app's own serializer): the score sheet is read with a spectator (viewer) link; each bid is
recorded into a different table by that table's scorekeeper phone, with its keeper link and the
form's CSRF token. Prints each ratio against its budget; exit 1 when a budget is broken or a
measured request did not succeed (the sheet must answer 200, a bid 303).

    python bench/web_requests.py [--seconds 5] [--workers 2]

Budgets: score sheet ≥ 20 % of the bare route; recording a bid ≥ 10 %.
"""

from __future__ import annotations

import argparse
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server import (
    ROOT,
    Load,
    Request,
    Server,
    installed,
    instance,
    new_tables,
    open_app,
    phones,
    request_file,
    wrk,
)

GAME = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
BUDGETS = {"score sheet": 0.20, "record a bid": 0.10}


def seed(database: str, tables: int) -> tuple[Request, list[Request]]:
    """A complete 4-player Blackout, read by a spectator; and ``tables`` new tables with their
    trump turned up, each with its scorekeeper's bid to record."""
    from referee.records import load_record
    from referee.rules import events as ev

    app = open_app(database)
    record = load_record(GAME.read_bytes())
    events = [e.to_dict() for e in record.events if e.type != "begin-round"]
    [game] = new_tables(app, 1, record.setup.players, events)
    [viewer] = phones(app, [game], "viewer")
    fresh = new_tables(app, tables, ("Ann", "Ben", "Cho", "Dee"), [ev.Trump(1, "H").to_dict()])
    bids = []
    for keeper in phones(app, fresh, "keeper", csrf=True):
        form = {"seq": 1, "round": 1, "action": "bid", "player": 2, "bid": 0}
        body = urllib.parse.urlencode({**form, "csrf_token": keeper.csrf})
        bids.append(Request(f"/t/{keeper.table_id}/entry", keeper.cookie, body=body, method="POST"))
    return Request(f"/t/{game}/sheet", viewer.cookie), bids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not installed():
        return 1
    with instance() as (folder, database):
        sheet, bids = seed(database, tables=6000 * args.seconds // 5)
        bare = request_file(folder / "bare.txt", [Request("/bare")])
        sheets = request_file(folder / "sheet.txt", [sheet])
        bid_file = request_file(folder / "bids.txt", bids)
        with Server(database, args.workers) as server:
            bare_loads = [wrk(server.base, bare, args.seconds, {200})]
            results: dict[str, Load] = {}
            results["score sheet"] = wrk(server.base, sheets, args.seconds, {200})
            bare_loads.append(wrk(server.base, bare, args.seconds, {200}))
            results["record a bid"] = wrk(server.base, bid_file, args.seconds, {303})
            if results["record a bid"].responses > len(bids):
                # Requests start again at the first table: a second bid there is not measured.
                raise SystemExit(f"more bids than the {len(bids)} tables seeded")
            bare_loads.append(wrk(server.base, bare, args.seconds, {200}))
    bare_rate = sum(load.rate for load in bare_loads) / len(bare_loads)
    print(f"bare route: {bare_rate:.0f} requests/s (gunicorn, {args.workers} workers, SQLite)")
    broken = any(load.failures for load in bare_loads)
    if broken:
        failed = "; ".join(load.describe_failures() for load in bare_loads if load.failures)
        print(f"bare route: failed responses: {failed} BROKEN")
    for name, load in results.items():
        ratio = load.rate / bare_rate
        ok = ratio >= BUDGETS[name] and not load.failures
        broken |= not ok
        note = f"; failed responses: {load.describe_failures()}" if load.failures else ""
        print(
            f"{name}: {load.rate:.0f} requests/s, ratio {ratio:.2f} "
            f"(budget ≥ {BUDGETS[name]:.2f}){note} {'ok' if ok else 'BROKEN'}"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
