"""What one table says of each player at it: the facts the group statistics add up.

``table_facts`` reads them from a table's replayed ``State`` (``referee.rules.replay``, or
``Record.replay``): for each seat, how many *complete* rounds the player played, their points
over those rounds, the game's counts (``bids_made`` …) summed over what the game says of each
round (the bid, the tricks, whether the player dealt …), and the place once the game is
complete: small, so that the web keeps a table's and ``stats`` sends a thousand tables' between
processes cheaply. The facts name the seats by the names the table has; a group maps them to
its roster (``referee.groups.stats``), so the web can keep a table's facts as long as the table
does not change, whoever sits where.

Only complete rounds are read, and only those the game scores (``check`` scores them: a round
whose entries cannot be scored, which only a record breaking a rule has, is left out), so a
sealed bid is never read before its round is over: its round is not complete until then.

What a game adds is its part (``referee/games/<package>/stats.py``, a ``StatsGame``): the keys it
adds to the statistics (``keys``, docs/group-format.md), what it says of a player's round
(``round_values``) and what that adds to each key (``counts``). The games that bid share
``bid_counts``.

>>> from referee.rules import Setup, events as ev, replay
>>> state = replay(Setup("blackout", ("Ann", "Ben")), [ev.Trump(1, "H"), ev.Bid(1, "Ben", 0),
...     ev.Bid(1, "Ann", 0), ev.Tricks(1, {"Ann": 1, "Ben": 0})], lenient=True)
>>> facts = table_facts(state)
>>> ann = facts.seat("Ann")
>>> ann.rounds, ann.points, ann.counts["over"], ann.counts["dealer_rounds"], ann.place
(1, 0, 1, 1, None)
>>> facts.complete
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from referee.groups.figures import TableKey
from referee.parts import part
from referee.rules import RoundState, Score, State
from referee.rules.marks import N_

#: What a game says of a player's round: whole numbers and yes-or-no.
Value = int | bool

__all__ = [
    "BID_EXPLANATIONS",
    "BID_HEADINGS",
    "BID_KEYS",
    "BID_LABELS",
    "CountedTable",
    "SeatFacts",
    "StatsGame",
    "TableFacts",
    "Value",
    "bid_counts",
    "places",
    "stats_part",
    "table_facts",
]


@dataclass(frozen=True)
class SeatFacts:
    """One seat of a table: its player's name there, how many complete rounds they played,
    the points of those rounds (the table's total for them, as ``check`` adds it up), the
    game's keys summed over them, and their place once the game is complete (None before)."""

    name: str
    rounds: int
    points: int
    counts: Mapping[str, int]
    place: int | None

    @property
    def won(self) -> bool:
        """A complete game where nobody's total is higher."""
        return self.place == 1


@dataclass(frozen=True)
class TableFacts:
    """A table's facts: its game, whether it is complete (``check``'s ``complete``), how many
    breaches of the rules it holds, each seat's facts in seat order, and the round it ended
    after when the table ended it early (``docs/rules.md``, "Ending early")."""

    game: str
    complete: bool
    breaches: int
    seats: tuple[SeatFacts, ...]
    ended_after: int | None = None

    def counts_for(self, ended_early_counts: bool) -> bool:
        """Whether the table counts in a group's numbers, by the group's choice whether a game
        ended early counts (``docs/group-format.md``, ``ended_early_counts``)."""
        return ended_early_counts or self.ended_after is None

    def seat(self, name: str) -> SeatFacts:
        """The facts of the seat of ``name`` (``KeyError`` if the table has none)."""
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise KeyError(name)


@dataclass(frozen=True)
class CountedTable:
    """A table as the statistics take it: ``key`` names it in them (the command line: its
    number in the file, from 1; the web: its own id), when it was played (with an offset),
    who sat where (the table's names in seat order → a roster id, or None for a guest) and
    its facts."""

    key: TableKey
    played: datetime
    seats: Mapping[str, str | None]
    facts: TableFacts

    def seated(self) -> list[tuple[str, SeatFacts]]:
        """Each roster player at the table (their id) with their seat's facts, in seat
        order."""
        return [(member, self.facts.seat(name)) for name, member in self.seats.items() if member]


class StatsGame:
    """One game's part of the statistics. The default: no keys of its own; a round says
    nothing beyond its points."""

    #: The game's own keys of the statistics, in the order docs/group-format.md lists them.
    keys: ClassVar[tuple[str, ...]] = ()
    #: Each key's heading in the table for people (marked for translation, said there).
    headings: ClassVar[Mapping[str, str]] = {}
    #: Each key's name on a player's profile, and what it counts, in a sentence (marked for
    #: translation; ``%(name)s`` is the player's name).
    labels: ClassVar[Mapping[str, str]] = {}
    explanations: ClassVar[Mapping[str, str]] = {}

    def round_values(
        self, state: State, rnd: RoundState, scores: Mapping[str, Score]
    ) -> dict[str, dict[str, Value]]:
        """What the game says of each player dealt in round ``rnd``, complete and scored
        (``scores``): a value per name, the same names for every round of the game."""
        return {player: {} for player in rnd.seats}

    def counts(self, values: Mapping[str, Value]) -> dict[str, int]:
        """What a player's round (its ``values``) adds to each of ``keys``."""
        return {}


def stats_part(game: str) -> StatsGame:
    """The statistics part of ``game`` (by its record name)."""
    return part(game, "stats", StatsGame)


#: The keys of the games that bid, and their headings.
BID_KEYS = ("bids_made", "over", "under", "zero_bids", "zero_made")
BID_HEADINGS: Mapping[str, str] = {
    "bids_made": N_("Made"),
    "over": N_("Over"),
    "under": N_("Under"),
    "zero_bids": N_("Bid 0"),
    "zero_made": N_("0 made"),
}
BID_LABELS: Mapping[str, str] = {
    "bids_made": N_("Bids made"),
    "over": N_("Over the bid"),
    "under": N_("Under the bid"),
    "zero_bids": N_("Zero bids"),
    "zero_made": N_("Zero bids made"),
}
BID_EXPLANATIONS: Mapping[str, str] = {
    "bids_made": N_("Rounds where %(name)s won exactly as many tricks as they bid."),
    "over": N_("Rounds where %(name)s won more tricks than they bid."),
    "under": N_("Rounds where %(name)s won fewer tricks than they bid."),
    "zero_bids": N_("Rounds where %(name)s bid 0."),
    "zero_made": N_("Of the rounds bid 0, those where %(name)s won no trick."),
}


def bid_counts(bid: int, tricks: int) -> dict[str, int]:
    """What a round bid ``bid`` and taking ``tricks`` adds to ``BID_KEYS``.

    >>> bid_counts(0, 0), bid_counts(2, 3)["over"]
    ({'bids_made': 1, 'over': 0, 'under': 0, 'zero_bids': 1, 'zero_made': 1}, 1)
    """
    # Conditional expressions rather than int() of each comparison (a call of a type): this is
    # made for every player of every round of a group's tables.
    return {
        "bids_made": 1 if tricks == bid else 0,
        "over": 1 if tricks > bid else 0,
        "under": 1 if tricks < bid else 0,
        "zero_bids": 1 if bid == 0 else 0,
        "zero_made": 1 if bid == 0 and tricks == 0 else 0,
    }


def places(totals: Mapping[str, int]) -> dict[str, int]:
    """Each player's place by total, the highest first; tied players share the better place
    and the places after them are skipped ("1, 1, 3").

    >>> places({"Ann": 30, "Ben": 50, "Cho": 30, "Dee": 10})
    {'Ann': 2, 'Ben': 1, 'Cho': 2, 'Dee': 4}
    """
    return {p: 1 + sum(1 for other in totals.values() if other > t) for p, t in totals.items()}


def table_facts(state: State) -> TableFacts:
    """The facts of a table from its replayed state (see the module's docstring). One pass over
    the rounds: a group file's thousand tables are read in one ``stats``."""
    game = state.game
    own = stats_part(state.setup.game)
    players = state.players  # a late joiner too: their total places the others
    points = dict.fromkeys(players, 0)  # scored in the rounds each was dealt in
    started = state.start_points()  # a late newcomer's: they place by it, never scored it
    summed = {p: dict.fromkeys(own.keys, 0) for p in players}
    played = dict.fromkeys(players, 0)  # the complete rounds scored each was dealt in
    # ``state.complete``, read in the pass: a game ended early is complete (docs/rules.md)
    complete = state.ended is not None or len(state.rounds) == game.round_count
    for rnd in state.rounds:
        if not game.round_complete(rnd):
            complete = False
            continue
        scores = game.score_round(state, rnd)
        if scores is None:
            continue
        values = own.round_values(state, rnd, scores)
        for p in rnd.seats:
            played[p] += 1
            points[p] += scores[p].points
            sums = summed[p]
            for key, count in own.counts(values[p]).items():
                if count:  # most are 0
                    sums[key] += count
    placed = places({p: points[p] + started.get(p, 0) for p in players}) if complete else {}
    seats = tuple(SeatFacts(p, played[p], points[p], summed[p], placed.get(p)) for p in players)
    return TableFacts(state.setup.game, complete, len(state.violations), seats, state.ended)
