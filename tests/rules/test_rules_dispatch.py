"""Which entries each game takes, and what the two dealt games (Blackout, Alles oder Nichts)
say about the dealer and the turned trump: the exact breach (class, rule, code, where, params,
message) for each entry a game refuses, strict and in a lenient replay."""

import pytest

from referee.rules import GAMES, Breach, Setup, apply, replay, start
from referee.rules import events as ev

FOUR = ("Ann", "Ben", "Cho", "Dee")
SETUPS = {
    "blackout": Setup("blackout", FOUR, {"max_cards": 3}),
    "alles-oder-nichts": Setup("alles-oder-nichts", FOUR),
    "ebbes": Setup("ebbes", ("Ann", "Ben", "Cho")),
}
#: One entry of each type, as a game that takes it could see it in round 1.
ENTRIES = [
    ev.Dealer(1, "Ann"),
    ev.Trump(1, "H"),
    ev.Bid(1, "Ben", 0),
    ev.Declare(1, "Ben", True, 1),
    ev.Reveal(1, "Ben", 1),
    ev.Starter(1, "Ann"),
    ev.Number(1, 3),
    ev.Designators(1, ("red-1", "blue-1", "green-1", "yellow-1", "black-1")),
    ev.Discard(1, "Ann", "red-1"),
    ev.Designate(1, "red"),
    ev.Won(1, {"Ann": {"red": 1}}),
]
TAKES = {
    "blackout": {"dealer", "trump", "bid"},
    "alles-oder-nichts": {"dealer", "trump", "declare", "reveal"},
    "ebbes": {"starter", "number", "designators", "discard", "designate", "won"},
}


def described(breach: Breach) -> tuple[object, ...]:
    return (
        type(breach).__name__,
        breach.rule,
        breach.code,
        breach.round,
        breach.trick,
        breach.player,
        breach.params,
        breach.message,
    )


def refused(state, event) -> Breach:
    with pytest.raises(Breach) as caught:
        apply(state, event)
    return caught.value


def run(state, *events):
    for event in events:
        state = apply(state, event)
    return state


def foreign(game):
    return [(game, e) for e in ENTRIES if e.type not in TAKES[game]]


@pytest.mark.parametrize(
    ("game", "event"),
    [pair for game in GAMES for pair in foreign(game)],
    ids=lambda x: x if isinstance(x, str) else x.type,
)
def test_an_entry_of_another_game_is_not_one_of_this_game(game, event):
    setup = SETUPS[game]
    title = start(setup).game.title
    expected = (
        "OutOfTurn",
        "turn",
        "no-such-entry",
        None,
        None,
        None,
        {"entry": event.type, "game": title},
        f"{event.type} is not what comes next: {title} has no such entry.",
    )
    assert described(refused(start(setup), event)) == expected
    state = replay(setup, [event], lenient=True)
    assert [described(b) for b in state.violations] == [expected]
    assert len(state.rounds) == 1  # the round began before the entry was refused


def test_an_event_without_a_type_is_no_entry_of_any_game():
    for setup in SETUPS.values():
        breach = refused(start(setup), ev.Event(1))
        assert (breach.code, breach.params["entry"]) == ("no-such-entry", "")


def test_ebbes_refuses_tricks_per_player_with_its_own_reason():
    breach = refused(start(SETUPS["ebbes"]), ev.Tricks(1, {"Ann": 1}))
    assert described(breach) == (
        "OutOfTurn",
        "turn",
        "tricks-not-kept",
        None,
        None,
        None,
        {"game": "ebbes"},
        "Tricks per player is not what comes next: ebbes records the cards won per colour.",
    )


# --- the dealt games: dealer and trump ---------------------------------------------------------

DEALT = ["blackout", "alles-oder-nichts"]


TRUMPS = {"blackout": ("H", "S"), "alles-oder-nichts": ("red", "blue")}
#: How a sentence names each first trump (a suit by its symbol, a colour by its name).
SHOWN = {"H": "♥", "red": "red"}


def bid_entry(game, player):
    return ev.Bid(1, player, 0) if game == "blackout" else ev.Declare(1, player, True, 0)


@pytest.mark.parametrize("game", DEALT)
def test_the_wrong_dealer_is_flagged_and_the_round_goes_on(game):
    expected = (
        "OutOfTurn",
        "dealer",
        "dealer",
        1,
        None,
        "Cho",
        {"expected": "Ann"},
        "Cho did not deal round 1: the deal passes left, so Ann dealt.",
    )
    assert described(refused(start(SETUPS[game]), ev.Dealer(1, "Cho"))) == expected
    events = [ev.Dealer(1, "Cho"), ev.Trump(1, TRUMPS[game][0])]
    state = replay(SETUPS[game], events, lenient=True)
    assert [described(b) for b in state.violations] == [expected]
    assert state.current.trump_colour is not None
    assert run(start(SETUPS[game]), ev.Dealer(1, "Ann")).violations == []
    assert refused(start(SETUPS[game]), ev.Dealer(1, "Zed")).code == "unknown-player"


