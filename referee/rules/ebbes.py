"""ebbes (rules.md, "ebbes").

3–5 players, five colours, 10 cards each (15 with ``extended``), five rounds. A revealed number N
(1–5, each once a game) decides the roles as its cards fall: the 1st N's colour is trump, the 2nd
plus, the 3rd ebbes, the 4th minus, and the fifth colour is nix. Plus scores +1 a card, minus −1,
ebbes +3 to whoever has neither the most nor the fewest; the nix majority picks the next starter.

>>> ebbes_bonus({"Ann": 3, "Ben": 2, "Cho": 1})
{'Ann': False, 'Ben': True, 'Cho': False}
>>> ebbes_bonus({"Ann": 4, "Ben": 2, "Cho": 2, "Dee": 0})
{'Ann': False, 'Ben': True, 'Cho': True, 'Dee': False}
>>> any(ebbes_bonus({"Ann": 2, "Ben": 2, "Cho": 2}).values())
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.rules import events as ev
from referee.rules.breaches import Breach, IllegalEntry, Miscount, Missing, OutOfTurn
from referee.rules.cards import EBBES_COLOURS, Card, Deck, coloured_deck
from referee.rules.engine import Game, RoundState, Run, State, Step, register
from referee.rules.scores import Score, Term
from referee.rules.tricks import PlayedTrick

ROLES = ("trump", "plus", "ebbes", "minus", "nix")
NUMBERS = range(1, 6)


def ebbes_bonus(counts: Mapping[str, int]) -> dict[str, bool]:
    """Who earns the ebbes +3: neither among the most nor among the fewest cards of it."""
    most, fewest = max(counts.values()), min(counts.values())
    return {player: fewest < count < most for player, count in counts.items()}


@dataclass
class EbbesRound(RoundState):
    number_card: int | None = None
    designators: tuple[Card, ...] | None = None
    #: Roles as entered by hand, in order (trump, plus, ebbes, minus).
    designations: list[str] = field(default_factory=list)
    #: Roles as the played cards fix them, in order (they win over the hand-entered ones).
    derived: list[str] = field(default_factory=list)
    discards: dict[str, Card] = field(default_factory=dict)
    won: dict[str, dict[str, int]] | None = None
    chosen_by: str | None = None

    def roles(self) -> list[str]:
        """The colours with a role so far: from the plays when there are any."""
        return self.derived if self.plays else self.designations

    def role_map(self) -> dict[str, str | None]:
        """Role → colour (None while not fixed); nix once four roles are fixed."""
        roles = self.roles()
        out: dict[str, str | None] = {
            role: roles[i] if i < len(roles) else None for i, role in enumerate(ROLES[:4])
        }
        rest = [c for c in EBBES_COLOURS if c not in roles]
        out["nix"] = rest[0] if len(roles) == 4 and len(rest) == 1 else None
        return out


@register
class Ebbes(Game[EbbesRound]):
    name = "ebbes"
    title = "ebbes"
    min_players = 3
    max_players = 5
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {
        "extended": (False, True),
        "variant": ("standard", "placed-designators"),
        "discard": (False, True),
        "trump_from": ("now", "next-trick"),
    }

    @property
    def values(self) -> int:
        """Values per colour: 1–6/8/10 for 3/4/5 players, 1–9/12/15 extended."""
        return len(self.players) * (3 if self.options["extended"] else 2)

    def make_deck(self) -> Deck:
        return coloured_deck(EBBES_COLOURS, self.values)

    def make_schedule(self) -> list[int]:
        return [len(EBBES_COLOURS) * self.values // max(1, len(self.players))] * 5

    def tricks_in(self, number: int) -> int:
        return self.schedule[number - 1] - (1 if self.options["discard"] else 0)

    def new_round(self, state: State, number: int) -> EbbesRound:
        first = self.setup.first_player
        first = first if first in self.players else self.players[0]
        return EbbesRound(
            number,
            self.schedule[number - 1],
            self.tricks_in(number),
            leader=first if number == 1 else None,
        )

    @property
    def placed(self) -> bool:
        return bool(self.options["variant"] == "placed-designators")

    # --- roles --------------------------------------------------------------------------------

    def current_trump(self, rnd: EbbesRound) -> str | None:
        roles = rnd.roles()
        return roles[0] if roles else None

    def settling_trump(self, rnd: EbbesRound, trick: PlayedTrick) -> str | None:
        if self.options["trump_from"] == "next-trick":
            return trick.trump_before
        return self.current_trump(rnd)

    def designates(self, rnd: EbbesRound, card: Card) -> bool:
        """This card, when played, fixes the next role."""
        if self.placed:
            return rnd.designators is not None and card in rnd.designators
        return card.value == rnd.number_card

    def after_card(self, run: Run, rnd: EbbesRound, player: str, card: Card) -> None:
        if len(rnd.derived) < 4 and card.colour not in rnd.derived and self.designates(rnd, card):
            rnd.derived.append(card.colour)

    def unavailable(self, rnd: EbbesRound, card: Card) -> str | None:
        if card in rnd.discards.values():
            return "card-discarded"
        return super().unavailable(rnd, card)

    def nix_majority(self, state: State, rnd: EbbesRound) -> list[str] | None:
        """Who had the most nix cards, in seat order; None when the round had no nix colour."""
        nix = rnd.role_map()["nix"]
        won = self.won_of(rnd)
        if nix is None or won is None or any(p not in won for p in self.players):
            return None
        counts = {p: won[p].get(nix, 0) for p in self.players}
        best = max(counts.values())
        return [p for p in self.players if counts[p] == best]

    def expected_designations(self, rnd: EbbesRound) -> int | None:
        """How many roles the round must fix (None if discards leave it unknown)."""
        if not self.options["discard"]:
            return 4
        if len(rnd.discards) < len(self.players):
            return None
        laid_aside = sum(1 for card in rnd.discards.values() if self.designates(rnd, card))
        return min(4, 5 - laid_aside)

    # --- entries -----------------------------------------------------------------------------

    def dispatch(self, run: Run, rnd: EbbesRound, event: ev.Event) -> None:
        match event:
            case ev.Starter():
                self.on_starter(run, rnd, event)
            case ev.Number():
                self.on_number(run, rnd, event)
            case ev.Designators():
                self.on_designators(run, rnd, event)
            case ev.Discard():
                self.on_discard(run, rnd, event)
            case ev.Designate():
                self.on_designate(run, rnd, event)
            case ev.Won():
                self.on_won(run, rnd, event)
            case _:
                super().dispatch(run, rnd, event)

    def strict_order(self, run: Run, rnd: EbbesRound, what: str) -> None:
        """Strict entry: the starter, then the number (or designators), before anything else."""
        if run.lenient:
            return
        if rnd.leader is None:
            raise Missing("missing", "missing-starter", round=rnd.number)
        if what != "setup":
            if self.placed and rnd.designators is None:
                raise Missing("missing", "missing-designators", round=rnd.number)
            if not self.placed and rnd.number_card is None:
                raise Missing("missing", "missing-number", round=rnd.number)
        elif rnd.plays or rnd.won is not None:
            raise OutOfTurn(
                "turn", "not-now", what="This entry", expected="it comes before the first trick"
            )

    def on_starter(self, run: Run, rnd: EbbesRound, event: ev.Starter) -> None:
        player = self.check_player(event.player, rnd.number)
        chooser = (
            None if event.chosen_by is None else self.check_player(event.chosen_by, rnd.number)
        )
        if rnd.number == 1:
            expected = rnd.leader
            if player != expected:
                run.flag(
                    IllegalEntry(
                        "starter", "starter-round-one", round=1, player=player, expected=expected
                    )
                )
        else:
            if not run.lenient and rnd.leader is not None:
                raise OutOfTurn("turn", "starter-twice", round=rnd.number)
            previous = self.rounds_of(run.state)[rnd.number - 2]
            majority = self.nix_majority(run.state, previous)
            if chooser is not None and majority is not None and chooser not in majority:
                run.flag(
                    IllegalEntry(
                        "starter",
                        "starter-chooser",
                        round=rnd.number,
                        player=chooser,
                        chosen_by=chooser,
                        majority=" and ".join(majority),
                    )
                )
        if rnd.plays:
            raise OutOfTurn(
                "turn",
                "not-now",
                what="The start player",
                expected="it is chosen before the first trick",
            )
        rnd.leader = player
        rnd.chosen_by = chooser

    def on_number(self, run: Run, rnd: EbbesRound, event: ev.Number) -> None:
        if self.placed:
            raise IllegalEntry("number", "number-in-placed", round=rnd.number)
        number = event.number
        if not isinstance(number, int) or isinstance(number, bool):
            raise IllegalEntry("number", "number-range", round=rnd.number, number=number)
        self.strict_order(run, rnd, "setup")
        if not run.lenient and rnd.number_card is not None:
            raise OutOfTurn("turn", "number-twice", round=rnd.number, number=rnd.number_card)
        if number not in NUMBERS:
            run.flag(IllegalEntry("number", "number-range", round=rnd.number, number=number))
        for earlier in self.rounds_of(run.state)[: rnd.number - 1]:
            if earlier.number_card == number:
                run.flag(
                    IllegalEntry(
                        "number",
                        "number-used",
                        round=rnd.number,
                        number=number,
                        used_in=earlier.number,
                    )
                )
                break
        rnd.number_card = number

    def on_designators(self, run: Run, rnd: EbbesRound, event: ev.Designators) -> None:
        if not self.placed:
            raise IllegalEntry("designation", "designators-not-placed", round=rnd.number)
        if not isinstance(event.cards, (list, tuple)):
            raise IllegalEntry("designation", "designators-shape", round=rnd.number)
        cards = tuple(self.read_card(text, rnd) for text in event.cards)
        self.strict_order(run, rnd, "setup")
        if not run.lenient and rnd.designators is not None:
            raise OutOfTurn("turn", "designators-twice", round=rnd.number)
        for card in cards:
            if card not in self.deck:
                run.flag(IllegalEntry("card", "card-not-in-deck", round=rnd.number, card=str(card)))
        if sorted(card.colour for card in cards) != sorted(EBBES_COLOURS):
            run.flag(IllegalEntry("designation", "designators-shape", round=rnd.number))
        rnd.designators = cards

    def on_discard(self, run: Run, rnd: EbbesRound, event: ev.Discard) -> None:
        if not self.options["discard"]:
            raise IllegalEntry("card", "discard-variant", round=rnd.number)
        player = self.check_player(event.player, rnd.number)
        card = self.read_card(event.card, rnd)
        if player in rnd.discards:
            raise OutOfTurn("turn", "discard-twice", round=rnd.number, player=player)
        if rnd.plays:
            raise OutOfTurn("turn", "discard-late", round=rnd.number)
        why = self.unavailable(rnd, card)
        if why is not None:
            run.flag(IllegalEntry("card", why, round=rnd.number, player=player, card=str(card)))
        rnd.discards[player] = card
        rnd.seen.setdefault(card, 0)

    def on_designate(self, run: Run, rnd: EbbesRound, event: ev.Designate) -> None:
        colour = self.deck.parse_colour(event.colour) if isinstance(event.colour, str) else None
        if colour is None:
            raise IllegalEntry(
                "designation", "unknown-colour", round=rnd.number, colour=event.colour
            )
        self.strict_order(run, rnd, "designate")
        if rnd.plays:  # the cards fixed the roles: a designation must agree with them
            index = len(rnd.designations)
            expected = rnd.derived[index] if index < len(rnd.derived) else "no colour"
            if expected != colour:
                run.flag(
                    IllegalEntry(
                        "designation",
                        "designation-plays",
                        round=rnd.number,
                        colour=colour,
                        expected=expected,
                        index=index + 1,
                    )
                )
            rnd.designations.append(colour)
            return
        if len(rnd.designations) >= 4:
            raise IllegalEntry("designation", "designation-too-many", round=rnd.number)
        if colour in rnd.designations:
            raise IllegalEntry("designation", "designation-repeat", round=rnd.number, colour=colour)
        rnd.designations.append(colour)

    def ready_to_play(self, run: Run, rnd: EbbesRound) -> None:
        self.strict_order(run, rnd, "play")
        if not run.lenient and rnd.designations and not rnd.plays:
            raise OutOfTurn(
                "turn",
                "not-now",
                what="A card",
                expected="designations were entered by hand this round",
            )

    def on_won(self, run: Run, rnd: EbbesRound, event: ev.Won) -> None:
        if not isinstance(event.won, Mapping):
            raise IllegalEntry(
                "trick-total", "won-negative", round=rnd.number, count=event.won, colour=""
            )
        self.strict_order(run, rnd, "won")
        if not run.lenient and rnd.won is not None:
            raise OutOfTurn(
                "turn",
                "not-now",
                what="The cards won",
                expected=f"round {rnd.number}'s cards won are already in",
            )
        won: dict[str, dict[str, int]] = {}
        for name, per_colour in event.won.items():
            if name not in self.players:
                run.flag(IllegalEntry("players", "unknown-player", round=rnd.number, name=name))
                continue
            if not isinstance(per_colour, Mapping):
                raise IllegalEntry(
                    "trick-total",
                    "won-negative",
                    round=rnd.number,
                    player=name,
                    count=per_colour,
                    colour="",
                )
            counts: dict[str, int] = {}
            for text, count in per_colour.items():
                colour = self.deck.parse_colour(text) if isinstance(text, str) else None
                if colour is None:
                    run.flag(
                        IllegalEntry(
                            "colour-total",
                            "unknown-colour",
                            round=rnd.number,
                            player=name,
                            colour=text,
                        )
                    )
                    continue
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    raise IllegalEntry(
                        "trick-total",
                        "won-negative",
                        round=rnd.number,
                        player=name,
                        count=count,
                        colour=colour,
                    )
                counts[colour] = count
            won[name] = counts
        self.check_won(run, rnd, won)
        rnd.won = won

    def check_won(self, run: Run, rnd: EbbesRound, won: dict[str, dict[str, int]]) -> None:
        """Everybody and every scoring colour present, whole tricks, colour totals, the plays."""
        roles = rnd.role_map()
        needed = [roles[r] for r in ("plus", "ebbes", "minus", "nix") if roles[r] is not None]
        size = len(self.players)
        for name in self.players:
            if name not in won:
                run.flag(Missing("missing", "missing-won", round=rnd.number, player=name))
                continue
            for colour in needed:
                if colour not in won[name]:
                    run.flag(
                        Missing(
                            "missing",
                            "missing-won-colour",
                            round=rnd.number,
                            player=name,
                            colour=colour,
                        )
                    )
            if all(c in won[name] for c in EBBES_COLOURS):
                total = sum(won[name].values())
                if total % size:
                    run.flag(
                        Miscount(
                            "trick-total",
                            "won-whole-tricks",
                            round=rnd.number,
                            player=name,
                            total=total,
                            players=size,
                        )
                    )
        for colour in EBBES_COLOURS:
            if all(colour in won.get(name, {}) for name in self.players):
                total = sum(won[name][colour] for name in self.players)
                if total != self.deck.count(colour):
                    run.flag(
                        Miscount(
                            "colour-total",
                            "colour-total",
                            round=rnd.number,
                            colour=colour,
                            total=total,
                            expected=self.deck.count(colour),
                        )
                    )
        if rnd.plays_complete:
            derived = self.derived_won(rnd)
            exact = not self.options["discard"] or len(rnd.discards) == size
            last = rnd.plays[-1].winner
            for name in self.players:
                for colour, given in won.get(name, {}).items():
                    got = derived[name].get(colour, 0)
                    fits = given == got or (not exact and name == last and given > got)
                    if not fits:
                        run.flag(
                            Miscount(
                                "plays",
                                "plays-won",
                                round=rnd.number,
                                player=name,
                                colour=colour,
                                derived=got,
                                given=given,
                            )
                        )
        elif not run.lenient and rnd.plays:
            raise OutOfTurn(
                "turn",
                "not-now",
                what="The cards won",
                expected="finish the tricks being played card by card",
            )

    # --- results and scores ------------------------------------------------------------------

    def results_in(self, rnd: EbbesRound) -> bool:
        return rnd.plays_complete or rnd.won is not None

    def derived_won(self, rnd: EbbesRound) -> dict[str, dict[str, int]]:
        """Cards won per player and colour from the plays, the discards to the last trick."""
        won: dict[str, dict[str, int]] = {p: dict.fromkeys(EBBES_COLOURS, 0) for p in self.players}
        for trick in rnd.plays:
            if trick.winner is not None:
                for _, card in trick.cards:
                    won[trick.winner][card.colour] += 1
        if rnd.plays_complete and rnd.plays[-1].winner is not None:
            for card in rnd.discards.values():
                won[rnd.plays[-1].winner][card.colour] += 1
        return won

    def won_of(self, rnd: EbbesRound) -> dict[str, dict[str, int]] | None:
        """Cards won: from the plays when all are played (and discards known), else entered."""
        if rnd.plays_complete and (
            not self.options["discard"] or len(rnd.discards) == len(self.players) or rnd.won is None
        ):
            return self.derived_won(rnd)
        return rnd.won

    def missing(self, state: State, rnd: EbbesRound, results: bool) -> list[Breach]:
        found: list[Breach] = []
        if self.placed and rnd.designators is None:
            found.append(Missing("missing", "missing-designators", round=rnd.number))
        if not self.placed and rnd.number_card is None:
            found.append(Missing("missing", "missing-number", round=rnd.number))
        expected = self.expected_designations(rnd)
        if expected is not None and len(rnd.roles()) < expected:
            found.append(
                Missing(
                    "missing",
                    "missing-designations",
                    round=rnd.number,
                    count=len(rnd.roles()),
                    expected=expected,
                )
            )
        if results and not self.results_in(rnd):
            found.append(Missing("missing", "missing-results", round=rnd.number))
        return found

    def next_step(self, state: State) -> Step | None:
        rnd = self.upcoming(state)
        if rnd is None:
            return None
        if rnd.leader is None:
            return Step(rnd.number, "starter")
        if self.placed and rnd.designators is None:
            return Step(rnd.number, "designators")
        if not self.placed and rnd.number_card is None:
            return Step(rnd.number, "number")
        return Step(rnd.number, "play", self.next_to_play(rnd))

    def open_numbers(self, state: State) -> list[int]:
        """Number cards not revealed in a round before the one being entered."""
        rnd = self.upcoming(state)
        before = self.rounds_of(state)[: (rnd.number if rnd else len(state.rounds) + 1) - 1]
        used = {r.number_card for r in before}
        return [n for n in NUMBERS if n not in used]

    def score_round(self, state: State, rnd: EbbesRound) -> dict[str, Score] | None:
        won = self.won_of(rnd)
        if won is None or any(p not in won for p in self.players):
            return None
        roles = rnd.role_map()
        for role in ("plus", "ebbes", "minus", "nix"):
            colour = roles[role]
            if colour is not None and any(colour not in won[p] for p in self.players):
                return None
        terms: dict[str, list[Term]] = {p: [] for p in self.players}
        if roles["plus"] is not None:
            for p in self.players:
                n = won[p][roles["plus"]]
                if n:
                    terms[p].append(Term("plus", {"count": n, "colour": roles["plus"]}, n))
        if roles["ebbes"] is not None:
            colour = roles["ebbes"]
            counts = {p: won[p][colour] for p in self.players}
            most, fewest = max(counts.values()), min(counts.values())
            for p, middle in ebbes_bonus(counts).items():
                params = {"count": counts[p], "colour": colour, "most": most, "fewest": fewest}
                if middle:
                    terms[p].append(Term("ebbes-middle", params, 3))
                else:
                    edge = (
                        "tied with everybody"
                        if most == fewest
                        else ("the most" if counts[p] == most else "the fewest")
                    )
                    terms[p].append(Term("ebbes-edge", {**params, "edge": edge}, 0))
        if roles["minus"] is not None:
            for p in self.players:
                n = won[p][roles["minus"]]
                if n:
                    terms[p].append(Term("minus", {"count": n, "colour": roles["minus"]}, -n))
        return {
            p: Score(sum(t.points for t in ts), tuple(ts) or (Term("nothing", {}, 0),))
            for p, ts in terms.items()
        }

    def on_tricks(self, run: Run, rnd: EbbesRound, event: ev.Tricks) -> None:
        raise OutOfTurn(
            "turn",
            "not-now",
            what="Tricks per player",
            expected="ebbes records the cards won per colour",
        )
