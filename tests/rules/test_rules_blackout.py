"""Blackout, rule by rule (docs/rules.md, "Blackout"), through the strict engine API."""

import pytest

from referee.rules import Breach, Setup, apply, replay, start
from referee.rules import events as ev
from referee.rules.blackout import hand_sizes, prefix_one

FOUR = ("Ann", "Ben", "Cho", "Dee")


def table(players=FOUR, **options):
    return start(Setup("blackout", players, options))


def run(state, *events):
    for event in events:
        state = apply(state, event)
    return state


def bids(number, **by_player):
    return [ev.Bid(number, name, bid) for name, bid in by_player.items()]


def refused(state, event) -> Breach:
    with pytest.raises(Breach) as caught:
        apply(state, event)
    return caught.value


# --- players, deck and schedule -------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "top", "rounds"), [(2, 26, 51), (3, 17, 33), (4, 13, 25), (5, 10, 19), (8, 6, 11)]
)
def test_max_is_52_divided_by_players_and_rounds_go_up_and_down(count, top, rounds):
    game = table(tuple(f"P{i}" for i in range(count))).game
    assert max(game.schedule) == top
    assert game.round_count == rounds == 2 * top - 1


@pytest.mark.parametrize(
    ("sequence", "sizes"),
    [
        ("up-down", [1, 2, 3, 2, 1]),
        ("up-down-double", [1, 2, 3, 3, 2, 1]),
        ("down-up", [3, 2, 1, 2, 3]),
        ("up", [1, 2, 3]),
        ("down", [3, 2, 1]),
    ],
)
def test_sequences(sequence, sizes):
    assert hand_sizes(sequence, 3) == sizes
    assert table(sequence=sequence, max_cards=3).game.schedule == sizes


@pytest.mark.parametrize("count", [1, 9])
def test_two_to_eight_players(count):
    with pytest.raises(Breach) as caught:
        table(tuple(f"P{i}" for i in range(count)))
    assert caught.value.rule == "players"


@pytest.mark.parametrize("names", [("Ann", "ann", "Ben"), ("Ann", " ", "Ben")])
def test_names_must_differ_and_not_be_empty(names):
    with pytest.raises(Breach) as caught:
        table(names)
    assert caught.value.rule == "players"


# --- dealer, trump, bidding order -----------------------------------------------------------


def test_deal_passes_left_and_bidding_starts_left_of_the_dealer():
    state = table()
    assert [state.game.new_round(state, n).dealer for n in (1, 2, 3, 4, 5)] == [
        "Ann",
        "Ben",
        "Cho",
        "Dee",
        "Ann",
    ]
    state = run(state, ev.Trump(1, "H"))
    assert state.next_step().player == "Ben"
    state = run(state, *bids(1, Ben=0, Cho=0, Dee=0))
    assert state.next_step().player == "Ann"  # the dealer bids last


def test_first_dealer_chosen_at_setup():
    state = start(Setup("blackout", FOUR, {}, first="Cho"))
    assert state.game.new_round(state, 1).dealer == "Cho"
    assert state.game.upcoming(state).leader == "Dee"  # left of the dealer leads


def test_bid_out_of_turn_is_refused():
    state = run(table(), ev.Trump(1, "H"))
    breach = refused(state, ev.Bid(1, "Cho", 0))
    assert breach.message == "It is Ben's turn to bid, not Cho's."


def test_trump_comes_before_the_bids():
    assert refused(table(), ev.Bid(1, "Ben", 0)).message == (
        "Turn up the trump for round 1 before the bids."
    )


def test_whole_deck_round_has_no_trump():
    state = table(max_cards=1)  # 4 × 1 card: round 1 deals the whole deck
    assert state.next_step().action == "bid"
    breach = refused(state, ev.Trump(1, "H"))
    assert (breach.rule, breach.message) == (
        "trump",
        "Round 1 deals the whole deck: there is no trump.",
    )


@pytest.mark.parametrize("trump", ["X", "1H", "red"])
def test_trump_must_be_a_suit_or_card_of_the_deck(trump):
    assert refused(table(), ev.Trump(1, trump)).rule == "trump"


