"""A round is complete when its results are in (record-format.md): a count for every player
(ebbes: every colour that must be counted, for every player), or every trick played. A results
map that leaves a player out is one ``missing`` breach and nothing besides, and the round is not
complete, wherever it is: not scored, and the game names no winners.

The records are random legal games of ``tests/simulate.py`` (results only, no plays), with one
player's results taken out.

And in ebbes round 1 nobody chooses the starter: ``chosen_by`` means nothing and is ignored, so
a wrong starter is reported whoever the record says chose them. In later rounds the chooser is
checked, and whoever chose, the starter leads: a chooser who is no player is a breach of its
own and does not excuse a wrong first leader.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.records import export_record, parse_record
from referee.records.check import check_text
from tests import simulate as sim

THREE = ("Ann", "Ben", "Cho")
#: One small game of each: Blackout up to 2 cards (3 rounds), Alles oder Nichts, ebbes.
GAMES = [("blackout", {"max_cards": 2}), ("alles-oder-nichts", {}), ("ebbes", {})]
RESULTS = {"blackout": "tricks", "alles-oder-nichts": "tricks", "ebbes": "won"}


def legal(game: str, options: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    truth = sim.simulate(random.Random(seed), game, THREE, options, first="Ann")
    doc = sim.to_record(truth, random.Random(seed), "summary")
    assert check(doc)["violations"] == []
    return doc


def check(doc: dict[str, Any]) -> dict[str, Any]:
    status, out = check_text(json.dumps(doc), as_json=True)
    report: dict[str, Any] = json.loads(out)
    assert status == (1 if report["violations"] else 0), out
    return report


def located(report: dict[str, Any]) -> list[tuple[str, int | None, str | None]]:
    return [(v["rule"], v["round"], v["player"]) for v in report["violations"]]


@pytest.mark.parametrize("where", ["last", "earlier"])
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_results_map_without_a_player_leaves_the_round_and_the_game_incomplete(
    game: str, options: dict[str, Any], where: str
) -> None:
    doc = legal(game, options)
    before = check(doc)
    assert before["complete"] and before["winners"]
    index = len(doc["rounds"]) - 1 if where == "last" else 0
    del doc["rounds"][index][RESULTS[game]]["Ben"]
    report = check(doc)
    assert located(report) == [("missing", index + 1, "Ben")]  # no trick-total, colour-total
    assert report["complete"] is False
    assert report["winners"] == []
    scores = [rnd["scores"] for rnd in report["rounds"]]
    assert scores[index] is None
    assert scores[:index] + scores[index + 1 :] == [
        rnd["scores"] for n, rnd in enumerate(before["rounds"]) if n != index
    ]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_round_without_a_player_is_not_complete_for_the_engine(
    game: str, options: dict[str, Any]
) -> None:
    """What every page, sheet and export asks: ``round_complete``, ``State.complete``,
    ``winners`` and the round the table is in."""
    doc = legal(game, options)
    del doc["rounds"][-1][RESULTS[game]]["Cho"]
    state = parse_record(doc).replay()
    last = state.rounds[-1]
    assert not state.game.results_in(last)
    assert not state.game.round_complete(last)
    assert not state.complete and state.winners() == []
    assert state.scores(last.number) is None
    upcoming = state.game.upcoming(state)
    assert upcoming is not None and upcoming.number == last.number


def test_an_ebbes_round_without_a_colour_that_must_be_counted_is_not_complete() -> None:
    doc = legal("ebbes", {})
    last = doc["rounds"][-1]
    plus = last["designations"][1]
    del last["won"]["Ben"][plus]
    report = check(doc)
    assert located(report) == [("missing", len(doc["rounds"]), "Ben")]  # no colour-total
    assert report["complete"] is False and report["winners"] == []
    assert report["rounds"][-1]["scores"] is None


@pytest.mark.parametrize(("game", "options"), GAMES[:2], ids=[g for g, _ in GAMES[:2]])
def test_tricks_without_a_player_are_not_also_a_trick_total_breach(
    game: str, options: dict[str, Any]
) -> None:
    """Whatever the others took: the total is not checked while a count is missing."""
    doc = legal(game, options)
    tricks = doc["rounds"][-1]["tricks"]
    tricks["Ann"] += 1
    del tricks["Ben"]
    assert located(check(doc)) == [("missing", len(doc["rounds"]), "Ben")]


def test_a_round_without_a_player_and_without_its_trump_is_checked_for_its_trump_when_earlier():
    """An earlier round is checked for all of it, and its tricks were entered: a trump breach
    besides the missing count. The last round is under way: only the missing count."""
    doc = legal("blackout", {"max_cards": 2})
    first, last = doc["rounds"][0], doc["rounds"][-1]
    for rnd in (first, last):
        rnd.pop("trump", None)
        del rnd["tricks"]["Ben"]
    assert sorted(located(check(doc)), key=str) == sorted(
        [("missing", 1, "Ben"), ("trump", 1, None), ("missing", 3, "Ben")], key=str
    )


def test_results_given_beside_the_plays_may_leave_a_player_out_of_a_complete_round() -> None:
    """The plays are the evidence: with every trick played the results are in, the count left
    out is one missing breach and the round is scored from the plays."""
    truth = sim.simulate(random.Random(3), "blackout", THREE, {"max_cards": 2}, first="Ann")
    doc = sim.to_record(truth, random.Random(3), "both")
    before = check(doc)
    del doc["rounds"][-1]["tricks"]["Ben"]
    report = check(doc)
    assert located(report) == [("missing", len(doc["rounds"]), "Ben")]
    assert report["complete"] is True and report["winners"] == before["winners"]
    assert report["rounds"] == before["rounds"]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_count_under_a_name_that_is_no_players_stands_for_the_one_left_out(
    game: str, options: dict[str, Any]
) -> None:
    """One bad entry, one breach (docs/record-format.md): a misspelt name is a players breach, not
    also a missing one; but the player's own count is not in, so the round is not complete, and
    a record written from it reads the same again."""
    doc = legal(game, options)
    results = doc["rounds"][-1][RESULTS[game]]
    results["Bem"] = results.pop("Ben")
    report = check(doc)
    assert located(report) == [("players", len(doc["rounds"]), None)]
    assert report["complete"] is False and report["winners"] == []
    exported = export_record(parse_record(doc).replay())
    assert export_record(parse_record(exported).replay()) == exported


# --- ebbes round 1: chosen_by means nothing -----------------------------------------------------


def ebbes_round_one(**round_one: Any) -> dict[str, Any]:
    return {
        "format": "table-referee/1",
        "game": "ebbes",
        "players": list(THREE),
        "first_starter": "Ben",
        "rounds": [{"number": 1, **round_one}],
    }


@pytest.mark.parametrize("chooser", ["Zed", "Ann", "Cho"])
def test_round_one_chosen_by_is_ignored_and_a_wrong_starter_reported(chooser: str) -> None:
    report = check(ebbes_round_one(starter="Cho", chosen_by=chooser))
    assert located(report) == [("starter", 1, "Cho")]


@pytest.mark.parametrize("chooser", ["Zed", "Ann"])
def test_round_one_chosen_by_is_no_breach_beside_the_right_starter(chooser: str) -> None:
    assert located(check(ebbes_round_one(starter="Ben", chosen_by=chooser))) == []


# --- ebbes from round 2: the chooser is checked, the starter stands -----------------------------


#: ebbes round 1 by hand: Ann won the most nix (purple) cards, so she chooses round 2's starter.
EBBES_ROUND_ONE = {
    "number": 1,
    "designations": ["red", "yellow", "green", "blue"],
    "won": {
        "Ann": {"red": 2, "yellow": 3, "green": 3, "blue": 1, "purple": 3},
        "Ben": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "purple": 1},
        "Cho": {"red": 2, "yellow": 1, "green": 1, "blue": 3, "purple": 2},
    },
}


def ebbes_round_two(chosen_by: str, leader: str) -> dict[str, Any]:
    """Cho chosen to start round 2 by ``chosen_by``, and its first trick led by ``leader``."""
    cards = ["red-1", "red-3", "red-4"]  # no 2: the number card fixes no role
    return {
        "format": "table-referee/1",
        "game": "ebbes",
        "players": list(THREE),
        "first_starter": "Ann",
        "rounds": [
            EBBES_ROUND_ONE,
            {
                "number": 2,
                "starter": "Cho",
                "chosen_by": chosen_by,
                "plays": [{"leader": leader, "cards": cards}],
            },
        ],
    }


@pytest.mark.parametrize(
    ("chooser", "leader", "breaches"),
    [
        ("Ann", "Cho", []),
        ("Ann", "Ben", [("turn", 2, "Ben")]),
        # not in the nix majority: a starter breach on the chooser, and the starter stands
        ("Ben", "Cho", [("starter", 2, "Ben")]),
        ("Ben", "Ben", [("starter", 2, "Ben"), ("turn", 2, "Ben")]),
        # no player: a players breach of its own, and the starter stands all the same
        ("Zed", "Cho", [("players", 2, None)]),
        ("Zed", "Ben", [("players", 2, None), ("turn", 2, "Ben")]),
    ],
)
def test_a_later_rounds_chooser_is_checked_and_the_starter_leads_whoever_chose(
    chooser: str, leader: str, breaches: list[tuple[str, int | None, str | None]]
) -> None:
    report = check(ebbes_round_two(chooser, leader))
    assert located(report) == breaches
    assert report["rounds"][1]["starter"] == "Cho"


# --- how far the game is ------------------------------------------------------------------------


def test_the_round_to_play_is_the_first_one_not_complete() -> None:
    """What the pages and the sheet say of how far a game is: a round before the last that is
    not complete holds the game there, though no entry can be made after the last round."""
    doc = legal("blackout", {"max_cards": 2})
    assert parse_record(doc).replay().round_to_play is None
    del doc["rounds"][0]["tricks"]["Ben"]
    state = parse_record(doc).replay()
    assert state.game.upcoming(state) is None and not state.complete
    assert state.round_to_play == 1
    del doc["rounds"][0]["tricks"]
    doc["rounds"] = doc["rounds"][:1]
    assert parse_record(doc).replay().round_to_play == 1
    doc["rounds"][0]["tricks"] = {"Ann": 1, "Ben": 0, "Cho": 0}
    assert parse_record(doc).replay().round_to_play == 2
