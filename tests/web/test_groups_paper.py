"""A group's "add a paper game": a photographed blank readable card, who sat where answered,
becomes a new table of the group with its entries, seats and photo; until confirmed, and when
refused, nothing is stored; only the group's keeper may."""

from __future__ import annotations

import html
import io
import random
import re

import pytest

from referee.paper.reader import entries
from referee.rules import Setup
from referee.store.groups import get_group
from referee.store.tables import get_table
from tests.paper.photos import Shot, card_photo
from tests.tools import tool
from tests.web.group_helpers import join_group, new_group
from tests.web.test_groups_transfer import counts
from tests.web.test_paper import answers

SEATS = ("seat 1", "seat 2", "seat 3")
BLANK = Setup("blackout", SEATS, {"max_cards": 3}, "seat 1")


@pytest.fixture(scope="module")
def photo():
    tool("pdftoppm")
    return card_photo(random.Random(31), BLANK, Shot(tilt=14, turn=10, blur=0.5))


def token_of(page: str) -> dict[str, str]:
    token = re.search(r'name="csrf_token"[^>]*? value="([^"]*)"', page)
    return {"csrf_token": token.group(1)} if token else {}


def upload(client, group: str, data: bytes):
    form = {
        "photo": (io.BytesIO(data), "card.jpg"),
        **token_of(client.get(f"/g/{group}/paper").text),
    }
    return client.post(f"/g/{group}/paper", data=form, content_type="multipart/form-data")


def test_a_photographed_blank_card_becomes_a_table_of_the_group(app, client, photo):
    data, values = photo
    group = new_group(client, players=("Ann", "Ben", "Cho"))
    assert f'href="/g/{group}/paper"' in client.get(f"/g/{group}").text
    before = counts(app)
    read = upload(client, group, data)
    assert read.status_code == 200, read.text[-2000:]
    said = html.unescape(read.text)
    assert "Who sat where?" in said and 'name="seat-3"' in said
    assert counts(app) == before  # nothing stored before it is confirmed
    form = answers(read.text, values)
    form["code"] = html.unescape(re.search(r'name="code" value="([^"]*)"', read.text).group(1))
    missing = client.post(f"/g/{group}/paper/confirm", data=form | {"seat-1": "Ann"})
    assert missing.status_code == 422 and "Write who sat in each seat." in missing.text
    twice = form | {"seat-1": "Ann", "seat-2": "ann", "seat-3": "Zed", "dealer": "2"}
    refused = client.post(f"/g/{group}/paper/confirm", data=twice)
    assert refused.status_code == 422
    assert counts(app) == before
    names = {"seat-1": "Ben", "seat-2": " Zed ", "seat-3": "ann", "dealer": "2"}
    made = client.post(f"/g/{group}/paper/confirm", data=form | names)
    assert made.status_code == 303, made.text[-2000:]
    table = made.headers["Location"].rsplit("/", 1)[-1]
    setup = Setup("blackout", ("Ben", "Zed", "ann"), {"max_cards": 3}, "Zed")
    with app.app_context():
        stored = get_table(table)
        assert [e.payload for e in stored.entries] == [
            e.to_dict() for e in entries(setup, values, 5)
        ]
        kept = get_group(group)
        [game] = [t for t in kept.tables if t.table_id == table]
        roster = {p.name: p.id for p in kept.players}
        assert game.seats == {"Ben": roster["Ben"], "Zed": None, "ann": roster["Ann"]}
    assert counts(app)[1:] == (before[1] + 1, before[2] + 1)
    # This phone keeps the new table: its history marks the card's entries, its photo is kept.
    assert "from paper" in client.get(f"/t/{table}/history").text
    assert client.get(f"/t/{table}/paper/photo.jpg").mimetype == "image/jpeg"
    # The form posted again makes nothing more (its photo's seal is for this group only).
    other = new_group(client, name="Other club", players=("Ann", "Ben", "Cho"))
    assert client.post(f"/g/{other}/paper/confirm", data=form | names).status_code == 303
    assert counts(app)[1:] == (before[1] + 1, before[2] + 1)


def test_only_the_groups_keeper_adds_a_paper_game(app, client, photo):
    data, _values = photo
    group = new_group(client)
    viewer = app.test_client()
    join_group(app, viewer, group, "viewer")
    before = counts(app)
    assert viewer.get(f"/g/{group}/paper").status_code == 403
    form = {"photo": (io.BytesIO(data), "card.jpg")}
    answer = viewer.post(f"/g/{group}/paper", data=form, content_type="multipart/form-data")
    assert answer.status_code == 403
    assert viewer.post(f"/g/{group}/paper/confirm", data={"rounds": "1"}).status_code == 403
    assert counts(app) == before


def test_a_card_printed_for_a_table_or_not_a_card_is_refused(app, client, photo):
    group = new_group(client)
    data, _ = card_photo(random.Random(2), BLANK, Shot(tilt=5), 2, "HodwlAAMtcon6dy8-5H68A")
    before = counts(app)
    printed = upload(client, group, data)
    assert printed.status_code == 422 and "printed for a table" in printed.text
    nothing = upload(client, group, b"\x89PNG\r\n\x1a\n not really")
    assert nothing.status_code == 422 and "The photo was not read" in nothing.text
    assert counts(app) == before
