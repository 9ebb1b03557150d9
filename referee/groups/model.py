"""A group in one model: its roster (``Member``), seasons (``Season``), time zone and the
tables it keeps (``KeptTable``), as ``Group``; and every rule of what a group may hold, checked
here once (docs/group-format.md).

The store keeps a ``Group`` and hands it out (``referee.store.groups``); a change asks the
group first (``Group.new_member``, ``Group.renamed``, ``Group.new_season``, ``Group.seating``
…), which answers with what to write or raises ``GroupRefused``, and the store writes it. A
group file (``referee.groups.document``) is read by the same rules, its reader turning a
refusal into a sentence that says where in the file; the web says a refusal in the reader's
language (``referee.web.groups.words``).

The rules:

- a name (a player's, a season's, the group's) is trimmed, and refused empty, longer than its
  kind's longest, or holding what shows as nothing (``referee.rules.names.name_fault``);
- two players of the roster who are not retired never have the same name, up to case, Unicode
  normalisation and what shows as nothing (``referee.rules.names.same_name_key``), nor two
  seasons;
- a roster id is 1 to ``LONGEST_ID`` characters, shows, and can be part of an address;
- a table's seats name each of its players once, each with a roster id or None for a guest,
  and no id twice: two seats are two people;
- a time zone is one this machine knows (IANA);
- a group this app keeps holds at most ``LONGEST_ROSTER`` players and ``MOST_KEPT_SEASONS``
  seasons, no two starting on one day.

Pure: no web, no database.

>>> group = Group("g", "Friday club", "Europe/Berlin", 1, datetime(2026, 1, 1, tzinfo=UTC),
...     players=(Member("p1", "Ann"), Member("p2", "Ben", retired=True)))
>>> group.new_member("  Cho "), group.new_member("ben")
(Member(id='p3', name='Cho', retired=False), Member(id='p3', name='ben', retired=False))
>>> group.new_member("ANN")
Traceback (most recent call last):
  ...
referee.groups.model.GroupRefused: name-taken: {'kind': 'player', 'name': 'ANN', 'by': 'p1'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from referee.rules.names import LONGEST_NAME, hidden_character, name_fault, same_name_key

__all__ = [
    "DEFAULT_TIME_ZONE",
    "LONGEST_GROUP_NAME",
    "LONGEST_ID",
    "LONGEST_ROSTER",
    "LONGEST_SEASON_NAME",
    "MOST_KEPT_SEASONS",
    "Group",
    "GroupRefused",
    "KeptTable",
    "Member",
    "Season",
    "check_free",
    "check_id",
    "check_season_free",
    "check_seats",
    "checked_name",
    "checked_time_zone",
    "in_offset",
    "new_group",
    "new_roster",
    "offset_minutes",
    "season_of",
]

#: The longest group name, in characters (after trimming).
LONGEST_GROUP_NAME = 80
#: The longest season name (a player's name is ``LONGEST_NAME`` long at most).
LONGEST_SEASON_NAME = 40
#: The longest roster id, in characters.
LONGEST_ID = 40
#: The most players the roster of a group this app keeps holds, retired ones included.
LONGEST_ROSTER = 100
#: The most seasons a group this app keeps holds.
MOST_KEPT_SEASONS = 100
#: The time zone of a group that names none.
DEFAULT_TIME_ZONE = "Europe/Berlin"

#: Each kind of name's longest.
_LONGEST = {"group": LONGEST_GROUP_NAME, "season": LONGEST_SEASON_NAME, "player": LONGEST_NAME}


class GroupRefused(ValueError):
    """What the rules of a group refuse: ``code`` and its ``params`` (names, numbers), said in
    words by whoever asked (the web in the reader's language, the group file's reader with where
    in the file). Codes:

    - ``name-empty``, ``name-long`` (with ``longest``), ``name-hidden``: ``kind`` (``player``,
      ``group`` or ``season``) and ``name``;
    - ``name-taken``: ``kind``, ``name`` and ``by``, the roster id or the season's name that has
      it;
    - ``id-long``, ``id-hidden``, ``id-address`` (a roster id: ``id``), ``time-zone``
      (``name``), ``roster-full`` and ``seasons-full`` (``longest``), ``season-date-taken``
      (``day``);
    - a table's seats: ``seats`` (``name``: no player of the table, or with ``missing`` a
      player given no seat), ``unknown-player`` (``player``: no roster id, and the
      ``name`` of its seat), ``same-id-twice`` (``name`` and ``other``, the seats, and ``player``
      and ``player_id``, who they would both be);
    - ``retired-player``, ``not-a-guest`` (``name``), ``not-kept``, ``table-kept``,
      ``unknown-table``."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}")


