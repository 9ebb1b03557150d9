"""Alles oder Nichts (docs/rules.md, "Alles oder Nichts").

3–6 players, 48 cards, seven rounds of 6-5-4-3-4-5-6 cards, always a trump. Each player picks a
bid 0–6 face down, then, from left of the dealer to the dealer, declares it open or keeps it
secret; secret bids are turned up when the round is over. Secret: 1 per trick, +3 if exact.
Open: 2 per trick +3 if exact, else nothing.

>>> score(open_=False, bid=2, tricks=3).points, score(open_=True, bid=2, tricks=2).points
(3, 7)
>>> score(open_=True, bid=0, tricks=0).points, score(open_=True, bid=1, tricks=2).points
(3, 0)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.rules import events as ev
from referee.rules.breaches import Breach, Caution, IllegalEntry, Missing, OutOfTurn
from referee.rules.cards import ALLES_COLOURS, Deck, coloured_deck
from referee.rules.dealt import DealtGame
from referee.rules.engine import OptionError, RoundState, Run, State, Step, unaccounted
from referee.rules.scores import Score, Term

SCHEDULE = (6, 5, 4, 3, 4, 5, 6)
HIGHEST_BID = 6


def score(open_: bool, bid: int, tricks: int) -> Score:
    """A player's score for one round, with its terms."""
    params = {"bid": bid, "tricks": tricks}
    exact = bid == tricks
    bonus = (Term("exact-bonus", {}, 3),) if exact else ()
    if open_:
        if not exact:
            return Score(0, (Term("open-missed", params, 0),))
        return Score(2 * tricks + 3, (Term("open-tricks", params, 2 * tricks), *bonus))
    return Score(tricks + 3 * exact, (Term("secret-tricks", params, tricks), *bonus))


@dataclass
class AllesRound(RoundState):
    #: Declarations in order: player → open?
    open: dict[str, bool] = field(default_factory=dict)
    #: Known bids: open ones, sealed or revealed secret ones.
    bids: dict[str, int] = field(default_factory=dict)


