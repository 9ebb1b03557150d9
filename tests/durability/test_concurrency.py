"""Many phones writing at once to a running server (gunicorn, 2 gevent workers), on SQLite
and on PostgreSQL: to one table, and to several tables.

Each phone does what a phone at the table does, as fast as it can: opens the table's scorekeeper
link (one link per table, scanned by every phone at it), shows the table, works out a legal next
entry for what its page showed (or, now and then, taps "Undo"), sends it, and shows the table
again, which tells it what became of its entry: recorded ("landed"), already recorded by another
phone with the same entry ("already"), or refused because the table had moved on.

Afterwards the table's log must be exactly what the phones were told: every entry a phone was
told it recorded is in the log once, at the place after the page it came from; every entry in
the log was acknowledged to exactly one phone (so nothing refused was written, nothing twice);
an "already recorded" entry is in the log after the page it came from; the sequence numbers have
no gaps; and the log replays under the strict rules.
"""

from __future__ import annotations

import random
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask

from referee.rules import Setup, replay
from referee.store.tables import create_table, effective_events, get_table
from tests.durability import summary
from tests.durability.conftest import Phone, Server
from tests.durability.legal import check_log, entry_form, next_entry
from tests.links import new_link

pytestmark = pytest.mark.durability

ALREADY = "That entry was already recorded."
UNDONE = "Undone:"


@dataclass
class Attempt:
    """One tap of one phone, and what the phone was told."""

    phone: int
    seen: int  # the sequence number the phone's page showed
    kind: str  # "event" or "undo"
    payload: dict[str, Any]
    status: int = 0
    outcome: str = ""  # "landed", "already" or "refused"


@dataclass
class Table:
    """A table the phones race at; ``keeper`` is the token of its scorekeeper link."""

    id: str
    setup: Setup
    keeper: str
    attempts: list[Attempt] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def seen_seq(page: str) -> int:
    match = re.search(r'name="seq" value="(\d+)"', page)
    return int(match.group(1)) if match else 0


def flash(page: str) -> str:
    return " ".join(re.findall(r'<p class="flash[^"]*"[^>]*>([^<]*)</p>', page))


def phone_at_table(
    server: Server, store: Flask, table: Table, number: int, taps: int, errors: list[str]
) -> None:
    """One phone: ``taps`` entries (or undos) as fast as the server answers."""
    try:
        rng = random.Random(number)
        phone = Phone(server)
        assert phone.open_link(table.keeper) == f"/t/{table.id}"
        status, page = phone.get(f"/t/{table.id}")
        assert status == 200, page[-500:]
        for _ in range(taps):
            seen = seen_seq(page)
            with store.app_context():
                record = get_table(table.id)
            assert record is not None
            # The state the page showed: the log up to its sequence number (entries never change).
            state = replay(table.setup, effective_events(record.entries[:seen]))
            entry = next_entry(state, rng)
            if entry is None or (seen and rng.random() < 0.1):
                attempt = Attempt(number, seen, "undo", {})
                answer = phone.post(f"/t/{table.id}/undo", {"seq": str(seen)})
            else:
                attempt = Attempt(number, seen, "event", entry[0].to_dict())
                answer = phone.post(f"/t/{table.id}/entry", entry_form(state, entry[0], seen))
            attempt.status = answer.status
            status, page = phone.get(f"/t/{table.id}")  # where the redirect leads
            assert status == 200, page[-500:]
            if attempt.kind == "undo":
                attempt.outcome = "landed" if UNDONE in flash(page) else "refused"
            elif answer.status == 303:
                attempt.outcome = "already" if ALREADY in flash(page) else "landed"
            else:
                attempt.outcome = "refused"
            with table.lock:
                table.attempts.append(attempt)
    except BaseException as exc:  # reported by the test, with the phone that failed
        errors.append(f"phone {number}: {exc!r}")


def run_phones(server: Server, store: Flask, tables: list[Table], phones: int, taps: int) -> None:
    errors: list[str] = []
    threads = [
        threading.Thread(
            target=phone_at_table, args=(server, store, tables[n % len(tables)], n, taps, errors)
        )
        for n in range(phones)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive(), "a phone hung"
    assert errors == [], "\n".join(errors) + "\n" + server.log()[-3000:]


def check_table(store: Flask, table: Table) -> int:
    """The log is exactly what the phones were told (see the module docstring); landed count."""
    with store.app_context():
        record = get_table(table.id)
    assert record is not None
    check_log(table.setup, record.entries)  # no gaps, strict replay
    statuses = {(a.kind, a.status) for a in table.attempts}
    assert statuses <= {("event", 303), ("event", 409), ("undo", 303)}, statuses
    acknowledged: dict[int, Attempt] = {}
    for attempt in table.attempts:
        if attempt.outcome == "landed":
            place = attempt.seen + 1
            assert place not in acknowledged, f"two phones were told they wrote entry {place}"
            acknowledged[place] = attempt
    log = {entry.seq: entry for entry in record.entries}
    assert sorted(acknowledged) == sorted(log), "the log and the acknowledgements differ"
    for seq, attempt in acknowledged.items():
        assert log[seq].kind == attempt.kind
        if attempt.kind == "event":
            assert log[seq].payload == attempt.payload
    for attempt in table.attempts:
        if attempt.outcome == "already":
            assert any(
                entry.seq > attempt.seen and entry.payload == attempt.payload
                for entry in record.entries
            ), attempt
    return len(acknowledged)


def new_tables(store: Flask, games: list[str]) -> list[Table]:
    """New tables of ``games``, each with its scorekeeper link."""
    tables = []
    for game in games:
        setup = Setup(game, ("Ann", "Ben", "Cho", "Dee"))
        with store.app_context():
            table_id = create_table(setup)
        tables.append(Table(table_id, setup, new_link(store, table_id)))
    return tables


def test_many_phones_on_one_table(server, store):
    """Eight phones race for every step of one Blackout table."""
    [table] = new_tables(store, ["blackout"])
    run_phones(server, store, [table], phones=8, taps=40)
    landed = check_table(store, table)
    outcomes = {a.outcome for a in table.attempts}
    assert {"landed", "refused"} <= outcomes, "no race happened: the test proved nothing"
    assert landed >= 30
    summary.count("concurrent_writes", landed)


def test_many_tables_at_once(server, store):
    """Twelve phones at four tables of all three games, three phones a table."""
    tables = new_tables(store, ["blackout", "alles-oder-nichts", "ebbes", "blackout"])
    run_phones(server, store, tables, phones=12, taps=25)
    for table in tables:
        landed = check_table(store, table)
        assert landed >= 10
        summary.count("concurrent_writes", landed)
