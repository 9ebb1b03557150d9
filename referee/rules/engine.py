"""The game model all three games share: setup, rounds, state, and replaying events.

A table is a ``Setup`` and a list of events; ``replay`` runs them through the game's rules and
gives the ``State``. ``apply`` is one strict step: it returns a new state or raises a ``Breach``
and leaves the old state untouched. A lenient replay (``replay(..., lenient=True)``) records
each breach and goes on, as the command-line referee and a table with corrections need: entries
that break a rule are still kept and scored where they can be.

Each game (``Blackout``, ``AllesOderNichts``, ``Ebbes``) is a ``Game`` subclass that adds its
deck, schedule, entries and scoring; trick play, revokes and round bookkeeping live here, once.
A game's ``dispatch`` matches each entry to the handler typed for it (``on_bid`` takes a ``Bid``
and a ``BlackoutRound``); the two games that deal and turn a trump share ``referee.rules.dealt``.

A lenient replay reports an entry it cannot use once, where it is, and takes what depends on it
as not known rather than guessing (``docs/record-format.md``, "One bad entry, one breach"): a card
that cannot have been played is a ``BadCard`` standing for some card of its player; a trick its
cards cannot settle (such a card, a wrong or unknown leader, the wrong number of cards, a trump
not known) was won by the next trick's leader.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, TypeVar, cast

from referee.rules import events as ev
from referee.rules import names, seating
from referee.rules.breaches import (
    Breach,
    Caution,
    IllegalEntry,
    Miscount,
    Missing,
    OutOfTurn,
    Revoke,
    card_param,
)
from referee.rules.cards import BadCard, Card, Deck
from referee.rules.registry import GAME_LIST, Registry
from referee.rules.scores import Score
from referee.rules.seating import Seating
from referee.rules.tricks import UNKNOWN_TRUMP, PlayedTrick, trick_winner


def unaccounted(lacking: list[str], strays: int) -> list[str]:
    """Who (or what) of ``lacking`` to report missing: none while as many entries under a name
    that is not known (``strays``: a misspelt player or colour, a count that is none) may stand
    for theirs — a misspelt name is one breach, not two.

    >>> unaccounted(["Ben"], 1), unaccounted(["Ben", "Cho"], 1)
    ([], ['Ben', 'Cho'])
    """
    return [] if len(lacking) <= strays else lacking


class PlayedTwice(Exception):
    """A lenient replay found ``card`` played a second time in the round (``Game.retake``)."""

    def __init__(self, card: Card) -> None:
        self.card = card
        super().__init__(str(card))


class OptionError(ValueError):
    """A game option that does not exist or has a value the game does not allow."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(message)


@dataclass(frozen=True)
class Setup:
    """Who sits where (clockwise), the options, and who deals (ebbes: starts) round 1."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    first: str | None = None

    @property
    def first_player(self) -> str:
        return self.first if self.first is not None else self.players[0]


@dataclass(frozen=True)
class Step:
    """What the table enters next: an action (``bid``, ``play`` …), by whom, in which round."""

    round: int
    action: str
    player: str | None = None


@dataclass
class RoundState:
    """One round as entered so far. Games subclass it to add their own entries."""

    number: int
    hand_size: int
    tricks_total: int
    #: The players in seat order.
    seats: tuple[str, ...] = ()
    leader: str | None = None
    dealer: str | None = None
    trump_card: Card | None = None
    trump_colour: str | None = None
    plays: list[PlayedTrick] = field(default_factory=list)
    seen: dict[Card, int] = field(default_factory=dict)
    showouts: dict[tuple[str, str], int] = field(default_factory=dict)
    revoked: set[tuple[str, str]] = field(default_factory=set)
    tricks: dict[str, int] | None = None
    flagged: set[str] = field(default_factory=set)
    #: Bids (declarations) entered under a name that is no player's.
    strays: int = 0
    #: The round's entries so far, and how many breaches and warnings the table had noted when
    #: it began: what a lenient replay needs to take the round again (``Game.retake``).
    entries: list[ev.Event] = field(default_factory=list)
    noted: tuple[int, int] = (0, 0)
    #: Cards played twice this round (a lenient replay): neither copy is known to be the card.
    doubtful: frozenset[Card] = frozenset()
    #: The players the round's results (tricks won; ebbes: cards won) leave out, each one
    #: ``missing`` breach: the round is not complete while there are any (``Game.results_in``).
    lacking: frozenset[str] = frozenset()

    def copy(self) -> RoundState:
        """A copy whose containers can change without touching this one."""
        new = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (dict, list, set)):
                setattr(new, name, copy.copy(value))
        return new

    @property
    def plays_complete(self) -> bool:
        """All of the round's tricks are played card by card."""
        return len(self.plays) == self.tricks_total and self.plays[-1].full

    @property
    def winners_known(self) -> bool:
        """Every trick played has a winner (a trick the cards cannot settle gets its winner
        when the next one is led; the round's last has none)."""
        return all(trick.winner is not None for trick in self.plays)

    def trick_full(self, index: int) -> bool:
        """The trick at ``index`` has all its cards."""
        return bool(self.plays) and self.plays[index].full

    def trick_complete(self, index: int) -> bool:
        """The trick at ``index`` is settled: it has a winner."""
        return bool(self.plays) and self.plays[index].winner is not None

    def tricks_won(self) -> dict[str, int] | None:
        """Tricks per player: from the plays when all are played and won, else as entered."""
        if self.plays_complete and self.winners_known:
            counts = Counter(trick.winner for trick in self.plays)
            return {name: counts.get(name, 0) for name in self.seats}
        return self.tricks


