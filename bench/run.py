#!/usr/bin/env python3
"""Every performance budget of Table Referee, measured side by side in one run.

In process (no server):

- pdf: the PDF of the complete 3-player Blackout (33 rounds, card by card) and a blank 8-player
  card, each against a minimal one-page reportlab document (``bench/sheets_pdf.py``): ≤ 10 ×.
- weight: the first view of the complete 4-player Blackout table page (``bench/page_weight.py``,
  spectator and scorekeeper) and of its score sheet, with the web app manifest and the service
  worker's script: ≤ 5 requests, ≤ 60 KB (the sheet: 66), ≤ 15 KB gzipped (the sheet: 16), no
  third-party request; the table page itself (page, style sheet, script): ≤ 3 requests, ≤ 13 KB
  gzipped.
- group: a group of 1,000 tables loaded into the app (``bench/group_pages.py``): its import and
  export each ≤ 10 s; its page's first view after a round at one of its tables ≤ 3 × the first
  render of that table's sheet; recording at a group's table of 10, 100 and 1,000 tables, growth
  ≤ 1.5 ×; and ``python -m referee stats`` on its file ≤ 10 × ``check`` of the 33-round
  card-by-card Blackout (``bench/group_stats.py``).

Under gunicorn (``bench/server.py``: ``gunicorn.conf.py``'s 2 gevent workers, production settings,
SQLite in a temporary folder, CSRF on), one server for every web figure, loaded by wrk (each request
on a new connection, as a phone's entries and page loads come: ``bench/requests.lua``); each figure
is requests/s (or views/s) divided by the true bare route's: ``bench/bare_app.py``, a Flask app of
one route returning "ok", served by its own gunicorn with the same settings and measured before
every figure and after the last one; a figure is divided by the average of the two runs beside it.
The app's own ``GET /bare`` (our hooks around a route that does nothing) is measured against it at
the start and at the end: the first line. Figures whose every request needs a table of its own are
seeded from a probe of the true bare route (``FRESH_SHARE``). When ``DATABASE_URL`` names a
PostgreSQL server, every web figure is measured again on a throwaway database created there (its
user must be allowed to create databases; dropped afterwards), with the same budgets:

- sheets: score sheet of the complete 4-player Blackout and of a complete 5-player ebbes, as a
  spectator. Repeat view (the same URL and cookie again, served from memory): ≥ 0.70. First
  render: every request opens another copy of the game (hundreds of tables holding the same
  events), so each is the first view of that table in that worker: reported, no budget.
- page: a phone's first view of the 4-player Blackout table page — the page, its style sheet and
  its script (3 requests, one view), spectator phones with their own cookies: views/s ≥ 0.30;
  the table page again with the same cookie (repeat view): ≥ 0.70.
- entries: recording a bid and a trick count (each into another table, as its scorekeeper):
  each ≥ 0.15; a card with the round screen that answers it (``X-Next-Screen``, as
  ``static/app.js`` sends it): the last tricks of the 17-card round of a 3-player Blackout
  recorded card by card (~500 entries before), each table's cards in order, on tables in play —
  each worker has read every table once in a warm-up, as a server that followed the game would
  have: ≥ 0.12; the same without the script (POST, then the GET it redirects to): no budget.
- poll: "has anything changed?" with 1,000 tables × 5 phones (``bench/web_poll.py``), unchanged
  (304) and changed (200): each ≥ 1.0; with a link reported without a budget.
- growth: the score sheet (spectator, repeat views) of a 1-round table against the 33-round
  card-by-card table: requests/s of the first ÷ the second ≤ 1.5.
- capacity: how many live tables of 5 phones, each following its table by its stream, one server
  holds at real rates (0.05 changes per second, a fifth of the tables 0.2) at an entry's p99 ≤
  100 ms and a watcher's ≤ 0.2 s, and what a change costs as a multiple of a bare request
  (``bench/capacity.py``, its own server and database), with the curve as it steps up.
- change: how soon a watching phone shows a change, in Chromium (``bench/see_change.py``, its
  own server): p95 from tap to visible ≤ 1.5 s, at most one page request per change.

Prints one line per figure: the measured value, the ratio, the budget and ok / BROKEN. Exit 1 when
a budget is broken or any response did not have its expected status.

    bench/run.py [--seconds 3] [--workers 2] [--only pdf weight group sheets page entries poll
                 growth capacity change]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
if (VENV / "bin" / "python").exists() and Path(sys.prefix).resolve() != VENV.resolve():
    os.execv(str(VENV / "bin" / "python"), [str(VENV / "bin" / "python"), __file__, *sys.argv[1:]])
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field, replace  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

from bench.server import (  # noqa: E402
    BARE,
    Load,
    Request,
    Server,
    copy_tables,
    exit_on_sigterm,
    installed,
    instance,
    open_app,
    phones,
    postgres_instance,
    request_file,
    wrk,
)

if TYPE_CHECKING:
    from flask import Flask

    from referee.rules import Setup

GROUPS = (
    *("pdf", "weight", "group", "sheets", "page", "entries", "poll", "growth", "capacity"),
    "change",
)
BLACKOUT_4P = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
EBBES_5P = ROOT / "tests" / "records" / "ebbes" / "placed-designators-5p.json"
CARD_BY_CARD = ROOT / "bench" / "blackout-3p-card-by-card.json"
#: Fresh lines seeded per second of a wrk run, for figures where each request needs a table of
#: its own, as a share of the true bare route's rate measured just before seeding (``PROBE``
#: seconds): about twice what each figure has measured (the card figures: requests, two for a
#: card without the script). On a machine fast enough to send them all, the run stops when they
#: are sent (``requests.lua``) and the figure is reported as "at least" its rate, never by
#: sending a line twice.
FRESH_SHARE = {"sheet": 0.15, "bid": 0.35, "tricks": 0.35, "card": 0.35, "card-no-script": 0.5}
#: Seconds of the probe of the true bare route that sizes the fresh lines.
PROBE = 1
#: Tables of each card figure at most, so every worker keeps them all (256 in
#: ``referee.web.speed.kept``): more lines are more tricks left to play in each (8 to 17).
CARD_TABLES = 200
#: The capacity sweep's steps (tables) and seconds measured per step (after its warm-up).
CAPACITY_STEPS = (500, 1000, 1500, 2000, 2500, 3000, 3500, 4000)
CAPACITY_SECONDS = 6
#: Seconds of requests that bring a figure's tables into the workers' memory before it is
#: measured, as on a server that has been up while they were played: each worker has to read
#: and replay every table once (the long card-by-card games take ~25 ms each).
WARM_UP = {"poll": 3, "card": 10}


@dataclass
class Figure:
    """One printed line: what, the measured value (text), the ratio and its budget."""

    name: str
    measured: str
    ratio: float | None = None
    budget: float | None = None
    at_most: bool = False  # the budget is an upper bound
    unit: str = ""
    budgeted: bool = False  # budgets given in ``measured`` itself
    problems: list[str] = field(default_factory=list)
    off: str = ""  # the same figure with the speed layer off (``REFEREE_SPEED=false``)

    @property
    def ok(self) -> bool:
        if self.problems:
            return False
        if self.budget is None or self.ratio is None:
            return True
        return self.ratio <= self.budget if self.at_most else self.ratio >= self.budget

    def line(self) -> str:
        text = f"{self.name}: {self.measured}"
        if self.ratio is not None:
            what = "time" if self.unit == " s" else "ratio"  # a few figures are seconds
            text += f", {what} {self.ratio:.3f}{self.unit}"
        if self.budget is not None:
            text += f" (budget {'≤' if self.at_most else '≥'} {self.budget:g}{self.unit})"
        elif not self.budgeted:
            text += " (no budget)"
        if self.problems:
            text += "; " + "; ".join(self.problems)
        if self.off:
            text += f"; speed off: {self.off}"
        return f"{text} {'ok' if self.ok else 'BROKEN'}"


# In process ----------------------------------------------------------------------------------


def group_figures() -> list[Figure]:
    from bench import group_pages, group_stats

    figures = [
        Figure(r.name, r.measured, r.value, r.budget, at_most=True, unit=r.unit)
        for r in group_pages.measure()
    ]
    (stats, stats_cpu), (check, check_cpu), size = group_stats.measure()
    figures.append(
        Figure(
            "python -m referee stats of a group of 1000 tables",
            f"median {stats:.2f} s ({size:.1f} MB) against check of the 33-round card-by-card "
            f"Blackout {1000 * check:.0f} ms (processor time {stats_cpu:.2f} s against "
            f"{1000 * check_cpu:.0f} ms: {stats_cpu / check_cpu:.1f} ×)",
            stats / check,
            group_stats.BUDGET,
            at_most=True,
            unit=" ×",
        )
    )
    return figures


def pdf_figures(runs: int) -> list[Figure]:
    from bench import sheets_pdf

    return [
        Figure(
            f"PDF {name}",
            f"median {1000 * sheet:.1f} ms against minimal document {1000 * base:.1f} ms",
            sheet / base,
            sheets_pdf.BUDGET,
            at_most=True,
            unit=" ×",
        )
        for name, (sheet, base) in sheets_pdf.measure(runs).items()
    ]


def weight_figures() -> list[Figure]:
    from bench import page_weight

    figures = []
    for language, (page, who, fetched) in (
        (lang, view) for lang in page_weight.LANGUAGES for view in page_weight.measure(lang)
    ):
        measured = [(f"{page} ({who}, {language})", fetched, page_weight.budgets_of(page))]
        if page == "table page":
            itself = f"table page itself ({who}, {language}; page, style sheet, script)"
            measured.append((itself, page_weight.shown_of(fetched), page_weight.PAGE_BUDGETS))
        for name, requests, budgets in measured:
            values = page_weight.figures_of(requests)
            over, _ = page_weight.verdict(values, budgets)
            figures.append(
                Figure(
                    f"first view bytes, 4-player Blackout {name}",
                    page_weight.described(values, budgets),
                    problems=[f"over budget: {', '.join(over)}"] if over else [],
                    budgeted=True,  # the budgets are in the measured text
                )
            )
    return figures


# Web -----------------------------------------------------------------------------------------


@dataclass
class Run:
    """A measured wrk run: its request file, expected statuses, what to divide the rate by
    (requests per unit), how many lines are fresh tables that must not be sent twice, and how
    the figure is judged."""

    name: str
    requests: list[Request]
    expect: set[int]
    budget: float | None
    per_unit: int = 1
    unit: str = "requests/s"
    fresh: int = 0  # > 0: each line may be sent only once
    warm_up: list[Request] | None = None  # sent first, not measured
    warm_seconds: float = 0
    load: Load | None = None
    problems: list[str] = field(default_factory=list)


def events_of(path: Path, rounds: int | None = None) -> tuple[Setup, list[dict[str, Any]]]:
    """A record's setup and its events as dicts (without begin-round), up to ``rounds``."""
    from referee.records import load_record

    record = load_record(path.read_bytes())
    events = [
        e.to_dict()
        for e in record.events
        if e.type != "begin-round" and (rounds is None or e.round <= rounds)
    ]
    return record.setup, events


