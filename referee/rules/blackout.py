"""Blackout: Oh Hell with "1-prefix" scoring (docs/rules.md, "Blackout").

2–8 players; hands grow and shrink by ``sequence`` up to ``max_cards``; the max round deals the
whole trimmed deck and has no trump. Bidding runs from left of the dealer to the dealer, who may not
make the bids add up to the hand size (the hook). An exact bid scores the bid with a 1 in front.

>>> from referee.rules.engine import Setup, start
>>> game = start(Setup("blackout", ("Ann", "Ben", "Cho", "Dee"))).game
>>> game.schedule[:3], game.schedule[12], game.round_count
([1, 2, 3], 13, 25)
>>> prefix_one(3), prefix_one(11), prefix_one(0)
(13, 111, 10)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.rules import events as ev
from referee.rules.breaches import Breach, IllegalEntry, Missing, OutOfTurn
from referee.rules.cards import Deck, blackout_deck
from referee.rules.dealt import DealtGame
from referee.rules.engine import OptionError, RoundState, Run, State, Step, unaccounted
from referee.rules.scores import Score, Term

SEQUENCES = ("up-down", "up-down-double", "down-up", "up", "down")


def prefix_one(bid: int) -> int:
    """An exact bid's score: the bid with a "1" written in front (3 → 13, 11 → 111)."""
    return int("1" + str(bid))


#: Each sequence's stretches of hands, in order: up or down, and how many hands it skips at its
#: start (the top, or the one, that the stretch before has dealt).
STRETCHES: dict[str, tuple[tuple[str, int], ...]] = {
    "up-down": (("up", 0), ("down", 1)),
    "up-down-double": (("up", 0), ("down", 0)),
    "down-up": (("down", 0), ("up", 1)),
    "up": (("up", 0),),
    "down": (("down", 0),),
}


def stretches(sequence: str, max_cards: int, first: int = 0) -> list[tuple[int, int]]:
    """Each round's hand size and stretch for a ``sequence`` up to ``max_cards``, from its
    stretch ``first`` on."""
    out: list[tuple[int, int]] = []
    for index, (direction, skip) in enumerate(STRETCHES[sequence]):
        if index >= first:
            sizes = (
                range(1 + skip, max_cards + 1)
                if direction == "up"
                else range(max_cards - skip, 0, -1)
            )
            out += [(size, index) for size in sizes]
    return out


def hand_sizes(sequence: str, max_cards: int) -> list[int]:
    """The hand size of every round for a ``sequence`` up to ``max_cards``.

    >>> hand_sizes("up-down", 3), hand_sizes("down-up", 3), hand_sizes("up-down-double", 2)
    ([1, 2, 3, 2, 1], [3, 2, 1, 2, 3], [1, 2, 2, 1])
    """
    return [size for size, _ in stretches(sequence, max_cards)]


def go_on(sequence: str, stretch: int, before: int, peak: int) -> list[tuple[int, int]]:
    """The rounds still to come when the most cards become ``peak`` after a round of
    ``before`` cards in stretch ``stretch``: that stretch goes on from ``before`` (up to
    ``peak``, or down from below both), then the stretches after it whole.

    >>> [size for size, _ in go_on("up-down", 0, 2, 3)]  # a fourth player after 2 cards
    [3, 2, 1]
    >>> [size for size, _ in go_on("up-down", 0, 15, 13)]  # after 15 cards: past the top
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    >>> [size for size, _ in go_on("up-down", 1, 9, 6)]  # going down from 9
    [6, 5, 4, 3, 2, 1]
    """
    direction, _ = STRETCHES[sequence][stretch]
    up = direction == "up"
    now = range(before + 1, peak + 1) if up else range(min(before - 1, peak), 0, -1)
    return [(size, stretch) for size in now] + stretches(sequence, peak, stretch + 1)


@dataclass
class BlackoutRound(RoundState):
    bids: dict[str, int] = field(default_factory=dict)


