"""Benchmark: the "has anything changed?" request of phones following a table, against a bare route.

Every open table page asks its ``data-poll`` address — ``GET /t/<id>/seq?k=<poll key>``, without
cookies — every 3 s, with the ETag it last saw; until the table changes the answer is a 304. This
seeds 1,000 tables (SQLite in a temporary instance folder), each followed by 5 phones: 5,000
spectator (viewer) links and 5,000 distinct session cookies, signed by ``bench/server.py`` with the
app's own serializer as ``GET /j/<token>`` would set them. The app runs under gunicorn (production
settings) and wrk sends each phone's poll in turn (shuffled across tables; one round of the 5,000
takes about as long as a real phone waits between two polls), with its If-None-Match, in phases:

- unchanged: the page's poll, every phone holding the table's current ETag: every answer a 304;
- changed: the page's poll, every phone holding the ETag before the table's last entry (the
  moment after a bid is recorded): every answer a 200 with the new position;
- with a link: the same question asked with the phone's session cookie instead of the key (how
  anything but a page's own poll is answered), current ETags: every answer a 304. Reported for
  information, without a budget.

After a warm-up of polls (each worker process reads each table's position once, as a server up
for a while has), the bare route (``GET /bare``, a short string from the same server) is measured
before, between and after them, and each phase is compared with the average of the bare runs.
Prints one line per phase: requests/s of the poll and of the bare route, and their ratio. Exit 1
when a budgeted ratio is under the budget or any response is not the expected one (a 304, a 200;
200 for the bare route).

    python bench/web_poll.py [--seconds 5] [--workers 2]

Budget: the page's poll ≥ 70 % of the bare route, unchanged and changed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server import (
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

TABLES = 1000
PHONES_PER_TABLE = 5
BUDGET = 0.70
#: Seconds of polling before measuring.
WARM_UP = 3
#: Each phase: its name, whether the budget applies, and the status every answer must have.
PHASES = {
    "unchanged": (True, 304),
    "changed": (True, 200),
    "with a link": (False, 304),
}


def seed(database: str) -> dict[str, list[Request]]:
    """The tables (trump turned up: log position 1; the scorekeeper's link made, as a new table
    has it), their phones, and each phase's requests: every phone's poll once."""
    from flask import url_for

    from referee.rules import events as ev
    from referee.web.polls import poll_key

    app = open_app(database)
    players = ("Ann", "Ben", "Cho", "Dee")
    tables = new_tables(app, TABLES, players, [ev.Trump(1, "H").to_dict()])
    phones(app, tables, "keeper")
    viewers = phones(app, tables, "viewer", per_table=PHONES_PER_TABLE)
    random.Random(1).shuffle(viewers)
    with app.test_request_context():  # the page's data-poll address (templates/tables/_poll.html)
        polls = {t: url_for("round.seq", table_id=t, k=poll_key(t)) for t in tables}
    return {
        "unchanged": [Request(polls[p.table_id], etag='"seq-1"') for p in viewers],
        "changed": [Request(polls[p.table_id], etag='"seq-0"') for p in viewers],
        "with a link": [Request(f"/t/{p.table_id}/seq", p.cookie, '"seq-1"') for p in viewers],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not installed():
        return 1
    with instance("referee-poll-") as (folder, database):
        files = {
            name: request_file(folder / f"{name.replace(' ', '-')}.txt", requests)
            for name, requests in seed(database).items()
        }
        bare = request_file(folder / "bare.txt", [Request("/bare")])
        with Server(database, args.workers) as server:
            # Warm-up, not measured: each worker reads each table's position once, as a server
            # that has been up for a while has done (a real phone polls for hours).
            wrk(server.base, files["unchanged"], WARM_UP, {200, 304})
            bare_loads = [wrk(server.base, bare, args.seconds, {200})]
            results = {}
            for name, (_, status) in PHASES.items():
                results[name] = wrk(server.base, files[name], args.seconds, {status})
                bare_loads.append(wrk(server.base, bare, args.seconds, {200}))
    bare_rate = sum(load.rate for load in bare_loads) / len(bare_loads)
    broken = False
    for load in bare_loads:
        if load.failures:
            broken = True
            print(f"bare route: failed responses: {load.describe_failures()} BROKEN")
    for name, load in results.items():
        budgeted, status = PHASES[name]
        ratio = load.rate / bare_rate
        ok = (ratio >= BUDGET or not budgeted) and not load.failures
        broken |= not ok
        budget = f"budget ≥ {BUDGET:.2f}" if budgeted else "no budget"
        note = f"; failed responses: {load.describe_failures()}" if load.failures else ""
        print(
            f"has anything changed? {name} ({status}s), {TABLES * PHONES_PER_TABLE} phones: "
            f"{load.rate:.0f} requests/s against bare {bare_rate:.0f} requests/s "
            f"(gunicorn, {args.workers} workers, SQLite), ratio {ratio:.2f} "
            f"({budget}){note} {'ok' if ok else 'BROKEN'}"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
