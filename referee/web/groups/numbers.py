"""The group's numbers as the web has them: the statistics of ``referee.groups`` for a season or
for all time, built from the tables the group keeps, and what the pages say of them.

``numbers(group, scope)`` is exactly ``referee.groups.statistics``' (``Statistics``: its
document is the ``--json`` of ``python -m referee stats``): the counted tables are the kept ones
with ``counts`` true (and, for a season, played in it), each named by its number in the group's
file (``transfer.py`` writes the tables in the same order, the order played), so that the
numbers the pages are rendered from are the ones the command line gives for the group's export.
The web adds up nothing of its own.

What is computed is kept through the memo (``referee.web.memo``'s ``groups`` shelf): each table's
facts by table and log position, the document by group version and the tables' positions, so a
page of a group of many tables replays only the tables that changed, and adds up nothing again
while nothing changed. The tables whose facts are not kept are read and replayed together
(``facts_of_tables``): a group of ten thousand tables just loaded from its file costs a few reads
of the database, not one per table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from flask import abort, request

from referee.groups import (
    CountedTable,
    Group,
    KeptTable,
    Member,
    Season,
    TableFacts,
    season_of,
    statistics,
)
from referee.groups.facts import stats_part, table_facts
from referee.groups.figures import GameFigures, PlayerFigures, Statistics
from referee.groups.report import ranked
from referee.web.groups.glance import positions, table_glance
from referee.web.i18n import gettext
from referee.web.loading import each_table, recent_seqs
from referee.web.memo import memo

#: The query value of every table, whatever its season.
ALL = "all"


@dataclass(frozen=True)
class Scope:
    """What the numbers are of: a season (``value`` is its first day, as the address gives
    it) or every table (``ALL``, ``season`` None)."""

    value: str
    season: Season | None


def scopes(group: Group) -> list[Scope]:
    """What a season picker offers: the seasons, the newest first, then all time."""
    return [Scope(s.start.isoformat(), s) for s in reversed(group.seasons)] + [Scope(ALL, None)]


def current_scope(group: Group) -> Scope:
    """The season the group is in today, or all time (no season yet)."""
    season = group.season_of(group.today())
    return Scope(ALL, None) if season is None else Scope(season.start.isoformat(), season)


def chosen_scope(group: Group) -> Scope:
    """The scope the address asks for (``?season=``: a season's first day, or ``all``); the
    current season when it asks for none; a 404 page for one the group does not have."""
    value = request.args.get("season")
    if value is None or value == "":
        return current_scope(group)
    for scope in scopes(group):
        if scope.value == value:
            return scope
    abort(404, description=gettext("The group has no such season."))


def member_of(group: Group, player_id: str) -> Member | None:
    player = group.player(player_id)
    return None if player is None else Member(player.id, player.name, player.retired)


def roster(group: Group) -> tuple[Member, ...]:
    return tuple(Member(p.id, p.name, p.retired) for p in group.players)


def facts_of(table_id: str) -> TableFacts | None:
    """The statistics' facts of a table at its log position now (``referee.groups``), computed
    once per position; None for a table this version cannot replay."""
    return facts_of_tables([table_id]).get(table_id)


@dataclass
class KeptFacts:
    """A table's statistics' facts as the memo keeps them at one log position: a box the first
    page that reads the table fills, so that a page finds every box it needs first, then reads
    the tables of the empty ones together (``facts_of_tables``)."""

    facts: TableFacts | None = None  # None: the table cannot be replayed
    filled: bool = False

    def fill(self, facts: TableFacts | None) -> None:
        self.facts = facts
        self.filled = True


def facts_of_tables(table_ids: Sequence[str]) -> dict[str, TableFacts | None]:
    """``facts_of`` of each table (an unknown one left out), those not kept read and replayed
    together (``each_table``), each kept at the position its read found."""
    seqs = recent_seqs(table_ids)
    kept = {
        table_id: memo("groups", ("stats-facts", table_id, seq), KeptFacts)
        for table_id, seq in seqs.items()
    }
    found = {table_id: box.facts for table_id, box in kept.items() if box.filled}
    unread = [table_id for table_id in kept if table_id not in found]
    for record, state in each_table(unread):
        facts = found[record.id] = table_facts(state)
        if record.last_seq == seqs[record.id]:  # not written to since its position was read
            kept[record.id].fill(facts)
    for table_id in unread:
        if table_id not in found:  # left out by ``each_table``: this version cannot replay it
            found[table_id] = None
            kept[table_id].fill(None)
    return found


def in_scope(group: Group, kept: KeptTable, scope: Scope) -> bool:
    """Whether a kept table is of the scope (played in its season; any, for all time)."""
    return scope.season is None or season_of(group.seasons, kept.evening) == scope.season


def counted(group: Group, scope: Scope) -> Iterator[CountedTable]:
    """The tables of the scope that count, each named by its number in the group's file."""
    chosen = [
        (number, kept)
        for number, kept in enumerate(group.tables, start=1)
        if kept.counts and in_scope(group, kept, scope)
    ]
    found = facts_of_tables([kept.table_id for _number, kept in chosen])
    for number, kept in chosen:
        facts = found.get(kept.table_id)
        if facts is not None and facts.counts_for(group.ended_early_counts):
            seats = {name: kept.seats.get(name) for name in kept.players}
            # a newcomer counts for the roster player their seat names (as the file says it)
            seats |= {s.name: kept.seats[s.name] for s in facts.seats if kept.seats.get(s.name)}
            yield CountedTable(number, kept.played, seats, facts)


def numbers(group: Group, scope: Scope) -> Statistics:
    """The statistics of the scope (see the module), kept per group version and tables'
    positions."""
    key = ("numbers", group.id, group.version, positions(group), scope.value)

    def make() -> Statistics:
        name = None if scope.season is None else scope.season.name
        return statistics(group.name, roster(group), name, list(counted(group, scope)))

    return memo("groups", key, make)


# --- what the pages say of the document ------------------------------------------------------


@dataclass(frozen=True)
class TableNote:
    """A table of the scope the standings say something of: its number in the group's file,
    what the group keeps of it, and its facts (None: it cannot be read)."""

    number: int
    kept: KeptTable
    facts: TableFacts | None

    @property
    def round_count(self) -> int | None:
        """The rounds the table's game was to have (for "ended after round 7 of 25")."""
        glance = table_glance(self.kept.table_id)
        return None if glance is None else glance.round_count


@dataclass(frozen=True)
class Honesty:
    """What the numbers of one game leave out or take as they are: the tables of the scope not
    counted, the counted ones still in play (their complete rounds count, no win, no rating),
    those that break a rule (they count as the table kept them) and those ended early (counted
    as finished, or not at all: the group's choice, ``Group.ended_early_counts``)."""

    not_counted: tuple[TableNote, ...]
    in_play: tuple[TableNote, ...]
    breaking: tuple[TableNote, ...]
    ended: tuple[TableNote, ...] = ()


def honesty(group: Group, scope: Scope, game: str, doc: Statistics) -> Honesty:
    """What the standings of ``game`` say beside the numbers (``doc``: ``numbers``')."""
    breaking = set(doc.breaking)
    chosen = [
        (number, kept)
        for number, kept in enumerate(group.tables, start=1)
        if kept.game == game and in_scope(group, kept, scope)
    ]
    found = facts_of_tables([kept.table_id for _number, kept in chosen if kept.counts])
    not_counted, in_play, broken, ended = [], [], [], []
    for number, kept in chosen:
        note = TableNote(number, kept, found.get(kept.table_id))
        if not kept.counts:
            not_counted.append(note)
            continue
        if note.facts is not None and note.facts.ended_after is not None:
            ended.append(note)
            if not group.ended_early_counts:
                continue
        if note.facts is not None and not note.facts.complete:
            in_play.append(note)
        if number in breaking:
            broken.append(note)
    return Honesty(tuple(not_counted), tuple(in_play), tuple(broken), tuple(ended))


def table_id_of(group: Group, number: int) -> str | None:
    """The id of the table the document names by ``number`` (its place in the group's file)."""
    return group.tables[number - 1].table_id if 0 < number <= len(group.tables) else None


def standings(figures: GameFigures) -> list[tuple[str, PlayerFigures]]:
    """A game's players by rating, as the table for people lists them (``ranked``)."""
    return ranked(figures.players)


def played_day(played: datetime) -> date:
    """The date of a ``played`` time, where it was played: the table's evening."""
    return played.date()


@dataclass(frozen=True)
class Rival:
    """Another roster player as a profile's head-to-head shows them."""

    player_id: str
    name: str
    tables: int
    ahead: int
    behind: int
    level: int


def rivals(group: Group, figures: PlayerFigures) -> list[Rival]:
    """A player's head-to-head (``figures``: theirs in one game), in roster order."""
    out = []
    for other, tally in figures.head_to_head.items():
        player = group.player(other)
        name = player.name if player is not None else other
        out.append(Rival(other, name, tally.tables, tally.ahead, tally.behind, tally.level))
    return out


def most(found: list[Rival], key: str) -> tuple[list[Rival], int]:
    """The rivals with the highest ``key`` (``ahead`` or ``behind``), and that count; none when
    it is 0."""
    best = max((getattr(rival, key) for rival in found), default=0)
    return ([rival for rival in found if getattr(rival, key) == best] if best else []), best


def game_keys(game: str) -> list[tuple[str, str, str]]:
    """A game's own keys, each with its name and its sentence (marked, said by the page)."""
    part = stats_part(game)
    return [(key, part.labels.get(key, key), part.explanations.get(key, "")) for key in part.keys]
