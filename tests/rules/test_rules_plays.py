"""Rounds recorded card by card: winners, leaders, card identity, revokes, ebbes' roles."""

import pytest

from referee.rules import Breach, Setup, apply, replay, start
from referee.rules import events as ev

FOUR = ("Ann", "Ben", "Cho", "Dee")


def run(state, *events):
    for event in events:
        state = apply(state, event)
    return state


def plays(number, *cards):
    return [ev.Play(number, card) for card in cards]


def blackout_round_two():
    """4 players, max 3 (Q K A only), round 2: Ben deals, trump hearts, bids all in."""
    state = start(Setup("blackout", FOUR, {"max_cards": 3}))
    state = run(
        state,
        ev.Trump(1, "AH"),
        *[ev.Bid(1, p, 0) for p in ("Ben", "Cho", "Dee")],
        ev.Bid(1, "Ann", 0),
    )
    state = run(state, ev.Tricks(1, {"Ann": 0, "Ben": 1, "Cho": 0, "Dee": 0}))
    state = run(state, ev.Trump(2, "KH"))
    return run(
        state, *[ev.Bid(2, p, b) for p, b in (("Cho", 1), ("Dee", 0), ("Ann", 0), ("Ben", 0))]
    )


def test_the_winner_leads_and_tricks_come_from_the_plays():
    state = blackout_round_two()
    assert state.next_step() == ev_step(2, "play", "Cho")  # left of the dealer leads
    state = run(state, *plays(2, "QS", "AS", "KS", "QD"))  # Cho leads spades; Dee's A wins
    trick = state.current.plays[0]
    assert (trick.winner, trick.why) == ("Dee", "highest-led")
    assert state.next_step().player == "Dee"
    state = run(state, *plays(2, "AD", "QH", "KD", "AC"))  # Ann trumps in with ♥Q
    assert state.current.plays[1].winner == "Ann"
    assert state.current.tricks_won() == {"Cho": 0, "Dee": 1, "Ann": 1, "Ben": 0}
    assert {p: s.points for p, s in state.scores(2).items()} == {
        "Ann": 0,
        "Ben": 10,
        "Cho": 0,
        "Dee": 0,
    }


def ev_step(number, action, player=None):
    from referee.rules import Step

    return Step(number, action, player)


def test_a_card_cannot_be_played_twice_or_be_the_turned_trump():
    state = blackout_round_two()
    state = run(state, *plays(2, "QS", "AS"))
    assert refused(state, ev.Play(2, "QS")).message == "♠Q was already played in round 2."
    assert refused(state, ev.Play(2, "KH")).message == (
        "♥K is the turned trump card: it was not dealt."
    )
    assert refused(state, ev.Play(2, "2C")).message == "♣2 is not in this deck."


def test_a_card_that_is_not_a_card_is_refused_on_its_trick_and_player():
    state = run(blackout_round_two(), *plays(2, "QS"))
    breach = refused(state, ev.Play(2, "1S"))
    assert (breach.rule, breach.round, breach.trick, breach.player) == ("card", 2, 1, "Dee")
    assert breach.message == "'1S' is not a card."


def test_a_card_from_the_wrong_player_is_refused():
    state = blackout_round_two()
    breach = refused(state, ev.Play(2, "QS", player="Ann"))
    assert (breach.rule, breach.message) == ("turn", "It is Cho's turn to play, not Ann's.")


def refused(state, event) -> Breach:
    with pytest.raises(Breach) as caught:
        apply(state, event)
    return caught.value


def test_a_revoke_is_flagged_on_the_trick_where_the_player_showed_out():
    state = blackout_round_two()
    # Cho leads ♠Q; Dee ♠A wins; Ann shows out of spades with ♦K (Ben too, with ♦Q).
    state = run(state, *plays(2, "QS", "AS", "KD", "QD"))
    # Dee leads ♦A; Ann plays ♠K: she had a spade after all, a proven revoke.
    state = run(state, *plays(2, "AD", "KS", "AC", "QC"))
    [revoke] = state.violations
    assert (revoke.rule, revoke.round, revoke.trick, revoke.player) == ("follow-suit", 2, 1, "Ann")
    assert revoke.message == ("Ann showed out of ♠ in trick 1 but played ♠K in trick 2: a revoke.")
    assert state.current.plays_complete  # the card stands; the table decides what to do


def test_a_record_trick_led_by_the_wrong_player_is_reported():
    setup = Setup("blackout", FOUR, {"max_cards": 3})
    events = [
        ev.Trump(1, "AH"),
        *[ev.Bid(1, p, 0) for p in ("Ben", "Cho", "Dee", "Ann")],
        ev.Trick(1, "Cho", ("QS", "KS", "AS", "QD")),
    ]
    state = replay(setup, events, lenient=True)
    assert [(b.rule, b.trick, b.player) for b in state.violations] == [("turn", 1, "Cho")]
    with pytest.raises(Breach):
        replay(setup, events)