class Blackout(DealtGame[BlackoutRound]):
    name = "blackout"
    title = "Blackout"
    min_players = 2
    max_players = 8
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {
        "sequence": SEQUENCES,
        "hook": (True, False),
        "scoring": ("prefix-one", "ten-plus-bid"),
    }
    round_type = BlackoutRound

    @property
    def top(self) -> int:
        """The most cards each player can be dealt: floor(52 / players)."""
        return 52 // max(1, len(self.players))

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        rest = {key: value for key, value in options.items() if key != "max_cards"}
        out = super().normalise_options(rest)
        max_cards = options.get("max_cards", self.top)
        if (
            not isinstance(max_cards, int)
            or isinstance(max_cards, bool)
            or not 1 <= max_cards <= self.top
        ):
            raise OptionError(
                "max_cards",
                f"Option 'max_cards' must be a whole number from 1 to {self.top}, "
                f"not {max_cards!r}.",
            )
        out["max_cards"] = max_cards
        return out

    def make_schedule(self) -> list[int]:
        #: The most cards a round deals each player: the deck is as many times the players.
        self.peak: int = self.options["max_cards"]
        rounds = stretches(self.options["sequence"], self.peak)
        #: Each round's stretch of the sequence (up, down), which a new count goes on from.
        self.stretch = [index for _, index in rounds]
        #: The rounds that deal the whole deck.
        self.bare = frozenset(n for n, (size, _) in enumerate(rounds, 1) if size == self.peak)
        return [size for size, _ in rounds]

    def make_deck(self) -> Deck:
        return blackout_deck(len(self.players), self.peak)

    def whole_deck(self, number: int) -> bool:
        """Round ``number`` deals the whole deck, so it has no trump."""
        return number in self.bare

    def reseated(self, players: tuple[str, ...], number: int) -> Blackout:
        """From round ``number`` on the most cards follow the new count: 52 ÷ players when the
        table plays to the whole deck, else its own ``max_cards`` while the deck holds it; the
        hands go on from where they are (``docs/rules.md``, "Joining, leaving, sitting out")."""
        new = super().reseated(players, number)
        assert isinstance(new, Blackout)
        whole = self.peak == 52 // len(self.players)
        new.peak = 52 // len(players) if whole else min(self.peak, 52 // len(players))
        if number == 1:
            rest = stretches(self.options["sequence"], new.peak)
        else:
            before = self.schedule[number - 2]
            rest = go_on(self.options["sequence"], self.stretch[number - 2], before, new.peak)
        new.schedule = self.schedule[: number - 1] + [size for size, _ in rest]
        new.stretch = self.stretch[: number - 1] + [index for _, index in rest]
        new.bare = frozenset(
            {n for n in self.bare if n < number}
            | {n for n, size in enumerate(new.schedule, 1) if n >= number and size == new.peak}
        )
        new.deck = new.make_deck()
        return new

    def bidders(self, rnd: BlackoutRound) -> Collection[str]:
        return rnd.bids.keys()

    # --- entries -----------------------------------------------------------------------------

    def dispatch(self, run: Run, rnd: BlackoutRound, event: ev.Event) -> None:
        match event:
            case ev.Bid():
                self.on_bid(run, rnd, event)
            case _:
                super().dispatch(run, rnd, event)

    def trump_too_late(self, run: Run, rnd: BlackoutRound) -> bool:
        """Play, the tricks or (strict entry) a bid has come: the trump is turned up before."""
        return bool(rnd.plays or rnd.tricks is not None or (rnd.bids and not run.lenient))

    def bid_breach(self, rnd: BlackoutRound, player: str, bid: object) -> Breach | None:
        """Why ``player`` may not bid ``bid`` now (range or hook), or None if they may. A bid
        out of range makes no sum: the dealer is not held to the hook because of it."""
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= rnd.hand_size:
            return IllegalEntry(
                "bid-range",
                "bid-range",
                round=rnd.number,
                player=player,
                bid=bid,
                high=rnd.hand_size,
            )
        if not self.options["hook"] or player != rnd.dealer:
            return None
        others = [p for p in rnd.seats if p != player]
        if (
            all(p in rnd.bids and 0 <= rnd.bids[p] <= rnd.hand_size for p in others)
            and sum(rnd.bids[p] for p in others) + bid == rnd.hand_size
        ):
            return IllegalEntry(
                "hook",
                "hook",
                round=rnd.number,
                player=player,
                bid=bid,
                total=rnd.hand_size,
                hand=rnd.hand_size,
            )
        return None

    def on_bid(self, run: Run, rnd: BlackoutRound, event: ev.Bid) -> None:
        if run.lenient and event.player not in rnd.seats:
            self.stray(run, rnd, event.player)
            return
        player = self.check_player(event.player, rnd)
        if not run.lenient:
            self.ready_to_bid(rnd)
            if player in rnd.bids:
                raise OutOfTurn("turn", "already-bid", round=rnd.number, player=player)
            expected = next(p for p in self.bidding_order(rnd) if p not in rnd.bids)
            if player != expected:
                raise OutOfTurn(
                    "turn", "bid-turn", round=rnd.number, player=player, expected=expected
                )
        if not isinstance(event.bid, int) or isinstance(event.bid, bool):
            raise IllegalEntry(
                "bid-range",
                "bid-range",
                round=rnd.number,
                player=player,
                bid=event.bid,
                high=rnd.hand_size,
            )
        breach = self.bid_breach(rnd, player, event.bid)
        if breach is not None:
            run.flag(breach)
        rnd.bids[player] = event.bid

    def ready_to_bid(self, rnd: BlackoutRound) -> None:
        if rnd.trump_colour is None and not self.whole_deck(rnd.number):
            raise Missing("missing", "missing-trump-first", round=rnd.number)
        if rnd.plays or rnd.tricks is not None:
            raise OutOfTurn("turn", "bid-after-play")

    # --- questions ---------------------------------------------------------------------------

    def allowed_bids(self, state: State, player: str) -> list[tuple[int, Breach | None]]:
        """Every bid 0…hand size for ``player`` in the round under way, with why one is not."""
        rnd = self.upcoming(state)
        assert rnd is not None, "the game is over"
        return [(bid, self.bid_breach(rnd, player, bid)) for bid in range(rnd.hand_size + 1)]

    def missing(self, state: State, rnd: BlackoutRound, results: bool) -> list[Breach]:
        found: list[Breach] = self.trump_lacking(rnd) + [
            Missing("missing", "missing-bid", round=rnd.number, player=p)
            for p in unaccounted(
                [p for p in self.bidding_order(rnd) if p not in rnd.bids], rnd.strays
            )
        ]
        if results and not self.results_given(rnd):  # a player left out is flagged already
            found.append(Missing("missing", "missing-tricks", round=rnd.number))
        return found

    def next_step(self, state: State) -> Step | None:
        rnd = self.upcoming(state)
        if rnd is None:
            return None
        if rnd.trump_colour is None and not self.whole_deck(rnd.number) and not rnd.bids:
            return Step(rnd.number, "trump")
        for player in self.bidding_order(rnd):
            if player not in rnd.bids:
                return Step(rnd.number, "bid", player)
        return Step(rnd.number, "play", self.next_to_play(rnd))

    def score_round(self, state: State, rnd: BlackoutRound) -> dict[str, Score] | None:
        tricks = rnd.tricks_won()
        if not self.results_in(rnd) or tricks is None:
            return None
        if any(p not in rnd.bids or p not in tricks for p in rnd.seats):
            return None
        ten_plus = self.options["scoring"] == "ten-plus-bid"
        scores: dict[str, Score] = {}
        for player in rnd.seats:
            bid, took = rnd.bids[player], tricks[player]
            params = {"bid": bid, "tricks": took}
            if bid != took:
                scores[player] = Score(0, (Term("blacked-out", params, 0),))
            else:
                points = 10 + bid if ten_plus else prefix_one(bid)
                code = "ten-plus-bid" if ten_plus else "prefix-one"
                scores[player] = Score(points, (Term(code, params, points),))
        return scores
