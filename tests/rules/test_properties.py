"""Property tests: random legal games, and broken records, through the referee.

``tests/simulate.py`` deals and plays random legal games of every game and option and scores them
itself, from docs/rules.md, without the engine. Here those games go through the engine three ways
(the lenient record replay, the ``check --json`` report, the strict API) and must come out legal,
with the simulator's trick winners and scores. Corrupted records and random JSON must never crash
the referee: exit 1 or 2 (0 if the corruption happens to be legal), and a well-formed report.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.records import export_record, parse_record
from referee.records.check import check_text
from referee.rules import Breach, Ebbes, State, Step, apply, replay, start
from referee.rules import events as ev
from tests import simulate as sim

SEEDS = st.integers(0, 2**32 - 1)
DETAILS = st.sampled_from(sim.DETAILS)

#: Every option combination (Blackout's ``max_cards`` and the player counts are drawn per example;
#: an Alles oder Nichts case is how many colours a custom deck has, ``None`` the default deck).
BLACKOUT_CASES = [
    ("blackout", {"sequence": sequence, "hook": hook, "scoring": scoring})
    for sequence in sim.BLACKOUT_SEQUENCES
    for hook in (True, False)
    for scoring in ("prefix-one", "ten-plus-bid")
]
ALLES_CASES = [
    ("alles-oder-nichts", colours) for colours in (None, 1, 2, 3, 4, 6, 8, 12, 16, 24, 48)
]
EBBES_CASES = [
    (
        "ebbes",
        {"extended": extended, "variant": variant, "discard": discard, "trump_from": trump_from},
    )
    for extended in (False, True)
    for variant in ("standard", "placed-designators")
    for discard in (False, True)
    for trump_from in ("now", "next-trick")
]
CASES: list[tuple[str, Any]] = [
    ("blackout", {}),
    ("ebbes", {}),
    *BLACKOUT_CASES,
    *ALLES_CASES,
    *EBBES_CASES,
]

#: The rule ids and report keys docs/record-format.md documents.
# fmt: off
RULE_IDS = {"players", "round-count", "missing", "dealer", "bid-range", "hook", "bid-above-hand",
            "trick-total", "trump", "number", "designation", "colour-total", "starter", "card",
            "turn", "follow-suit", "plays", "end", "seats"}
REPORT_KEYS = {"game", "players", "start_points", "complete", "ended_after", "round_count",
               "rounds", "totals", "winners", "violations", "warnings"}
# fmt: on

#: ``PROPERTY_SCALE=20 pytest …`` runs every property with 20 times the examples (a long hunt).
SCALE = int(os.environ.get("PROPERTY_SCALE", "1"))


def examples(count: int) -> settings:
    return settings(
        max_examples=count * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


FEW = examples(5)


def case_id(case: Any) -> str:
    if isinstance(case, dict):
        return "-".join(str(v) for v in case.values()) or "defaults"
    return "default-deck" if case is None else str(case)


# --- drawing a game -------------------------------------------------------------------------


def draw_game(data: st.DataObject, game: str, case: Any, seed: int) -> sim.Game:
    """A random legal game for one case; the player count (and Blackout's ``max_cards``) drawn."""
    rng = random.Random(seed)
    low, high = sim.PLAYER_RANGE[game]
    players = data.draw(st.integers(low, high), label="players")
    options = dict(case) if isinstance(case, dict) else {}
    if game == "blackout" and data.draw(st.booleans(), label="smaller max_cards"):
        options["max_cards"] = data.draw(st.integers(1, 52 // players), label="max_cards")
    if game == "alles-oder-nichts" and case is not None:
        options = sim.alles_options(rng, case)
    return sim.simulate(rng, game, players, options)


def draw_record(
    data: st.DataObject,
    game: str,
    case: Any,
    seed: int,
    details: st.SearchStrategy[str] = DETAILS,
    tidy: bool = False,
) -> tuple[sim.Game, dict[str, Any]]:
    """A random legal game and its record, in a drawn level of detail and (unless ``tidy``)
    spelling."""
    truth = draw_game(data, game, case, seed)
    detail = data.draw(details, label="detail")
    messy = not tidy and data.draw(st.booleans(), label="messy spelling")
    return truth, sim.to_record(truth, random.Random(seed + 1), detail, messy)


# --- what the engine must agree on ------------------------------------------------------------


def engine_cards(rnd: Any) -> list[str]:
    return [str(card) for trick in rnd.plays for _, card in trick.cards]


def check_round(state: State, truth: sim.Game, number: int) -> None:
    """One replayed round against the simulator: scores, tricks or cards won, each trick's
    winner, every card played once."""
    rnd, real = state.rounds[number - 1], truth.rounds[number - 1]
    players = truth.players
    scores = state.scores(number)
    assert scores is not None
    assert {p: s.points for p, s in scores.items()} == real.scores
    if rnd.plays:
        assert [t.winner for t in rnd.plays] == [t.winner for t in real.tricks]
        cards = engine_cards(rnd)
        assert len(cards) == len(set(cards)) == len(real.tricks) * len(players)
        french = truth.name == "blackout"
        assert sorted(cards) == sorted(
            sim.card_text(c, french) for t in real.tricks for c in t.cards
        )
    if truth.name == "ebbes":
        check_ebbes_round(state, rnd, real, players)
    else:
        tricks = rnd.tricks_won()
        assert tricks == real.tricks_won(players)
        assert sum(tricks.values()) == rnd.tricks_total == real.cards_each


def check_ebbes_round(state: State, rnd: Any, real: sim.Round, players: tuple[str, ...]) -> None:
    """The cards won (every colour adds up to the deck's), the roles and the nix majority."""
    assert isinstance(state.game, Ebbes)
    won = state.game.won_of(rnd)
    assert won is not None
    for player in players:
        for colour, count in won[player].items():
            assert count == real.won[player][colour]
    deck = state.game.deck
    for colour in sim.EBBES_COLOURS:
        if all(colour in won[p] for p in players):
            assert sum(won[p][colour] for p in players) == deck.count(colour)
        assert sum(real.won[p][colour] for p in players) == deck.count(colour)
    if rnd.plays:
        one_laid_aside = 1 if real.discards else 0
        assert len(rnd.plays) == len(real.tricks) == real.cards_each - one_laid_aside
    roles = rnd.role_map()
    assert [roles[r] for r in sim.EBBES_ROLES if roles[r]] == real.designations
    assert roles["nix"] == sim.nix_colour(real.designations)
    assert (state.game.nix_majority(state, rnd) or []) == real.nix_majority


def check_report(report: dict[str, Any], truth: sim.Game) -> None:
    """The ``check --json`` report of a legal game: no breaches, the simulator's scores."""
    assert report["violations"] == []
    assert report["complete"] is True
    assert [r["scores"] for r in report["rounds"]] == [r.scores for r in truth.rounds]
    assert report["totals"] == truth.totals()
    best = max(report["totals"].values())
    assert report["winners"] == [p for p in truth.players if report["totals"][p] == best]
    assert report["winners"] == truth.winners()
    for entry, real in zip(report["rounds"], truth.rounds, strict=True):
        assert entry["hand_size"] == len(real.tricks)
        if truth.name == "ebbes":
            assert entry["starter"] == real.leader
            assert entry["nix_majority"] == real.nix_majority
            roles = [entry["roles"][role] for role in sim.EBBES_ROLES]
            assert [c for c in roles if c is not None] == real.designations
            assert entry["roles"]["nix"] == sim.nix_colour(real.designations)
        else:
            assert entry["dealer"] == real.dealer
            trump = real.trump_card
            assert entry["trump"] in (
                [None]
                if trump is None
                else [trump.colour, sim.card_text(trump, trump.colour in "SHDC")]
            )
    warned = [(w["rule"], w["round"], w["player"]) for w in report["warnings"]]
    assert sorted(warned) == sorted(
        ("bid-above-hand", real.number, player)
        for real in truth.rounds
        for player, bid in real.bids.items()
        if truth.name == "alles-oder-nichts" and bid > real.cards_each
    )


# --- legal games ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_legal_game_is_legal_and_scored_like_the_rule_book(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """Replayed from its record and checked with ``check --json``: no breach, complete, every
    trick's winner, the tricks or cards won and every round's scores as the simulator has them."""
    truth, doc = draw_record(data, game, case, seed)
    state = parse_record(doc).replay()
    assert [b.message for b in state.violations] == []
    assert state.complete
    for number in range(1, len(truth.rounds) + 1):
        check_round(state, truth, number)
    assert state.totals() == truth.totals()
    assert state.winners() == truth.winners()
    status, out = check_text(json.dumps(doc), as_json=True)
    assert status == 0, out
    check_report(json.loads(out), truth)


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_strict_api_accepts_a_legal_game(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """``replay`` without ``lenient`` raises nothing: results given beside the plays (when they
    agree) are confirmations, not entries out of turn."""
    truth, doc = draw_record(data, game, case, seed)
    record = parse_record(doc)
    state = replay(record.setup, record.events)
    assert state.complete
    assert state.totals() == truth.totals()


def card_by_card(events: tuple[ev.Event, ...], players: tuple[str, ...]) -> list[ev.Event]:
    """The record's whole tricks as a live table enters them: one ``Play`` per card, by whom."""
    out: list[ev.Event] = []
    for event in events:
        if isinstance(event, ev.Trick):
            seat = players.index(event.leader)
            out += [
                ev.Play(event.round, card, players[(seat + i) % len(players)])
                for i, card in enumerate(event.cards)
            ]
        else:
            out.append(event)
    return out


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_live_table_is_asked_for_each_entry_in_turn(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """Entered one step at a time (``apply``), every bid, declaration and card is the one
    ``next_step`` asks for, and the table ends where the simulator did."""
    truth, doc = draw_record(data, game, case, seed)
    record = parse_record(doc)
    state = start(record.setup)
    for event in card_by_card(record.events, truth.players):
        if isinstance(event, (ev.Bid, ev.Declare, ev.Play)):
            assert state.next_step() == Step(event.round, event.type, event.player)
        state = apply(state, event)
    assert state.next_step() is None
    assert state.totals() == truth.totals()
    for rnd, real in zip(state.rounds, truth.rounds, strict=True):
        assert [t.winner for t in rnd.plays] in ([], [t.winner for t in real.tricks])


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_export_import_export_is_stable(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """``export_record`` of a replayed record, read back in and exported again, is unchanged."""
    _, doc = draw_record(data, game, case, seed)
    once = export_record(parse_record(doc).replay())
    twice = export_record(parse_record(once).replay())
    assert twice == once
    assert json.loads(json.dumps(once)) == once


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_game_in_progress_is_legal_and_not_complete(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """A record stopped part-way (the last round may be unfinished) keeps the rules, has no
    winners yet, and the strict API takes it too."""
    truth, doc = draw_record(data, game, case, seed)
    doc = sim.in_progress(truth, doc, random.Random(seed))
    done = len(doc["rounds"]) - 1
    status, out = check_text(json.dumps(doc), as_json=True)
    report = json.loads(out)
    assert status == 0, out
    assert report["complete"] is False
    assert report["winners"] == []
    scores = [r.scores for r in truth.rounds[:done]]
    assert [r["scores"] for r in report["rounds"]] == [*scores, None]
    assert report["totals"] == {p: sum(s[p] for s in scores) for p in truth.players}
    record = parse_record(doc)
    replay(record.setup, record.events)
    once = export_record(record.replay())
    assert export_record(parse_record(once).replay()) == once


@pytest.mark.parametrize(("game", "case"), CASES[:2] + ALLES_CASES[:1], ids=case_id)
@FEW
@given(seed=SEEDS, data=st.data(), extra=st.integers(1, 3))
def test_rounds_beyond_the_last_are_reported_once(
    game: str, case: Any, seed: int, data: st.DataObject, extra: int
) -> None:
    """Copies of rounds after the last: one ``round-count`` breach, the real rounds as scored."""
    truth, doc = draw_record(data, game, case, seed)
    doc["rounds"] += copy.deepcopy(doc["rounds"][:extra])
    status, out = check_text(json.dumps(doc), as_json=True)
    report = json.loads(out)
    assert status == 1
    assert [v["rule"] for v in report["violations"]] == ["round-count"]
    assert [r["scores"] for r in report["rounds"]] == [r.scores for r in truth.rounds]
    assert report["totals"] == truth.totals()


def test_colour_names_are_read_case_insensitively_beyond_ascii() -> None:
    """Found by this file: colours were matched with ``str.lower``, so ``"WEISS"`` was not the
    colour ``"weiß"``."""
    doc = {
        "format": sim.FORMAT,
        "game": "alles-oder-nichts",
        "players": ["Ann", "Ben", "Cho"],
        "options": {"colours": ["weiß", "rot", "blau", "grün"], "values": 12},
        "rounds": [{"trump": "WEISS"}],
    }
    assert check_text(json.dumps(doc))[0] == 0


def test_benchmark_record_is_a_full_legal_game() -> None:
    """The benchmark's record: the same for a seed, 33 rounds, 867 cards, checks clean."""
    doc = sim.benchmark_record(seed=3)
    assert doc == sim.benchmark_record(seed=3)
    assert len(doc["rounds"]) == 33
    assert sum(len(t["cards"]) for r in doc["rounds"] for t in r["plays"]) == 17 * 17 * 3
    status, out = check_text(json.dumps(doc), as_json=True)
    assert status == 0
    assert json.loads(out)["complete"] is True


# --- breaches the referee must report ---------------------------------------------------------

UNKNOWN: Any = object()


@dataclass(frozen=True)
class Expected:
    """A breach put into a legal record: the rule, round (and player, trick) it must be reported
    with, ``times`` times. ``only``: it is the sole breach, and no warning is given about the same
    entry. ``scores``: the round's scores the entries now give (None: unscorable). ``proven_by``:
    the trick whose cards prove the breach; if the breach made in the record leaves that trick
    led by someone other than the cards say had to lead it, whose card is whose in it is not
    known (``docs/record-format.md``), so the breach is not proven and the example is not one.
    ``incomplete``: the breach is the sole one (warnings of the legal game aside) and leaves its
    round, and so the game, not complete (no winners)."""

    rule: str
    round: int
    player: str | None = None
    trick: int | None = None
    times: int = 1
    only: bool = False
    scores: Any = UNKNOWN
    proven_by: int | None = None
    incomplete: bool = False


Maker = Callable[[sim.Game, dict[str, Any], random.Random], Expected | None]
BREACHES: list[Any] = []


def breach(game: str, case: Any, detail: str) -> Callable[[Maker], Maker]:
    """Register a breach maker for a game, with the record detail it works on."""

    def register(maker: Maker) -> Maker:
        BREACHES.append(pytest.param(game, case, detail, maker, id=f"{maker.__name__}-{game}"))
        return maker

    return register


def entry_of(doc: dict[str, Any], rnd: sim.Round) -> dict[str, Any]:
    entry: dict[str, Any] = doc["rounds"][rnd.number - 1]
    return entry


def trick_game_scores(
    truth: sim.Game, rnd: sim.Round, bids: dict[str, int], took: dict[str, int]
) -> dict[str, int]:
    """A Blackout or Alles oder Nichts round's scores from (changed) bids and tricks."""
    if truth.name == "blackout":
        scoring = truth.options.get("scoring", "prefix-one")
        return {p: sim.blackout_score(bids[p], took[p], scoring) for p in truth.players}
    return {p: sim.alles_score(rnd.open[p], bids[p], took[p]) for p in truth.players}


@breach("blackout", {"hook": True}, "summary")
def dealer_takes_the_hook(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """The dealer bids the one bid that makes the bids add up to the hand size."""
    hooks = [
        (rnd, rnd.cards_each - sum(b for p, b in rnd.bids.items() if p != rnd.dealer))
        for rnd in truth.rounds
    ]
    hooks = [(rnd, bid) for rnd, bid in hooks if bid >= 0]
    if not hooks:
        return None
    rnd, bid = rng.choice(hooks)
    assert rnd.dealer is not None
    entry_of(doc, rnd)["bids"][rnd.dealer] = bid
    bids = {**rnd.bids, rnd.dealer: bid}
    scores = trick_game_scores(truth, rnd, bids, rnd.tricks_won(truth.players))
    return Expected("hook", rnd.number, rnd.dealer, only=True, scores=scores)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
def bid_out_of_range(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """Blackout: a bid above the hand size; Alles oder Nichts: above 6 (and no warning)."""
    rnd, player = rng.choice(truth.rounds), rng.choice(truth.players)
    bid = rnd.cards_each + 1 if truth.name == "blackout" else sim.ALLES_HIGHEST_BID + 1
    bids = entry_of(doc, rnd)["bids"]
    if truth.name == "blackout":
        bids[player] = bid
    else:
        bids[player]["bid"] = bid
    scores = trick_game_scores(truth, rnd, {**rnd.bids, player: bid}, rnd.tricks_won(truth.players))
    return Expected("bid-range", rnd.number, player, only=True, scores=scores)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
def tricks_do_not_add_up(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """One player given a trick more than they took, so the tricks exceed the hand size."""
    rnd, player = rng.choice(truth.rounds), rng.choice(truth.players)
    took = rnd.tricks_won(truth.players)
    took[player] += 1
    entry_of(doc, rnd)["tricks"][player] = took[player]
    scores = trick_game_scores(truth, rnd, rnd.bids, took)
    return Expected("trick-total", rnd.number, only=True, scores=scores)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
def wrong_dealer(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """A ``dealer`` who is not the one the rotation gives."""
    rnd = rng.choice(truth.rounds)
    entry_of(doc, rnd)["dealer"] = rng.choice([p for p in truth.players if p != rnd.dealer])
    return Expected("dealer", rnd.number, only=True, scores=rnd.scores)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
def bid_left_out(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """A complete round without one player's bid cannot be scored."""
    rnd, player = rng.choice(truth.rounds), rng.choice(truth.players)
    del entry_of(doc, rnd)["bids"][player]
    return Expected("missing", rnd.number, only=True, scores=None)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
@breach("ebbes", {}, "summary")
def result_left_out(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """One player left out of a round's results (``tricks``; ebbes: ``won``): one missing
    breach, not also a trick-total or colour-total one, and the round not complete, wherever
    it is: not scored, and the game names no winners."""
    rnd, player = rng.choice(truth.rounds), rng.choice(truth.players)
    results = entry_of(doc, rnd)["won" if truth.name == "ebbes" else "tricks"]
    del results[player]
    return Expected("missing", rnd.number, player, scores=None, incomplete=True)


@breach("blackout", {}, "summary")
def trump_in_the_whole_deck_round(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """A trump recorded in a round that deals the whole deck."""
    whole = [rnd for rnd in truth.rounds if rnd.trump_card is None]
    if not whole:
        return None
    rnd = rng.choice(whole)
    entry_of(doc, rnd)["trump"] = rng.choice(sim.SUITS_LOW_FIRST)
    return Expected("trump", rnd.number, only=True, scores=rnd.scores)


@breach("blackout", {}, "summary")
@breach("alles-oder-nichts", None, "summary")
def trump_left_out(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """No trump in a complete round that turned one."""
    turned = [rnd for rnd in truth.rounds if rnd.trump_card is not None]
    if not turned:
        return None
    rnd = rng.choice(turned)
    entry_of(doc, rnd).pop("trump")
    return Expected("trump", rnd.number, only=True, scores=rnd.scores)


@breach("blackout", {}, "plays")
@breach("alles-oder-nichts", None, "plays")
@breach("ebbes", {}, "plays")
def revoke(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """One player's cards of two tricks swapped, so they show out of the colour led in the first
    (not leading it) and play that colour later: a proven revoke, reported on the first trick,
    unless the swap changed who won a trick so that the later one is led by someone other than
    its cards say had to lead it (``proven_by``)."""
    swaps = [
        (rnd, player, first, later)
        for rnd in truth.rounds
        for player in truth.players
        for first, one in enumerate(rnd.tricks)
        if one.leader != player and card_of(truth, one, player).colour == one.cards[0].colour
        for later in range(first + 1, len(rnd.tricks))
        if card_of(truth, rnd.tricks[later], player).colour != one.cards[0].colour
    ]
    if not swaps:
        return None
    rnd, player, first, later = rng.choice(swaps)
    plays = entry_of(doc, rnd)["plays"]
    at_first = seat_in(truth, rnd.tricks[first], player)
    at_later = seat_in(truth, rnd.tricks[later], player)
    one, two = plays[first]["cards"], plays[later]["cards"]
    one[at_first], two[at_later] = two[at_later], one[at_first]
    return Expected("follow-suit", rnd.number, player, trick=first + 1, proven_by=later + 1)


def seat_in(truth: sim.Game, trick: sim.Trick, player: str) -> int:
    """Where ``player``'s card is in the trick (the leader's is first)."""
    n = len(truth.players)
    return (truth.players.index(player) - truth.players.index(trick.leader)) % n


def card_of(truth: sim.Game, trick: sim.Trick, player: str) -> sim.Card:
    return trick.cards[seat_in(truth, trick, player)]


@breach("blackout", {}, "plays")
@breach("ebbes", {}, "plays")
def card_played_twice(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """A card of an earlier trick of the round played again."""
    rounds = [rnd for rnd in truth.rounds if len(rnd.tricks) >= 2]
    if not rounds:
        return None
    rnd = rng.choice(rounds)
    plays = entry_of(doc, rnd)["plays"]
    later = rng.randrange(1, len(plays))
    again = rng.choice(rng.choice(plays[:later])["cards"])
    plays[later]["cards"][rng.randrange(len(truth.players))] = again
    return Expected("card", rnd.number, trick=later + 1)


@breach("blackout", {}, "both")
@breach("alles-oder-nichts", None, "both")
@breach("ebbes", {}, "both")
def results_disagree_with_plays(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """A trick (ebbes: a card of a colour) moved from one player to another in the results
    given beside the plays."""
    rnd = rng.choice(truth.rounds)
    giver, taker = rng.sample(truth.players, 2)
    entry = entry_of(doc, rnd)
    if truth.name == "ebbes":
        colour = rng.choice(rnd.designations[1:])
        (source, key), (target, other) = (
            (entry["won"][giver], colour),
            (entry["won"][taker], colour),
        )
    else:
        (source, key), (target, other) = (entry["tricks"], giver), (entry["tricks"], taker)
    if source[key] == 0:
        return None
    source[key] -= 1
    target[other] += 1
    return Expected("plays", rnd.number, giver)


@breach("ebbes", {}, "both")
def designations_disagree_with_plays(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """Designations given beside the plays that are not the ones the plays fix: one breach
    for each that differs."""
    rnd = rng.choice(truth.rounds)
    wrong = rng.sample(sim.EBBES_COLOURS, 4)
    if wrong == rnd.designations:
        return None
    entry_of(doc, rnd)["designations"] = wrong
    differ = sum(a != b for a, b in zip(wrong, rnd.designations, strict=True))
    return Expected("designation", rnd.number, times=differ)


@breach("ebbes", {}, "summary")
def number_used_twice(truth: sim.Game, doc: dict[str, Any], rng: random.Random) -> Expected | None:
    """A number card already revealed in an earlier round revealed again."""
    rnd = rng.choice(truth.rounds[1:])
    earlier = rng.choice(truth.rounds[: rnd.number - 1])
    entry_of(doc, rnd)["number"] = earlier.number_card
    return Expected("number", rnd.number, only=True, scores=rnd.scores)


@breach("ebbes", {}, "summary")
def chooser_without_nix_majority(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """The next starter chosen by someone who did not win the most nix cards."""
    later = [
        (rnd, [p for p in truth.players if p not in before.nix_majority])
        for before, rnd in zip(truth.rounds, truth.rounds[1:], strict=False)
        if before.nix_majority
    ]
    later = [(rnd, outsiders) for rnd, outsiders in later if outsiders]
    if not later:
        return None
    rnd, outsiders = rng.choice(later)
    entry_of(doc, rnd)["chosen_by"] = rng.choice(outsiders)
    return Expected("starter", rnd.number, only=True, scores=rnd.scores)


@breach("ebbes", {}, "summary")
def colour_does_not_add_up(
    truth: sim.Game, doc: dict[str, Any], rng: random.Random
) -> Expected | None:
    """One more card of a scoring colour than the deck holds."""
    rnd, player = rng.choice(truth.rounds), rng.choice(truth.players)
    colour = rng.choice(rnd.designations[1:])
    entry_of(doc, rnd)["won"][player][colour] += 1
    return Expected("colour-total", rnd.number)


@pytest.mark.parametrize(("game", "case", "detail", "maker"), BREACHES)
@examples(8)
@given(seed=SEEDS, data=st.data())
def test_a_breach_put_into_a_legal_game_is_reported(
    game: str, case: Any, detail: str, maker: Maker, seed: int, data: st.DataObject
) -> None:
    """A legal record with one breach made in it (``BREACHES``): exit 1, the breach reported at
    the right place, and the round scored from its entries as they now are."""
    truth, doc = draw_record(data, game, case, seed, st.just(detail), tidy=True)
    expected = maker(truth, doc, random.Random(seed))
    assume(expected is not None)
    assert expected is not None
    status, out = check_text(json.dumps(doc), as_json=True)
    report = json.loads(out)
    assert status == 1
    if expected.proven_by is not None:
        disputed = ("turn", expected.round, expected.proven_by)
        assume(all((v["rule"], v["round"], v["trick"]) != disputed for v in report["violations"]))
    found = [v for v in report["violations"] if matches(v, expected)]
    assert len(found) == expected.times, report["violations"]
    if expected.only:
        assert report["violations"] == found
        assert [
            w
            for w in report["warnings"]
            if (w["round"], w["player"]) == (expected.round, expected.player)
        ] == []
    if expected.scores is not UNKNOWN:
        assert report["rounds"][expected.round - 1]["scores"] == expected.scores
    if expected.incomplete:
        assert report["violations"] == found
        assert (report["complete"], report["winners"]) == (False, [])


def matches(violation: dict[str, Any], expected: Expected) -> bool:
    return (violation["rule"], violation["round"]) == (expected.rule, expected.round) and all(
        want is None or violation[key] == want
        for key, want in (("player", expected.player), ("trick", expected.trick))
    )


# --- broken records never crash the referee ----------------------------------------------------

JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

Path = tuple[Any, ...]


def paths(value: Any, path: Path = ()) -> list[Path]:
    """Every place in a JSON document, the root first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*path, index))
    return found


def at(doc: Any, path: Path) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def put(doc: Any, path: Path, value: Any) -> Any:
    """``doc`` with the value at ``path`` replaced (the root itself if the path is empty)."""
    if not path:
        return value
    at(doc, path[:-1])[path[-1]] = value
    return doc


def places(doc: Any, kind: type) -> list[Path]:
    return [p for p in paths(doc) if isinstance(at(doc, p), kind)]


def listed(doc: Any, key: str) -> list[Any]:
    """``doc[key]`` if the (maybe already corrupted) document still has it as a list, else []."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, list) else []


def player_maps(doc: Any) -> list[Path]:
    """The per-player maps of the record (bids, tricks, won, discards)."""
    return [
        ("rounds", i, key)
        for i, rnd in enumerate(listed(doc, "rounds"))
        if isinstance(rnd, dict)
        for key in ("bids", "tricks", "won", "discards")
        if isinstance(rnd.get(key), dict)
    ]


def change_bid(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A bid changed to any whole number from -2 to 30."""
    maps = [at(doc, p) for p in player_maps(doc) if p[-1] == "bids" and at(doc, p)]
    if maps:
        bids = rng.choice(maps)
        name = rng.choice(list(bids))
        value = rng.randint(-2, 30)
        if isinstance(bids[name], dict):
            bids[name]["bid"] = value
        else:
            bids[name] = value
    return doc


def change_count(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A trick count, a cards-won count, a number card or an option, off by a little."""
    numbers = [p for p in places(doc, int) if not isinstance(at(doc, p), bool)]
    if numbers:
        where = rng.choice(numbers)
        put(doc, where, at(doc, where) + rng.choice([-2, -1, 1, 2, 5]))
    return doc


def card_places(doc: Any) -> list[Path]:
    """Where the record holds cards: tricks, designators, discards and the trump."""
    return [
        p
        for p in paths(doc)
        if (len(p) >= 2 and p[-2] in ("cards", "designators", "discards")) or p[-1:] == ("trump",)
    ]


def swap_cards(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """Two cards (or a card and the trump) change places, within a trick or across rounds."""
    cards = card_places(doc)
    if len(cards) >= 2:
        one, two = rng.sample(cards, 2)
        first, second = at(doc, one), at(doc, two)
        put(doc, one, second)
        put(doc, two, first)
    return doc


def duplicate_card(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A card written over another one, so it is there twice."""
    cards = card_places(doc)
    if len(cards) >= 2:
        one, two = rng.sample(cards, 2)
        put(doc, two, at(doc, one))
    return doc


def drop_field(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """Any key or list item, anywhere, deleted."""
    keyed = [p for p in paths(doc) if p and isinstance(at(doc, p[:-1]), (dict, list))]
    if keyed:
        where = rng.choice(keyed)
        del at(doc, where[:-1])[where[-1]]
    return doc


def change_type(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A value of another JSON type in its place: 3 → "3", "QH" → ["QH"], {…} → [...]…"""
    where = rng.choice(paths(doc))
    value = at(doc, where)
    others = [
        str(value),
        [value],
        {"x": value},
        None,
        True,
        1.5,
        0,
        list(value.values()) if isinstance(value, dict) else value,
    ]
    return put(doc, where, rng.choice([o for o in others if type(o) is not type(value)] or [None]))


def clear_round(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """Some or all of one round's entries deleted."""
    rounds = [rnd for rnd in listed(doc, "rounds") if isinstance(rnd, dict)]
    if rounds:
        rnd = rng.choice(rounds)
        for key in rng.sample(list(rnd), rng.randint(0, len(rnd))):
            del rnd[key]
    return doc


def add_rounds(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """Copies of rounds (or empty ones) added at the end or in between."""
    rounds = listed(doc, "rounds")
    extra = [copy.deepcopy(rng.choice(rounds)) if rounds else {} for _ in range(rng.randint(1, 3))]
    at_index = len(rounds) if rng.random() < 0.5 else rng.randint(0, len(rounds))
    rounds[at_index:at_index] = extra
    return doc


def rename_player(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A player key (or a name in ``players``) misspelt, emptied, or made a duplicate."""
    maps = player_maps(doc)
    players = listed(doc, "players")
    new = rng.choice(["Nobody", "", " ", "ann", "x" * 41, *players[:1]])
    if maps and (rng.random() < 0.7 or not players):
        entry = at(doc, rng.choice(maps))
        if entry:
            old = rng.choice(list(entry))
            entry[new] = entry.pop(old)
    elif players:
        players[rng.randrange(len(players))] = new
    return doc


def insert_garbage(doc: Any, rng: random.Random, garbage: Any) -> Any:
    """A random JSON value in a random place: replacing a value, or as a new key or item."""
    where = rng.choice(paths(doc))
    target = at(doc, where)
    if isinstance(target, dict) and rng.random() < 0.5:
        target[rng.choice(["bids", "tricks", "won", "plays", "trump", "zzz", "number"])] = garbage
    elif isinstance(target, list) and rng.random() < 0.5:
        target.insert(rng.randint(0, len(target)), garbage)
    else:
        doc = put(doc, where, garbage)
    return doc


# fmt: off
CORRUPTIONS = [change_bid, change_count, swap_cards, duplicate_card, drop_field, change_type,
               clear_round, add_rounds, rename_player, insert_garbage]
# fmt: on


def check_never_crashes(doc: Any) -> int:
    """Run the referee on ``doc`` both ways; the exit status and the output must be sound."""
    text = json.dumps(doc)
    status, out = check_text(text, as_json=True)
    assert status in (0, 1, 2)
    report = json.loads(out)
    if status == 2:
        assert set(report) == {"error", "field"}
        assert isinstance(report["error"], str) and isinstance(report["field"], str)
    else:
        check_report_shape(report)
        assert (status == 1) == bool(report["violations"])
    table_status, table = check_text(text.encode(), as_json=False)
    assert table_status == status and isinstance(table, str) and table
    if status != 2:
        check_strict_refuses_with_a_breach(doc)
    return status


def check_strict_refuses_with_a_breach(doc: Any) -> None:
    """The strict API on a readable record: it takes it, or raises a ``Breach`` — nothing else."""
    record = parse_record(doc)
    with contextlib.suppress(Breach):
        replay(record.setup, record.events)


def check_report_shape(report: dict[str, Any]) -> None:
    """The documented keys and types of a ``--json`` report (docs/record-format.md)."""
    assert set(report) == REPORT_KEYS
    assert isinstance(report["complete"], bool)
    assert report["ended_after"] is None or isinstance(report["ended_after"], int)
    for entry in report["rounds"]:
        assert {"number", "hand_size", "scores"} <= set(entry)
        if report["game"] == "ebbes":
            assert {"starter", "roles", "nix_majority"} <= set(entry)
            assert set(entry["roles"]) == {"trump", "plus", "ebbes", "minus", "nix"}
        else:
            assert {"dealer", "trump"} <= set(entry)
        assert entry["scores"] is None or all(isinstance(v, int) for v in entry["scores"].values())
    assert all(isinstance(v, int) for v in report["totals"].values())
    for item in report["violations"] + report["warnings"]:
        assert set(item) == {"round", "trick", "player", "rule", "message"}
        assert item["rule"] in RULE_IDS
        assert isinstance(item["message"], str) and item["message"]


@examples(200)
@given(
    seed=SEEDS,
    data=st.data(),
    case=st.sampled_from(CASES),
    corruptions=st.lists(st.sampled_from(CORRUPTIONS), min_size=1, max_size=3),
    garbage=JSON_VALUES,
)
def test_corrupted_records_never_crash(
    seed: int, data: st.DataObject, case: tuple[str, Any], corruptions: list[Any], garbage: Any
) -> None:
    """Up to three corruptions of a legal record: exit 0, 1 or 2 and sound output, never a crash;
    a readable one still exports stably."""
    _, doc = draw_record(data, *case, seed)
    rng = random.Random(seed)
    for corrupt in corruptions:
        doc = corrupt(doc, rng, copy.deepcopy(garbage))
    status = check_never_crashes(doc)
    if status != 2:
        once = export_record(parse_record(doc).replay())
        assert export_record(parse_record(once).replay()) == once


# fmt: off
RECORD_FIELDS = st.sampled_from(["number", "designators", "starter", "chosen_by", "designations",
                                 "won", "discards", "plays", "trump", "bids", "tricks", "dealer"])
# fmt: on


@examples(200)
@given(value=JSON_VALUES)
def test_random_json_never_crashes(value: Any) -> None:
    assert check_never_crashes(value) == 2


@examples(200)
@given(
    game=st.sampled_from(["blackout", "alles-oder-nichts", "ebbes"]),
    players=st.lists(st.sampled_from(sim.NAMES) | st.text(max_size=5), max_size=9),
    rounds=st.lists(st.dictionaries(RECORD_FIELDS, JSON_VALUES, max_size=5), max_size=4),
)
def test_random_record_shaped_json_never_crashes(
    game: str, players: list[Any], rounds: list[Any]
) -> None:
    doc = {"format": sim.FORMAT, "game": game, "players": players, "rounds": rounds}
    check_never_crashes(doc)


@examples(100)
@given(text=st.text(max_size=40) | st.binary(max_size=40))
def test_random_text_never_crashes(text: str | bytes) -> None:
    status, out = check_text(text, as_json=True)
    assert status in (0, 1, 2)
    json.loads(out)