@dataclass(frozen=True)
class Member:
    """A roster player: a stable ``id``, the name shown now, and whether they are retired (kept
    with their history, not offered for new tables)."""

    id: str
    name: str
    retired: bool = False


@dataclass(frozen=True)
class Season:
    """A season: its name and the date it begins; it runs to the next season's."""

    name: str
    start: date


def season_of(seasons: Sequence[Season], evening: date) -> Season | None:
    """The season of ``seasons`` (in date order) an ``evening`` falls in: the last to begin on
    or before it; None before the first.

    >>> seasons = [Season("2025", date(2025, 1, 1)), Season("2026", date(2026, 1, 1))]
    >>> [season_of(seasons, date(y, 6, 1)) for y in (2024, 2025, 2026)][1:] == seasons
    True
    """
    found = None
    for season in seasons:
        if season.start > evening:
            break
        found = season
    return found


@dataclass(frozen=True)
class KeptTable:
    """A table the group keeps: the table's setup (its game, players in seat order, first
    dealer and options; no replay), every seat's roster id (None: a guest), whether it counts,
    and when it was played, in the offset it is told in."""

    table_id: str
    game: str
    players: tuple[str, ...]
    first: str | None
    options: Mapping[str, object]
    seats: Mapping[str, str | None]
    counts: bool
    played: datetime

    @property
    def evening(self) -> date:
        """The table's evening: the date it was played on, where it was played."""
        return self.played.date()


