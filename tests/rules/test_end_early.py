"""Ending a game early (docs/rules.md, "Ending early"), in each game: allowed after a complete
round before the last, refused with the rule's sentence anywhere else, and whatever follows an
end refused; a lenient replay notes each as an ``end`` breach."""

from __future__ import annotations

import random

import pytest

from referee.records import export_record, parse_record
from referee.rules import GAMES, Breach, Setup, apply, replay
from referee.rules import events as ev
from referee.rules.engine import start
from tests.durability.legal import next_entry

NAMES = ("Ann", "Ben", "Cho", "Dee")


def played(game: str, rounds: int, seed: int = 3) -> tuple[list[ev.Event], object]:
    """Legal events of ``game`` until ``rounds`` rounds are complete, and the state after."""
    rng = random.Random(seed)
    state = start(Setup(game, NAMES))
    events: list[ev.Event] = []
    while sum(1 for r in state.rounds if state.game.round_complete(r)) < rounds or (
        state.game.upcoming(state) is state.current
    ):
        found = next_entry(state, rng)
        assert found is not None
        events.append(found[0])
        state = found[1]
    return events, state


@pytest.mark.parametrize("game", list(GAMES))
def test_an_end_after_a_complete_round_makes_the_game_complete_with_its_winners(game) -> None:
    _events, state = played(game, 2)
    ended = apply(state, ev.End(2))
    assert ended.complete and ended.ended == 2 and ended.round_to_play is None
    assert ended.next_step() is None and ended.totals() == state.totals()
    best = max(ended.totals().values())
    assert ended.winners() == [p for p in NAMES if ended.totals()[p] == best]
    with pytest.raises(Breach) as after:
        apply(ended, next_entry(state, random.Random(1))[0])
    assert (after.value.rule, after.value.code) == ("end", "after-end")
    # a record of it reads back as the same ended game, and writes the same document
    doc = export_record(ended)
    assert doc["ended_after"] == 2
    again = parse_record(doc).replay()
    assert again.ended == 2 and not again.violations and export_record(again) == doc


@pytest.mark.parametrize("game", list(GAMES))
def test_an_end_anywhere_else_is_refused_with_the_rules_sentence(game) -> None:
    with pytest.raises(Breach) as before:
        apply(start(Setup(game, NAMES)), ev.End(1))
    assert before.value.code == "end-before-first"
    events, state = played(game, 1)
    middle = next_entry(state, random.Random(2))[1]  # round 2 begun
    with pytest.raises(Breach) as mid:
        apply(middle, ev.End(2))
    assert (mid.value.rule, mid.value.code, mid.value.round) == ("end", "end-mid-round", 2)
    assert mid.value.message == (
        "The game can end only after a complete round: round 2 is not over."
    )
    with pytest.raises(Breach) as other:
        apply(state, ev.End(3))
    assert other.value.code == "end-other-round"
    # leniently, each is noted and ends nothing
    lenient = replay(Setup(game, NAMES), [*events, ev.End(3)], lenient=True)
    assert [(b.rule, b.code) for b in lenient.violations] == [("end", "end-other-round")]
    assert lenient.ended is None and not lenient.complete


def test_the_last_round_ends_the_game_by_itself_not_by_an_end() -> None:
    setup = Setup("blackout", ("Ann", "Ben"), {"max_cards": 1})
    state = start(setup)
    rng = random.Random(5)
    while (found := next_entry(state, rng)) is not None:
        state = found[1]
    assert state.complete and state.ended is None
    with pytest.raises(Breach) as over:
        apply(state, ev.End(state.game.round_count))
    assert over.value.code == "game-over"