def test_trump_card_removed_from_the_trimmed_deck_is_refused():
    # 4 players, max 3: only Q, K, A are in the deck.
    assert refused(table(max_cards=3), ev.Trump(1, "2H")).rule == "trump"


# --- bids and the hook ----------------------------------------------------------------------


@pytest.mark.parametrize("bid", [-1, 2, 99])
def test_a_bid_is_zero_to_the_hand_size(bid):
    state = run(table(), ev.Trump(1, "H"))
    breach = refused(state, ev.Bid(1, "Ben", bid))
    assert breach.rule == "bid-range"
    shown = str(bid).replace("-", "\u2212")  # a minus sign, as people read it
    assert breach.message == f"Ben cannot bid {shown}: a bid is 0 to 1 in round 1."


def test_the_hook_example():
    # 5 cards each (the whole 20-card deck, so no trump), Ann deals; bids 2 + 1 + 0 so far:
    # the dealer may not bid 2.
    state = start(Setup("blackout", FOUR, {"max_cards": 5, "sequence": "down"}))
    state = run(state, *bids(1, Ben=2, Cho=1, Dee=0))
    allowed = dict(state.game.allowed_bids(state, "Ann"))
    assert [b for b, why in allowed.items() if why is not None] == [2]
    breach = allowed[2]
    assert (breach.rule, breach.player) == ("hook", "Ann")
    assert breach.message == (
        "Ann (the dealer) cannot bid 2: the bids would add up to 5, the number of tricks."
    )


def test_hook_allows_everything_when_the_others_already_exceed_the_hand():
    state = run(table(), ev.Trump(1, "S"), *bids(1, Ben=1, Cho=1, Dee=0))
    assert all(why is None for _, why in state.game.allowed_bids(state, "Ann"))


def test_a_bid_out_of_range_does_not_put_the_dealer_on_the_hook():
    """Ben's -1 (a bid-range breach), Cho's 1 and Ann's 1 make 1, the hand size: Ann is not accused
    because of Ben's bid (docs/record-format.md, "One bad entry, one breach")."""
    events = [ev.Trump(1, "S"), *bids(1, Ben=-1, Cho=1, Dee=0, Ann=1)]
    state = replay(Setup("blackout", FOUR), events, lenient=True)
    assert [(b.rule, b.player) for b in state.violations] == [("bid-range", "Ben")]


def test_hook_off_allows_the_even_bid():
    state = run(table(hook=False), ev.Trump(1, "S"), *bids(1, Ben=0, Cho=0, Dee=0))
    state = run(state, ev.Bid(1, "Ann", 1))
    assert state.current.bids["Ann"] == 1


# --- tricks and scoring ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "score"), [(0, 10), (3, 13), (9, 19), (10, 110), (11, 111), (26, 126)]
)
def test_prefix_one(bid, score):
    assert prefix_one(bid) == score


def round_one(state, tricks, **bid_by_player):
    state = run(state, ev.Trump(1, "H"), *bids(1, **bid_by_player))
    return run(state, ev.Tricks(1, tricks))


def test_exact_bids_score_with_a_one_in_front_and_misses_are_blacked_out():
    state = round_one(table(), {"Ann": 1, "Ben": 0, "Cho": 0, "Dee": 0}, Ben=1, Cho=0, Dee=0, Ann=1)
    scores = state.scores(1)
    assert {p: s.points for p, s in scores.items()} == {"Ann": 11, "Ben": 0, "Cho": 10, "Dee": 10}
    assert scores["Ben"].explain() == "bid 1, took 0: blacked out → 0"
    assert state.totals() == {"Ann": 11, "Ben": 0, "Cho": 10, "Dee": 10}


def test_ten_plus_bid_scoring():
    state = round_one(
        table(scoring="ten-plus-bid"),
        {"Ann": 1, "Ben": 0, "Cho": 0, "Dee": 0},
        Ben=1,
        Cho=0,
        Dee=0,
        Ann=1,
    )
    assert {p: s.points for p, s in state.scores(1).items()} == {
        "Ann": 11,
        "Ben": 0,
        "Cho": 10,
        "Dee": 10,
    }
    assert state.scores(1)["Cho"].explain() == "bid 0, took 0: 10 + 0 → 10"


