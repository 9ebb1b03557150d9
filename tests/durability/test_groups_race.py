"""A group's changes under concurrent requests to a running server (gunicorn, 2 gevent
workers), on SQLite and on PostgreSQL, each race run in many trials so that a check made apart
from its write shows up.

- Keepers adding the same name to the roster at once: the roster holds it once; the others are
  told it is there already.
- Keepers renaming one player at once from the same page: one name wins, the group's version
  rises by exactly one, the others are told the group moved on, with what they typed kept.
- Two keepers keeping the same table in the group at once: the group keeps it once.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.rules import Setup
from referee.store import db
from referee.store.groups import create_group, get_group, group_version, make_group_link
from referee.store.models import GroupTable
from referee.store.tables import create_table
from tests.durability.conftest import Answer, Phone, Server
from tests.durability.test_links_race import TRIALS, at_once
from tests.links import new_link

pytestmark = pytest.mark.durability

ROSTER = ("Ann", "Ben", "Cho", "Dee")


def keepers(server: Server, store: Flask, count: int) -> tuple[str, list[Phone]]:
    """A new group and ``count`` phones, each holding a keeper link of its own and showing the
    roster page (so each has its form's token)."""
    with store.app_context():
        group_id = create_group("Club", "Europe/Berlin", ROSTER)
        tokens = [make_group_link(group_id, "keeper") for _ in range(count)]
    phones = []
    for token in tokens:
        phone = Phone(server)
        assert phone.open_link(token) == f"/g/{group_id}"
        assert phone.get(f"/g/{group_id}/roster")[0] == 200
        phones.append(phone)
    return group_id, phones


def posting(phone: Phone, path: str, form: dict[str, str]) -> Callable[[], Answer]:
    return lambda: phone.post(path, form)


def names(store: Flask, group_id: str) -> list[str]:
    with store.app_context():
        group = get_group(group_id)
        assert group is not None
        return [player.name for player in group.players]


def test_keepers_adding_one_name_at_once_put_it_on_the_roster_once(server, store):
    for trial in range(TRIALS):
        group_id, phones = keepers(server, store, 3)
        form = {"action": "add", "name": "Eve"}
        answers = at_once([posting(phone, f"/g/{group_id}/roster", form) for phone in phones])
        assert sorted(a.status for a in answers) == [303, 422, 422], (trial, answers)
        for answer in answers:
            if answer.status == 422:
                assert "on the roster already" in html.unescape(answer.body), trial
        assert names(store, group_id) == [*ROSTER, "Eve"], trial


def test_keepers_renaming_one_player_at_once_leave_one_name_and_keep_the_others_typing(
    server, store
):
    for trial in range(TRIALS):
        group_id, phones = keepers(server, store, 3)
        with store.app_context():
            version = group_version(group_id)
            ann = get_group(group_id).players[0].id
        typed = [f"Anna {number}" for number in range(len(phones))]
        form = {"action": "rename", "player": ann, "version": str(version)}
        answers = at_once(
            [
                posting(phone, f"/g/{group_id}/roster", form | {"name": name})
                for phone, name in zip(phones, typed, strict=True)
            ]
        )
        assert sorted(a.status for a in answers) == [303, 409, 409], (trial, answers)
        [won] = [name for name, a in zip(typed, answers, strict=True) if a.status == 303]
        assert names(store, group_id)[0] == won, trial
        with store.app_context():
            assert group_version(group_id) == version + 1, trial
        for name, answer in zip(typed, answers, strict=True):
            if answer.status == 409:
                assert f'value="{name}"' in answer.body, (trial, "what was typed is lost")


def test_two_keepers_keeping_one_table_at_once_are_kept_once(server, store):
    for trial in range(TRIALS):
        group_id, phones = keepers(server, store, 2)
        with store.app_context():
            table_id = create_table(Setup("blackout", ROSTER[:3]))
        for phone in phones:
            assert phone.open_link(new_link(store, table_id)) == f"/t/{table_id}"
            assert phone.get(f"/t/{table_id}/group")[0] == 200
        form = {"group": group_id}
        answers = at_once([posting(phone, f"/t/{table_id}/group", form) for phone in phones])
        assert sorted(a.status for a in answers) == [303, 422], (trial, answers)
        with store.app_context():
            kept = select(func.count()).where(GroupTable.table_id == table_id)
            assert db.session.scalar(kept) == 1, trial