#: A game's own round class (``BlackoutRound`` …): the rounds its hooks and handlers take.
R = TypeVar("R", bound=RoundState)


@dataclass
class State:
    """A table's state: its setup, its rounds so far, and the breaches and warnings noted."""

    setup: Setup
    game: Game[Any]
    rounds: list[RoundState]
    violations: list[Breach] = field(default_factory=list)
    warnings: list[Breach] = field(default_factory=list)
    beyond_last: bool = False
    #: What a lenient replay's end noted about its last round; redone if more events follow.
    provisional: list[Breach] = field(default_factory=list)
    #: How many rounds ``totals`` has summed for good, and their points. Only the last round
    #: ever changes (events go to it; ``copy`` copies it alone and shares the rest), so each
    #: earlier round is scored once, not on every page.
    settled: tuple[int, dict[str, int]] = (0, {})
    #: The round the table ended the game after, before its last (``ev.End``); None: not ended.
    ended: int | None = None
    #: Who sits where after the table's joins, leaves and sit-outs (``referee.rules.seating``);
    #: None while nobody has joined, left or sat out.
    seating: Seating | None = None

    def copy(self) -> State:
        rounds = list(self.rounds)
        if rounds:
            rounds[-1] = rounds[-1].copy()
        return State(
            self.setup,
            self.game,
            rounds,
            list(self.violations),
            list(self.warnings),
            self.beyond_last,
            list(self.provisional),
            self.settled,
            self.ended,
            self.seating,
        )

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone who has played at the table, in the sheet's order: the setup's players,
        then each who joined late."""
        return self.seating.columns if self.seating is not None else self.setup.players

    @property
    def ring(self) -> tuple[str, ...]:
        """Everyone who has sat at the table, clockwise."""
        return self.seating.ring if self.seating is not None else self.setup.players

    def seats_in(self, number: int) -> tuple[str, ...]:
        """Who is dealt in round ``number`` (a round not yet begun: as the table sits now)."""
        if number <= len(self.rounds):
            return self.rounds[number - 1].seats
        return self.seating.seats_in(number) if self.seating is not None else self.game.players

    def start_points(self) -> Mapping[str, int]:
        """The points each late joiner started with."""
        return self.seating.starts if self.seating is not None else {}

    @property
    def current(self) -> RoundState | None:
        """The round being entered (the last one begun), or None before any is possible."""
        return self.rounds[-1] if self.rounds else None

    @property
    def complete(self) -> bool:
        """All of the game's rounds are complete, or all of those played before the table
        ended the game early."""
        played = self.ended if self.ended is not None else self.game.round_count
        return len(self.rounds) == played and all(
            self.game.round_complete(rnd) for rnd in self.rounds
        )

    @property
    def round_to_play(self) -> int | None:
        """How far the game is: the first round not complete, or the next one to begin; None
        once the game is complete. (A round before the last that is not complete, such as one
        whose results leave a player out, holds the game there: ``upcoming`` is where the next
        entry goes.)"""
        for rnd in self.rounds:
            if not self.game.round_complete(rnd):
                return rnd.number
        if self.ended is not None:
            return None
        number = len(self.rounds) + 1
        return number if number <= self.game.round_count else None

    def scores(self, number: int) -> dict[str, Score] | None:
        """The scores of round ``number`` (None while it cannot be scored)."""
        return self.game.score_round(self, self.rounds[number - 1])

    def totals(self) -> dict[str, int]:
        """Points per player over every scored round, with each late joiner's starting points."""
        count, points = self.settled
        final = len(self.rounds) - 1  # the rounds before the last one never change
        if final > count:
            points = self.add_points(points, self.rounds[count:final])
            self.settled = (final, points)
        totals = self.add_points(points, self.rounds[final:])
        for player, start in self.start_points().items():
            totals[player] += start
        return totals

    def add_points(self, points: dict[str, int], rounds: list[RoundState]) -> dict[str, int]:
        """``points`` plus the points scored in ``rounds``, as a new dict in the sheet's order."""
        totals = dict.fromkeys(self.players, 0) | points
        for rnd in rounds:
            for player, score in (self.game.score_round(self, rnd) or {}).items():
                totals[player] = totals.get(player, 0) + score.points
        return totals

    def winners(self) -> list[str]:
        """The players with the highest total, in seat order, once the game is complete."""
        if not self.complete:
            return []
        totals = self.totals()
        best = max(totals.values())
        return [name for name in self.players if totals.get(name) == best]

    def next_step(self) -> Step | None:
        """What the table enters next, or None when the game is over."""
        return self.game.next_step(self)

    def missing(self) -> list[Breach]:
        """What the current round still needs before it can be scored."""
        rnd = self.current
        return [] if rnd is None else self.game.missing(self, rnd, results=True)


