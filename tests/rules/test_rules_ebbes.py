"""ebbes, rule by rule (docs/rules.md, "ebbes"), entering designations and cards won by hand."""

import pytest

from referee.rules import Breach, Setup, apply, replay, start
from referee.rules import events as ev
from referee.rules.ebbes import ebbes_bonus

THREE = ("Ann", "Ben", "Cho")

#: A legal round-end for 3 players: each colour 6 cards, each player a whole number of tricks.
WON = {
    "Ann": {"red": 2, "yellow": 3, "green": 3, "blue": 1, "purple": 3},
    "Ben": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "purple": 1},
    "Cho": {"red": 2, "yellow": 1, "green": 1, "blue": 3, "purple": 2},
}
ROLES = ("red", "yellow", "green", "blue")  # trump, plus, ebbes, minus; purple is nix


def run(state, *events):
    for event in events:
        state = apply(state, event)
    return state


def table(players=THREE, **options):
    return start(Setup("ebbes", players, options))


def refused(state, event) -> Breach:
    with pytest.raises(Breach) as caught:
        apply(state, event)
    return caught.value


def round_by_hand(state, number, card, won=WON, roles=ROLES):
    state = run(state, ev.Number(number, card), *[ev.Designate(number, c) for c in roles])
    return run(state, ev.Won(number, won))


@pytest.mark.parametrize(
    ("counts", "scorers"),
    [
        ((3, 2, 1), [1]),  # the middle one scores
        ((3, 3, 0), []),  # tied for most and fewest: nobody
        ((2, 2, 2), []),  # everyone the same: nobody
        ((4, 2, 2, 0), [1, 2]),  # both 2s score
        ((0, 1, 2, 2, 3), [1, 2, 3]),  # a player with none is among the fewest
    ],
)
def test_ebbes_bonus_goes_to_neither_most_nor_fewest(counts, scorers):
    names = [f"P{i}" for i in range(len(counts))]
    bonus = ebbes_bonus(dict(zip(names, counts, strict=True)))
    assert [i for i, name in enumerate(names) if bonus[name]] == scorers


@pytest.mark.parametrize(
    ("players", "extended", "cards", "per_colour"),
    [
        (3, False, 10, 6),
        (4, False, 10, 8),
        (5, False, 10, 10),
        (3, True, 15, 9),
        (4, True, 15, 12),
        (5, True, 15, 15),
    ],
)
def test_deck_and_hand_sizes(players, extended, cards, per_colour):
    game = table(tuple(f"P{i}" for i in range(players)), extended=extended).game
    assert game.schedule == [cards] * 5
    assert game.deck.count("red") == per_colour


def test_scores_plus_minus_ebbes_and_nix():
    state = round_by_hand(table(), 1, 2)
    scores = state.scores(1)
    assert {p: s.points for p, s in scores.items()} == {"Ann": 2, "Ben": 3, "Cho": -2}
    assert scores["Ben"].explain() == (
        "2 yellow cards, the plus colour: +1 each → +2; "
        "2 green cards, the ebbes colour: neither the most (3) nor the fewest (1) → +3; "
        "2 blue cards, the minus colour: −1 each → −2"
    )
    assert state.current.role_map() == {
        "trump": "red",
        "plus": "yellow",
        "ebbes": "green",
        "minus": "blue",
        "nix": "purple",
    }
    assert state.game.nix_majority(state, state.current) == ["Ann"]


def test_nix_majority_chooses_the_next_starter():
    state = round_by_hand(table(), 1, 2)
    assert state.next_step().action == "starter"
    breach = refused(state, ev.Starter(2, "Cho", chosen_by="Ben"))
    assert (breach.rule, breach.message) == (
        "starter",
        "Ben could not choose the starter: only Ann had the most nix cards.",
    )
    state = run(state, ev.Starter(2, "Cho", chosen_by="Ann"))
    assert state.current.leader == "Cho" and state.next_step().action == "number"


def test_each_number_card_once_a_game():
    state = round_by_hand(table(), 1, 2)
    state = run(state, ev.Starter(2, "Ben"))
    breach = refused(state, ev.Number(2, 2))
    assert breach.message == "The number card 2 was already used in round 1."
    assert state.game.open_numbers(state) == [1, 3, 4, 5]
    assert refused(state, ev.Number(2, 7)).message == "7 is not a number card: they show 1 to 5."


def test_each_designation_is_a_new_colour_and_only_four():
    state = run(table(), ev.Number(1, 3), ev.Designate(1, "red"))
    assert refused(state, ev.Designate(1, "RED")).message == "red already has a role in round 1."
    state = run(state, *[ev.Designate(1, c) for c in ("blue", "green", "yellow")])
    assert state.current.role_map()["nix"] == "purple"
    assert refused(state, ev.Designate(1, "purple")).rule == "designation"