def seed(database: str, groups: set[str], seconds: float, bare_rate: float) -> list[Run]:
    """Every table, phone and request of the selected web figures, in ``database``; fresh lines
    for ``seconds`` of each figure at ``FRESH_SHARE`` of ``bare_rate``."""
    from flask import url_for

    app = open_app(database)
    runs: list[Run] = []

    def fresh(kind: str) -> int:
        return int(FRESH_SHARE[kind] * bare_rate * seconds) + 100

    def viewer_sheets(setup: Setup, events: list[dict[str, Any]], count: int) -> list[Request]:
        tables = copy_tables(app, count, setup, events)
        return [Request(f"/t/{p.table_id}/sheet", p.cookie) for p in phones(app, tables, "viewer")]

    setup4, events4 = events_of(BLACKOUT_4P)
    if groups & {"sheets", "page"}:
        [game4] = copy_tables(app, 1, setup4, events4)
    if "sheets" in groups:
        setup5, events5 = events_of(EBBES_5P)
        for label, setup, events in (
            ("complete 4-player Blackout, 25 rounds", setup4, events4),
            ("complete 5-player ebbes, 5 rounds", setup5, events5),
        ):
            repeat = viewer_sheets(setup, events, 1) if setup is setup5 else None
            if repeat is None:
                [viewer] = phones(app, [game4], "viewer")
                repeat = [Request(f"/t/{game4}/sheet", viewer.cookie)]
            runs.append(Run(f"score sheet, {label}, repeat view", repeat, {200}, 0.70))
            first = viewer_sheets(setup, events, fresh("sheet"))
            runs.append(
                Run(f"score sheet, {label}, first render", first, {200}, None, fresh=len(first))
            )
    if "page" in groups:
        from bench import page_weight

        with app.test_request_context():
            assets = [url_for("static", filename=f) for f in ("style.css", "app.js")]
        viewers = phones(app, [game4], "viewer", per_table=20)
        for language in page_weight.LANGUAGES:  # a German page as fast as an English one
            accept = f"Accept-Language: {language}"
            lines = []
            for viewer in viewers:
                page = Request(f"/t/{game4}", viewer.cookie, header=accept)
                lines += [page, *(Request(a, header=accept) for a in assets)]
            runs.append(
                Run(
                    f"first view of the 4-player Blackout table page ({language}; page + style "
                    "sheet + script)",
                    lines,
                    {200},
                    0.30,
                    per_unit=3,
                    unit="views/s",
                )
            )
        runs.append(
            Run(
                "table page, complete 4-player Blackout, repeat view",
                [Request(f"/t/{game4}", viewers[0].cookie)],
                {200},
                0.70,
            )
        )
    if "entries" in groups:
        runs += entry_runs(app, fresh)
    if "poll" in groups:
        from bench import web_poll

        budget = 0.8  # the fallback of a page without a stream (bench/README.md, "Argued")
        phases = web_poll.seed(database)
        for number, (name, (budgeted, status)) in enumerate(web_poll.PHASES.items()):
            runs.append(
                Run(
                    f"has anything changed? {name} ({status}s), "
                    f"{web_poll.TABLES} tables × {web_poll.PHONES_PER_TABLE} phones",
                    phases[name],
                    {status},
                    budget if budgeted else None,
                    # each worker reads each polled table once, as a server up for a while
                    warm_up=phases[name] if number == 0 else None,
                    warm_seconds=WARM_UP["poll"],
                )
            )
    if "growth" in groups:
        for rounds in (1, None):
            setup, events = events_of(CARD_BY_CARD, rounds)
            runs.append(
                Run(
                    f"growth: score sheet, 3-player Blackout card by card, "
                    f"{rounds or 33} round(s), repeat view",
                    viewer_sheets(setup, events, 1),
                    {200},
                    None,
                )
            )
    settle(app)
    return runs


