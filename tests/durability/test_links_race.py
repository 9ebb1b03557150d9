"""Links and new tables under concurrent requests to a running server (gunicorn, 2 gevent
workers), on SQLite and on PostgreSQL, each race run in many trials so that a check made apart
from its write shows up.

- Scorekeepers who all press "Revoke every other scorekeeper link" at once leave exactly one.
- A phone being revoked that presses "Make a scorekeeper link" at the same moment gets no link
  that works afterwards.
- Many new tables from one address at once: exactly the limit is made.
- Opening shared links puts no token in gunicorn's access log.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.rules import Setup
from referee.store import db
from referee.store.links import access
from referee.store.models import Link, Table
from referee.store.tables import create_table
from tests.durability.conftest import Answer, Phone, Server
from tests.links import new_link
from tests.web.test_newtable import form as new_table_form

pytestmark = pytest.mark.durability

#: Races run per test and database.
TRIALS = 12

T = TypeVar("T")


def at_once(actions: list[Callable[[], T]]) -> list[T]:
    """Run ``actions`` in threads released together; their results in order."""
    barrier = threading.Barrier(len(actions))
    results: list[T | None] = [None] * len(actions)
    errors: list[BaseException] = []

    def run(number: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[number] = actions[number]()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive(), "a request hung"
    assert errors == [], errors
    return [result for result in results if result is not None]


def live_keepers(store: Flask, table_id: str) -> int:
    with store.app_context():
        query = select(func.count()).where(
            Link.table_id == table_id, Link.kind == "keeper", Link.revoked_at.is_(None)
        )
        return int(db.session.scalar(query) or 0)


def scorekeepers(server: Server, store: Flask, count: int) -> tuple[str, list[Phone], list[str]]:
    """A new table and ``count`` phones, each holding a scorekeeper link of its own and showing
    the share page (so each has its form's token); the table, the phones, their links."""
    with store.app_context():
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
    phones, tokens = [], []
    for _ in range(count):
        token = new_link(store, table_id)
        phone = Phone(server)
        assert phone.open_link(token) == f"/t/{table_id}"
        assert phone.get(f"/t/{table_id}/share")[0] == 200
        phones.append(phone)
        tokens.append(token)
    return table_id, phones, tokens


def press(phone: Phone, table_id: str, action: str) -> Callable[[], Answer]:
    return lambda: phone.post(f"/t/{table_id}/share", {"action": action})


def test_scorekeepers_revoking_each_other_at_once_leave_exactly_one(server, store):
    for trial in range(TRIALS):
        table_id, phones, _tokens = scorekeepers(server, store, 3)
        answers = at_once([press(phone, table_id, "revoke-keepers") for phone in phones])
        assert sorted(a.status for a in answers) == [303, 403, 403], (trial, answers)
        assert live_keepers(store, table_id) == 1, f"trial {trial}: no single scorekeeper left"
        [winner] = [phone for phone, a in zip(phones, answers, strict=True) if a.status == 303]
        assert winner.get(f"/t/{table_id}/share")[0] == 200  # it keeps score


def test_a_phone_being_revoked_makes_no_link_that_outlives_the_revocation(server, store):
    for trial in range(TRIALS):
        table_id, (revoker, revoked), (mine, _theirs) = scorekeepers(server, store, 2)
        revoking, making = at_once(
            [press(revoker, table_id, "revoke-keepers"), press(revoked, table_id, "keeper")]
        )
        assert revoking.status == 303, (trial, revoking)
        assert making.status in (200, 403), (trial, making)
        made = re.search(r'id="keeper-link"[^>]*value="[^"#]*#([^"]+)"', making.body)
        with store.app_context():
            assert access(mine, table_id) is not None  # the revoker keeps score
            if made is not None:  # made before the revocation: revoked with the others
                assert access(made.group(1), table_id) is None, f"trial {trial}"
        assert live_keepers(store, table_id) == 1, f"trial {trial}: a revoked phone's link lives"


@pytest.fixture
def limited_server(database_url: str, store: Flask, tmp_path: Path) -> Iterator[Server]:
    """A server that lets one address create ``LIMIT`` tables in ten minutes."""
    env = {"REFEREE_TABLE_LIMIT": str(LIMIT), "REFEREE_TABLE_LIMIT_SECONDS": "600"}
    live = Server(database_url, tmp_path / "gunicorn.log", env=env).start()
    yield live
    live.stop()


#: The limit of ``limited_server``, and how many creations race for it from each address.
LIMIT = 5
RACING = 12


def test_creations_from_one_address_at_once_make_exactly_the_limit(limited_server, store):
    for trial in range(TRIALS // 2):
        address = f"127.0.0.{trial + 2}"  # a network address of its own for each trial
        phones = [Phone(limited_server, address=address) for _ in range(RACING)]
        for phone in phones:
            assert phone.get("/new")[0] == 200
        answers = at_once(
            [lambda phone=phone: phone.post("/new", new_table_form()) for phone in phones]
        )
        statuses = sorted(answer.status for answer in answers)
        assert statuses == [303] * LIMIT + [429] * (RACING - LIMIT), (trial, statuses)
        assert all("Too many new tables" in a.body for a in answers if a.status == 429)
    with store.app_context():
        made = int(db.session.scalar(select(func.count()).select_from(Table)) or 0)
    assert made == LIMIT * (TRIALS // 2)


@pytest.fixture
def logged_server(database_url: str, store: Flask, tmp_path: Path) -> Iterator[Server]:
    """A server writing gunicorn's access log (a line per request) into its log file."""
    options = ("--access-logfile", "-")
    live = Server(database_url, tmp_path / "gunicorn.log", options=options).start()
    yield live
    live.stop()


def test_opening_shared_links_writes_no_token_to_the_access_log(logged_server, store):
    keeper = Phone(logged_server)
    assert keeper.get("/new")[0] == 200
    created = keeper.post("/new", new_table_form())
    assert created.status == 303
    share = created.location.rstrip("/") + "/share"
    links = [re.search(r'id="viewer-link"[^>]*value="([^"]+)"', keeper.get(share)[1])]
    links.append(
        re.search(
            r'id="keeper-link"[^>]*value="([^"]+)"', keeper.post(share, {"action": "keeper"}).body
        )
    )
    for link in links:
        assert link is not None
        opened = Phone(logged_server).open_shared(link.group(1))
        assert opened.status == 303 and opened.location.endswith(created.location)
    log = logged_server.log()
    for link in links:
        token = re.split(r"[#/]", link.group(1))[-1]
        assert token not in log, "a link's token is in the access log"
    assert re.search(r'"POST /j HTTP/1\.1" 303', log), log[-2000:]  # the log has request lines
