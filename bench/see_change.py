"""Benchmark: how soon a watching phone shows a change made on the scorekeeper's phone.

Two phones in one Chromium (two browser contexts, 360×740, as ``tests/e2e`` opens them) on a
4-player Blackout served by gunicorn (``bench.server.Server``, 2 gevent workers, SQLite): the
scorekeeper's phone taps entries (the trump, bids; an undo when the next entry is not a tap) at
a human, irregular pace; the spectator's phone only watches its table page. For each change,
the time from the tap (the scorekeeper page's ``pointerdown``) to the moment the spectator's
page shows the new log position (its ``<body data-seq>``, swapped in or loaded) — both read
from the pages' own clocks, one machine. Also counted: the spectator's requests other than its
poll, per change (the page fetched once per change, nothing else).

    python bench/see_change.py [--changes 30]
    DATABASE_URL=postgresql://… python bench/see_change.py --postgres [--two-servers]

``--postgres``: on a new database of that PostgreSQL server instead of SQLite. ``--two-servers``
(PostgreSQL only): two servers on it, as behind a load balancer: the scorekeeper's phone on one,
the watching phone on the other, which learns of each entry from the database (told at once,
``referee/web/speed/wake.py``; by sweeping with ``REFEREE_PG_NOTIFY=false`` in the environment).

Budgets: p95 from tap to visible ≤ 1.5 s; at most one page request per change.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import (  # noqa: E402
    Server,
    instance,
    new_tables,
    open_app,
    phones,
    postgres_instance,
)

CHROMIUM = "/usr/bin/chromium"
NAME = "see a change on a watching phone"
PLAYERS = ("Ann", "Ben", "Cho", "Dee")
#: The budgets: seconds from tap to visible (95th percentile), page requests per change.
BUDGET_P95 = 1.5
BUDGET_REQUESTS = 1.0

#: Kept by the scorekeeper's phone: when the last tap began (across a page load: an undo).
TAPPED = (
    "addEventListener('pointerdown', () => sessionStorage.setItem('tapped', Date.now()), true);"
)
#: Kept by the watching page: when it first showed each log position (loaded or swapped in).
SHOWN = """
window.shownAt = window.shownAt || {};
const note = () => {
  const seq = document.body && document.body.dataset.seq;
  if (seq && !(seq in window.shownAt)) window.shownAt[seq] = Date.now();
};
document.addEventListener("DOMContentLoaded", () => {
  note();
  new MutationObserver(note).observe(document.body, { attributes: true });
});
"""


@dataclass
class Seen:
    """What the benchmark measured: seconds from tap to visible per change, and the watching
    phone's page requests (its poll left out)."""

    delays: list[float]
    page_requests: int

    @property
    def p50(self) -> float:
        return statistics.median(self.delays)

    @property
    def p95(self) -> float:
        return statistics.quantiles(self.delays, n=20, method="inclusive")[-1]

    @property
    def per_change(self) -> float:
        return self.page_requests / len(self.delays)

    @property
    def ok(self) -> bool:
        return self.p95 <= BUDGET_P95 and self.per_change <= BUDGET_REQUESTS

    @property
    def measured(self) -> str:
        """The figures and their budgets, in words."""
        return (
            f"p50 {self.p50:.2f} s, p95 {self.p95:.2f} s over {len(self.delays)} changes, "
            f"{self.per_change:.2f} page requests per change "
            f"(budget p95 ≤ {BUDGET_P95:g} s, ≤ {BUDGET_REQUESTS:g} request)"
        )

    def line(self) -> str:
        return f"{NAME}: {self.measured} {'ok' if self.ok else 'BROKEN'}"


def measure(
    changes: int = 30, seed: int = 1, postgres: str | None = None, two_servers: bool = False
) -> Seen:
    """Run the two phones over ``changes`` changes (see the module); ``postgres``: a
    ``DATABASE_URL``; ``two_servers``: the watching phone on a server of its own."""
    from playwright.sync_api import sync_playwright

    from referee.store import db

    rng = random.Random(seed)
    place = instance("referee-see-change-") if postgres is None else postgres_instance(postgres)
    with place as (_folder, database):
        app = open_app(database)
        (table,) = new_tables(app, 1, PLAYERS, [])
        (keeper,) = phones(app, [table], "keeper")
        (viewer,) = phones(app, [table], "viewer")
        with app.app_context():
            db.engine.dispose()  # the set-up's connections (a PostgreSQL database is dropped)
        with (
            Server(database) as server,
            Server(database) if two_servers else nullcontext(server) as other,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

            def phone(cookie: str, script: str, on: Server):  # type: ignore[no-untyped-def]
                context = browser.new_context(
                    viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
                )
                name, value = cookie.split("=", 1)
                context.add_cookies([{"name": name, "value": value, "url": on.base}])
                context.add_init_script(script)
                page = context.new_page()
                page.goto(f"{on.base}/t/{table}")
                return page

            keeping = phone(keeper.cookie, TAPPED, server)
            watching = phone(viewer.cookie, SHOWN, other)
            requests: list[str] = []
            watching.on(
                "request", lambda r: requests.append(r.url) if "/seq?" not in r.url else None
            )
            delays = []
            for _ in range(changes):
                keeping.wait_for_timeout(rng.uniform(1200, 2600))  # a person between entries
                seq = int(keeping.evaluate("document.body.dataset.seq"))
                taps = keeping.locator(
                    "section[aria-labelledby=next-title] .choices button:enabled"
                )
                if taps.count():
                    taps.nth(rng.randrange(taps.count())).tap()
                else:
                    keeping.get_by_role("button", name="Undo the last entry").tap()
                keeping.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=seq)
                now = keeping.evaluate("document.body.dataset.seq")
                watching.wait_for_function("(s) => window.shownAt && s in window.shownAt", arg=now)
                shown = watching.evaluate("(s) => window.shownAt[s]", now)
                delays.append(
                    (shown - int(keeping.evaluate("sessionStorage.getItem('tapped')"))) / 1000
                )
            browser.close()
    return Seen(delays, len(requests))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--changes", type=int, default=30, help="changes to time (default 30)")
    parser.add_argument("--postgres", action="store_true", help="on DATABASE_URL's PostgreSQL")
    parser.add_argument("--two-servers", action="store_true", help="watcher on another server")
    args = parser.parse_args()
    postgres = os.environ.get("DATABASE_URL") if args.postgres else None
    if args.postgres and not postgres:
        parser.error("--postgres needs DATABASE_URL (a PostgreSQL server)")
    if args.two_servers and not postgres:
        parser.error("--two-servers needs --postgres (servers on one SQLite file are one machine)")
    seen = measure(args.changes, postgres=postgres, two_servers=args.two_servers)
    where = "SQLite" if postgres is None else "PostgreSQL"
    if postgres is not None:
        heard = os.environ.get("REFEREE_PG_NOTIFY", "true") != "false"
        where += ", told at once (NOTIFY)" if heard else ", by sweeping (REFEREE_PG_NOTIFY=false)"
    servers = "watcher on another server" if args.two_servers else "one server"
    print(f"{seen.line()} [{where}; {servers}]")
    return 0 if seen.ok else 1


if __name__ == "__main__":
    sys.exit(main())