def settle(app: Flask) -> None:
    """Bring the seeded database to the state a server's is in after a while: statistics for
    the query planner, and on PostgreSQL the bulk load vacuumed. Otherwise autovacuum does it
    in the middle of a measurement (two cores, shared), and until it has, reads are planned for
    empty tables."""
    from sqlalchemy import text

    from referee.store import db

    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(text("VACUUM ANALYZE"))
        else:
            with engine.begin() as connection:
                connection.execute(text("ANALYZE"))


def card_game(tricks_left: int) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The 3-player Blackout recorded card by card (``CARD_BY_CARD``) up to its 17-card round's
    last ``tricks_left`` tricks, as the events a phone posts (each card a ``play``); and the
    cards of those tricks in the order they are played, as (player, card)."""
    from referee.rules import events as ev

    setup, recorded = events_of(CARD_BY_CARD, rounds=17)
    players = setup.players
    tricks = [e for e in recorded if e["type"] == "trick" and e["round"] == 17]
    events: list[dict[str, Any]] = []
    left: list[tuple[str, str]] = []
    for event in recorded:
        if event["type"] == "tricks":
            continue
        if event["type"] != "trick":
            events.append(event)
            continue
        seat = players.index(event["leader"])
        cards = [(players[(seat + i) % len(players)], c) for i, c in enumerate(event["cards"])]
        if event["round"] == 17 and tricks.index(event) >= len(tricks) - tricks_left:
            left += cards
        else:
            events += [ev.Play(event["round"], c, p).to_dict() for p, c in cards]
    return events, left


def entry_runs(app: Flask, fresh: Callable[[str], int]) -> list[Run]:
    """Recording a bid, a trick count and a card, each request into another table."""
    from referee.rules import Setup
    from referee.rules import events as ev

    runs = []
    players = ("Ann", "Ben", "Cho", "Dee")
    trump = [ev.Trump(1, "H").to_dict()]
    tables = copy_tables(app, fresh("bid"), Setup("blackout", players), trump)
    bids = []
    for keeper in phones(app, tables, "keeper", csrf=True):
        form = {"seq": 1, "round": 1, "action": "bid", "player": 2, "bid": 0}
        body = urllib.parse.urlencode({**form, "csrf_token": keeper.csrf})
        bids.append(Request(f"/t/{keeper.table_id}/entry", keeper.cookie, body=body, method="POST"))
    runs.append(Run("record a bid", bids, {303}, 0.15, fresh=len(bids)))

    setup4, events4 = events_of(BLACKOUT_4P, rounds=1)
    counts = next(e for e in events4 if e["type"] == "tricks")["tricks"]
    before = [e for e in events4 if e["type"] != "tricks"]
    tables = copy_tables(app, fresh("tricks"), setup4, before)
    tricks = []
    for keeper in phones(app, tables, "keeper", csrf=True):
        form = {"seq": len(before), "round": 1, "action": "tricks", "csrf_token": keeper.csrf}
        form |= {f"tricks-{i}": counts[p] for i, p in enumerate(setup4.players, start=1)}
        body = urllib.parse.urlencode(form)
        tricks.append(
            Request(f"/t/{keeper.table_id}/entry", keeper.cookie, body=body, method="POST")
        )
    runs.append(Run("record a trick count", tricks, {303}, 0.15, fresh=len(tricks)))

    cards = max(fresh("card"), fresh("card-no-script") // 2)
    events, last = card_game(min(17, max(8, -(-cards // (3 * CARD_TABLES)))))
    what = (
        f"last {len(last) // 3} tricks of a 17-card round, 3-player Blackout card by card, "
        f"{len(events)}+ entries before, tables in play"
    )
    runs.append(
        card_run(app, f"record a card + round screen ({what})", events, last, fresh("card"), 0.12)
    )
    runs.append(
        card_run(
            app,
            f"record a card + round screen without the script (POST, redirect, GET; {what})",
            events,
            last,
            fresh("card-no-script"),
            None,
            script=False,
        )
    )
    return runs


def card_run(
    app: Flask,
    name: str,
    events: list[dict[str, Any]],
    last: list[tuple[str, str]],
    lines: int,
    budget: float | None,
    script: bool = True,
) -> Run:
    """Recording cards into tables in play, each table's cards in order. As a phone with
    ``static/app.js`` sends a card (``X-Next-Screen``): one POST answered with the next round
    screen. Without the script (``script=False``): the POST, then the GET of the round screen it
    redirects to (``?at=<the card's log position>&mode=cards``), a unit of two requests."""
    from referee.rules import Setup
    from referee.web.round.routes import NEXT_SCREEN_HEADER

    players = ("Ann", "Ben", "Cho")
    per_card = 1 if script else 2
    count = min(CARD_TABLES, -(-lines // (per_card * len(last))))
    tables = copy_tables(app, count, Setup("blackout", players), events)
    keepers = phones(app, tables, "keeper", csrf=True)
    header = f"{NEXT_SCREEN_HEADER}: 1" if script else ""
    # wrk thread i of 2 sends lines i, i + 2, …: pairs of tables go side by side so each thread
    # keeps to its tables (and sends a table's card before its round screen); a table's next
    # card comes a whole pass over the tables later, long after the card before it.
    requests: list[Request] = []
    for number, (player, card) in enumerate(last):
        form = {
            *(("seq", len(events) + number), ("round", 17), ("action", "play")),
            *(("mode", "cards"), ("player", players.index(player) + 1), ("card", card)),
        }
        for pair in zip(keepers[::2], keepers[1::2], strict=False):
            posts, screens = [], []
            for keeper in pair:
                body = urllib.parse.urlencode(sorted({*form, ("csrf_token", keeper.csrf)}))
                table = f"/t/{keeper.table_id}"
                post = Request(f"{table}/entry", keeper.cookie, body=body, method="POST")
                posts.append(replace(post, header=header))
                at = len(events) + number + 1
                screens.append(Request(f"{table}?at={at}&mode=cards", keeper.cookie))
            requests += posts if script else [*posts, *screens]
    # Tables in play: their phones have been showing the round screen (each worker replayed the
    # game before the last tricks, as it would have followed it card by card).
    viewed = [Request(f"/t/{k.table_id}?mode=cards", k.cookie) for k in keepers]
    return Run(
        name,
        requests,
        {200} if script else {200, 303},
        budget,
        per_unit=per_card,
        unit="cards/s",
        fresh=len(requests),
        warm_up=viewed,
        warm_seconds=WARM_UP["card"],
    )


def measure_runs(
    base: str, reference: str, bare: Path, runs: list[Run], files: list[Path], seconds: float
) -> list[Load]:
    """Each run against the server at ``base`` (its warm-up first), with the true bare route
    (``reference``) measured before the first and after each: the bare runs."""
    bare_loads = [wrk(reference, bare, seconds, {200})]
    for run, file in zip(runs, files, strict=True):
        if run.warm_up:
            warm = request_file(file.with_name(f"warm-{file.name}"), run.warm_up)
            warming = wrk(base, warm, run.warm_seconds, {200, 304})
            if warming.failures:
                run.problems.append(f"warm-up failed: {warming.describe_failures()}")
        run.load = wrk(base, file, seconds, run.expect, fresh=bool(run.fresh))
        bare_loads.append(wrk(reference, bare, seconds, {200}))
    return bare_loads


def rated(run: Run, bare_loads: list[Load], i: int) -> tuple[float, float]:
    """The run's rate (per unit) and the true bare route's beside it: the average of the bare
    runs just before and just after it, so a spell of load from the machine's other tenants
    weighs on both sides of the ratio."""
    assert run.load is not None
    return run.load.rate / run.per_unit, (bare_loads[i].rate + bare_loads[i + 1].rate) / 2


def web_figures(
    groups: set[str],
    seconds: float,
    workers: int,
    postgres: str | None = None,
    speed_off: bool = True,
) -> list[Figure]:
    """The web figures on SQLite, or on a throwaway database on the PostgreSQL server of
    ``postgres`` (a ``DATABASE_URL``); the PostgreSQL figures' names start with "PostgreSQL: ".
    Each is divided by the true bare route (``bench/bare_app.py``, its own gunicorn with the
    same settings) measured just before and just after it; the app's own ``GET /bare`` is
    measured against it at the start and at the end. ``speed_off``: each figure again, on
    tables and requests of its own, against a server with the speed layer off
    (``REFEREE_SPEED=false``), measured after the first server has stopped."""
    if not installed():
        return [Figure("web figures", "wrk is not installed", problems=["not measured"])]
    place = instance("referee-run-") if postgres is None else postgres_instance(postgres)
    label = "SQLite" if postgres is None else "PostgreSQL"
    with place as (folder, database), Server(database, workers, BARE) as reference:
        bare = request_file(folder / "bare.txt", [Request("/bare")])
        probe = wrk(reference.base, bare, PROBE, {200})
        start = time.monotonic()
        runs = seed(database, groups, seconds, probe.rate)
        runs_off = seed(database, groups, seconds, probe.rate) if speed_off else []
        print(f"(seeded in {time.monotonic() - start:.0f} s)", flush=True)
        files = [request_file(folder / f"run-{i}.txt", run.requests) for i, run in enumerate(runs)]
        with Server(database, workers) as server:
            in_app = [wrk(server.base, bare, seconds, {200})]
            bare_loads = measure_runs(server.base, reference.base, bare, runs, files, seconds)
            in_app.append(wrk(server.base, bare, seconds, {200}))
            bare_loads.append(wrk(reference.base, bare, seconds, {200}))
        if runs_off:
            files = [
                request_file(folder / f"off-{i}.txt", run.requests)
                for i, run in enumerate(runs_off)
            ]
            with Server(database, workers, env={"REFEREE_SPEED": "false"}) as plain:
                bare_off = measure_runs(plain.base, reference.base, bare, runs_off, files, seconds)
    figures = [bare_figure(f"gunicorn, {workers} gevent workers, {label}", bare_loads, in_app)]
    rates = {}
    for i, run in enumerate(runs):
        assert run.load is not None
        rate, beside = rated(run, bare_loads, i)
        rates[run.name] = rate
        off = ""
        if runs_off:
            rate_off, beside_off = rated(runs_off[i], bare_off, i)
            off = (
                f"{rate_off:.0f} {run.unit}, ratio {rate_off / beside_off:.3f}; "
                f"on ÷ off {(rate / beside) / (rate_off / beside_off):.1f} ×"
            )
            if runs_off[i].problems or runs_off[i].load.failures:  # type: ignore[union-attr]
                off += " (failed)"
        problems = list(run.problems)
        if run.load.failures:
            problems.append(f"failed: {run.load.describe_failures()}")
        least = "at least " if run.load.ran_out else ""
        figures.append(
            Figure(
                run.name,
                f"{least}{rate:.0f} {run.unit} (true bare route beside it: {beside:.0f} "
                "requests/s)" + (f"; all {run.fresh} fresh lines sent" if least else ""),
                rate / beside,
                run.budget,
                problems=problems,
                off=off,
            )
        )
    growth = [n for n in rates if n.startswith("growth")]
    if len(growth) == 2:
        one, full = (rates[n] for n in growth)
        figures.append(
            Figure(
                "growth of the score sheet's cost, 1 round → 33 rounds card by card",
                f"{one:.0f} against {full:.0f} requests/s",
                one / full,
                1.5,
                at_most=True,
                unit=" ×",
            )
        )
    if postgres is not None:
        for figure in figures:
            figure.name = f"PostgreSQL: {figure.name}"
    return figures


def bare_figure(server: str, bare_loads: list[Load], in_app: list[Load]) -> Figure:
    """The true bare route's runs, and the app's own ``GET /bare`` against them (the first and
    the last true bare run, beside which it was measured)."""
    bare_rate = sum(b.rate for b in bare_loads) / len(bare_loads)
    spread = ", ".join(f"{b.rate:.0f}" for b in bare_loads)
    app_rate = sum(b.rate for b in in_app) / len(in_app)
    app_beside = (bare_loads[0].rate + bare_loads[-1].rate) / 2
    return Figure(
        f"true bare route (bench/bare_app.py: a Flask app of one route, GET /bare, {server})",
        f"{bare_rate:.0f} requests/s on average of {len(bare_loads)} runs ({spread}); "
        f"the app's own GET /bare (its hooks, nothing else): {app_rate:.0f} requests/s, "
        f"{app_rate / app_beside:.3f} of the true bare route beside it",
        problems=[f"failed: {b.describe_failures()}" for b in [*bare_loads, *in_app] if b.failures],
    )


def capacity_figures(workers: int, postgres: str | None = None) -> list[Figure]:
    """How many live tables one server holds (``bench/capacity.py``), on SQLite or on a
    throwaway PostgreSQL database; the curve is printed as it is measured."""
    from bench import capacity

    if not installed():
        return [Figure("capacity", "wrk is not installed", problems=["not measured"])]
    place = instance("referee-capacity-") if postgres is None else postgres_instance(postgres)
    label = "SQLite" if postgres is None else "PostgreSQL"
    prefix = "" if postgres is None else "PostgreSQL: "

    def show(row: str) -> None:
        print(f"{prefix}capacity step: {row}", flush=True)

    with place as (_folder, database):
        steps = capacity.sweep(database, workers, CAPACITY_STEPS, CAPACITY_SECONDS, show)
    return [
        Figure(
            f"{prefix}capacity: live tables of 5 phones on one server ({workers} gevent workers, "
            f"{label}) at an entry's p99 ≤ {capacity.ENTRY_P99 * 1000:.0f} ms and a watcher's "
            f"≤ {capacity.WATCHER_P99 * 1000:.0f} ms",
            f"{capacity.summary(steps)} (goal ≥ 3000 tables on SQLite, ≥ 2500 on PostgreSQL, "
            "≤ 12 × bare a change)",
            budgeted=True,  # the goal is in the measured text; not a budget that breaks the run
        )
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3, help="per wrk run (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--pdf-runs", type=int, default=30, help="repetitions of each PDF")
    parser.add_argument("--only", nargs="+", choices=GROUPS, default=list(GROUPS))
    parser.add_argument(
        "--no-speed-off",
        action="store_true",
        help="skip the speed-off column (each web figure again with REFEREE_SPEED=false)",
    )
    args = parser.parse_args()
    exit_on_sigterm()
    groups = set(args.only)
    random.seed(1)
    started = time.monotonic()
    figures: list[Figure] = []

    def show(new: list[Figure]) -> None:
        for figure in new:
            print(figure.line(), flush=True)
        figures.extend(new)

    if "pdf" in groups:
        show(pdf_figures(args.pdf_runs))
    if "weight" in groups:
        show(weight_figures())
    if "group" in groups:
        show(group_figures())
    # --- how soon a watching phone sees a change (bench/see_change.py, its own server) ---
    if "change" in groups:
        from bench import see_change

        seen = see_change.measure()
        problems = [] if seen.ok else ["over budget"]
        show([Figure(see_change.NAME, seen.measured, budgeted=True, problems=problems)])
    web = groups - {"pdf", "weight", "group", "capacity", "change"}
    postgres = os.environ.get("DATABASE_URL")
    for database in [None, postgres] if postgres else [None]:
        if web:
            show(web_figures(web, args.seconds, args.workers, database, not args.no_speed_off))
        if "capacity" in groups:
            show(capacity_figures(args.workers, database))
    if (web or "capacity" in groups) and not postgres:
        print("PostgreSQL: not measured (set DATABASE_URL to a server to measure it too)")
    broken = [f.name for f in figures if not f.ok]
    print(
        f"{len(figures)} figures in {time.monotonic() - started:.0f} s; "
        + (f"BROKEN: {len(broken)}" if broken else "all ok")
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
