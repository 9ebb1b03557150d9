"""The group file, ``table-referee-group/1`` (docs/group-format.md): read and written.

``read_group`` turns a file's text into a ``GroupFile`` — its roster (``Member``), its seasons
(``Season``) and its tables (``FileTable``: when it was played, whether it counts, who sat
where, and its ``table-referee/1`` record read by ``referee.records``) — or raises
``GroupError`` with one sentence naming what is wrong and where ("table 3: seats.Gus: …"):
``python -m referee stats``'s exit 2. ``group_document`` writes a group back (``write_group``
writes one from its parts, a record document for each table); read → write → read → write gives
the same document. The reference copy of the format is ``referee/groups/group.schema.json``.

The file is read as records are (``referee.records.read_json``: strict UTF-8, a key given twice
refused, text that is not Unicode and numbers beyond what JSON readers keep refused, each naming
its field), its names, ids and seats by the group's rules (``referee.groups.model``, the same
the app keeps a group by), and ``played`` as a history's times are (ISO 8601 with its offset),
keeping its offset: its date there is the table's evening, which places it in a season.

Reading stops at the limits below, so a made-up file costs little to refuse.

>>> group = read_group(b'''{"format": "table-referee-group/1", "name": "Friday club",
...   "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}],
...   "tables": [{"played": "2026-11-27T19:30:00+01:00", "seats": {"Ann": "p1", "Ben": "p2"},
...     "record": {"format": "table-referee/1", "game": "blackout",
...                "players": ["Ann", "Ben"]}}]}''')
>>> group.tables[0].evening, dict(group.tables[0].seats), group.member("p2").name
(datetime.date(2026, 11, 27), {'Ann': 'p1', 'Ben': 'p2'}, 'Ben')
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from referee.groups.model import (
    LONGEST_GROUP_NAME,
    LONGEST_ID,
    GroupRefused,
    Member,
    Season,
    check_free,
    check_id,
    check_season_free,
    check_seats,
    checked_name,
    season_of,
)
from referee.records import (
    LARGEST_TABLE,
    Record,
    RecordError,
    check_values,
    export_record,
    parse_record,
    read_json,
)
from referee.records.history import read_offset_time
from referee.records.parts import name_map, subfield
from referee.rules import events as ev
from referee.rules.names import printable, quote, same_name_key

__all__ = [
    "FORMAT",
    "LARGEST_FILE",
    "LARGEST_LOADED",
    "LONGEST_GROUP_NAME",
    "LONGEST_ID",
    "MOST_PLAYERS",
    "MOST_SEASONS",
    "MOST_TABLES",
    "SCHEMA_FILE",
    "FileTable",
    "GroupError",
    "GroupFile",
    "group_document",
    "group_text",
    "read_group",
    "read_group_head",
    "read_table",
    "write_group",
]

FORMAT = "table-referee-group/1"

#: The reference copy of the format's JSON schema.
SCHEMA_FILE = Path(__file__).with_name("group.schema.json")

#: The largest file read, in bytes: a thousand long games with every card and their whole
#: histories are a tenth of it.
LARGEST_FILE = 256 * 1024 * 1024
#: The largest file a server loads as a new group and ``python -m referee stats`` reads: a
#: thousand card-by-card games with their histories. Reading and replaying one takes about half
#: a minute and a quarter of a gigabyte; a file of the format's largest size would take many
#: minutes and gigabytes.
LARGEST_LOADED = 16 * 1024 * 1024
#: The most tables, roster players and seasons a file may hold.
MOST_TABLES = 10_000
MOST_PLAYERS = 1_000
MOST_SEASONS = 1_000
# The longest roster id and names are the group's (``referee.groups.model``).

_TOP_FIELDS = frozenset({"format", "name", "players", "seasons", "ended_early_counts", "tables"})
_MEMBER_FIELDS = frozenset({"id", "name", "retired"})
_SEASON_FIELDS = frozenset({"name", "from"})
_TABLE_FIELDS = frozenset({"played", "counts", "seats", "record"})

#: What a name or id holding what does not show is, said of its field.
_HIDDEN = (
    "holds a character that does not show (a control, format or private-use character, such "
    "as a right-to-left override, or a line break)"
)

#: What a roster id that is no text, or too short or long, is.
_ID_TEXT = f"must be a text of 1 to {LONGEST_ID} characters"

#: A group's list item at the start of a field (``tables[2]``), said for people (``table 3``).
_ITEM = re.compile(r"(tables|players|seasons)\[(\d+)\]\.?")
_ITEM_WORD = {"tables": "table", "players": "player", "seasons": "season"}

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def place(field: str) -> str:
    """Where ``field`` is, said for people: a group's tables, players and seasons counted from 1.

    >>> place("tables[2].seats.Gus"), place("players[0]"), place("name")
    ('table 3: seats.Gus', 'player 1', 'name')
    """
    found = _ITEM.match(field)
    if found is None:
        return field
    where = f"{_ITEM_WORD[found.group(1)]} {int(found.group(2)) + 1}"
    rest = field[found.end() :]
    return f"{where}: {rest}" if rest else where


class GroupError(ValueError):
    """A file that cannot be read as a group: ``field`` names where, as a JSON path
    (``tables[2].seats.Gus``), ``message`` what is wrong there; the error's text is one sentence
    for people ("table 3: seats.Gus: …")."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{place(field)}: {message}" if field else message)

    @classmethod
    def inside(cls, field: str, error: RecordError) -> GroupError:
        """The error a record's reader (``RecordError``) found at ``field`` of the group."""
        joined = field if not error.field else subfield(field, "") + error.field
        return cls(joined.rstrip("."), error.message)


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise GroupError(field, message)


