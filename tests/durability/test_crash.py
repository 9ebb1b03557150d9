"""A server killed in the middle of a burst of entries loses none that it acknowledged.

Four phones, one at each of four tables (of all three games), send legal entries as fast as the
server answers. After a random number of acknowledgements (seeded: the same every run) the test
SIGKILLs gunicorn's whole process group — master and workers at once, requests in flight — and
then, with no server running, checks the database: SQLite's ``PRAGMA integrity_check`` and
``foreign_key_check``; on both databases, every table's log holds every entry its phone saw
acknowledged (303), in order, plus at most the one entry whose answer never came, and nothing
else; ``tables.last_seq`` agrees with the log; the log replays under the strict rules. Then the
server is started again and the phones carry on with the session (the scorekeeper link each
opened before the first start) and CSRF token they had. This is repeated ``KILLS`` times;
finally each phone records one more entry on the restarted server.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from referee.rules import Setup, State, replay, start
from referee.store import db
from referee.store.tables import create_table, current_seq, effective_events, get_table
from tests.durability import summary
from tests.durability.conftest import Phone, Server
from tests.durability.legal import check_log, entry_form, next_entry
from tests.links import new_link

pytestmark = pytest.mark.durability

#: How many times the server is killed in one test.
KILLS = 4

#: The tables, one phone each: enough entries between them for every burst.
GAMES = [
    ("blackout", ("Ann", "Ben", "Cho")),
    ("blackout", ("Ann", "Ben", "Cho", "Dee")),
    ("alles-oder-nichts", ("Ann", "Ben", "Cho")),
    ("ebbes", ("Ann", "Ben", "Cho")),
]


@dataclass
class Writer:
    """One phone at one table (``keeper``: the token of the table's scorekeeper link), and what
    it was told."""

    table: str
    keeper: str
    setup: Setup
    rng: random.Random
    state: State
    phone: Phone | None = None
    acknowledged: list[dict[str, Any]] = field(default_factory=list)
    unanswered: dict[str, Any] | None = None  # the entry in flight when the server died

    @property
    def seq(self) -> int:
        return len(self.acknowledged)


class Burst:
    """Counts acknowledgements across the writers; tells the test when to pull the plug."""

    def __init__(self) -> None:
        self.acknowledged = 0
        self.changed = threading.Condition()
        self.errors: list[str] = []

    def ack(self) -> None:
        with self.changed:
            self.acknowledged += 1
            self.changed.notify_all()


def write_until_the_server_dies(writer: Writer, burst: Burst) -> None:
    """Post legal entries one after another until the server stops answering."""
    assert writer.phone is not None
    try:
        while True:
            entry = next_entry(writer.state, writer.rng)
            if entry is None:
                return  # the game is over
            event, after = entry
            form = entry_form(writer.state, event, writer.seq)
            writer.unanswered = event.to_dict()
            try:
                answer = writer.phone.post(f"/t/{writer.table}/entry", form)
            except (OSError, http.client.HTTPException):
                return  # killed: this entry's fate is unknown
            writer.unanswered = None
            if answer.status != 303:
                burst.errors.append(f"{writer.setup.game}: {answer.status} {answer.body[-500:]}")
                return
            writer.acknowledged.append(event.to_dict())
            writer.state = after
            burst.ack()
    except BaseException as exc:
        burst.errors.append(f"{writer.setup.game}: {exc!r}")


def check_after_the_kill(store: Flask, writer: Writer) -> None:
    """The log is what the phone was told, and whole (see the module docstring)."""
    with store.app_context():
        record = get_table(writer.table)
        last_seq = current_seq(writer.table)
    assert record is not None
    stored = [entry.payload for entry in record.entries]
    told = writer.acknowledged
    assert stored[: len(told)] == told, "an acknowledged entry is missing or changed"
    assert stored[len(told) :] in ([], [writer.unanswered]), "an entry nobody sent"
    assert last_seq == record.last_seq
    check_log(writer.setup, record.entries)
    if len(stored) > len(told):  # the unanswered entry made it: the phone will see it on reload
        writer.acknowledged.append(stored[-1])
        writer.state = replay(writer.setup, effective_events(record.entries))
    writer.unanswered = None


def settled(store: Flask) -> None:
    """Wait until the killed server's last statements are over. On PostgreSQL a statement the
    server sent just before the kill still runs (and, in autocommit, commits) in its backend
    after the client is gone: the log is looked at only once no other backend runs one (at most
    a few seconds; a backend idle in a transaction is left to end by itself)."""
    with store.app_context():
        if db.engine.dialect.name == "sqlite":
            return
        running = text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state = 'active'"
        )
        deadline = time.monotonic() + 5
        with db.engine.connect() as connection:
            while connection.execute(running).scalar() and time.monotonic() < deadline:
                time.sleep(0.05)


def integrity(store: Flask) -> None:
    with store.app_context():
        if db.engine.dialect.name != "sqlite":
            return
        with db.engine.connect() as connection:
            assert connection.execute(text("PRAGMA integrity_check")).scalars().all() == ["ok"]
            assert connection.execute(text("PRAGMA foreign_key_check")).all() == []
        db.engine.dispose()  # let go of the file before the next server opens it


def test_entries_acknowledged_before_a_kill_survive_it(database_url, store, tmp_path):
    rng = random.Random(2026)
    writers = []
    for number, (game, players) in enumerate(GAMES):
        setup = Setup(game, players)
        with store.app_context():
            table = create_table(setup)
        keeper = new_link(store, table)
        writers.append(Writer(table, keeper, setup, random.Random(number), start(setup)))
    server = Server(database_url, tmp_path / "gunicorn.log")
    try:
        for _ in range(KILLS):
            server.start()
            for writer in writers:
                if writer.phone is None:  # a phone keeps its session and token across restarts
                    writer.phone = Phone(server)
                    assert writer.phone.open_link(writer.keeper) == f"/t/{writer.table}"
                    assert writer.phone.get(f"/t/{writer.table}")[0] == 200
            burst = Burst()
            threads = [
                threading.Thread(target=write_until_the_server_dies, args=(writer, burst))
                for writer in writers
            ]
            for thread in threads:
                thread.start()
            pull_the_plug_at = rng.randint(5, 40)
            with burst.changed:
                reached = burst.changed.wait_for(
                    lambda b=burst, n=pull_the_plug_at: b.acknowledged >= n or bool(b.errors),
                    timeout=120,
                )
            server.kill()
            settled(store)
            for thread in threads:
                thread.join(timeout=60)
                assert not thread.is_alive(), "a phone hung after the kill"
            assert burst.errors == [], "\n".join(burst.errors) + server.log()[-3000:]
            assert reached, f"only {burst.acknowledged} entries in 120 s:\n{server.log()[-3000:]}"
            integrity(store)
            for writer in writers:
                check_after_the_kill(store, writer)
            summary.count("kills_survived")
        # The last restart: the server takes the phones' next entries as if nothing happened.
        server.start()
        for writer in writers:
            assert writer.phone is not None
            entry = next_entry(writer.state, writer.rng)
            if entry is not None:
                form = entry_form(writer.state, entry[0], writer.seq)
                answer = writer.phone.post(f"/t/{writer.table}/entry", form)
                assert answer.status == 303, answer.body[-1000:]
    finally:
        server.stop()
    assert sum(len(w.acknowledged) for w in writers) >= KILLS * 5