class Run:
    """How one replay treats breaches: strict raises them, lenient records them and goes on."""

    def __init__(self, state: State, lenient: bool) -> None:
        self.state = state
        self.lenient = lenient

    def flag(self, breach: Breach) -> None:
        """A breach the entry can still be kept with (in a lenient replay)."""
        if not self.lenient:
            raise breach
        self.state.violations.append(breach)

    def note(self, breach: Breach) -> None:
        """A breach or warning that never stops an entry (a proven revoke, a warning)."""
        if isinstance(breach, Caution):
            self.state.warnings.append(breach)
        else:
            self.state.violations.append(breach)


class Game(Generic[R]):
    """The rules one game adds to the shared model. Subclasses fill in the hooks below.

    ``R`` is the game's round class: every round of a state comes from its ``new_round``, so the
    hooks and the entry handlers take that class and read its own fields unchecked.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Option name → allowed values (the first is the default), for forms and records.
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {}
    #: Whether players may join, leave or sit out between rounds (``referee.rules.seating``).
    seats_change: ClassVar[bool] = True

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        #: The players at the table now (after any joins and leaves), clockwise.
        self.players = setup.players
        self.options = self.normalise_options(setup.options)
        self.schedule: list[int] = self.make_schedule()
        self.deck: Deck = self.make_deck()

    # --- options, deck, schedule -----------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in; ``OptionError`` for unknown or bad ones."""
        out: dict[str, Any] = {}
        for key in options:
            if key not in self.option_choices:
                raise OptionError(key, f"{self.title} has no option {key!r}.")
        for key, choices in self.option_choices.items():
            value = options.get(key, choices[0])
            if value not in choices or type(value) is not type(choices[0]):
                allowed = ", ".join(repr(c) for c in choices)
                raise OptionError(key, f"Option {key!r} must be one of {allowed}, not {value!r}.")
            out[key] = value
        return out

    def make_schedule(self) -> list[int]:
        """Hand sizes of the rounds in order."""
        raise NotImplementedError

    def make_deck(self) -> Deck:
        raise NotImplementedError

    @property
    def round_count(self) -> int:
        return len(self.schedule)

    def tricks_in(self, number: int) -> int:
        """How many tricks round ``number`` has (ebbes' discard variant: one less than cards)."""
        return self.schedule[number - 1]

    def reseated(self, players: tuple[str, ...], number: int) -> Game[R]:
        """This game with ``players`` at the table from round ``number`` on (a join or a
        leave): a game whose rounds do not depend on the count only changes who sits."""
        new = copy.copy(self)
        new.players = players
        return new

    @staticmethod
    def left_of(rnd: RoundState, name: str) -> str:
        """The player on ``name``'s left among those dealt in ``rnd``."""
        seats = rnd.seats
        return seats[(seats.index(name) + 1) % len(seats)]

    def check_player(self, name: object, rnd: RoundState) -> str:
        """``name`` if it is a player dealt in ``rnd``, else an ``IllegalEntry``: rule
        ``players`` for a name nobody at the table has, ``seats`` for one sitting it out."""
        if not isinstance(name, str) or name not in rnd.seats:
            if isinstance(name, str) and name in self.setup.players + self.players:
                raise IllegalEntry("seats", "not-dealt", round=rnd.number, player=name)
            raise IllegalEntry("players", "unknown-player", round=rnd.number, name=name)
        return name

    def stray(self, run: Run, rnd: R, name: object) -> None:
        """A bid (declaration) under a name that is no player's (or of one not dealt in):
        flagged, and counted as standing for one a player has not made (see ``unaccounted``)."""
        try:
            self.check_player(name, rnd)
        except IllegalEntry as breach:
            run.flag(breach)
        rnd.strays += 1

    # --- rounds -----------------------------------------------------------------------------

    def new_round(self, state: State, number: int) -> R:
        """Round ``number`` before anything is entered."""
        raise NotImplementedError

    def results_given(self, rnd: R) -> bool:
        """The round's results are entered (tricks won; ebbes: cards won), even if they leave
        a player out, or all its tricks are played: its play is over."""
        return rnd.plays_complete or rnd.tricks is not None

    def results_in(self, rnd: R) -> bool:
        """The round's results are in (record-format.md): all its tricks played, or results
        entered for every player. A player they leave out (``RoundState.lacking``, a
        ``missing`` breach) leaves the round incomplete, wherever it is."""
        return rnd.plays_complete or (self.results_given(rnd) and not rnd.lacking)

    def sealed(self, rnd: R) -> frozenset[str]:
        """The players whose bid in ``rnd`` is known to the log but not yet to the table (a
        secret bid entered sealed, before the round is over): nothing may show it."""
        return frozenset()

    def round_complete(self, rnd: R) -> bool:
        """Everything the round needs is in, so the next round can begin."""
        return self.results_in(rnd)

    def missing(self, state: State, rnd: R, results: bool) -> list[Breach]:
        """What round ``rnd`` still lacks (``results``: count missing results too)."""
        raise NotImplementedError

    def score_round(self, state: State, rnd: R) -> dict[str, Score] | None:
        raise NotImplementedError

    def next_step(self, state: State) -> Step | None:
        raise NotImplementedError

    def rounds_of(self, state: State) -> list[R]:
        """``state.rounds`` as this game's rounds (``step`` makes each with ``new_round``)."""
        return cast("list[R]", state.rounds)

    def current_of(self, state: State) -> R | None:
        """``state.current`` as this game's round."""
        return cast("R | None", state.current)

    def upcoming(self, state: State) -> R | None:
        """The round the next entry belongs to: the current one, or the next when it is done;
        None once the game is over."""
        if state.ended is not None:
            return None
        rnd = self.current_of(state)
        if rnd is not None and not self.round_complete(rnd):
            return rnd
        number = len(state.rounds) + 1
        return self.new_round(state, number) if number <= self.round_count else None

    # --- applying events --------------------------------------------------------------------

    def step(self, run: Run, event: ev.Event) -> None:
        """Apply ``event`` to ``run.state`` in place (checks first, so a raise changes nothing)."""
        state = run.state
        if state.provisional:
            self.unfinish(state)
        number = event.round  # read once: a replay steps through every entry of a table
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise OutOfTurn("turn", "round-ahead", entry_round=number, current=1)
        if state.ended is not None or isinstance(event, ev.End):
            self.end(run, event)
            return
        if isinstance(event, ev.SEAT_CHANGES):
            seating.change(self, run, event)
            return
        if number > self.round_count:
            if run.lenient:
                if not state.beyond_last:
                    state.beyond_last = True
                    state.violations.append(
                        IllegalEntry(
                            "round-count", "round-count", round=number, rounds=self.round_count
                        )
                    )
                return
            raise OutOfTurn("turn", "game-over", round=number, rounds=self.round_count)
        rounds = cast("list[R]", state.rounds)  # ``rounds_of`` without its method call
        current = rounds[-1] if rounds else None
        if current is not None and number < current.number:
            raise OutOfTurn("turn", "round-over", entry_round=number, current=current.number)
        while current is None or number > current.number:
            if current is not None:
                if not self.round_complete(current):
                    if not run.lenient:
                        raise OutOfTurn(
                            "turn", "round-ahead", entry_round=number, current=current.number
                        )
                    for breach in self.missing(state, current, results=True):
                        state.violations.append(breach)
                else:
                    self.audit(run, current)
            if current is not None and number > current.number + 1 and not run.lenient:
                raise OutOfTurn("turn", "round-ahead", entry_round=number, current=current.number)
            current = self.new_round(state, len(rounds) + 1)
            current.noted = (len(state.violations), len(state.warnings))
            rounds.append(current)
        if isinstance(event, ev.BeginRound):
            return
        if not run.lenient and self.round_complete(current):
            confirms = bool(current.plays) and isinstance(event, (ev.Tricks, ev.Won, ev.Designate))
            if not confirms:
                if current.number == self.round_count:
                    raise OutOfTurn("turn", "game-over", round=number, rounds=self.round_count)
                raise OutOfTurn(
                    "turn", "round-over", entry_round=number, current=current.number + 1
                )
        current.entries.append(event)
        try:
            self.dispatch(run, current, event)
        except PlayedTwice as twice:
            self.retake(run, current, twice.card)

    def end(self, run: Run, event: ev.Event) -> None:
        """The table ends the game after a complete round (``ev.End``), or an entry comes
        after the end. Strict: refused with the rule's sentence. Lenient: noted, and the entry
        left out (an end that breaks the rule ends nothing)."""
        state = run.state
        rnd = self.current_of(state)
        breach = self.why_not_end(run, event, rnd)
        if breach is None and rnd is not None:
            self.audit(run, rnd)  # as the next round's first entry would
            state.ended = rnd.number
        elif breach is not None and run.lenient:
            state.violations.append(breach)
        elif breach is not None:
            raise breach

    def why_not_end(self, run: Run, event: ev.Event, rnd: R | None) -> Breach | None:
        """Why ``event`` may not end the game now (the last round begun being ``rnd``), or may
        not come at all after the end; None: it ends the game."""
        if run.state.ended is not None:
            return OutOfTurn("end", "after-end", round=event.round, ended=run.state.ended)
        if rnd is None:
            return OutOfTurn("end", "end-before-first")
        # A record's round whose results are given but break a rule is over: that breach is
        # the one its bad entry makes, not the end's.
        if not self.round_complete(rnd) and not (run.lenient and self.results_given(rnd)):
            return OutOfTurn("end", "end-mid-round", round=rnd.number)
        if rnd.number == self.round_count:
            return OutOfTurn("turn", "game-over", round=event.round, rounds=self.round_count)
        if event.round != rnd.number:
            return OutOfTurn("end", "end-other-round", round=event.round, current=rnd.number)
        return None

    def retake(self, run: Run, rnd: R, card: Card) -> None:
        """Take round ``rnd`` again from its first entry, with ``card`` (played twice) and any
        other card it then finds played twice in doubt: neither copy of such a card is known
        to be the card (docs/record-format.md), so nothing that hangs on the first one — a show-out,
        a trick's winner, a role — may accuse anyone; the second is the one breach."""
        state = run.state
        doubtful = rnd.doubtful | {card}
        while True:
            del state.violations[rnd.noted[0] :]
            del state.warnings[rnd.noted[1] :]
            again = self.new_round(state, rnd.number)
            again.noted, again.doubtful = rnd.noted, doubtful
            state.rounds[-1] = again
            try:
                for event in rnd.entries:
                    again.entries.append(event)
                    try:
                        self.dispatch(run, again, event)
                    except Breach as breach:  # as a lenient replay notes it
                        state.violations.append(breach)
                return
            except PlayedTwice as twice:
                doubtful |= {twice.card}

    def dispatch(self, run: Run, rnd: R, event: ev.Event) -> None:
        """Hand ``event`` to its handler: trick play here; each game matches its own entries
        first and passes the rest on to ``super().dispatch``. An entry no game level takes is
        not one of this game's."""
        match event:
            case ev.Play():
                self.on_play(run, rnd, event)
            case ev.Trick():
                self.on_trick(run, rnd, event)
            case ev.Tricks():
                self.on_tricks(run, rnd, event)
            case _:
                raise OutOfTurn("turn", "no-such-entry", entry=event.type, game=self.title)

    def audit(self, run: Run, rnd: R) -> None:
        """Lenient replays: note what a round that is over still lacks (not its results)."""
        if run.lenient:
            for breach in self.missing(run.state, rnd, results=False):
                run.state.violations.append(breach)

    def finish(self, run: Run) -> None:
        """End of a lenient replay: audit the last round if its results are in.

        The audit is provisional: ``unfinish`` takes it back before more events are replayed,
        so extending a replayed state gives what replaying everything from the start gives.
        """
        self.unfinish(run.state)
        rnd = self.current_of(run.state)
        if rnd is not None and self.results_in(rnd) and run.state.ended is None:
            before = len(run.state.violations)
            self.audit(run, rnd)
            run.state.provisional = run.state.violations[before:]

    @staticmethod
    def unfinish(state: State) -> None:
        """Take back ``finish``'s provisional audit."""
        if state.provisional:
            gone = {id(b) for b in state.provisional}
            state.violations = [b for b in state.violations if id(b) not in gone]
            state.provisional = []

    # --- trick play, shared by every game ----------------------------------------------------

    def ready_to_play(self, run: Run, rnd: R) -> None:
        """Raise (strict) or flag what must come before the first card or the tricks."""

    def after_last_card(self, run: Run, rnd: R) -> None:
        """Strict entry: a round's results come after the trick under way, if any, is finished
        (so a table, and its record, is stopped in the middle of a trick only while its round
        is under way)."""
        if not run.lenient and rnd.plays and not rnd.trick_full(-1):
            raise OutOfTurn("turn", "trick-under-way", round=rnd.number, trick=len(rnd.plays))

    def current_trump(self, rnd: R) -> str | None:
        """The trump colour in force now (``UNKNOWN_TRUMP`` when the record does not say)."""
        return rnd.trump_colour

    def settling_trump(self, rnd: R, trick: PlayedTrick) -> str | None:
        """The trump a complete trick is settled with."""
        return self.current_trump(rnd)

    def after_card(self, run: Run, rnd: R, player: str, card: Card) -> None:
        """A game's own reaction to a card (ebbes fixes designations)."""

    def lose_track(self, rnd: R) -> None:
        """A card of the round is not known (a ``BadCard``, a trick with the wrong number of
        cards): what a game derives from the cards in order (ebbes: the roles) stops here."""

    def unavailable(self, rnd: R, card: Card) -> str | None:
        """Why ``card`` cannot be played this round (a message code), or None."""
        if isinstance(card, BadCard):
            return "card-unreadable"
        if card not in self.deck:
            return "card-not-in-deck"
        if card in rnd.seen:
            return "card-twice"
        if card == rnd.trump_card:
            return "card-turned"
        return None

    def cards_left(self, rnd: R) -> list[Card]:
        """The cards that can still be played this round, in deck order (for a card picker)."""
        return [card for card in self.deck if self.unavailable(rnd, card) is None]

    def next_to_play(self, rnd: RoundState) -> str | None:
        """Who plays the next card (None when every trick is played or no leader is known)."""
        if not rnd.plays or rnd.trick_full(-1):
            if len(rnd.plays) == rnd.tricks_total:
                return None
            return rnd.plays[-1].winner if rnd.plays else rnd.leader
        return self.left_of(rnd, rnd.plays[-1].cards[-1][0])

    def read_card(self, text: object) -> Card:
        """The card ``text`` spells, or a ``BadCard`` if it spells none of this game's."""
        card = self.deck.parse_card(text) if isinstance(text, str) else None
        return BadCard.of(text) if card is None else card

    def check_leader(self, run: Run, rnd: R, leader: object) -> tuple[str, bool, bool]:
        """A new trick's leader: who its cards are counted from, whether the trick is loose
        (whose card is whose is not known) and whether it is misled (led by someone other than
        the one who had to lead: its cards are counted from that leader, as recorded). Both are
        flagged. A leader who is not a player makes the trick loose, the cards counted from
        the one who had to lead; so does a wrong one, since the record cannot tell a wrong
        name from a lead out of turn (``docs/record-format.md``)."""
        number = len(rnd.plays) + 1
        expected = rnd.plays[-1].winner if rnd.plays else rnd.leader
        if not isinstance(leader, str) or leader not in rnd.seats:
            run.flag(
                IllegalEntry(
                    "players", "unknown-player", round=rnd.number, trick=number, name=leader
                )
            )
            return expected or rnd.seats[0], True, False
        if expected is not None and leader != expected:
            run.flag(
                OutOfTurn(
                    "turn",
                    "leader",
                    round=rnd.number,
                    trick=number,
                    player=leader,
                    expected=expected,
                )
            )
            return leader, True, True
        return leader, False, False

    def on_play(self, run: Run, rnd: R, event: ev.Play) -> None:
        card = self.read_card(event.card)
        expected = self.next_to_play(rnd)
        if len(rnd.plays) == rnd.tricks_total and rnd.trick_full(-1):
            raise OutOfTurn("turn", "too-many-tricks", round=rnd.number, tricks=rnd.tricks_total)
        leads = not rnd.plays or rnd.trick_full(-1)
        if leads and run.lenient and event.player is not None:
            # A recorded trick under way: its leader is checked as a whole trick's is.
            leader = event.player
            player, loose, misled = self.check_leader(run, rnd, leader)
        else:
            if event.player is not None:
                self.check_player(event.player, rnd)
                if expected is not None and event.player != expected:
                    raise OutOfTurn(
                        "turn",
                        "card-turn",
                        round=rnd.number,
                        trick=self._trick_no(rnd),
                        player=event.player,
                        expected=expected,
                    )
            found = event.player if expected is None else expected
            if found is None:
                raise Missing("missing", "missing-starter", round=rnd.number)
            leader = player = found
            loose = misled = False
        self.ready_to_play(run, rnd)
        if leads:
            self.open_trick(rnd, leader, loose, misled)
        self.play_card(run, rnd, player, card)
        if len(rnd.plays[-1].cards) == len(rnd.seats):
            rnd.plays[-1] = self.settle(rnd, rnd.plays[-1])

    def on_trick(self, run: Run, rnd: R, event: ev.Trick) -> None:
        cards = [self.read_card(text) for text in event.cards]
        number = len(rnd.plays) + 1
        if rnd.plays and not rnd.trick_full(-1):
            raise OutOfTurn("turn", "trick-unfinished")
        if number > rnd.tricks_total:
            raise OutOfTurn("turn", "too-many-tricks", round=rnd.number, tricks=rnd.tricks_total)
        player, loose, misled = self.check_leader(run, rnd, event.leader)
        if len(cards) != len(rnd.seats):
            run.flag(
                OutOfTurn(
                    "turn",
                    "trick-size",
                    round=rnd.number,
                    trick=number,
                    count=len(cards),
                    players=len(rnd.seats),
                )
            )
            loose = True
            self.lose_track(rnd)
        self.ready_to_play(run, rnd)
        self.open_trick(rnd, event.leader, loose, misled)
        for card in cards:
            self.play_card(run, rnd, player, card)
            player = self.left_of(rnd, player)
        rnd.plays[-1] = self.settle(rnd, rnd.plays[-1])

    def _trick_no(self, rnd: RoundState) -> int:
        return len(rnd.plays) + (0 if rnd.plays and not rnd.trick_full(-1) else 1)

    def open_trick(self, rnd: R, leader: str, loose: bool, misled: bool) -> None:
        """Begin a new trick led by ``leader`` (as the record names them). A trick before it
        that its cards could not settle was won by this trick's leader."""
        if rnd.plays and rnd.plays[-1].winner is None and leader in rnd.seats:
            rnd.plays[-1] = replace(rnd.plays[-1], winner=leader, why="next-leader")
        rnd.plays.append(
            PlayedTrick(
                leader=leader, trump_before=self.current_trump(rnd), loose=loose, misled=misled
            )
        )

    def play_card(self, run: Run, rnd: R, player: str, card: Card) -> None:
        """Play one card into the trick under way: check it, track show-outs and revokes.

        A card that cannot have been played is flagged and stands for some card of ``player``
        (a ``BadCard``): it follows no colour, shows out of none and counts for nobody.
        """
        number = len(rnd.plays)
        why = self.unavailable(rnd, card)
        if why == "card-twice" and run.lenient and card not in rnd.doubtful:
            raise PlayedTwice(card)  # the round is taken again with the card in doubt
        if why is None and card in rnd.doubtful:
            rnd.seen[card] = number  # its first copy, which may be the one written wrong
            card = BadCard.of(str(card))
        elif why is not None:
            run.flag(
                IllegalEntry(
                    "card", why, round=rnd.number, trick=number, player=player, **card_param(card)
                )
            )
            card = card if isinstance(card, BadCard) else BadCard.of(str(card))
        trick = rnd.plays[-1]
        rnd.plays[-1] = trick.with_card(player, card)
        if isinstance(card, BadCard):
            self.lose_track(rnd)
            return
        if not trick.loose:
            key = (player, card.colour)
            if key in rnd.showouts and key not in rnd.revoked:
                rnd.revoked.add(key)
                run.note(
                    Revoke(
                        "follow-suit",
                        "follow-suit",
                        round=rnd.number,
                        trick=rnd.showouts[key],
                        player=player,
                        colour=card.colour,
                        card=str(card),
                        later=number,
                    )
                )
            led = trick.led
            if led is not None and card.colour != led:
                rnd.showouts.setdefault((player, led), number)
        rnd.seen.setdefault(card, number)
        self.after_card(run, rnd, player, card)

    def settle(self, rnd: R, trick: PlayedTrick) -> PlayedTrick:
        """The trick with all its cards in, and its winner if its cards can tell it."""
        trump = self.settling_trump(rnd, trick)
        cards = [card for _, card in trick.cards]
        unknown = (
            trick.loose
            or trick.misled
            or any(isinstance(card, BadCard) for card in cards)
            or (trump == UNKNOWN_TRUMP and any(card.colour != cards[0].colour for card in cards))
        )
        if unknown:
            return trick.settled(None, None, None)
        trump = None if trump == UNKNOWN_TRUMP else trump
        index, why = trick_winner(cards, trump)
        return trick.settled(trick.cards[index][0], why, trump)

    # --- entering the tricks won ------------------------------------------------------------

    def read_counts(
        self, run: Run, rnd: RoundState, counts: Mapping[str, int], code: str
    ) -> tuple[dict[str, int], int | None]:
        """Check a player → count map: known players, whole numbers ≥ 0, everybody present.

        The players' counts, and the total of all the counts, those under a name that is no
        player's too (None if one is not a whole number ≥ 0). A bad count or name is one
        breach: its player is not reported missing besides. The players without a count that
        is one are the round's ``lacking``, reported missing or not: the round's results are not
        in without theirs (and a record written from the round has no count for them).
        """
        out: dict[str, int] = {}
        strays = 0
        total: int | None = 0
        for name, count in counts.items():
            known = name in rnd.seats
            if not known:
                run.flag(IllegalEntry("players", "unknown-player", round=rnd.number, name=name))
                strays += 1
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                if known:
                    run.flag(
                        IllegalEntry(
                            "trick-total", code, round=rnd.number, player=name, count=count
                        )
                    )
                total = None
                continue
            if total is not None:
                total += count
            if known:
                out[name] = count
        lacking = [name for name in rnd.seats if name not in out]
        if lacking:  # those left out are among them
            left_out = [name for name in rnd.seats if name not in counts]
            for name in unaccounted(left_out, strays):
                run.flag(Missing("missing", "missing-player-tricks", round=rnd.number, player=name))
        rnd.lacking = frozenset(lacking)
        return out, total

    def on_tricks(self, run: Run, rnd: R, event: ev.Tricks) -> None:
        if not isinstance(event.tricks, Mapping):
            raise IllegalEntry(
                "trick-total", "trick-negative", round=rnd.number, count=event.tricks
            )
        if rnd.tricks is not None and not run.lenient:
            raise OutOfTurn("turn", "tricks-twice", round=rnd.number)
        self.ready_to_play(run, rnd)
        self.after_last_card(run, rnd)
        tricks, total = self.read_counts(run, rnd, event.tricks, "trick-negative")
        # A count left out is its one breach: the total is not checked without it.
        if total is not None and not rnd.lacking and total != rnd.tricks_total:
            run.flag(
                Miscount(
                    "trick-total",
                    "trick-total",
                    round=rnd.number,
                    total=total,
                    tricks=rnd.tricks_total,
                )
            )
        if rnd.plays:
            derived = Counter(trick.winner for trick in rnd.plays if trick.winner)
            exact = rnd.plays_complete and rnd.winners_known
            for name in rnd.seats:
                given = tricks.get(name)
                got = derived.get(name, 0)
                if given is None:  # missing, or not a count: reported as such
                    continue
                if (given != got) if exact else (given < got):
                    run.flag(
                        Miscount(
                            "plays",
                            "plays-tricks",
                            round=rnd.number,
                            player=name,
                            derived=got,
                            given=given,
                        )
                    )
        rnd.tricks = tricks


