"""Benchmark: how soon a watching phone shows a change made on the scorekeeper's phone.

Two phones in one Chromium (two browser contexts, 360×740, as ``tests/e2e`` opens them) on a new
4-player Blackout served by gunicorn (``bench.server.Server``, 2 gevent workers, SQLite). Each
phone opens the table as a phone does: through its link (``/j#<token>``: the scorekeeper's and a
spectator's), with nothing kept from before. The scorekeeper's phone taps entries (the trump,
bids; an undo when the next entry is not a tap) at a human, irregular pace, the first soon after
the watching page has loaded; the spectator's phone only watches its table page. For each change,
the time from the tap (the scorekeeper page's ``pointerdown``) to the moment the spectator's page
shows the new log position (its ``<body data-seq>``, swapped in or loaded) — both read from the
pages' own clocks, one machine. Also counted: the watching phone's requests once its page has
loaded, per change (none: its stream, opened with the page, brings each change; a page without
one asks for itself, one request per change).

    python bench/see_change.py [--changes 30]
    DATABASE_URL=postgresql://… python bench/see_change.py --postgres [--two-servers]

``--postgres``: on a new database of that PostgreSQL server instead of SQLite. ``--two-servers``
(PostgreSQL only): two servers on it, as behind a load balancer: the scorekeeper's phone on one,
the watching phone on the other, which learns of each entry from the database (told at once,
``referee/web/speed/wake.py``; by sweeping with ``REFEREE_PG_NOTIFY=false`` in the environment).

Budgets (README, "Live at the table"): p99 from tap to visible ≤ 0.2 s on one server, ≤ 0.5 s
across two; at most one request per change.
"""

from __future__ import annotations

import argparse
import os
import random
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
    postgres_instance,
)

CHROMIUM = "/usr/bin/chromium"
NAME = "see a change on a watching phone"
PLAYERS = ("Ann", "Ben", "Cho", "Dee")
#: The budgets: seconds from tap to visible (99th percentile) on one server and across two,
#: the watching phone's requests per change.
BUDGET_P99 = 0.2
BUDGET_P99_TWO_SERVERS = 0.5
BUDGET_REQUESTS = 1.0
#: The first tap comes this many milliseconds after the watching page has loaded (uniform), the
#: others this many after the one before: a person between entries.
FIRST_TAP_MS = (200, 600)
NEXT_TAP_MS = (1200, 2600)

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
    """What the benchmark measured: seconds from tap to visible per change, the watching
    phone's requests once its page had loaded, and the budget of the 99th percentile."""

    delays: list[float]
    requests: int
    budget_p99: float

    def percentile(self, share: float) -> float:
        """The delay below which ``share`` of the changes were shown (nearest rank)."""
        ordered = sorted(self.delays)
        return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]

    @property
    def per_change(self) -> float:
        """Requests per change: every request the watching page sent once it had loaded."""
        return self.requests / len(self.delays)

    @property
    def ok(self) -> bool:
        return self.percentile(0.99) <= self.budget_p99 and self.per_change <= BUDGET_REQUESTS

    @property
    def measured(self) -> str:
        """The figures and their budgets, in words."""
        return (
            f"p50 {self.percentile(0.5):.2f} s, p95 {self.percentile(0.95):.2f} s, "
            f"p99 {self.percentile(0.99):.2f} s over {len(self.delays)} changes (the first "
            f"{self.delays[0]:.2f} s), {self.per_change:.2f} requests per change (budget p99 ≤ "
            f"{self.budget_p99:g} s, ≤ {BUDGET_REQUESTS:g} request)"
        )

    def line(self) -> str:
        return f"{NAME}: {self.measured} {'ok' if self.ok else 'BROKEN'}"


def measure(
    changes: int = 30, seed: int = 1, postgres: str | None = None, two_servers: bool = False
) -> Seen:
    """Run the two phones over ``changes`` changes (see the module); ``postgres``: a
    ``DATABASE_URL``; ``two_servers``: the watching phone on a server of its own."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    from referee.store import db
    from referee.store.links import make_link

    rng = random.Random(seed)
    place = instance("referee-see-change-") if postgres is None else postgres_instance(postgres)
    with place as (_folder, database):
        app = open_app(database)
        (table,) = new_tables(app, 1, PLAYERS, [])
        with app.app_context():
            keeper, viewer = make_link(table, "keeper"), make_link(table, "viewer")
            db.engine.dispose()  # the set-up's connections (a PostgreSQL database is dropped)
        with (
            Server(database) as server,
            Server(database) if two_servers else nullcontext(server) as other,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

            def phone(token: str, script: str, on: Server):  # type: ignore[no-untyped-def]
                """A new phone that opens the table through its link, as one scanned."""
                context = browser.new_context(
                    viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
                )
                context.add_init_script(script)
                page = context.new_page()
                page.goto(f"{on.base}/j#{token}")
                page.wait_for_url(f"{on.base}/t/{table}")
                page.wait_for_load_state()
                return page

            def settled(page, ready: str, arg: object, read: str) -> str:  # type: ignore[no-untyped-def]
                """``read`` on the page once ``ready`` holds and the page stands still: an undo
                (a form sent the plain way) loads the page anew."""
                while True:
                    try:
                        page.wait_for_function(ready, arg=arg)
                        page.wait_for_load_state()
                        return str(page.evaluate(read))
                    except PlaywrightError as error:
                        if "context was destroyed" not in str(error):
                            raise

            keeping = phone(keeper, TAPPED, server)
            watching = phone(viewer, SHOWN, other)
            requests: list[str] = []
            watching.on("request", lambda r: requests.append(r.url))
            delays = []
            pause = FIRST_TAP_MS
            for _ in range(changes):
                keeping.wait_for_timeout(rng.uniform(*pause))
                pause = NEXT_TAP_MS
                seq = int(keeping.evaluate("document.body.dataset.seq"))
                taps = keeping.locator(
                    "section[aria-labelledby=next-title] .choices button:enabled"
                )
                if taps.count():
                    taps.nth(rng.randrange(taps.count())).tap()
                else:
                    keeping.get_by_role("button", name="Undo the last entry").tap()
                moved = "(s) => Number(document.body.dataset.seq) > s"
                now = settled(keeping, moved, seq, "document.body.dataset.seq")
                watching.wait_for_function("(s) => window.shownAt && s in window.shownAt", arg=now)
                shown = watching.evaluate("(s) => window.shownAt[s]", now)
                tapped = settled(keeping, moved, seq, "sessionStorage.getItem('tapped')")
                delays.append((shown - int(tapped)) / 1000)
            keeping.wait_for_timeout(500)  # the watching page's next poll, sent after the last
            browser.close()
    return Seen(delays, len(requests), BUDGET_P99_TWO_SERVERS if two_servers else BUDGET_P99)


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