@pytest.mark.parametrize(("game", "trump"), [("blackout", "X"), ("alles-oder-nichts", "H")])
def test_an_unknown_trump_is_one_breach_not_two(game, trump):
    expected = (
        "IllegalEntry",
        "trump",
        "trump-unknown",
        1,
        None,
        None,
        {"text": trump},
        f"{trump!r} is not a suit, colour or card of this deck.",
    )
    assert described(refused(start(SETUPS[game]), ev.Trump(1, trump))) == expected
    players = SETUPS[game].players
    events = [ev.Trump(1, trump), *[bid_entry(game, p) for p in (*players[1:], players[0])]]
    events.append(ev.Tricks(1, dict.fromkeys(players, 0) | {"Ben": 1}))
    state = replay(SETUPS[game], events, lenient=True)
    assert [b.code for b in state.violations if b.rule == "trump"] == ["trump-unknown"]


@pytest.mark.parametrize("game", DEALT)
def test_a_second_trump_is_refused_strictly_and_replaces_the_first_leniently(game):
    first, second = TRUMPS[game]
    state = run(start(SETUPS[game]), ev.Trump(1, first))
    assert described(refused(state, ev.Trump(1, second))) == (
        "OutOfTurn",
        "turn",
        "trump-twice",
        1,
        None,
        None,
        {"trump": first},
        f"The trump of round 1 is already {SHOWN[first]}.",
    )
    lenient = replay(SETUPS[game], [ev.Trump(1, first), ev.Trump(1, second)], lenient=True)
    assert lenient.violations == [] and lenient.current.trump_colour == second


def test_blackout_wants_the_trump_before_the_bids_alles_takes_it_late():
    blackout = run(start(SETUPS["blackout"]), ev.Trump(1, "H"), ev.Bid(1, "Ben", 0))
    assert described(refused(blackout, ev.Trump(1, "S"))) == (
        "OutOfTurn",
        "turn",
        "trump-twice",
        1,
        None,
        None,
        {"trump": "H"},
        "The trump of round 1 is already ♥.",
    )
    events = [ev.Bid(1, "Ben", 0), ev.Trump(1, "S")]
    assert replay(SETUPS["blackout"], events, lenient=True).current.trump_colour == "S"
    late = (
        "OutOfTurn",
        "turn",
        "trump-after-bids",
        None,
        None,
        None,
        {},
        "The trump is not what comes next: it is turned up before the bids.",
    )
    played = [ev.Bid(1, p, 0) for p in ("Ben", "Cho", "Dee", "Ann")]
    played += [ev.Play(1, "QS"), ev.Trump(1, "S")]
    state = replay(SETUPS["blackout"], played, lenient=True)
    assert described(state.violations[-1]) == late
    alles = [ev.Declare(1, p, True, 0) for p in ("Ben", "Cho", "Dee", "Ann")]
    alles += [ev.Play(1, "red-1"), ev.Trump(1, "blue")]
    state = replay(SETUPS["alles-oder-nichts"], alles, lenient=True)
    assert state.current.trump_colour == "blue"
    assert [b.code for b in state.violations] == ["trump-missing"]


def test_a_whole_deck_round_refuses_a_trump_before_anything_else():
    setup = Setup("blackout", FOUR, {"max_cards": 1})
    expected = (
        "IllegalEntry",
        "trump",
        "trump-whole-deck",
        1,
        None,
        None,
        {},
        "Round 1 deals the whole deck: there is no trump.",
    )
    assert described(refused(start(setup), ev.Trump(1, "H"))) == expected
    after_a_bid = run(start(setup), ev.Bid(1, "Ben", 0))
    assert described(refused(after_a_bid, ev.Trump(1, "H"))) == expected
    state = replay(setup, [ev.Bid(1, "Ben", 0), ev.Trump(1, "H")], lenient=True)
    assert [described(b) for b in state.violations] == [expected]


@pytest.mark.parametrize("game", DEALT)
def test_play_without_a_trump_or_before_every_bid(game):
    players = SETUPS[game].players
    card = "QS" if game == "blackout" else "red-1"
    trump = TRUMPS[game][0]
    no_trump = refused(start(SETUPS[game]), ev.Play(1, card))
    assert described(no_trump) == (
        "IllegalEntry",
        "trump",
        "trump-missing",
        1,
        None,
        None,
        {},
        "Round 1 needs a trump.",
    )
    state = run(start(SETUPS[game]), ev.Trump(1, trump), bid_entry(game, "Ben"))
    assert described(refused(state, ev.Play(1, card))) == (
        "Missing",
        "missing",
        "missing-bids-first",
        1,
        None,
        None,
        {},
        "All bids of round 1 are needed before the tricks.",
    )
    events = [*[bid_entry(game, p) for p in (*players[1:], players[0])]]
    events += [ev.Play(1, card), ev.Tricks(1, dict.fromkeys(players, 0) | {"Ben": 1})]
    lenient = replay(SETUPS[game], events, lenient=True)
    assert [b.code for b in lenient.violations if b.rule == "trump"] == ["trump-missing"]