@dataclass(frozen=True)
class Group:
    """A group: its id, name, time zone, ``version`` (raised by every change), when it was made,
    its roster in the order players were added, its seasons by date and its tables by when they
    were played (the latest last)."""

    id: str
    name: str
    time_zone: str
    version: int
    created_at: datetime
    players: tuple[Member, ...] = ()
    seasons: tuple[Season, ...] = ()
    tables: tuple[KeptTable, ...] = ()
    ended_early_counts: bool = True
    by_id: Mapping[str, Member] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {player.id: player for player in self.players})

    def player(self, player_id: str | None) -> Member | None:
        return None if player_id is None else self.by_id.get(player_id)

    def today(self, now: datetime | None = None) -> date:
        """The group's date now (or at ``now``): the evening a table started now belongs to."""
        moment = now if now is not None else datetime.now(UTC)
        return moment.astimezone(ZoneInfo(self.time_zone)).date()

    def season_of(self, day: date) -> Season | None:
        """The season ``day`` falls in (None: before the first)."""
        return season_of(self.seasons, day)

    def kept(self, table_id: str) -> KeptTable | None:
        return next((kept for kept in self.tables if kept.table_id == table_id), None)

    # --- what a change may do: the answer to write, or ``GroupRefused`` ----------------------

    def member(self, player_id: str) -> Member:
        """The roster player of ``player_id``; ``unknown-player`` when there is none."""
        found = self.player(player_id)
        if found is None:
            raise GroupRefused("unknown-player", player=player_id)
        return found

    def new_member(self, name: str) -> Member:
        """The player a roster gains under ``name``, with the next free id (``p`` and a
        number)."""
        name = checked_name(name)
        check_free(name, self.players)
        if len(self.players) >= LONGEST_ROSTER:
            raise GroupRefused("roster-full", longest=LONGEST_ROSTER)
        number = len(self.players) + 1
        while f"p{number}" in self.by_id:
            number += 1
        return Member(f"p{number}", name)

    def renamed(self, player_id: str, name: str) -> Member:
        """The roster player of ``player_id`` under a new ``name`` (their id, and so their
        history, stays)."""
        player = self.member(player_id)
        name = checked_name(name)
        if not player.retired:
            check_free(name, self.players, but=player_id)
        return Member(player.id, name, player.retired)

    def retiring(self, player_id: str, retired: bool) -> Member:
        """The roster player retired, or brought back (refused while a player of the roster has
        their name)."""
        player = self.member(player_id)
        if not retired and player.retired:
            check_free(player.name, self.players, but=player_id)
        return Member(player.id, player.name, retired)

    def new_season(self, name: str, start: date) -> Season:
        """A season to start on ``start``: refused on a day or with a name another has."""
        name = checked_name(name, "season")
        if len(self.seasons) >= MOST_KEPT_SEASONS:
            raise GroupRefused("seasons-full", longest=MOST_KEPT_SEASONS)
        if any(season.start == start for season in self.seasons):
            raise GroupRefused("season-date-taken", day=start)
        check_season_free(name, self.seasons)
        return Season(name, start)

    def seating(
        self, players: Sequence[str], seats: Mapping[str, str | None]
    ) -> dict[str, str | None]:
        """The seats of a table of ``players`` (``check_seats``, against this roster)."""
        return check_seats(players, seats, self.by_id)

    def table(self, table_id: str) -> KeptTable:
        """The table the group keeps under ``table_id``; ``not-kept`` when it keeps none."""
        found = self.kept(table_id)
        if found is None:
            raise GroupRefused("not-kept")
        return found

    def guest_seat(self, table_id: str, seat: str, joined: Sequence[str] = ()) -> KeptTable:
        """The kept table whose seat ``seat`` is a guest's (or a newcomer's the table says
        ``joined`` it and that no seat names yet); ``not-kept`` or ``not-a-guest``."""
        kept = self.table(table_id)
        newcomer = seat in joined and seat not in kept.players and seat not in kept.seats
        if not newcomer and (seat not in kept.seats or kept.seats[seat] is not None):
            raise GroupRefused("not-a-guest", name=seat)
        return kept

    def seated_guest(
        self, table_id: str, seat: str, member: Member, joined: Sequence[str] = ()
    ) -> dict[str, str | None]:
        """The seats of a kept table once its guest seat ``seat`` is ``member``'s (a roster
        player's, or one new with this change): refused when the seat is no guest's, or another
        seat of the table has the id. ``joined``: the table's newcomers (``guest_seat``)."""
        kept = self.guest_seat(table_id, seat, joined)
        roster = {**self.by_id, member.id: member}
        return check_seats(kept.players, {**kept.seats, seat: member.id}, roster, joined)

    def seated_newcomer(
        self, table_id: str, name: str, joined: Sequence[str]
    ) -> dict[str, str | None] | None:
        """The seats of a kept table once a newcomer who joined it late under ``name`` is the
        roster player of that name (ignoring case; not retired, not seated at the table yet);
        None when no such player is free, or a seat names the newcomer already."""
        kept = self.table(table_id)
        if name in kept.seats or name in kept.players:
            return None
        key = same_name_key(name)
        seated = set(kept.seats.values())
        member = next(
            (
                p
                for p in self.players
                if not p.retired and p.id not in seated and same_name_key(p.name) == key
            ),
            None,
        )
        return None if member is None else self.seated_guest(table_id, name, member, joined)

    def merged_guest(
        self, table_id: str, seat: str, member: Member, joined: Sequence[str] = ()
    ) -> dict[str, dict[str, str | None]]:
        """The seats of every table a guest merge changes (table id → seats): the table's own
        (``seated_guest``), and those of each other table of its evening where a guest of the
        same name sat (ignoring case) and ``member`` did not: one person, one evening, merged
        once."""
        kept = self.table(table_id)
        changed = {table_id: self.seated_guest(table_id, seat, member, joined)}
        key = same_name_key(seat)
        for other in self.tables:
            if other.table_id == table_id or other.evening != kept.evening:
                continue
            if member.id in other.seats.values():
                continue
            name = next(
                (n for n, pid in other.seats.items() if pid is None and same_name_key(n) == key),
                None,
            )
            if name is not None:
                changed[other.table_id] = self.seated_guest(other.table_id, name, member)
        return changed


def new_group(
    group_id: str,
    name: str,
    time_zone: str,
    players: Sequence[Member],
    seasons: Sequence[Season],
    created_at: datetime,
) -> Group:
    """A new group as this app keeps it, if the rules allow it: its name and time zone, a
    roster of at most ``LONGEST_ROSTER`` players whose names are good and, for those not
    retired, free (ids as given: ``new_roster`` makes them for names, a group file has its own),
    and at most ``MOST_KEPT_SEASONS`` seasons of good names. Version 1, no tables."""
    name = checked_name(name, "group")
    time_zone = checked_time_zone(time_zone)
    if len(players) > LONGEST_ROSTER:
        raise GroupRefused("roster-full", longest=LONGEST_ROSTER)
    if len(seasons) > MOST_KEPT_SEASONS:
        raise GroupRefused("seasons-full", longest=MOST_KEPT_SEASONS)
    roster: list[Member] = []
    for player in players:
        checked = Member(player.id, checked_name(player.name), player.retired)
        if not checked.retired:
            check_free(checked.name, roster)
        roster.append(checked)
    kept = tuple(Season(checked_name(season.name, "season"), season.start) for season in seasons)
    return Group(group_id, name, time_zone, 1, created_at, tuple(roster), kept)