def test_a_trick_led_by_the_wrong_player_is_won_by_who_leads_next():
    """Round 2: Ann leads trick 1 instead of Cho, one breach. Its cards, counted from Ann, would
    give it to Ann (♠A), but Dee leads trick 2, so Dee won it — and is not accused of leading
    out of turn. Trick 2 is settled as usual: Ann trumps in with ♥Q."""
    setup = Setup("blackout", FOUR, {"max_cards": 3})
    round_one = [ev.Trump(1, "AH"), *[ev.Bid(1, p, 0) for p in ("Ben", "Cho", "Dee", "Ann")]]
    round_one.append(ev.Trick(1, "Ben", ("QS", "KS", "AS", "QD")))
    round_one.append(ev.Tricks(1, {"Ann": 0, "Ben": 0, "Cho": 0, "Dee": 1}))
    round_two = [ev.Trump(2, "KH"), *[ev.Bid(2, p, 0) for p in ("Cho", "Dee", "Ann", "Ben")]]
    round_two += [
        ev.Trick(2, "Ann", ("AS", "QS", "KS", "QD")),
        ev.Trick(2, "Dee", ("AD", "QH", "KD", "AC")),
    ]
    state = replay(setup, [*round_one, *round_two], lenient=True)
    assert [(b.rule, b.round, b.trick, b.player) for b in state.violations] == [
        ("turn", 2, 1, "Ann")
    ]
    assert [(t.winner, t.why) for t in state.current.plays] == [
        ("Dee", "next-leader"),
        ("Ann", "highest-trump"),
    ]


# --- ebbes: roles from the cards, trump fixed mid-trick ---------------------------------------


def ebbes_first_trick(trump_from):
    """Number 3. Ann leads ♦red 5, Ben shows out with blue 3 (blue turns trump), Cho red 6."""
    state = start(Setup("ebbes", ("Ann", "Ben", "Cho"), {"trump_from": trump_from}))
    return run(state, ev.Number(1, 3), *plays(1, "red-5", "blue-3", "red-6"))


def test_trump_fixed_mid_trick_counts_in_that_trick_by_default():
    trick = ebbes_first_trick("now").current.plays[0]
    assert (trick.winner, trick.why, trick.trump) == ("Ben", "highest-trump", "blue")


def test_trump_from_next_trick_leaves_the_trick_without_trump():
    state = ebbes_first_trick("next-trick")
    trick = state.current.plays[0]
    assert (trick.winner, trick.why, trick.trump) == ("Cho", "highest-led", None)
    # Cho leads red 1, Ann plays blue 6 (trump from now on), Ben yellow 2: Ann's trump wins.
    state = run(state, *plays(1, "red-1", "blue-6", "yellow-2"))
    assert state.current.plays[1].winner == "Ann"


def test_the_cards_of_the_number_fix_the_roles_in_order():
    state = ebbes_first_trick("now")
    state = run(state, *plays(1, "green-3", "yellow-3", "purple-3"))  # Ben leads
    state = run(state, *plays(1, "red-3"))
    roles = state.current.role_map()
    assert roles == {
        "trump": "blue",
        "plus": "green",
        "ebbes": "yellow",
        "minus": "purple",
        "nix": "red",
    }


def test_discards_are_out_of_play_and_go_to_the_last_trick():
    state = start(Setup("ebbes", ("Ann", "Ben", "Cho"), {"discard": True}))
    assert state.game.tricks_in(1) == 9
    state = run(state, ev.Number(1, 1), ev.Discard(1, "Ann", "red-6"))
    assert refused(state, ev.Play(1, "red-6")).message == "red 6 was discarded in round 1."
    assert refused(state, ev.Discard(1, "Ann", "red-5")).rule == "turn"


def test_cards_left_leave_out_played_turned_and_discarded_cards():
    state = blackout_round_two()  # Q K A of each suit; ♥K turned
    state = run(state, *plays(2, "QS", "AS"))
    left = [str(c) for c in state.game.cards_left(state.current)]
    assert "QS" not in left and "AS" not in left and "KH" not in left
    assert len(left) == 12 - 3
    ebbes = start(Setup("ebbes", ("Ann", "Ben", "Cho"), {"discard": True}))
    ebbes = run(ebbes, ev.Number(1, 1), ev.Discard(1, "Ann", "red-6"))
    assert "red-6" not in [str(c) for c in ebbes.game.cards_left(ebbes.current)]


def test_the_results_wait_for_the_trick_under_way():
    """A table stops in the middle of a trick only while its round is under way
    (docs/record-format.md), so the tricks (ebbes: the cards won) are refused until that trick is
    finished."""
    state = run(blackout_round_two(), *plays(2, "QS", "AS"))
    tricks = ev.Tricks(2, {"Ann": 0, "Ben": 1, "Cho": 0, "Dee": 1})
    breach = refused(state, tricks)
    assert (breach.rule, breach.code, breach.round, breach.trick) == (
        "turn",
        "trick-under-way",
        2,
        1,
    )
    assert breach.message == "Trick 1 of round 2 is not finished: its cards come first."
    state = run(state, *plays(2, "KS", "QD"))
    assert run(state, tricks).current.tricks == tricks.tricks
    ebbes = run(ebbes_first_trick("now"), *plays(1, "red-1"))
    won = {
        p: dict.fromkeys(("red", "yellow", "green", "blue", "purple"), 2)
        for p in ("Ann", "Ben", "Cho")
    }
    assert refused(ebbes, ev.Won(1, won)).code == "trick-under-way"
