"""ebbes (docs/rules.md, "ebbes").

3–5 players, five colours, 10 cards each (15 with ``extended``), five rounds. A revealed number N
(1–5, each once a game) decides the roles as its cards fall: the 1st N's colour is trump, the 2nd
plus, the 3rd ebbes, the 4th minus, and the fifth colour is nix. Plus scores +1 a card, minus −1,
ebbes +3 to whoever has neither the most nor the fewest; the nix majority picks the next starter.
Where the record lacks or garbles what fixes the roles (the number card, the designators, a card
that may have been one of them), the cards fix none from there on (``EbbesRound.unsure``) and
the designations given beside them decide.

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
from referee.rules.breaches import (
    Breach,
    IllegalEntry,
    Miscount,
    Missing,
    OutOfTurn,
    card_param,
)
from referee.rules.cards import EBBES_COLOURS, BadCard, Card, Deck, coloured_deck
from referee.rules.engine import Game, RoundState, Run, State, Step, unaccounted
from referee.rules.scores import Score, Term
from referee.rules.tricks import UNKNOWN_TRUMP, PlayedTrick

ROLES = ("trump", "plus", "ebbes", "minus", "nix")
#: The colours as a set: whether a player's cards won name every one is a set comparison.
_EVERY_COLOUR = frozenset(EBBES_COLOURS)
NUMBERS = range(1, 6)


def good_role(roles: list[str], index: int) -> bool:
    """The designation at ``index`` is a colour no earlier one named."""
    return roles[index] in EBBES_COLOURS and roles[index] not in roles[:index]


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
    #: The cards cannot tell the roles after ``derived``: the number card or the designators
    #: are missing or bad, or a card that may have fixed a role is not known.
    unsure: bool = False
    discards: dict[str, Card] = field(default_factory=dict)
    won: dict[str, dict[str, int]] | None = None
    chosen_by: str | None = None

    def roles(self) -> list[str]:
        """The colours with a role so far: from the plays when there are any (where they
        cannot tell, the ones entered by hand beside them)."""
        if not self.plays:
            return self.designations
        if self.unsure:
            return self.derived + self.designations[len(self.derived) :]
        return self.derived

    @property
    def roles_unknown(self) -> bool:
        """The roles cannot be told: the plays cannot and none are entered beside them, or a
        designation is no colour or one named before."""
        if self.plays and self.unsure and not self.designations:
            return True
        roles = self.roles()
        return not all(good_role(roles, i) for i in range(len(roles)))

    def role_map(self) -> dict[str, str | None]:
        """Role → colour (None while not fixed, or where a designation is no colour or one
        named before); nix once four colours have a role."""
        roles = self.roles()
        out: dict[str, str | None] = {
            role: roles[i] if i < len(roles) and good_role(roles, i) else None
            for i, role in enumerate(ROLES[:4])
        }
        rest = [c for c in EBBES_COLOURS if c not in roles]
        out["nix"] = rest[0] if len(roles) == 4 and len(rest) == 1 else None
        return out


class Ebbes(Game[EbbesRound]):
    name = "ebbes"
    title = "ebbes"
    min_players = 3
    max_players = 5
    #: Dealt whole from a deck made for the players who began (``values``): nobody joins,
    #: leaves or sits out (``docs/rules.md``, "Joining, leaving, sitting out").
    seats_change = False
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
            self.players,
            leader=first if number == 1 else None,
        )

    @property
    def placed(self) -> bool:
        return bool(self.options["variant"] == "placed-designators")

    # --- roles --------------------------------------------------------------------------------

    def current_trump(self, rnd: EbbesRound) -> str | None:
        """The first colour the cards fixed; not known when they cannot tell."""
        if rnd.derived:
            return rnd.derived[0]
        return UNKNOWN_TRUMP if rnd.unsure else None

    def settling_trump(self, rnd: EbbesRound, trick: PlayedTrick) -> str | None:
        if self.options["trump_from"] == "next-trick":
            return trick.trump_before
        return self.current_trump(rnd)

    def designates(self, rnd: EbbesRound, card: Card) -> bool:
        """This card, when played, fixes the next role."""
        if self.placed:
            return rnd.designators is not None and card in rnd.designators
        return card.value == rnd.number_card

    def designators_known(self, rnd: EbbesRound) -> bool:
        """The number card (one of 1–5), or five good designators, one of each colour, are
        known."""
        if not self.placed:
            return rnd.number_card in NUMBERS
        cards = rnd.designators
        return cards is not None and sorted(c.colour for c in cards) == sorted(EBBES_COLOURS)

    def roles_open(self, rnd: EbbesRound) -> bool:
        """The cards may still fix a role this round."""
        expected = self.expected_designations(rnd)
        return not rnd.unsure and len(rnd.derived) < (4 if expected is None else expected)

    def after_card(self, run: Run, rnd: EbbesRound, player: str, card: Card) -> None:
        if not self.roles_open(rnd):
            return
        if not self.designators_known(rnd):
            rnd.unsure = True
        elif card.colour not in rnd.derived and self.designates(rnd, card):
            rnd.derived.append(card.colour)

    def lose_track(self, rnd: EbbesRound) -> None:
        """An unknown card may have fixed the next role: the cards cannot tell the rest."""
        if self.roles_open(rnd):
            rnd.unsure = True

    def unavailable(self, rnd: EbbesRound, card: Card) -> str | None:
        if not isinstance(card, BadCard) and card in rnd.discards.values():
            return "card-discarded"
        return super().unavailable(rnd, card)

    def nix_majority(self, state: State, rnd: EbbesRound) -> list[str] | None:
        """Who had the most nix cards, in seat order; None when the round had no nix colour."""
        nix = rnd.role_map()["nix"]
        won = self.won_of(rnd)
        if nix is None or won is None or any(nix not in won.get(p, {}) for p in self.players):
            return None
        counts = {p: won[p].get(nix, 0) for p in self.players}
        best = max(counts.values())
        return [p for p in self.players if counts[p] == best]

    def expected_designations(self, rnd: EbbesRound) -> int | None:
        """How many roles the round must fix (None if discards leave it unknown: not all
        known, or what makes a discard a role's card is not)."""
        if not self.options["discard"]:
            return 4
        if (
            len(rnd.discards) < len(self.players)
            or any(isinstance(card, BadCard) for card in rnd.discards.values())
            or not self.designators_known(rnd)
        ):
            return None
        laid_aside = sum(1 for card in rnd.discards.values() if self.designates(rnd, card))
        return min(4, 5 - laid_aside)

    def designations_missing(self, rnd: EbbesRound) -> Missing | None:
        """The ``missing`` breach of a round that names fewer roles than it must have, or None.
        Only number cards (or designators) laid aside leave a role unassigned (docs/rules.md):
        where the record tells how many are in play, each of their roles is needed, and the
        round is not scored without it (the role left out would count its colour's cards).
        Where it cannot tell (``expected_designations`` None), fewer are accepted."""
        expected = self.expected_designations(rnd)
        if expected is None or rnd.roles_unknown:
            return None
        named = len(rnd.roles())
        if named >= expected:
            return None
        return Missing(
            "missing", "missing-designations", round=rnd.number, count=named, needed=expected
        )

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
            raise OutOfTurn("turn", "setup-after-play")

    def on_starter(self, run: Run, rnd: EbbesRound, event: ev.Starter) -> None:
        player = self.check_player(event.player, rnd)
        if rnd.number == 1:
            # Nobody chooses round 1's starter: ``chosen_by`` means nothing and is ignored
            # (record-format.md), even a name that is no player's (a player's is kept as given).
            chooser = event.chosen_by if event.chosen_by in self.players else None
            if player != rnd.leader:
                run.flag(
                    IllegalEntry(
                        "starter", "starter-round-one", round=1, player=player, expected=rnd.leader
                    )
                )
        else:
            chooser = event.chosen_by
            if chooser is not None and chooser not in self.players:
                # One breach: who chose is not known, but the starter stands and is checked
                # (the first trick's leader against it), as with any chooser.
                run.flag(IllegalEntry("players", "unknown-player", round=rnd.number, name=chooser))
                chooser = None
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
                        majority=tuple(majority),
                    )
                )
        if rnd.plays:
            raise OutOfTurn("turn", "starter-after-play")
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
        cards = [self.read_card(text) for text in event.cards]
        self.strict_order(run, rnd, "setup")
        if not run.lenient and rnd.designators is not None:
            raise OutOfTurn("turn", "designators-twice", round=rnd.number)
        for i, card in enumerate(cards):
            why = "card-unreadable" if isinstance(card, BadCard) else None
            if why is None and card not in self.deck:
                why = "card-not-in-deck"
                cards[i] = BadCard.of(str(card))  # some designator of that colour, unknown
            if why is not None:
                run.flag(IllegalEntry("card", why, round=rnd.number, **card_param(card)))
        known = [card.colour for card in cards if not isinstance(card, BadCard)]
        if len(cards) != len(EBBES_COLOURS) or len(set(known)) != len(known):
            run.flag(IllegalEntry("designation", "designators-shape", round=rnd.number))
        rnd.designators = tuple(cards)

    def on_discard(self, run: Run, rnd: EbbesRound, event: ev.Discard) -> None:
        if not self.options["discard"]:
            raise IllegalEntry("card", "discard-variant", round=rnd.number)
        player = str(event.player)
        if player not in self.players:  # the card is known, and goes to the last trick's winner
            run.flag(IllegalEntry("players", "unknown-player", round=rnd.number, name=player))
        card = self.read_card(event.card)
        if player in rnd.discards:
            raise OutOfTurn("turn", "discard-twice", round=rnd.number, player=player)
        if rnd.plays:
            raise OutOfTurn("turn", "discard-late", round=rnd.number)
        why = self.unavailable(rnd, card)
        if why is not None:
            named = player if player in self.players else None
            run.flag(IllegalEntry("card", why, round=rnd.number, player=named, **card_param(card)))
            card = card if isinstance(card, BadCard) else BadCard.of(str(card))
        rnd.discards[player] = card
        if not isinstance(card, BadCard):
            rnd.seen.setdefault(card, 0)

    def on_designate(self, run: Run, rnd: EbbesRound, event: ev.Designate) -> None:
        """A colour's role, in order. One that is no colour, or a colour named before, is
        flagged and keeps its place: the roles after it stay theirs, and its own is not known."""
        colour = self.deck.parse_colour(event.colour) if isinstance(event.colour, str) else None
        if colour is None:
            run.flag(
                IllegalEntry("designation", "unknown-colour", round=rnd.number, text=event.colour)
            )
        self.strict_order(run, rnd, "designate")
        index = len(rnd.designations)
        if colour is None:
            if index < 4:
                rnd.designations.append(str(event.colour))
            return
        if rnd.plays and (index < len(rnd.derived) or not rnd.unsure):
            # the cards fixed the roles: a designation must agree with them
            fixed = rnd.derived[index] if index < len(rnd.derived) else None
            if fixed != colour:
                run.flag(
                    IllegalEntry(
                        "designation",
                        "designation-plays" if fixed else "designation-plays-none",
                        round=rnd.number,
                        colour=colour,
                        fixed=fixed,
                        index=index + 1,
                    )
                )
            rnd.designations.append(colour)
            return
        if index >= 4:
            raise IllegalEntry("designation", "designation-too-many", round=rnd.number)
        if colour in rnd.roles():  # by hand, or where the cards cannot tell
            run.flag(
                IllegalEntry("designation", "designation-repeat", round=rnd.number, colour=colour)
            )
        rnd.designations.append(colour)

    def ready_to_play(self, run: Run, rnd: EbbesRound) -> None:
        self.strict_order(run, rnd, "play")
        if not run.lenient and rnd.designations and not rnd.plays:
            raise OutOfTurn("turn", "card-after-designations")

    def on_won(self, run: Run, rnd: EbbesRound, event: ev.Won) -> None:
        if not isinstance(event.won, Mapping):
            raise IllegalEntry("trick-total", "won-shape", round=rnd.number)
        self.strict_order(run, rnd, "won")
        self.after_last_card(run, rnd)
        if not run.lenient and rnd.won is not None:
            raise OutOfTurn("turn", "won-twice", round=rnd.number)
        if not run.lenient and not rnd.plays:  # by hand: the designations come first
            short = self.designations_missing(rnd)
            if short is not None:
                raise short
        won: dict[str, dict[str, int]] = {}
        strays = 0  # players' entries under a name that is no player's
        unknown: dict[str, int] = {}  # per player: counts under no colour, or not a count
        for name, per_colour in event.won.items():
            if name not in self.players:
                run.flag(IllegalEntry("players", "unknown-player", round=rnd.number, name=name))
                strays += 1
                continue
            if not isinstance(per_colour, Mapping):
                raise IllegalEntry("trick-total", "won-shape-player", round=rnd.number, player=name)
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
                            text=text,
                        )
                    )
                    unknown[name] = unknown.get(name, 0) + 1
                    continue
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    run.flag(
                        IllegalEntry(
                            "trick-total",
                            "won-negative",
                            round=rnd.number,
                            player=name,
                            count=count,
                            colour=colour,
                        )
                    )
                    unknown[name] = unknown.get(name, 0) + 1
                    continue
                counts[colour] = count
            won[name] = counts
        self.check_won(run, rnd, won, strays, unknown)
        rnd.won = won

    def check_won(
        self,
        run: Run,
        rnd: EbbesRound,
        won: dict[str, dict[str, int]],
        strays: int,
        unknown: dict[str, int],
    ) -> None:
        """Everybody and every scoring colour present, whole tricks, colour totals, the plays.
        An entry already flagged (``strays`` players, ``unknown`` colours of a player) may
        stand for one that is missing: that is not reported again. The players without their
        cards won, or without a count of a colour that must be counted, are the round's
        ``lacking``, reported missing or not: the round's results are not in without theirs."""
        roles = rnd.role_map()
        needed = [c for c in (roles[r] for r in ("plus", "ebbes", "minus", "nix")) if c is not None]
        size = len(self.players)
        left_out = [p for p in self.players if p not in won]
        for name in unaccounted(left_out, strays):
            run.flag(Missing("missing", "missing-won", round=rnd.number, player=name))
        for name in self.players:
            if name not in won:
                continue
            lacking = [colour for colour in needed if colour not in won[name]]
            if lacking:
                left_out.append(name)
            for colour in unaccounted(lacking, unknown.get(name, 0)):
                run.flag(
                    Missing(
                        "missing",
                        "missing-won-colour",
                        round=rnd.number,
                        player=name,
                        colour=colour,
                    )
                )
        rnd.lacking = frozenset(left_out)
        for colour in EBBES_COLOURS:
            counted = [won[name][colour] for name in self.players if colour in won.get(name, ())]
            if len(counted) == len(self.players):  # every player's count of the colour
                total = sum(counted)
                if total != self.deck.count(colour):
                    run.flag(
                        Miscount(
                            "colour-total",
                            "colour-total",
                            round=rnd.number,
                            colour=colour,
                            total=total,
                            in_play=self.deck.count(colour),
                        )
                    )
        # After the colours: a colour that does not add up is said in cards of that colour (a
        # strict entry is refused with the first breach), not as a player's odd total.
        for name in self.players:
            if name in won and won[name].keys() >= _EVERY_COLOUR:
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
        if rnd.plays_complete:
            derived = self.derived_won(rnd)
            sure = self.plays_tell_won(rnd)
            exact = not self.options["discard"] or len(rnd.discards) == size
            last = rnd.plays[-1].winner
            for name in self.players:
                for colour, given in won.get(name, {}).items():
                    got = derived[name].get(colour, 0)
                    if not sure:  # some cards won are not known: only a count below fails
                        fits = given >= got
                    else:
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
            raise OutOfTurn("turn", "won-during-play")

    # --- results and scores ------------------------------------------------------------------

    def results_given(self, rnd: EbbesRound) -> bool:
        return rnd.plays_complete or rnd.won is not None

    def derived_won(self, rnd: EbbesRound) -> dict[str, dict[str, int]]:
        """Cards won per player and colour from the plays, the discards to the last trick
        (cards not known, and tricks without a known winner, counted for nobody)."""
        won: dict[str, dict[str, int]] = {p: dict.fromkeys(EBBES_COLOURS, 0) for p in self.players}
        for trick in rnd.plays:
            if trick.winner is not None:
                for _, card in trick.cards:
                    if not isinstance(card, BadCard):
                        won[trick.winner][card.colour] += 1
        if rnd.plays_complete and rnd.plays[-1].winner is not None:
            for card in rnd.discards.values():
                if not isinstance(card, BadCard):
                    won[rnd.plays[-1].winner][card.colour] += 1
        return won

    def plays_tell_won(self, rnd: EbbesRound) -> bool:
        """Every card the played tricks hold and every discard recorded is known, and so is
        each trick's winner: the plays give the cards won (with the discards, if recorded)."""
        size = len(self.players)
        return not any(isinstance(card, BadCard) for card in rnd.discards.values()) and all(
            trick.winner is not None
            and len(trick.cards) == size
            and not any(isinstance(card, BadCard) for _, card in trick.cards)
            for trick in rnd.plays
        )

    def won_of(self, rnd: EbbesRound) -> dict[str, dict[str, int]] | None:
        """Cards won: from the plays when all are played and tell them (and discards known),
        else entered."""
        if (
            rnd.plays_complete
            and self.plays_tell_won(rnd)
            and (
                not self.options["discard"]
                or len(rnd.discards) == len(self.players)
                or rnd.won is None
            )
        ):
            return self.derived_won(rnd)
        return rnd.won

    def missing(self, state: State, rnd: EbbesRound, results: bool) -> list[Breach]:
        found: list[Breach] = []
        if self.placed and rnd.designators is None:
            found.append(Missing("missing", "missing-designators", round=rnd.number))
        if not self.placed and rnd.number_card is None:
            found.append(Missing("missing", "missing-number", round=rnd.number))
        short = self.designations_missing(rnd)
        if short is not None:
            found.append(short)
        if results and not self.results_given(rnd):  # a player left out is flagged already
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
        if won is None or rnd.roles_unknown or any(p not in won for p in self.players):
            return None
        if self.designations_missing(rnd) is not None:
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
                        "ebbes-tied"
                        if most == fewest
                        else ("ebbes-most" if counts[p] == most else "ebbes-fewest")
                    )
                    terms[p].append(Term(edge, params, 0))
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
        raise OutOfTurn("turn", "tricks-not-kept", game=self.title)