def test_cards_won_must_be_whole_tricks_and_colour_totals():
    state = run(table(), ev.Number(1, 1), *[ev.Designate(1, c) for c in ROLES])
    bad = {p: dict(c) for p, c in WON.items()}
    bad["Ann"]["red"] += 1  # 7 red cards in all, and Ann's 13 cards are not whole tricks
    breach = refused(state, ev.Won(1, bad))
    assert breach.rule in {"trick-total", "colour-total"}


def test_scoring_colours_must_be_given_for_everyone():
    state = run(table(), ev.Number(1, 1), *[ev.Designate(1, c) for c in ROLES])
    partial = {p: {c: n for c, n in counts.items() if c != "green"} for p, counts in WON.items()}
    breach = refused(state, ev.Won(1, partial))
    assert breach.message == "Ann's green cards won in round 1 are missing."


def test_five_rounds_then_the_highest_total_wins():
    state = table()
    for number in range(1, 6):
        if number > 1:
            state = run(state, ev.Starter(number, "Ben", chosen_by="Ann"))
        state = round_by_hand(state, number, number)
    assert state.complete and state.next_step() is None
    assert state.totals() == {"Ann": 10, "Ben": 15, "Cho": -10}
    assert state.winners() == ["Ben"]


def test_placed_designators_variant_needs_five_cards_one_per_colour():
    state = table(variant="placed-designators")
    assert state.next_step().action == "designators"
    assert refused(state, ev.Number(1, 2)).rule == "number"
    two_reds = ("red-1", "red-2", "green-3", "blue-4", "purple-5")
    assert refused(state, ev.Designators(1, two_reds)).rule == "designation"
    state = run(state, ev.Designators(1, ("red-1", "yellow-2", "green-3", "blue-4", "purple-5")))
    assert state.next_step().action == "play"


#: Discards that lay aside number cards 2: one (red's), or two (red's and yellow's). A colour
#: whose number card is not played gets no role (docs/rules.md: "only possible with discards").
ONE_TWO_ASIDE = {"Ann": "red-2", "Ben": "yellow-5", "Cho": "green-5"}
TWO_TWOS_ASIDE = {"Ann": "red-2", "Ben": "yellow-2", "Cho": "green-5"}


@pytest.mark.parametrize(
    ("options", "discards", "roles", "must_have"),
    [
        # every colour's 2 is played: four roles, none of them may be left out
        ({}, {}, ROLES, 4),
        ({}, {}, ROLES[:3], 4),
        ({}, {}, (), 4),
        # one 2 laid aside: still four 2s played, and the colour laid aside is nix
        ({"discard": True}, ONE_TWO_ASIDE, ("yellow", "green", "blue", "purple"), 4),
        ({"discard": True}, ONE_TWO_ASIDE, ("yellow", "green", "blue"), 4),
        # two 2s laid aside: three roles, minus never assigned and no nix
        ({"discard": True}, TWO_TWOS_ASIDE, ("green", "blue", "purple"), 3),
        ({"discard": True}, TWO_TWOS_ASIDE, ("green", "blue"), 3),
        # the discards not recorded: the record cannot tell how many 2s were played
        ({"discard": True}, {}, ("green", "blue"), None),
    ],
    ids=[
        "four",
        "three of four",
        "none of four",
        "one aside, four",
        "one aside, three of four",
        "two aside, three",
        "two aside, two of three",
        "discards unknown, two",
    ],
)
def test_a_round_that_leaves_out_a_role_its_number_cards_fix_is_a_breach_and_not_scored(
    options, discards, roles, must_have
):
    """Cards won given by hand with fewer designations than the number cards in play fix: one
    ``missing`` breach, and the round is not scored (scored as if the roles left out had no
    colour, it would drop cards the rules count). At the table the cards won are refused until
    the designations are in."""
    events = [
        ev.Number(1, 2),
        *[ev.Discard(1, player, card) for player, card in discards.items()],
        *[ev.Designate(1, colour) for colour in roles],
    ]
    won = ev.Won(1, WON)
    checked = replay(Setup("ebbes", THREE, options), [*events, won], lenient=True)
    found = [(b.rule, b.code) for b in checked.violations]
    at_the_table = run(table(**options), *events)
    if must_have is not None and len(roles) < must_have:
        assert found == [("missing", "missing-designations")]
        assert checked.scores(1) is None
        breach = refused(at_the_table, won)
        assert (breach.rule, breach.message) == (
            "missing",
            f"Round 1 names {len(roles)} of the {must_have} colour designations it must have.",
        )
    else:
        assert found == []
        assert checked.scores(1) is not None
        assert run(at_the_table, won).scores(1) == checked.scores(1)