#: Every game by its record name, in the order the app offers them: its rules class, imported
#: the first time it is asked for (the list: ``referee.rules.registry``).
GAMES: Registry[Game[Any]] = Registry(Game, GAME_LIST)


def check_players(setup: Setup, game_cls: type[Game[Any]]) -> list[Breach]:
    """The ``players`` breaches of a setup: count, empty, long, hidden-character or duplicate
    names (``referee.rules.names``: the same name up to case and Unicode normalisation)."""
    found: list[Breach] = []
    count = len(setup.players)
    if not game_cls.min_players <= count <= game_cls.max_players:
        found.append(
            IllegalEntry(
                "players",
                "player-count",
                game=game_cls.title,
                low=game_cls.min_players,
                high=game_cls.max_players,
                count=count,
            )
        )
    seen: set[str] = set()
    for seat, name in enumerate(setup.players, start=1):
        fault = names.name_fault(name)
        if fault == "empty-name":
            found.append(IllegalEntry("players", fault, seat=seat))
        elif fault is not None:
            found.append(IllegalEntry("players", fault, name=name))
        key = names.same_name_key(name)
        if key in seen and key:
            found.append(IllegalEntry("players", "duplicate-name", name=name))
        seen.add(key)
    if setup.first is not None and setup.first not in setup.players:
        found.append(IllegalEntry("players", "unknown-player", name=setup.first))
    return found


