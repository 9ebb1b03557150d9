"""The group file (``referee.groups.document``): what it reads, each refusal in one sentence
naming where, the limits, writing it back, and its JSON schema agreeing with the reader."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from referee.groups import SCHEMA_FILE, GroupError, group_document, read_group
from referee.groups import document as group_file
from referee.records import SCHEMA_FILE as RECORD_SCHEMA_FILE

FRIDAY = Path(__file__).with_name("friday-club.json")
SCHEMA = json.loads(SCHEMA_FILE.read_text())
RECORD_SCHEMA = json.loads(RECORD_SCHEMA_FILE.read_text())
VALIDATOR = jsonschema.Draft202012Validator(
    SCHEMA,
    registry=Registry().with_resource(RECORD_SCHEMA["$id"], Resource.from_contents(RECORD_SCHEMA)),
)


def small() -> dict[str, Any]:
    """A group of two roster players and one table with a guest."""
    return {
        "format": "table-referee-group/1",
        "name": "Friday club",
        "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}],
        "seasons": [{"name": "2026", "from": "2026-01-01"}],
        "tables": [
            {
                "played": "2026-11-27T19:30:00+01:00",
                "counts": True,
                "seats": {"Ann": "p1", "Ben": "p2", "Gus": None},
                "record": {
                    "format": "table-referee/1",
                    "game": "blackout",
                    "players": ["Ann", "Ben", "Gus"],
                    "rounds": [],
                },
            }
        ],
    }


def refusal(doc: dict[str, Any] | bytes) -> GroupError:
    text = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    with pytest.raises(GroupError) as caught:
        read_group(text)
    return caught.value


def changed(path: str, value: Any) -> dict[str, Any]:
    """``small()`` with the value at ``path`` (keys and indexes, dotted) set, or removed when
    ``value`` is ``...``."""
    doc = small()
    *parents, last = path.split(".")
    where: Any = doc
    for key in parents:
        where = where[int(key)] if isinstance(where, list) else where[key]
    if value is ...:
        del where[last]
    elif isinstance(where, list):
        where[int(last)] = value
    else:
        where[last] = value
    return doc


def test_the_spec_example_reads():
    group = read_group(json.dumps(small()).encode())
    assert group.name == "Friday club"
    assert [(m.id, m.name, m.retired) for m in group.players] == [
        ("p1", "Ann", False),
        ("p2", "Ben", False),
    ]
    assert [(s.name, s.start) for s in group.seasons] == [("2026", date(2026, 1, 1))]
    table = group.tables[0]
    assert table.played.utcoffset() == timedelta(hours=1) and table.evening == date(2026, 11, 27)
    assert dict(table.seats) == {"Ann": "p1", "Ben": "p2", "Gus": None}
    assert table.counts and table.record.setup.players == ("Ann", "Ben", "Gus")


def test_defaults_names_trimmed_and_seats_in_seat_order():
    doc = small()
    del doc["seasons"]
    del doc["tables"][0]["counts"]
    doc["players"][0]["name"] = "  Ann "
    doc["tables"][0]["seats"] = {"Gus": None, " Ben": "p2", "Ann": "p1"}
    group = read_group(json.dumps(doc))
    assert group.seasons == () and group.tables[0].counts is True
    assert group.players[0].name == "Ann"
    assert list(group.tables[0].seats) == ["Ann", "Ben", "Gus"]


def test_the_evening_is_the_date_where_the_table_was_played():
    doc = changed("tables.0.played", "2026-01-01T00:30:00+01:00")
    doc["seasons"] = [
        {"name": "2025", "from": "2025-01-01"},
        {"name": "2026", "from": "2026-01-01"},
    ]
    group = read_group(json.dumps(doc))
    assert group.tables[0].evening == date(2026, 1, 1)  # 2025-12-31 in UTC
    assert group.season_of(group.tables[0]) == group.seasons[1]
    early = read_group(json.dumps(changed("tables.0.played", "2025-12-31T23:59:59+01:00")))
    assert early.season_of(early.tables[0]) is None  # before the first season


#: Each refusal: the document, the field it names, and its sentence for people.
REFUSALS: list[tuple[str, dict[str, Any] | bytes, str, str]] = [
    ("not JSON", b"{not json", "", "not JSON (Expecting property name enclosed in double "),
    ("not an object", b"[]", "", "a group file is a JSON object"),
    (
        "a record, not a group",
        json.dumps(small()["tables"][0]["record"]).encode(),
        "format",
        'format: must be "table-referee-group/1"',
    ),
    (
        "a key twice",
        json.dumps(small()).replace('"name": "Friday club"', '"name": "A", "name": "B"').encode(),
        "name",
        "name: appears twice in its object; a key is given once",
    ),
    (
        "a key twice in a record",
        json.dumps(small()).replace('"rounds": []', '"rounds": [], "rounds": []').encode(),
        "tables[0].record.rounds",
        "table 1: record.rounds: appears twice in its object; a key is given once",
    ),
    (
        "text that is not Unicode",
        json.dumps(small()).replace('"Ben"}', '"Be\\ud800"}').encode(),
        "players[1].name",
        "player 2: name: is not valid Unicode text",
    ),
    (
        "an unknown field",
        changed("colour", "red"),
        "colour",
        "colour: is not a field of a group file",
    ),
    (
        "an unknown field of a table",
        changed("tables.0.venue", "pub"),
        "tables[0].venue",
        "table 1: venue: is not a field of a group's table",
    ),
    ("no name", changed("name", " "), "name", "name: is empty"),
    (
        "a long group name",
        changed("name", "x" * 81),
        "name",
        "name: is longer than 80 characters",
    ),
    (
        "a record that cannot be read",
        changed("tables.0.record.game", "skat"),
        "tables[0].record.game",
        "table 1: record.game: must be one of alles-oder-nichts, blackout, ebbes",
    ),
    (
        "a record's round that cannot be read",
        changed("tables.0.record.rounds", [{"bids": {"Ann": "two"}}]),
        "tables[0].record.rounds[0].bids.Ann",
        "table 1: record.rounds[0].bids.Ann: must be a whole number",
    ),
    (
        "no record",
        changed("tables.0.record", ...),
        "tables[0].record",
        "table 1: record: is missing: a table's record is given",
    ),
    (
        "a seat on an unknown id",
        changed("tables.0.seats.Gus", "p9"),
        "tables[0].seats.Gus",
        'table 1: seats.Gus: "p9" is no roster player\'s id',
    ),
    (
        "two seats on one id",
        changed("tables.0.seats.Ben", "p1"),
        "tables[0].seats.Ben",
        'table 1: seats.Ben: maps to "p1", as "Ann" does: two seats of a table are two people',
    ),
    (
        "a seat for a name the record has not",
        changed("tables.0.seats.Zed", None),
        "tables[0].seats.Zed",
        "table 1: seats.Zed: is not a player of the table's record",
    ),
    (
        "a record player without a seat",
        changed("tables.0.seats.Gus", ...),
        "tables[0].seats",
        'table 1: seats: gives no seat to the record\'s player "Gus"',
    ),
    (
        "a seat that is no id",
        changed("tables.0.seats.Gus", 7),
        "tables[0].seats.Gus",
        "table 1: seats.Gus: must be a roster player's id, or null for a guest",
    ),
    (
        "seats that are no map",
        changed("tables.0.seats", ["p1"]),
        "tables[0].seats",
        "table 1: seats: must be an object keyed by player name",
    ),
    (
        "a record seating one name twice",
        changed("tables.0.record.players", ["Ann", "Ben", "Ann"]),
        "tables[0].seats",
        "table 1: seats: cannot tell apart the record's players of the same name: a seat is "
        "its player's name",
    ),
    (
        "two roster players of one id",
        changed("players.1.id", "p1"),
        "players[1].id",
        'player 2: id: "p1" is player 1\'s id too: each roster player has an id of their own',
    ),
    (
        "an empty id",
        changed("players.0.id", ""),
        "players[0].id",
        "player 1: id: must be a text of 1 to 40 characters",
    ),
    (
        "a long id",
        changed("players.0.id", "x" * 41),
        "players[0].id",
        "player 1: id: must be a text of 1 to 40 characters",
    ),
    *(
        (
            f"an id with {what}",
            changed("players.0.id", member_id),
            "players[0].id",
            "player 1: id: holds a character that does not show (a control, format or "
            "private-use character, such as a right-to-left override, or a line break)",
        )
        for what, member_id in (
            ("a NUL", "p\x00"),
            ("an escape", "\x1b[31mp1"),
            ("a right-to-left override", "p\u202e1"),
            ("a zero-width space", "p\u200b1"),
            ("a line break", "p\n1"),
        )
    ),
    *(
        (
            f"an id {what}",
            changed("players.0.id", member_id),
            "players[0].id",
            'player 1: id: is part of the address of the player\'s page, so it holds no "/" '
            'and is not "." or ".."',
        )
        for what, member_id in (("with a slash", "p/1"), ("that is a dot", "."), ("of dots", ".."))
    ),
    (
        "a name with a right-to-left override",
        changed("players.1.name", "Ben\u202egnp.exe"),
        "players[1].name",
        "player 2: name: holds a character that does not show (a control, format or "
        "private-use character, such as a right-to-left override, or a line break)",
    ),
    (
        "a name with an escape",
        changed("players.1.name", "\x1b[31mBen"),
        "players[1].name",
        "player 2: name: holds a character that does not show (a control, format or "
        "private-use character, such as a right-to-left override, or a line break)",
    ),
    (
        "a long name",
        changed("players.1.name", "B" * 41),
        "players[1].name",
        "player 2: name: is longer than 40 characters",
    ),
    (
        "two players of one name",
        changed("players.1.name", "ANN"),
        "players[1].name",
        'player 2: name: "ANN" is player 1\'s name too: the names of players who are not '
        "retired differ, ignoring case",
    ),
    (
        "retired that is no yes or no",
        changed("players.1.retired", "yes"),
        "players[1].retired",
        "player 2: retired: must be true or false",
    ),
    (
        "seasons out of order",
        changed(
            "seasons", [{"name": "2026", "from": "2026-01-01"}, {"name": "x", "from": "2025-01-01"}]
        ),
        "seasons[1].from",
        "season 2: from: 2025-01-01 is not after season 1's 2026-01-01: seasons are listed in "
        "date order",
    ),
    (
        "two seasons from one date",
        changed(
            "seasons", [{"name": "a", "from": "2026-01-01"}, {"name": "b", "from": "2026-01-01"}]
        ),
        "seasons[1].from",
        "season 2: from: 2026-01-01 is not after season 1's 2026-01-01: seasons are listed in "
        "date order",
    ),
    (
        "two seasons of one name",
        changed(
            "seasons",
            [{"name": "Spring", "from": "2026-01-01"}, {"name": "spring", "from": "2026-06-01"}],
        ),
        "seasons[1].name",
        "season 2: name: \"spring\" is season 1's name too: seasons' names differ, ignoring case",
    ),
    (
        "ended_early_counts that is no yes or no",
        changed("ended_early_counts", "no"),
        "ended_early_counts",
        "ended_early_counts: must be true or false",
    ),
    (
        "a season's date that is no date",
        changed("seasons.0.from", "2026-02-30"),
        "seasons[0].from",
        "season 1: from: must be a date such as 2026-01-01",
    ),
    (
        "played without its offset",
        changed("tables.0.played", "2026-11-27T19:30:00"),
        "tables[0].played",
        "table 1: played: must be a time with its offset from UTC, such as "
        "2025-03-01T19:02:03.123456Z",
    ),
    (
        "played that is no time",
        changed("tables.0.played", "Friday"),
        "tables[0].played",
        "table 1: played: must be a time with its offset from UTC, such as "
        "2025-03-01T19:02:03.123456Z",
    ),
    (
        "counts that is no yes or no",
        changed("tables.0.counts", 1),
        "tables[0].counts",
        "table 1: counts: must be true or false",
    ),
    ("no tables", changed("tables", ...), "tables", "tables: must be a list"),
]


@pytest.mark.parametrize(
    ("doc", "field", "sentence"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_a_file_that_cannot_be_read_is_refused_in_one_sentence_naming_where(doc, field, sentence):
    error = refusal(doc)
    assert error.field == field
    assert str(error).startswith(sentence)


def test_a_retired_player_may_share_a_name():
    doc = changed("players.1.name", "ann")
    doc["players"][1]["retired"] = True
    assert read_group(json.dumps(doc)).players[1].name == "ann"


def test_a_guest_only_table_and_an_empty_roster_read():
    doc = small()
    doc["players"] = []
    doc["tables"][0]["seats"] = {"Ann": None, "Ben": None, "Gus": None}
    assert read_group(json.dumps(doc)).players == ()


@pytest.mark.parametrize(
    ("limit", "path", "value", "field", "sentence"),
    [
        (
            "MOST_TABLES",
            "tables",
            1,
            "tables",
            "tables: lists 2 tables; a group file holds 1 at most",
        ),
        ("MOST_PLAYERS", "players", 1, "players", "players: lists 2 players; a group file holds 1"),
        ("MOST_SEASONS", "seasons", 0, "seasons", "seasons: lists 1 seasons; a group file holds 0"),
        ("LARGEST_FILE", "", 100, "", "a group file is at most 100 bytes"),
    ],
)
def test_limits(monkeypatch, limit, path, value, field, sentence):
    monkeypatch.setattr(group_file, limit, value)
    doc = small()
    doc["tables"] *= 2
    error = refusal(doc)
    assert (error.field, str(error)[: len(sentence)]) == (field, sentence)


def test_the_limits_are_those_documented():
    assert (group_file.MOST_TABLES, group_file.MOST_PLAYERS, group_file.MOST_SEASONS) == (
        10_000,
        1_000,
        1_000,
    )
    assert group_file.LARGEST_FILE == 256 * 1024 * 1024
    assert (group_file.LONGEST_ID, group_file.LONGEST_GROUP_NAME) == (40, 80)
    doc = " ".join((Path(__file__).parents[2] / "docs" / "group-format.md").read_text().split())
    for figure in ("10,000 tables", "1,000 roster players", "1,000 seasons", "256 MiB"):
        assert figure in doc


def test_write_read_write_is_stable():
    first = group_document(read_group(FRIDAY.read_bytes()))
    second = group_document(read_group(json.dumps(first)))
    assert second == first
    assert first["tables"][1]["seats"] == {"Chloe": "p3", "Ann": "p1", "Dee": "p4"}
    assert first["players"][1] == {"id": "p2", "name": "Ben", "retired": True}
    assert first["tables"][3]["counts"] is False


@pytest.mark.parametrize("doc", [small(), json.loads(FRIDAY.read_text())], ids=["small", "friday"])
def test_files_the_reader_reads_and_their_export_fit_the_schema(doc):
    VALIDATOR.validate(doc)
    VALIDATOR.validate(group_document(read_group(json.dumps(doc))))


#: Files of the wrong shape: the schema refuses each, as the reader does.
SHAPES = [
    changed("format", "table-referee-group/2"),
    changed("colour", "red"),
    changed("name", ...),
    changed("name", 7),
    changed("players", ...),
    changed("players.0.id", ""),
    changed("players.0.id", "x" * 41),
    changed("players.0.id", "p/1"),
    changed("players.0.id", ".."),
    changed("players.0.name", "x" * 41),
    changed("players.0.name", "   "),
    changed("players.0.retired", "no"),
    changed("players.0.nick", "A"),
    changed("seasons.0.from", "1 January 2026"),
    changed("seasons.0.until", "2026-12-31"),
    changed("tables.0.counts", "yes"),
    changed("tables.0.played", 2026),
    changed("tables.0.seats", ["p1", "p2", None]),
    changed("tables.0.seats.Gus", 3),
    changed("tables.0.record", ...),
    changed("tables.0.record.game", "skat"),
    changed("tables.0.record.rounds", [{"trmup": "H"}]),
]

#: What only the reader can tell: the schema takes these, the reader refuses them.
BEYOND_THE_SCHEMA = [
    changed("tables.0.seats.Gus", "p9"),  # no such id
    changed("tables.0.seats.Ben", "p1"),  # two seats on one id
    changed("tables.0.seats.Zed", None),  # no such player in the record
    changed("tables.0.seats.Gus", ...),  # a player without a seat
    changed("players.1.id", "p1"),  # two players of one id
    changed("players.1.name", "ann"),  # two names the same, ignoring case
    changed("players.1.name", "Be\u200bn"),  # a character that does not show
    changed("players.0.id", "p\u202e1"),  # an id with a character that does not show
    changed("seasons", [{"name": "a", "from": "2026-01-01"}, {"name": "b", "from": "2025-01-01"}]),
    changed("seasons.0.from", "2026-02-30"),  # no such day
    changed("tables.0.played", "2026-11-27T19:30:00"),  # no offset
]


@pytest.mark.parametrize("doc", SHAPES, ids=range(len(SHAPES)))
def test_the_schema_refuses_what_the_reader_refuses_for_its_shape(doc):
    assert not VALIDATOR.is_valid(doc)
    refusal(doc)


@pytest.mark.parametrize("doc", BEYOND_THE_SCHEMA, ids=range(len(BEYOND_THE_SCHEMA)))
def test_what_only_the_reader_tells(doc):
    assert VALIDATOR.is_valid(doc)
    refusal(doc)


def test_the_schema_describes_the_limits():
    props = SCHEMA["properties"]
    assert props["tables"]["maxItems"] == group_file.MOST_TABLES
    assert props["players"]["maxItems"] == group_file.MOST_PLAYERS
    assert props["seasons"]["maxItems"] == group_file.MOST_SEASONS
    assert props["players"]["items"]["properties"]["id"]["maxLength"] == group_file.LONGEST_ID
    assert props["name"]["maxLength"] == group_file.LONGEST_GROUP_NAME