# --- the rules ---------------------------------------------------------------------------------


def checked_name(text: str, kind: str = "player") -> str:
    """``text`` trimmed, if it may be a ``kind``'s name (``player``, ``group``, ``season``): the
    rules of a player's name at a table (``referee.rules.names``), up to the kind's longest; else
    ``GroupRefused``."""
    longest = _LONGEST[kind]
    name = text.strip()
    fault = name_fault(text, longest)  # what shows as nothing refused around the name too
    if fault == "empty-name":
        raise GroupRefused("name-empty", kind=kind, name=name)
    if fault == "long-name":
        raise GroupRefused("name-long", kind=kind, name=name, longest=longest)
    if fault is not None:
        raise GroupRefused("name-hidden", kind=kind, name=name)
    return name


def check_free(name: str, roster: Iterable[Member], but: str | None = None) -> None:
    """``name-taken`` when a player of ``roster`` who is not retired, other than ``but``, has
    the same name (``by``: their id)."""
    key = same_name_key(name)
    for player in roster:
        if not player.retired and player.id != but and same_name_key(player.name) == key:
            raise GroupRefused("name-taken", kind="player", name=name, by=player.id)


def check_season_free(name: str, seasons: Iterable[Season]) -> None:
    """``name-taken`` when a season of ``seasons`` has the same name (``by``: its name)."""
    key = same_name_key(name)
    for season in seasons:
        if same_name_key(season.name) == key:
            raise GroupRefused("name-taken", kind="season", name=name, by=season.name)


def check_id(player_id: str) -> None:
    """``GroupRefused`` unless ``player_id`` may be a roster id: 1 to ``LONGEST_ID`` characters
    that show, and usable in the address of the player's page (no "/", not "." or "..")."""
    if not 1 <= len(player_id) <= LONGEST_ID:
        raise GroupRefused("id-long", id=player_id, longest=LONGEST_ID)
    if hidden_character(player_id):
        raise GroupRefused("id-hidden", id=player_id)
    if "/" in player_id or player_id in (".", ".."):
        raise GroupRefused("id-address", id=player_id)


def new_roster(names: Sequence[str]) -> tuple[Member, ...]:
    """The roster of a new group from ``names``, ids ``p1``, ``p2`` … in that order (its rules
    are ``new_group``'s)."""
    return tuple(Member(f"p{number}", name) for number, name in enumerate(names, start=1))


def check_seats(
    players: Sequence[str],
    seats: Mapping[str, str | None],
    roster: Mapping[str, Member],
    joined: Sequence[str] = (),
) -> dict[str, str | None]:
    """``seats`` in seat order, for a table of ``players``, if it gives each player's name a
    roster id of ``roster`` or None (a guest) and no id twice; else ``GroupRefused``, for the
    first seat that is wrong in the order given. A newcomer who ``joined`` the table after it
    began may have a seat too (without one they are a guest), after the players'."""
    taken: dict[str, str] = {}  # a roster id → the seat given it
    for name, player_id in seats.items():
        if name not in players and name not in joined:
            raise GroupRefused("seats", name=name, missing=False)
        if player_id is None:
            continue
        member = roster.get(player_id)
        if member is None:
            raise GroupRefused("unknown-player", player=player_id, name=name)
        if player_id in taken:
            raise GroupRefused(
                "same-id-twice",
                name=name,
                other=taken[player_id],
                player=member.name,
                player_id=player_id,
            )
        taken[player_id] = name
    for name in players:
        if name not in seats:
            raise GroupRefused("seats", name=name, missing=True)
    newcomers = {name: seats[name] for name in joined if name in seats and name not in players}
    return {name: seats[name] for name in players} | newcomers


def checked_time_zone(name: str) -> str:
    """``name`` trimmed, if it is an IANA time zone this machine knows; else ``time-zone``."""
    name = name.strip()
    if 0 < len(name) <= 64 and name.isprintable() and name in available_timezones():
        try:
            ZoneInfo(name)
            return name
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise GroupRefused("time-zone", name=name)


def offset_minutes(time_zone: str, moment: datetime) -> int:
    """The offset from UTC of ``time_zone`` at ``moment``, in whole minutes."""
    offset = moment.astimezone(ZoneInfo(time_zone)).utcoffset() or timedelta()
    return int(offset.total_seconds() // 60)


def in_offset(moment: datetime, minutes: int) -> datetime:
    """``moment`` (UTC when it says no time zone, as a database may hand it back) told at the
    offset of ``minutes`` from UTC."""
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
    return utc.astimezone(timezone(timedelta(minutes=minutes)))