def _said(text: str) -> str:
    """A value as a message quotes it: its start, in quotes."""
    return f'"{printable(quote(text))}"'


@dataclass(frozen=True)
class FileTable:
    """A table of a group file: when it began (with its offset), whether it counts in the
    statistics, who sat where (each of its record's players, in seat order → a roster id, or
    None for a guest) and its record."""

    played: datetime
    counts: bool
    seats: Mapping[str, str | None]
    record: Record

    @property
    def evening(self) -> date:
        """The table's date where it was played: the evening it belongs to."""
        return self.played.date()


@dataclass(frozen=True)
class GroupFile:
    """A group as its file holds it: its name, its roster, its seasons in date order and its
    tables as the file lists them, each with its record (the group the app keeps is
    ``referee.groups.model.Group``)."""

    name: str
    players: tuple[Member, ...]
    seasons: tuple[Season, ...] = ()
    tables: tuple[FileTable, ...] = ()
    ended_early_counts: bool = True

    def member(self, member_id: str) -> Member:
        """The roster player of ``member_id`` (``KeyError`` if there is none)."""
        for member in self.players:
            if member.id == member_id:
                return member
        raise KeyError(member_id)

    def season(self, name: str) -> Season | None:
        """The season called ``name`` (the same name as a player's is: ignoring case and
        spaces around it), or None."""
        key = same_name_key(name)
        return next((s for s in self.seasons if same_name_key(s.name) == key), None)

    def season_of(self, table: FileTable) -> Season | None:
        """The season ``table`` was played in (by its evening), or None before the first."""
        return season_of(self.seasons, table.evening)


# --- reading -------------------------------------------------------------------------------


def read_group(text: bytes | str) -> GroupFile:
    """The group a file's text holds; ``GroupError`` naming what cannot be read and where."""
    group, tables = read_group_head(text)
    roster = {member.id: member for member in group.players}
    return replace(group, tables=tuple(read_table(raw, i, roster) for i, raw in enumerate(tables)))


def read_group_head(text: bytes | str) -> tuple[GroupFile, list[Any]]:
    """A group file read but for its tables: the group without them, and the tables' documents,
    each for ``read_table``. (``read_group`` reads them in turn; ``stats`` shares them out to
    processes.) ``GroupError`` when what it reads cannot be read."""
    _need(len(text) <= LARGEST_FILE, "", f"a group file is at most {LARGEST_FILE} bytes")
    try:
        document = read_json(text)
        check_values(document)
    except RecordError as exc:
        raise GroupError(exc.field, exc.message) from None
    data = document.data
    _need(isinstance(data, dict), "", "a group file is a JSON object")
    assert isinstance(data, dict)
    _need(data.get("format") == FORMAT, "format", f'must be "{FORMAT}"')
    _fields(data, "", _TOP_FIELDS, "a group file")
    name = _name(data.get("name"), "name", "group")
    players = _members(data.get("players"))
    seasons = _seasons(data.get("seasons", []))
    ended_early_counts = data.get("ended_early_counts", True)
    _need(isinstance(ended_early_counts, bool), "ended_early_counts", "must be true or false")
    tables = _list(data.get("tables"), "tables", MOST_TABLES, "tables")
    return GroupFile(name, players, seasons, ended_early_counts=ended_early_counts), tables


