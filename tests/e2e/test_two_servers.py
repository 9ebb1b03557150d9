"""Two phones of one table on two app servers over one PostgreSQL database, as behind a load
balancer: the scorekeeper's phone enters on server A, the watching phone's page on server B
shows each entry within half a second of the tap (``referee.web.speed.wake``: A's commit is
told to B's listening workers, which wake the page's stream B holds).

B's safety sweep is set to minutes, so only that notification can show the entry in time. Needs
PostgreSQL (``TEST_DATABASE_URL``; fails, not skips, with ``REQUIRE_POSTGRES=1``), gunicorn's
gevent workers (``gunicorn.conf.py``) and Chromium.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from app import create_app
from bench.see_change import SHOWN, TAPPED
from referee.store import db
from referee.store.db import upgrade_to_head
from tests.databases import empty_database
from tests.durability.conftest import Server
from tests.e2e.test_journeys import spectator_link, start_table

pytestmark = pytest.mark.e2e

#: From the scorekeeper's tap to the watching phone showing the entry (seconds).
SHOWN_WITHIN = 0.5
#: The buttons the scorekeeper taps, an entry each: the trump, the three bids, an undo. The
#: first is not timed: the first entry and page of each server's worker process are slow
#: (templates compiled, the table read and replayed), whichever way servers hear of entries.
ENTRIES = ("♠ spades", "0", "0", "0", "Undo the last entry")


class Served(Server):
    """A gunicorn server (``tests.durability``) with the e2e helpers' ``url``."""

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    """Servers A and B on a new PostgreSQL database; B sweeps only every ten minutes."""
    with empty_database("postgresql", tmp_path) as url:
        store = create_app({"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": url})
        with store.app_context():
            upgrade_to_head()
            db.engine.dispose()
        a = Served(url, tmp_path / "gunicorn-a.log")
        b = Served(url, tmp_path / "gunicorn-b.log", env={"REFEREE_SAFETY_SWEEP_SECONDS": "600"})
        try:
            a.start()
            b.start()
            yield a, b
        finally:
            a.stop()
            b.stop()


def moved_on(page: Page, seq: int, read: str) -> Any:
    """``read`` on the scorekeeper's page once its position is past ``seq`` and the page stands
    still: an undo is a form sent the plain way, and its page loads anew."""
    while True:
        try:
            page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=seq)
            page.wait_for_load_state()
            return page.evaluate(read)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise


def test_a_phone_on_another_server_shows_each_entry_at_once(two_servers, phone) -> None:
    a, b = two_servers
    keeper = phone()
    keeper.context.add_init_script(TAPPED)
    url = start_table(keeper, a, "Blackout", ["Ann", "Ben", "Cho"])
    link = spectator_link(keeper, a, url)
    watcher = phone()
    watcher.context.add_init_script(SHOWN)
    # The page's stream goes out as the page opens and is held by B from then on.
    streams: list[str] = []
    watcher.on(
        "request", lambda r: streams.append(r.url) if r.resource_type == "eventsource" else None
    )
    watcher.goto(link.replace(a.url("/"), b.url("/")))  # the same link, through server B
    watched = url.replace(a.url("/"), b.url("/"))
    watcher.wait_for_url(watched)
    watcher.wait_for_function("() => window.shownAt && '0' in window.shownAt")
    for _ in range(100):
        if streams:
            break
        watcher.wait_for_timeout(100)
    assert streams, "the watching page never opened its stream on B"
    rng = random.Random(7)
    delays = []
    for button in ENTRIES:
        keeper.wait_for_timeout(rng.uniform(600, 1200))  # a person between entries
        seq = int(keeper.evaluate("document.body.dataset.seq"))
        keeper.get_by_role("button", name=button, exact=True).tap()
        now = moved_on(keeper, seq, "document.body.dataset.seq")
        watcher.wait_for_function("(s) => window.shownAt && s in window.shownAt", arg=now)
        shown: Any = watcher.evaluate("(s) => window.shownAt[s]", now)
        tapped: Any = moved_on(keeper, seq, "Number(sessionStorage.getItem('tapped'))")
        delays.append((shown - tapped) / 1000)
    assert max(delays[1:]) <= SHOWN_WITHIN, [round(d, 3) for d in delays]
    assert "listening for entries broke" not in b.log(), b.log()[-2000:]
