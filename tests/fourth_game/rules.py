"""Plain Whist: 2–4 players, three rounds of five cards each from a deck of 13 cards a player
(Blackout's, the lowest cards left out). The dealer turns up a card for trump and the player
left of the dealer leads; nobody bids. A trick won is a point."""

from __future__ import annotations

from collections.abc import Collection

from referee.rules import RoundState, Score, State, Step
from referee.rules.breaches import Breach, Missing
from referee.rules.cards import Deck, blackout_deck
from referee.rules.dealt import DealtGame

#: The hand size of each round.
HANDS = (5, 5, 5)


class PlainWhist(DealtGame[RoundState]):
    name = "plain-whist"
    title = "Plain Whist"
    min_players = 2
    max_players = 4
    round_type = RoundState

    def make_schedule(self) -> list[int]:
        return list(HANDS)

    def make_deck(self) -> Deck:
        return blackout_deck(len(self.players), 13)

    def bidders(self, rnd: RoundState) -> Collection[str]:
        """Nobody bids: no bid is waited for."""
        return self.players

    def missing(self, state: State, rnd: RoundState, results: bool) -> list[Breach]:
        found: list[Breach] = self.trump_lacking(rnd)
        if results and not self.results_in(rnd):
            found.append(Missing("missing", "missing-tricks", round=rnd.number))
        return found

    def next_step(self, state: State) -> Step | None:
        rnd = self.upcoming(state)
        if rnd is None:
            return None
        if rnd.trump_colour is None:
            return Step(rnd.number, "trump")
        return Step(rnd.number, "play", self.next_to_play(rnd))

    def score_round(self, state: State, rnd: RoundState) -> dict[str, Score] | None:
        tricks = rnd.tricks_won()
        if not self.results_in(rnd) or tricks is None:
            return None
        if any(player not in tricks for player in self.players):
            return None
        return {player: Score(tricks[player]) for player in self.players}