def read_table(raw: object, index: int, roster: Mapping[str, Member]) -> FileTable:
    """The group file's table ``index`` (from 0) from its document ``raw`` (``read_group_head``),
    its seats mapped to ``roster``'s ids; ``GroupError`` when it cannot be read."""
    field = f"tables[{index}]"
    raw = _object(raw, field, "a group's table", _TABLE_FIELDS)
    try:
        played = read_offset_time(raw.get("played"), f"{field}.played")
    except RecordError as exc:
        raise GroupError(exc.field, exc.message) from None
    counts = raw.get("counts", True)
    _need(isinstance(counts, bool), f"{field}.counts", "must be true or false")
    _need("record" in raw, f"{field}.record", "is missing: a table's record is given")
    try:
        record = parse_record(raw["record"], checked=True)
    except RecordError as exc:
        raise GroupError.inside(f"{field}.record", exc) from None
    seats = _seats(raw.get("seats"), f"{field}.seats", record, roster)
    return FileTable(played, counts, seats, record)


def _fields(raw: dict[str, Any], field: str, known: frozenset[str], what: str) -> None:
    for key in raw:
        if key not in known:  # the field named only for a key that is wrong: tables have many
            raise GroupError(subfield(field, key), f"is not a field of {what}")


def _list(value: object, field: str, most: int, what: str) -> list[Any]:
    _need(isinstance(value, list), field, "must be a list")
    assert isinstance(value, list)
    _need(
        len(value) <= most, field, f"lists {len(value)} {what}; a group file holds {most} at most"
    )
    return value


def _object(value: object, field: str, what: str, known: frozenset[str]) -> dict[str, Any]:
    _need(isinstance(value, dict), field, f"{what} is an object")
    assert isinstance(value, dict)
    _fields(value, field, known, what)
    return value


def _name(value: object, field: str, kind: str = "player") -> str:
    """A ``kind``'s name, trimmed, by the group's rule (``referee.groups.model.checked_name``)."""
    _need(isinstance(value, str), field, "must be a string")
    assert isinstance(value, str)
    try:
        return checked_name(value, kind)
    except GroupRefused as refusal:
        raise GroupError(field, _said_of(refusal)) from None


def _said_of(refusal: GroupRefused) -> str:
    """What the group's rule refused, said of the field of the file that breaks it (its place
    in the file is the caller's to say)."""
    code, params = refusal.code, refusal.params
    if code == "name-long":
        return f"is longer than {params['longest']} characters"
    if code == "name-empty":
        return "is empty"
    if code in ("name-hidden", "id-hidden"):
        return _HIDDEN
    if code == "id-long":
        return _ID_TEXT
    if code == "id-address":
        return (
            'is part of the address of the player\'s page, so it holds no "/" and is not '
            '"." or ".."'
        )
    raise AssertionError(code)  # the others are said where they are checked


def _members(value: object) -> tuple[Member, ...]:
    out: list[Member] = []
    ids: dict[str, int] = {}
    for i, raw in enumerate(_list(value, "players", MOST_PLAYERS, "players")):
        field = f"players[{i}]"
        raw = _object(raw, field, "a roster player", _MEMBER_FIELDS)
        member_id = raw.get("id")
        _need(isinstance(member_id, str), f"{field}.id", _ID_TEXT)
        assert isinstance(member_id, str)
        try:
            check_id(member_id)
        except GroupRefused as refusal:
            raise GroupError(f"{field}.id", _said_of(refusal)) from None
        _need(
            member_id not in ids,
            f"{field}.id",
            f"{_said(member_id)} is player {ids.get(member_id, 0) + 1}'s id too: each roster "
            "player has an id of their own",
        )
        ids[member_id] = i
        name = _name(raw.get("name"), f"{field}.name")
        retired = raw.get("retired", False)
        _need(isinstance(retired, bool), f"{field}.retired", "must be true or false")
        if not retired:
            try:
                check_free(name, out)
            except GroupRefused as refusal:
                raise GroupError(
                    f"{field}.name",
                    f"{_said(name)} is player {ids[str(refusal.params['by'])] + 1}'s name too: "
                    "the names of players who are not retired differ, ignoring case",
                ) from None
        out.append(Member(member_id, name, retired))
    return tuple(out)


def _seasons(value: object) -> tuple[Season, ...]:
    out: list[Season] = []
    for i, raw in enumerate(_list(value, "seasons", MOST_SEASONS, "seasons")):
        field = f"seasons[{i}]"
        raw = _object(raw, field, "a season", _SEASON_FIELDS)
        name = _name(raw.get("name"), f"{field}.name", "season")
        try:
            check_season_free(name, out)
        except GroupRefused as refusal:
            taken = [season.name for season in out].index(str(refusal.params["by"]))
            raise GroupError(
                f"{field}.name",
                f"{_said(name)} is season {taken + 1}'s name too: seasons' names differ, "
                "ignoring case",
            ) from None
        start = _day(raw.get("from"), f"{field}.from")
        if out:
            _need(
                start > out[-1].start,
                f"{field}.from",
                f"{start} is not after season {i}'s {out[-1].start}: seasons are listed in "
                "date order",
            )
        out.append(Season(name, start))
    return tuple(out)


