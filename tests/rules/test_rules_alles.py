"""Alles oder Nichts, rule by rule (docs/rules.md, "Alles oder Nichts")."""

import pytest

from referee.rules import Breach, OptionError, Setup, apply, start
from referee.rules import events as ev
from referee.rules.alles import score

FOUR = ("Ann", "Ben", "Cho", "Dee")


def run(state, *events):
    for event in events:
        state = apply(state, event)
    return state


def table(**options):
    return start(Setup("alles-oder-nichts", FOUR, options))


def declared(state, number=1, **declarations):
    """Declarations in the order given: name=(open, bid)."""
    return run(state, *[ev.Declare(number, p, o, b) for p, (o, b) in declarations.items()])


@pytest.mark.parametrize(
    ("open_", "bid", "tricks", "points"),
    [
        (False, 2, 3, 3),  # secret bid 2, took 3 → 3
        (True, 2, 2, 7),  # open bid 2, took 2 → 7
        (True, 0, 0, 3),  # open 0, took 0 → 3
        (False, 2, 2, 5),  # secret and exact: 2 + 3
        (True, 3, 2, 0),  # open and missed: nothing
        (False, 0, 0, 3),
    ],
)
def test_scoring_examples(open_, bid, tricks, points):
    assert score(open_, bid, tricks).points == points


def test_seven_rounds_six_to_three_and_back():
    assert table().game.schedule == [6, 5, 4, 3, 4, 5, 6]


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_players(count):
    with pytest.raises(Breach):
        start(Setup("alles-oder-nichts", tuple(f"P{i}" for i in range(count))))


@pytest.mark.parametrize(
    ("options", "ok"),
    [
        ({"colours": ["a", "b", "c", "d", "e", "f"], "values": 8}, True),
        ({"colours": ["a", "b", "c"], "values": 12}, False),
        ({"values": 11}, False),
        ({"colour": ["a"]}, False),
    ],
)
def test_colours_times_values_must_be_48(options, ok):
    if ok:
        assert len(table(**options).game.deck) == 48
    else:
        with pytest.raises(OptionError):
            table(**options)


def test_there_is_always_a_trump_and_it_comes_first():
    state = table()
    assert state.next_step().action == "trump"
    with pytest.raises(Breach) as caught:
        apply(state, ev.Declare(1, "Ben", True, 1))
    assert caught.value.rule == "missing"


def test_declarations_go_from_left_of_the_dealer_to_the_dealer():
    state = run(table(), ev.Trump(1, "red-7"))
    assert state.next_step().player == "Ben"
    with pytest.raises(Breach) as caught:
        apply(state, ev.Declare(1, "Ann", True, 1))
    assert caught.value.message == "It is Ben's turn to declare, not Ann's."


def test_no_hook_rule():
    state = run(table(), ev.Trump(1, "red"))
    state = declared(state, Ben=(True, 2), Cho=(True, 2), Dee=(True, 1), Ann=(True, 1))
    assert sum(state.current.bids.values()) == 6  # the hand size, and allowed


def play_round_open_zero(state, number):
    """A quick round: everyone declares open 0 in order, the first bidder takes every trick."""
    state = run(state, ev.Trump(number, "red"))
    order = state.game.declaring_order(state.current)
    state = run(state, *[ev.Declare(number, p, True, 0) for p in order])
    tricks = dict.fromkeys(FOUR, 0) | {order[0]: state.current.hand_size}
    return run(state, ev.Tricks(number, tricks))


def test_bid_above_hand_is_a_warning_not_a_refusal():
    state = table()
    for number in (1, 2, 3):
        state = play_round_open_zero(state, number)
    state = run(state, ev.Trump(4, "blue"), ev.Declare(4, "Ann", False, 5))  # Dee deals round 4
    assert state.current.hand_size == 3
    assert [w.rule for w in state.warnings] == ["bid-above-hand"]
    assert state.warnings[0].message == (
        "Ann bid 5 with 3 cards: legal, but it can never be made exactly."
    )


def test_a_bid_above_six_is_refused():
    state = run(table(), ev.Trump(1, "red"))
    with pytest.raises(Breach) as caught:
        apply(state, ev.Declare(1, "Ben", True, 7))
    assert caught.value.rule == "bid-range"


def test_secret_bids_are_turned_up_after_the_tricks():
    state = run(table(), ev.Trump(1, "red"))
    state = declared(state, Ben=(False, None), Cho=(True, 2), Dee=(True, 1), Ann=(False, None))
    with pytest.raises(Breach) as caught:
        apply(state, ev.Reveal(1, "Ben", 2))
    assert caught.value.message == "Secret bids are turned up when round 1 is over."
    state = run(state, ev.Tricks(1, {"Ann": 2, "Ben": 1, "Cho": 2, "Dee": 1}))
    assert state.next_step().action == "reveal" and state.scores(1) is None
    state = run(state, ev.Reveal(1, "Ben", 2), ev.Reveal(1, "Ann", 2))
    assert {p: s.points for p, s in state.scores(1).items()} == {
        "Ann": 5,  # secret 2, took 2: 2 + 3
        "Ben": 1,  # secret 2, took 1: 1
        "Cho": 7,  # open 2, took 2: 4 + 3
        "Dee": 5,  # open 1, took 1: 2 + 3
    }
    assert state.next_step().round == 2


def test_revealing_an_open_bid_is_refused():
    state = run(table(), ev.Trump(1, "red"))
    state = declared(state, Ben=(True, 1), Cho=(True, 2), Dee=(True, 1), Ann=(True, 2))
    state = run(state, ev.Tricks(1, {"Ann": 2, "Ben": 1, "Cho": 2, "Dee": 1}))
    with pytest.raises(Breach):
        apply(state, ev.Reveal(1, "Ben", 1))