def start(setup: Setup, *, lenient: bool = False) -> State:
    """The state of a new table. Strict: a ``players`` breach or ``OptionError`` is raised.

    >>> state = start(Setup("blackout", ("Ann", "Ben", "Cho")))
    >>> state.game.round_count, state.next_step()
    (33, Step(round=1, action='trump', player=None))
    """
    if setup.game not in GAMES:
        raise OptionError("game", f"There is no game {setup.game!r}.")
    game_cls = GAMES[setup.game]
    problems = check_players(setup, game_cls)
    if problems and not lenient:
        raise problems[0]
    game = game_cls(setup)
    return State(setup, game, [], violations=problems)


def apply(state: State, event: ev.Event) -> State:
    """The state after ``event``, or a ``Breach`` saying why the rules refuse it.

    >>> state = start(Setup("blackout", ("Ann", "Ben", "Cho")))
    >>> state = apply(state, ev.Trump(round=1, card="QH"))
    >>> apply(state, ev.Bid(round=1, player="Ann", bid=0))
    Traceback (most recent call last):
    ...
    referee.rules.breaches.OutOfTurn: It is Ben's turn to bid, not Ann's.
    """
    new = state.copy()
    new.game.step(Run(new, lenient=False), event)
    return new


def replay(setup: Setup, events: Iterable[ev.Event], *, lenient: bool = False) -> State:
    """The state after all ``events``; strict raises the first breach, lenient notes them all."""
    state = start(setup, lenient=lenient)
    run = Run(state, lenient)
    for event in events:
        try:
            state.game.step(run, event)
        except Breach as breach:
            if not lenient:
                raise
            state.violations.append(breach)
    if lenient:
        state.game.finish(run)
    return state


def extend(state: State, event: ev.Event) -> State:
    """A leniently replayed state with one more event, as ``replay(..., lenient=True)`` of all.

    >>> setup = Setup("blackout", ("Ann", "Ben"))
    >>> events = [ev.Trump(1, "H"), ev.Bid(1, "Ben", 0), ev.Bid(1, "Ann", 1)]
    >>> state = extend(replay(setup, events[:2], lenient=True), events[2])
    >>> [b.rule for b in state.violations], state.current.bids
    (['hook'], {'Ben': 0, 'Ann': 1})
    """
    new = state.copy()
    run = Run(new, lenient=True)
    try:
        new.game.step(run, event)
    except Breach as breach:
        new.violations.append(breach)
    new.game.finish(run)
    return new


def allowed(state: State, events: Sequence[ev.Event]) -> list[tuple[ev.Event, Breach | None]]:
    """Each candidate event with the breach that would refuse it (None if it is allowed)."""
    out: list[tuple[ev.Event, Breach | None]] = []
    for event in events:
        try:
            apply(state, event)
            out.append((event, None))
        except Breach as breach:
            out.append((event, breach))
    return out