def _day(value: object, field: str) -> date:
    hint = "must be a date such as 2026-01-01"
    _need(isinstance(value, str) and _DAY.fullmatch(value) is not None, field, hint)
    assert isinstance(value, str)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise GroupError(field, hint) from None


def _seats(
    value: object, field: str, record: Record, roster: Mapping[str, Member]
) -> dict[str, str | None]:
    """Each of the record's players → a roster id or None, in seat order, by the group's rule
    (``referee.groups.model.check_seats``)."""
    players = record.setup.players
    _need(
        len(set(players)) == len(players),
        field,
        "cannot tell apart the record's players of the same name: a seat is its player's name",
    )
    try:
        given = name_map(value, field, "any", LARGEST_TABLE)
    except RecordError as exc:
        raise GroupError(exc.field, exc.message) from None
    for name, member_id in given.items():
        _need(
            member_id is None or isinstance(member_id, str),
            subfield(field, name),
            "must be a roster player's id, or null for a guest",
        )
    joined = [e.player for e in record.events if isinstance(e, ev.Join) and e.player not in players]
    try:
        return check_seats(players, given, roster, joined)
    except GroupRefused as refusal:
        # The messages quoting ids are made only for a seat that is wrong: a file has thousands.
        name = str(refusal.params["name"])
        where = subfield(field, name)
        if refusal.code == "seats" and refusal.params["missing"]:
            raise GroupError(field, f"gives no seat to the record's player {_said(name)}") from None
        if refusal.code == "seats":
            raise GroupError(where, "is not a player of the table's record") from None
        if refusal.code == "unknown-player":
            said = _said(str(refusal.params["player"]))
            raise GroupError(where, f"{said} is no roster player's id") from None
        said, other = _said(str(refusal.params["player_id"])), _said(str(refusal.params["other"]))
        raise GroupError(
            where, f"maps to {said}, as {other} does: two seats of a table are two people"
        ) from None


# --- writing -------------------------------------------------------------------------------


def group_document(group: GroupFile) -> dict[str, Any]:
    """The group as a ``table-referee-group/1`` document (``write_group``), each table's record
    as ``referee.records`` exports it: its entries as made, its options in full, its history if
    it has one."""
    tables = [
        (t.played, t.counts, t.seats, export_record(t.record.replay(), t.record.log))
        for t in group.tables
    ]
    return write_group(group.name, group.players, group.seasons, tables, group.ended_early_counts)


def write_group(
    name: str,
    players: Iterable[Member],
    seasons: Iterable[Season],
    tables: Iterable[tuple[datetime, bool, Mapping[str, str | None], Mapping[str, Any]]],
    ended_early_counts: bool = True,
) -> dict[str, Any]:
    """A ``table-referee-group/1`` document from its parts: each table when it was played, whether
    it counts, its seats (in seat order) and its record's document (as ``export_record`` writes
    it: what the app writes from a table it keeps). ``retired`` is written only for a retired
    player, ``counts`` always, ``ended_early_counts`` only when false."""
    return {
        "format": FORMAT,
        "name": name,
        "players": [
            {"id": m.id, "name": m.name} | ({"retired": True} if m.retired else {}) for m in players
        ],
        "seasons": [{"name": s.name, "from": s.start.isoformat()} for s in seasons],
        **({} if ended_early_counts else {"ended_early_counts": False}),
        "tables": [_table_document(*table) for table in tables],
    }


def _table_document(
    played: datetime, counts: bool, seats: Mapping[str, str | None], record: Mapping[str, Any]
) -> dict[str, Any]:
    return {"played": played.isoformat(), "counts": counts, "seats": dict(seats), "record": record}


def group_text(
    name: str,
    players: Iterable[Member],
    seasons: Iterable[Season],
    tables: Iterable[tuple[datetime, bool, Mapping[str, str | None], Mapping[str, Any]]],
    ended_early_counts: bool = True,
) -> Iterator[str]:
    """``write_group``'s document as JSON text, written a piece at a time: the group's head, then
    each table on a line of its own as ``tables`` gives it (a group of a thousand card-by-card
    games is a file of many megabytes, which is never held whole)."""
    head = json.dumps(
        write_group(name, players, seasons, (), ended_early_counts), ensure_ascii=False
    )
    assert head.endswith('"tables": []}')
    yield head[: -len("]}")] + "\n"
    for number, table in enumerate(tables):
        comma = ",\n" if number else ""
        yield comma + json.dumps(_table_document(*table), ensure_ascii=False, separators=(",", ":"))
    yield "\n]}\n"
