"""A record of a table in play stopped in the middle of a trick loads as a table in play at that
card: the trick's cards are on the table, the one the referee names plays next, and the table
goes on from there (docs/record-format.md: "A record of a table in play may stop in the middle of a
trick in its last round")."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.records.check import check_text
from referee.rules import GAMES, Step
from referee.store.tables import table_state
from tests.web.helpers import ok, post

RECORDS = Path(__file__).resolve().parents[1] / "records"
LOCATION = re.compile(r"^/t/([A-Za-z0-9_-]{22})$")


def stopped_in_a_trick() -> list[str]:
    """The golden records whose referee report has a trick in play."""
    found = []
    for path in sorted(RECORDS.rglob("*.expect.json")):
        if any("trick_in_play" in r for r in json.loads(path.read_text()).get("rounds", [])):
            found.append(str(path.relative_to(RECORDS)).replace(".expect.json", ".json"))
    return found


IN_PLAY = stopped_in_a_trick()


def test_every_game_has_a_record_stopped_in_a_trick() -> None:
    assert {name.split("/")[0] for name in IN_PLAY} >= set(GAMES)


@pytest.mark.parametrize("name", IN_PLAY)
def test_a_record_stopped_in_a_trick_loads_as_a_table_at_that_card(
    app: Flask, client: FlaskClient, name: str
) -> None:
    body = (RECORDS / name).read_bytes()
    report = json.loads(check_text(body, as_json=True)[1])
    last = report["rounds"][-1]
    in_play = last["trick_in_play"]
    trick = json.loads(body)["rounds"][-1]["plays"][-1]

    response = client.post(
        "/records",
        data={"record": (io.BytesIO(body), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.text[-1500:]
    found = LOCATION.match(response.headers["Location"])
    assert found
    table = found.group(1)
    with app.app_context():
        state = table_state(table)
    assert state is not None and state.current is not None
    assert state.next_step() == Step(last["number"], "play", in_play["next_player"])
    on_table = state.current.plays[-1]
    assert len(state.current.plays) == in_play["trick"]
    assert on_table.leader == trick["leader"]
    assert [str(card) for _, card in on_table.cards] == trick["cards"]
    assert not state.complete

    # The table goes on from that card: the next player's card joins the same trick.
    card = str(state.game.cards_left(state.current)[0])
    seat = state.setup.players.index(in_play["next_player"]) + 1
    ok(post(client, table, "play", player=str(seat), card=card, mode="cards"))
    with app.app_context():
        after = table_state(table)
    assert after is not None and after.current is not None
    assert len(after.current.plays) == in_play["trick"]
    assert [str(c) for _, c in after.current.plays[-1].cards] == [*trick["cards"], card]
