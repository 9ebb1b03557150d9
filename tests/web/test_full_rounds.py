"""A whole round of each game entered card by card through the web, as four people would on one
phone; the app must name every trick's winner as an independent simulation of the rules does."""

from __future__ import annotations

import random

import pytest

from referee.records import parse_record
from referee.rules import GAMES
from referee.rules import events as ev
from referee.store.tables import table_state
from tests import simulate as sim
from tests.web.helpers import new_table, ok, post

NAMES = ("Ann", "Ben", "Cho", "Dee")
#: The options each game is played with here (``GAMES``: a game without any fails here).
VARIANTS = {
    "blackout": [{}],
    "alles-oder-nichts": [{}],
    "ebbes": [
        {},
        {"trump_from": "next-trick"},
        {"discard": True},
        {"variant": "placed-designators"},
    ],
}
PLAYED = [(game, options) for game in GAMES for options in VARIANTS[game]]


def fields_for(event: ev.Event, seat: dict[str, int]) -> tuple[str, dict[str, object]]:
    """The form a phone posts for ``event``: its action and fields."""
    if isinstance(event, ev.Trump):
        return "trump", {"trump": event.card}
    if isinstance(event, ev.Bid):
        return "bid", {"player": seat[event.player], "bid": event.bid}
    if isinstance(event, ev.Declare):
        choice = f"open-{event.bid}" if event.open else "secret"
        return "declare", {"player": seat[event.player], "choice": choice}
    if isinstance(event, ev.Number):
        return "number", {"number": event.number}
    if isinstance(event, ev.Designators):
        return "designators", {
            f"designator-{c.split('-')[0]}": c.split("-")[1] for c in event.cards
        }
    if isinstance(event, ev.Discard):
        return "discard", {"player": seat[event.player], "card": event.card, "mode": "cards"}
    if isinstance(event, ev.Play):
        return "play", {"player": seat[event.player], "card": event.card, "mode": "cards"}
    raise AssertionError(f"no form for {event}")


def round_one(doc) -> list[ev.Event]:
    """Round 1's entries as a phone makes them: every card one by one."""
    record = parse_record(doc)
    players = record.setup.players
    out: list[ev.Event] = []
    for event in record.events:
        if event.round != 1 or event.type == "begin-round":
            continue
        if isinstance(event, ev.Trick):
            seat = players.index(event.leader)
            out += [
                ev.Play(1, card, players[(seat + i) % len(players)])
                for i, card in enumerate(event.cards)
            ]
        else:
            out.append(event)
    return out


@pytest.mark.parametrize(("game", "options"), PLAYED, ids=lambda v: str(v))
def test_a_whole_round_card_by_card(app, client, game, options):
    truth = sim.simulate(random.Random(11), game, NAMES, options, first="Ann")
    doc = sim.to_record(truth, random.Random(11), detail="plays")
    table = new_table(app, client, game, NAMES, options, first="Ann")
    seat = {name: i for i, name in enumerate(NAMES, start=1)}
    secret = []
    for event in round_one(doc):
        if isinstance(event, ev.Declare) and not event.open:
            secret.append(event)
        action, fields = fields_for(event, seat)
        ok(post(client, table, action, **fields))
    for event in secret:  # turned up when the round is over
        ok(post(client, table, "reveal", player=seat[event.player], bid=event.bid))
    with app.app_context():
        state = table_state(table)
    played = state.rounds[0]
    expected = truth.rounds[0]
    assert [t.winner for t in played.plays] == [t.winner for t in expected.tricks]
    assert {p: s.points for p, s in state.scores(1).items()} == expected.scores
    assert state.violations == []
    assert state.next_step().round == 2