def test_tricks_must_add_up_to_the_hand_size():
    state = run(table(), ev.Trump(1, "H"), *bids(1, Ben=1, Cho=1, Dee=0, Ann=0))
    breach = refused(state, ev.Tricks(1, {"Ann": 1, "Ben": 1, "Cho": 0, "Dee": 0}))
    assert (breach.rule, breach.message) == (
        "trick-total",
        "The tricks won add up to 2; round 1 has 1 trick.",
    )


def test_tricks_need_every_bid_first():
    state = run(table(), ev.Trump(1, "H"), *bids(1, Ben=1))
    assert refused(state, ev.Tricks(1, {"Ann": 1, "Ben": 0, "Cho": 0, "Dee": 0})).rule == (
        "missing"
    )


def test_stale_entry_for_a_finished_round_is_refused():
    state = round_one(table(), {"Ann": 1, "Ben": 0, "Cho": 0, "Dee": 0}, Ben=1, Cho=0, Dee=0, Ann=1)
    breach = refused(state, ev.Bid(1, "Ben", 0))
    assert breach.message == "Round 1 is over; the table is in round 2."
    assert state.next_step() == ev_step(2, "trump")


def ev_step(number, action, player=None):
    from referee.rules import Step

    return Step(number, action, player)


def two_player_game(rounds):
    """Replay a 2-player, max 2 game (1, 2, 1 cards) from (bids, tricks) per round."""
    events = []
    for number, (bid_map, trick_map) in enumerate(rounds, start=1):
        if number != 2:  # round 2 deals the whole 4-card deck: no trump
            events.append(ev.Trump(number, "S"))
        dealer = ("Ann", "Ben")[(number - 1) % 2]
        order = [p for p in ("Ann", "Ben") if p != dealer] + [dealer]
        events += [ev.Bid(number, p, bid_map[p]) for p in order]
        events.append(ev.Tricks(number, trick_map))
    return replay(Setup("blackout", ("Ann", "Ben"), {"max_cards": 2}), events)


def test_a_full_game_ends_with_the_highest_total_winning():
    state = two_player_game(
        [
            ({"Ann": 0, "Ben": 0}, {"Ann": 0, "Ben": 1}),  # Ann 10, Ben 0
            ({"Ann": 0, "Ben": 1}, {"Ann": 1, "Ben": 1}),  # Ann 0, Ben 11
            ({"Ann": 0, "Ben": 0}, {"Ann": 0, "Ben": 1}),  # Ann 10, Ben 0
        ]
    )
    assert state.complete and state.next_step() is None
    assert state.totals() == {"Ann": 20, "Ben": 11}
    assert state.winners() == ["Ann"]


def test_a_tie_is_a_shared_win():
    state = two_player_game(
        [
            ({"Ann": 0, "Ben": 0}, {"Ann": 0, "Ben": 1}),  # Ann 10, Ben 0
            ({"Ann": 0, "Ben": 1}, {"Ann": 0, "Ben": 2}),  # Ann 10, Ben 0
            ({"Ann": 0, "Ben": 0}, {"Ann": 1, "Ben": 0}),  # Ann 0, Ben 10
        ]
    )
    assert state.totals() == {"Ann": 20, "Ben": 10}
    state = two_player_game(
        [
            ({"Ann": 0, "Ben": 0}, {"Ann": 0, "Ben": 1}),  # Ann 10, Ben 0
            ({"Ann": 1, "Ben": 0}, {"Ann": 0, "Ben": 2}),  # Ann 0, Ben 0
            ({"Ann": 0, "Ben": 0}, {"Ann": 1, "Ben": 0}),  # Ann 0, Ben 10
        ]
    )
    assert state.totals() == {"Ann": 10, "Ben": 10}
    assert state.winners() == ["Ann", "Ben"]


def test_apply_never_changes_the_state_it_was_given():
    state = run(table(), ev.Trump(1, "H"))
    after = apply(state, ev.Bid(1, "Ben", 1))
    assert "Ben" not in state.current.bids and after.current.bids["Ben"] == 1
