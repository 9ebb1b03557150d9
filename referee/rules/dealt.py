"""What the two games that deal and turn a trump share: Blackout and Alles oder Nichts.

The deal passes clockwise from the first dealer (``Setup.first``), among the players dealt in.
The player left of the dealer leads the first trick and bids (Alles oder Nichts: declares)
first, the dealer last. The card turned up after the deal gives the trump, except in a round
that deals the whole deck (Blackout's longest round), which has none. Each game adds its round
class, its bids and its scoring.

>>> from referee.rules.engine import Setup, start
>>> state = start(Setup("alles-oder-nichts", ("Ann", "Ben", "Cho"), first="Ben"))
>>> game = state.game
>>> game.new_round(state, 1).dealer, game.bidding_order(game.new_round(state, 1))
('Ben', ['Cho', 'Ann', 'Ben'])
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

from referee.rules import events as ev
from referee.rules.breaches import Breach, IllegalEntry, Missing, OutOfTurn
from referee.rules.engine import Game, RoundState, Run, State
from referee.rules.seating import bidding_order, dealer_after, next_seated
from referee.rules.tricks import UNKNOWN_TRUMP

D = TypeVar("D", bound=RoundState)


class DealtGame(Game[D]):
    """A game whose rounds are dealt in turn and whose trump is the turned card."""

    #: The round class ``new_round`` makes.
    round_type: type[D]

    def new_round(self, state: State, number: int) -> D:
        """Round ``number``, dealt by the next player seated left of the last round's dealer
        (``docs/rules.md``, "Joining, leaving, sitting out")."""
        seats = state.seats_in(number)
        before = state.rounds[number - 2].dealer if 1 < number <= len(state.rounds) + 1 else None
        if number > 1 and before is None:  # a round no earlier one leads to: the plain rotation
            ring, first = self.setup.players, self.setup.first_player
            before = ring[((ring.index(first) if first in ring else 0) + number - 2) % len(ring)]
        dealer = dealer_after(state.ring, before, self.setup.first_player, seats)
        size = self.schedule[number - 1]
        return self.round_type(
            number, size, size, seats, leader=next_seated(seats, dealer, seats), dealer=dealer
        )

    def bidding_order(self, rnd: RoundState) -> list[str]:
        """From left of the round's dealer to the dealer: the order its bids (declarations)
        are made in."""
        return bidding_order(rnd.seats, rnd.dealer)

    def bidders(self, rnd: D) -> Collection[str]:
        """The players who have bid (declared) in ``rnd`` so far."""
        raise NotImplementedError

    def whole_deck(self, number: int) -> bool:
        """Round ``number`` deals the whole deck, so it has no trump."""
        return False

    def trump_lacking(self, rnd: D) -> list[Breach]:
        """A round whose tricks are in that needs a trump and has none: one ``trump`` breach
        (none more for a bad trump, already flagged). A round under way may lack it
        (docs/record-format.md: "no trump in a complete round that must have one"); a round
        before the last whose tricks leave a player out is checked for it, as for all of it."""
        lacking = rnd.trump_colour is None and not self.whole_deck(rnd.number)
        if lacking and self.results_given(rnd) and "trump-missing" not in rnd.flagged:
            return [IllegalEntry("trump", "trump-missing", round=rnd.number)]
        return []

    def trump_too_late(self, run: Run, rnd: D) -> bool:
        """The round is too far on for its trump to be entered (a game that says so)."""
        return False

    # --- entries -----------------------------------------------------------------------------

    def dispatch(self, run: Run, rnd: D, event: ev.Event) -> None:
        match event:
            case ev.Dealer():
                self.on_dealer(run, rnd, event)
            case ev.Trump():
                self.on_trump(run, rnd, event)
            case _:
                super().dispatch(run, rnd, event)

    def on_dealer(self, run: Run, rnd: D, event: ev.Dealer) -> None:
        name = self.check_player(event.player, rnd)
        if name != rnd.dealer:
            run.flag(
                OutOfTurn("dealer", "dealer", round=rnd.number, player=name, expected=rnd.dealer)
            )

    def on_trump(self, run: Run, rnd: D, event: ev.Trump) -> None:
        text = event.card if isinstance(event.card, str) else ""
        card = self.deck.parse_card(text)
        colour = card.colour if card is not None else self.deck.parse_colour(text)
        if colour is None or (card is not None and card not in self.deck):
            rnd.flagged.add("trump-missing")  # one breach for a bad trump, not a second one
            raise IllegalEntry("trump", "trump-unknown", round=rnd.number, text=event.card)
        if self.whole_deck(rnd.number):
            raise IllegalEntry("trump", "trump-whole-deck", round=rnd.number)
        if rnd.trump_colour is not None and not run.lenient:
            raise OutOfTurn("turn", "trump-twice", round=rnd.number, trump=rnd.trump_colour)
        if self.trump_too_late(run, rnd):
            raise OutOfTurn("turn", "trump-after-bids")
        late = rnd.plays or rnd.tricks is not None
        if late and rnd.trump_colour is None and "trump-missing" not in rnd.flagged:
            # Cards or tricks came first (a game that takes its trump late): they were entered
            # while the round had no trump, one breach.
            rnd.flagged.add("trump-missing")
            run.flag(IllegalEntry("trump", "trump-missing", round=rnd.number))
        rnd.trump_card, rnd.trump_colour = card, colour

    def current_trump(self, rnd: D) -> str | None:
        """The turned colour; not known in a round that needs one but has none (or a bad one)."""
        if rnd.trump_colour is None and not self.whole_deck(rnd.number):
            return UNKNOWN_TRUMP
        return rnd.trump_colour

    def ready_to_play(self, run: Run, rnd: D) -> None:
        """Strict entry wants the trump and every bid in first. (A lenient replay notes a
        missing trump once the round is complete: ``trump_lacking``.)"""
        if not run.lenient:
            if rnd.trump_colour is None and not self.whole_deck(rnd.number):
                raise IllegalEntry("trump", "trump-missing", round=rnd.number)
            bidders = self.bidders(rnd)
            if any(player not in bidders for player in rnd.seats):
                raise Missing("missing", "missing-bids-first", round=rnd.number)