class AllesOderNichts(DealtGame[AllesRound]):
    name = "alles-oder-nichts"
    title = "Alles oder Nichts"
    min_players = 3
    max_players = 6
    round_type = AllesRound

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        for key in options:
            if key not in ("colours", "values"):
                raise OptionError(key, f"{self.title} has no option {key!r}.")
        colours = options.get("colours", list(ALLES_COLOURS))
        values = options.get("values", 12)
        if (
            not isinstance(colours, (list, tuple))
            or not colours
            or not all(isinstance(c, str) and c.strip() and "-" not in c for c in colours)
        ):
            raise OptionError(
                "colours", "Option 'colours' must be a list of colour names (no hyphens)."
            )
        names = tuple(c.strip().lower() for c in colours)
        if len({name.casefold() for name in names}) != len(names):
            raise OptionError("colours", "Option 'colours' names a colour twice.")
        if not isinstance(values, int) or isinstance(values, bool) or values < 1:
            raise OptionError("values", "Option 'values' must be a whole number ≥ 1.")
        if len(names) * values != 48:
            raise OptionError(
                "values",
                f"{len(names)} colours × {values} values is {len(names) * values} cards, not 48.",
            )
        return {"colours": list(names), "values": values}

    def make_schedule(self) -> list[int]:
        return list(SCHEDULE)

    def make_deck(self) -> Deck:
        return coloured_deck(tuple(self.options["colours"]), self.options["values"])

    def declaring_order(self, rnd: RoundState) -> list[str]:
        """The bidding order: from left of the dealer to the dealer."""
        return self.bidding_order(rnd)

    def bidders(self, rnd: AllesRound) -> Collection[str]:
        return rnd.open.keys()

    def round_complete(self, rnd: AllesRound) -> bool:
        """Results in, and every secret bid turned up (a missing declaration never will be)."""
        return self.results_in(rnd) and all(p in rnd.bids for p in rnd.open)

    # --- entries -----------------------------------------------------------------------------

    def dispatch(self, run: Run, rnd: AllesRound, event: ev.Event) -> None:
        match event:
            case ev.Declare():
                self.on_declare(run, rnd, event)
            case ev.Reveal():
                self.on_reveal(run, rnd, event)
            case _:
                super().dispatch(run, rnd, event)

    def sealed(self, rnd: AllesRound) -> frozenset[str]:
        if self.results_in(rnd):
            return frozenset()
        return frozenset(p for p, shown in rnd.open.items() if not shown and p in rnd.bids)

    def check_bid(self, run: Run, rnd: AllesRound, player: str, bid: object) -> int:
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise IllegalEntry(
                "bid-range", "bid-range", round=rnd.number, player=player, bid=bid, high=HIGHEST_BID
            )
        if not 0 <= bid <= HIGHEST_BID:
            run.flag(
                IllegalEntry(
                    "bid-range",
                    "bid-range",
                    round=rnd.number,
                    player=player,
                    bid=bid,
                    high=HIGHEST_BID,
                )
            )
        elif bid > rnd.hand_size:
            run.note(
                Caution(
                    "bid-above-hand",
                    "bid-above-hand",
                    round=rnd.number,
                    player=player,
                    bid=bid,
                    hand=rnd.hand_size,
                )
            )
        return bid

    def on_declare(self, run: Run, rnd: AllesRound, event: ev.Declare) -> None:
        if run.lenient and event.player not in rnd.seats:
            self.stray(run, rnd, event.player)
            return
        player = self.check_player(event.player, rnd)
        if not run.lenient:
            if rnd.trump_colour is None:
                raise Missing("missing", "missing-trump-first", round=rnd.number)
            if rnd.plays or rnd.tricks is not None:
                raise OutOfTurn("turn", "declare-after-play")
            if player in rnd.open:
                raise OutOfTurn("turn", "already-declared", round=rnd.number, player=player)
            expected = next(p for p in self.declaring_order(rnd) if p not in rnd.open)
            if player != expected:
                raise OutOfTurn(
                    "turn", "declare-turn", round=rnd.number, player=player, expected=expected
                )
        if event.open and event.bid is None:
            raise Missing("missing", "open-needs-bid", round=rnd.number, player=player)
        bid = None if event.bid is None else self.check_bid(run, rnd, player, event.bid)
        rnd.open[player] = bool(event.open)
        if bid is not None:
            rnd.bids[player] = bid

    def on_reveal(self, run: Run, rnd: AllesRound, event: ev.Reveal) -> None:
        player = self.check_player(event.player, rnd)
        if rnd.open.get(player) is not False:
            raise OutOfTurn("turn", "reveal-not-secret", round=rnd.number, player=player)
        if player in rnd.bids:
            raise OutOfTurn("turn", "already-revealed", round=rnd.number, player=player)
        if not self.results_in(rnd):
            raise OutOfTurn("turn", "reveal-early", round=rnd.number)
        rnd.bids[player] = self.check_bid(run, rnd, player, event.bid)

    # --- questions ---------------------------------------------------------------------------

    def missing(self, state: State, rnd: AllesRound, results: bool) -> list[Breach]:
        found: list[Breach] = self.trump_lacking(rnd)
        lacking = unaccounted(
            [p for p in self.declaring_order(rnd) if p not in rnd.open], rnd.strays
        )
        for p in self.declaring_order(rnd):
            if p in lacking:
                found.append(Missing("missing", "missing-declaration", round=rnd.number, player=p))
            elif p in rnd.open and p not in rnd.bids:
                found.append(Missing("missing", "missing-secret", round=rnd.number, player=p))
        if results and not self.results_given(rnd):  # a player left out is flagged already
            found.append(Missing("missing", "missing-tricks", round=rnd.number))
        return found

    def next_step(self, state: State) -> Step | None:
        rnd = self.upcoming(state)
        if rnd is None:
            return None
        if rnd.trump_colour is None and not rnd.open:
            return Step(rnd.number, "trump")
        for player in self.declaring_order(rnd):
            if player not in rnd.open:
                return Step(rnd.number, "declare", player)
        if not self.results_in(rnd):
            return Step(rnd.number, "play", self.next_to_play(rnd))
        for player in self.declaring_order(rnd):
            if player not in rnd.bids:
                return Step(rnd.number, "reveal", player)
        raise AssertionError("a complete round has no next step")  # pragma: no cover

    def score_round(self, state: State, rnd: AllesRound) -> dict[str, Score] | None:
        tricks = rnd.tricks_won()
        if not self.results_in(rnd) or tricks is None:
            return None
        if any(p not in rnd.bids or p not in rnd.open or p not in tricks for p in rnd.seats):
            return None
        return {p: score(rnd.open[p], rnd.bids[p], tricks[p]) for p in rnd.seats}
