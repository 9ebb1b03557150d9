"""Records: the JSON Schema agrees with the reader, and export → import → export is stable."""

import json
from pathlib import Path

import jsonschema
import pytest

from referee.records import (
    LARGEST_TABLE,
    SCHEMA_FILE,
    RecordError,
    export_record,
    load_record,
    parse_record,
    record_schema,
)
from referee.rules import GAMES

RECORDS = Path(__file__).parent / "records"
SCHEMA = json.loads(SCHEMA_FILE.read_text())
READABLE = sorted(
    p
    for p in RECORDS.rglob("*.json")
    if not p.name.endswith(".expect.json") and p.parent.name != "unreadable"
)


def test_the_reference_schema_is_the_one_the_registry_of_games_builds():
    """A game added to the registry is in the reference copy too, with its options and rounds
    as its record part has them (one that is not was exported and refused by this copy)."""
    assert record_schema() == SCHEMA
    assert SCHEMA["properties"]["game"]["enum"] == list(GAMES)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_readable_record_fits_the_schema(path):
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_export_import_export_gives_the_same_document(path):
    first = export_record(load_record(path.read_bytes()).replay())
    jsonschema.validate(first, SCHEMA)
    second = export_record(parse_record(json.loads(json.dumps(first))).replay())
    assert second == first


def test_export_keeps_the_entries_as_made():
    doc = {
        "format": "table-referee/1",
        "game": "alles-oder-nichts",
        "players": ["A", "B", "C"],
        "rounds": [
            {
                "trump": "red-7",
                "bids": {
                    "B": {"bid": 1, "open": True},
                    "C": {"bid": 0, "open": False},
                    "A": {"bid": 2, "open": False},
                },
                "tricks": {"A": 2, "B": 1, "C": 3},
            }
        ],
    }
    out = export_record(parse_record(doc).replay())
    assert out["rounds"] == doc["rounds"]
    assert out["options"] == {"colours": ["red", "yellow", "green", "blue"], "values": 12}
    assert out["first_dealer"] == "A"


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (
            {
                "format": "table-referee/1",
                "game": "ebbes",
                "players": ["A", "B", "C"],
                "first_dealer": "A",
            },
            "first_dealer",
        ),
        (
            {
                "format": "table-referee/1",
                "game": "ebbes",
                "players": ["A", "B", "C"],
                "rounds": [{"won": {"A": {"red": 1.5}}}],
            },
            "rounds[0].won.A.red",
        ),
        (
            {
                "format": "table-referee/1",
                "game": "blackout",
                "players": ["A", "B"],
                "rounds": [{"trmup": "H"}],
            },
            "rounds[0].trmup",
        ),
        ({"format": "table-referee/1", "game": "blackout", "players": []}, "players"),
        (
            {
                "format": "table-referee/1",
                "game": "blackout",
                "players": ["A", "B"],
                "rounds": [{"bids": {"A": True}}],
            },
            "rounds[0].bids.A",
        ),
    ],
)
def test_shape_errors_name_the_field(doc, field):
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == field


# --- what no game can hold: unreadable at once, naming the field ------------------------------

FOUR = ["Ann", "Ben", "Cho", "Dee"]


def blackout(rounds, **extra):
    return {"format": "table-referee/1", "game": "blackout", "players": FOUR, "rounds": rounds}


def ebbes(rounds, **options):
    return {
        "format": "table-referee/1",
        "game": "ebbes",
        "players": FOUR[:3],
        "options": options,
        "rounds": rounds,
    }


TRICK = {"leader": "Ann", "cards": ["2H", "3H", "4H", "5H"]}
#: What a whole number beyond 2**53 - 1 either side of 0 is refused with.
BEYOND = "is beyond the largest number a record may hold"


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (
            blackout([{"trump": "H", "plays": [TRICK] * 2}]),
            "rounds[0].plays",
            "lists 2 tricks; round 1 has 1",
        ),
        (
            blackout([{"trump": "H", "plays": [{"leader": "Ann", "cards": ["2H"] * 5}]}]),
            "rounds[0].plays[0].cards",
            "more cards than round 1 deals (4)",
        ),
        (
            {**blackout([]), "players": [f"P{n}" for n in range(9)]},
            "players",
            "no game seats more than 8 players",
        ),
        (
            blackout([{"trump": "H", "bids": {f"P{n}": 0 for n in range(5)}}]),
            "rounds[0].bids",
            "names 5 players; the table has 4",
        ),
        (
            blackout([{"trump": "H", "tricks": {f"P{n}": 0 for n in range(5)}}]),
            "rounds[0].tricks",
            "names 5 players; the table has 4",
        ),
        (
            ebbes([{"number": 1, "won": {"Ann": {f"c{n}": 0 for n in range(6)}}}]),
            "rounds[0].won.Ann",
            "names more than the deck's 5 colours",
        ),
        (
            ebbes([{"number": 1, "designations": ["red"] * 6}]),
            "rounds[0].designations",
            "lists more than the deck's 5 colours",
        ),
        (
            ebbes([{"designators": ["red-1"] * 6}], variant="placed-designators"),
            "rounds[0].designators",
            "lists more than the deck's 5 colours",
        ),
        (
            ebbes([{"number": 1, "discards": {f"P{n}": "red-1" for n in range(4)}}], discard=True),
            "rounds[0].discards",
            "names 4 players; the table has 3",
        ),
        (ebbes([], variant="x" * 41), "options.variant", "is longer than 40 characters"),
        (
            {**blackout([]), "game": "alles-oder-nichts", "options": {"colours": ["r", "g" * 41]}},
            "options.colours[1]",
            "is longer than 40 characters",
        ),
        ({**blackout([]), "players": ["Ann", "B\ud800"]}, "players[1]", "is not valid Unicode"),
        (blackout([{"trump": "\udc00H"}]), "rounds[0].trump", "is not valid Unicode"),
        (blackout([{"bids": {"\ud800": 0}}]), "rounds[0].bids.\\ud800", "is not valid Unicode"),
        (
            blackout([{"trump": "H", "plays": [{"leader": "Ann", "cards": ["2H", "\ud801"]}]}]),
            "rounds[0].plays[0].cards[1]",
            "is not valid Unicode",
        ),
        (ebbes([], variant="\udfff"), "options.variant", "is not valid Unicode"),
        (
            {**blackout([]), "game": "alles-oder-nichts", "options": {"colours": ["\ud800"]}},
            "options.colours[0]",
            "is not valid Unicode",
        ),
        (
            blackout([{"trump": "H", "tricks": {"x" * 5000: "one"}}]),
            "rounds[0].tricks." + "x" * 60 + "…",
            "must be a whole number",
        ),
        (
            blackout([{"trump": "H", "tricks": {"Ann": 10**4299}}]),  # its digits: 4300
            "rounds[0].tricks.Ann",
            BEYOND,
        ),
        (blackout([{"trump": "H", "bids": {"Ben": 2**53}}]), "rounds[0].bids.Ben", BEYOND),
        (ebbes([{"number": -(2**53)}]), "rounds[0].number", BEYOND),
        (
            {**blackout([]), "game": "alles-oder-nichts", "options": {"values": 10**400}},
            "options.values",
            BEYOND,
        ),
        (
            {
                **blackout([]),
                "history": [
                    {
                        "seq": 1,
                        "at": "2025-03-01T19:02:03Z",
                        "event": {"type": "trump", "round": 2**64, "card": "H"},
                    }
                ],
            },
            "history[0].event.round",
            BEYOND,
        ),
    ],
    ids=[
        "tricks",
        "cards",
        "players",
        "bids",
        "tricks-map",
        "won-colours",
        "designations",
        "designators",
        "discards",
        "option",
        "colour-name",
        "surrogate-name",
        "surrogate-trump",
        "surrogate-key",
        "surrogate-card",
        "surrogate-option",
        "surrogate-colour",
        "long-key",
        "huge-count",
        "bid-past-2**53",
        "number-below--2**53",
        "huge-option",
        "huge-round",
    ],
)
def test_what_no_game_can_hold_is_unreadable(doc, field, message):
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == field
    assert message in str(caught.value)
    assert "\ud800" not in str(caught.value)
    with pytest.raises(RecordError) as again:  # read from text, as the referee and the app do
        load_record(json.dumps(doc))
    assert again.value.field == field


@pytest.mark.parametrize(
    "colour", ["red\u202e", "re\u200bd", "\x1b[31mred", "red\x00", "\u3164", " \u2800 "], ids=repr
)
def test_a_colour_name_that_does_not_show_as_it_is_is_unreadable(colour):
    """A colour's name is read as a player's name is (``referee.rules.names``): one that holds
    a character that does not show, or shows as nothing, is refused as the app's form refuses
    it."""
    doc = {**blackout([]), "game": "alles-oder-nichts", "options": {"colours": ["a", colour]}}
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "options.colours[1]"
    assert "holds a character that does not show" in str(caught.value)


@pytest.mark.parametrize("colour", ["A", "a\u034f", " a", "\uff41"], ids=repr)
def test_two_colours_that_show_alike_are_unreadable(colour):
    doc = {**blackout([]), "game": "alles-oder-nichts", "options": {"colours": ["a", colour]}}
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "options.colours[1]"
    assert "names what an earlier one names, as it shows" in str(caught.value)


def text_of(game: str, rest: str) -> str:
    """A record's text: Ann and Ben at ``game``, then ``rest`` (its further fields)."""
    return f'{{"format": "table-referee/1", "players": ["Ann", "Ben"], "game": "{game}"{rest}}}'


AT = '"seq": 1, "at": "2025-03-01T19:02:03Z"'


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (text_of("blackout", ', "game": "ebbes"'), "game"),
        (text_of("blackout", ', "options": {"hook": true, "hook": false}'), "options.hook"),
        (text_of("blackout", ', "rounds": [{"trump": "H", "trump": "S"}]'), "rounds[0].trump"),
        (
            text_of("blackout", ', "rounds": [{"bids": {"Ann": 0, "Ben": 1, "Ann": 1}}]'),
            "rounds[0].bids.Ann",
        ),
        (
            text_of("ebbes", ', "rounds": [{"won": {"Ann": {"red": 1, "red": 2}}}]'),
            "rounds[0].won.Ann.red",
        ),
        (
            text_of(
                "blackout",
                ', "rounds": [{"plays": [{"leader": "Ann", "cards": ["2H"], "leader": "Ben"}]}]',
            ),
            "rounds[0].plays[0].leader",
        ),
        (
            text_of(
                "blackout",
                f', "history": [{{{AT}, "event": '
                '{"type": "trump", "round": 1, "card": "H", "card": "S"}}]',
            ),
            "history[0].event.card",
        ),
        (text_of("blackout", f', "history": [{{{AT}, {AT}}}]'), "history[0].seq"),
    ],
    ids=["top", "option", "round", "bids", "won", "trick", "history-event", "history-entry"],
)
def test_a_key_given_twice_in_an_object_anywhere_makes_the_record_unreadable(text, field):
    """The last would win silently: a record gives each key of an object once."""
    with pytest.raises(RecordError) as caught:
        load_record(text)
    assert caught.value.field == field
    assert "appears twice in its object" in str(caught.value)


def test_a_player_named_twice_in_a_map_once_trimmed_makes_the_record_unreadable():
    doc = blackout([{"trump": "H", "bids": {"Ann": 0, "Ben": 1, " Ann": 1}}])
    with pytest.raises(RecordError) as caught:
        parse_record(doc)
    assert caught.value.field == "rounds[0].bids. Ann"
    assert "names the same player as a key before it" in str(caught.value)


def test_a_surrogate_written_as_utf8_bytes_is_not_text():
    text = '{"format": "table-referee/1", "game": "blackout", "players": ["A\ud800"]}'
    with pytest.raises(RecordError, match="not JSON"):
        load_record(text.encode("utf-8", "surrogatepass"))


def test_rounds_after_the_first_too_many_are_not_read():
    """One round too many is a ``round-count`` breach; what follows it is not read at all (a
    round that is no round would otherwise be unreadable)."""
    rounds = [{"trump": "H", "bids": dict.fromkeys(FOUR, 0)}]
    rounds += [{"bids": {}}] * 24 + ["not a round", {"trmup": 1}]  # a game of 25 rounds
    record = parse_record(blackout(rounds))
    assert [b.rule for b in record.replay().violations].count("round-count") == 1
    assert sum(1 for e in record.events if e.type == "begin-round") == 26


def test_the_largest_table_a_record_may_name_is_the_largest_any_game_seats():
    assert max(game.max_players for game in GAMES.values()) == LARGEST_TABLE


#: An ebbes round whose entries name "Ben", whom ``players`` names "Bem" (discards are kept under
#: any name), and, in one count of cards won, "Zed" (a count under no player's name is set aside).
RENAMED_BESIDE_A_STRAY = {
    "format": "table-referee/1",
    "game": "ebbes",
    "players": ["Bem", "Eve", "Fay"],
    "options": {"variant": "placed-designators", "discard": True},
    "first_starter": "Fay",
    "rounds": [
        {
            "designators": ["red-1", "blue-2", "yellow-3", "purple-2", "green-4"],
            "discards": {"Ben": "red-4", "Eve": "green-2", "Fay": "red-1"},
            "designations": ["green", "yellow", "blue", "purple"],
            "won": {
                "Eve": {"red": 2, "yellow": 3, "green": 2, "blue": 0, "purple": 2},
                "Ben": {"red": 4, "yellow": 0, "green": 3, "blue": 5, "purple": 6},
                "Zed": {"red": 0, "yellow": 0, "green": 0, "blue": 3, "purple": 0},
            },
        }
    ],
}


def test_a_name_only_in_entries_set_aside_keeps_no_renamed_player_from_being_read():
    """ "Zed" is used only in a count the referee sets aside, so the record reads as its export
    does: "Ben" is Bem (one ``players`` breach), and export → import → export is stable (before,
    the record kept "Ben" apart and its export, without "Zed", read "Ben" as Bem)."""
    state = parse_record(RENAMED_BESIDE_A_STRAY).replay()
    once = export_record(state)
    assert once["rounds"][0]["discards"] == {"Bem": "red-4", "Eve": "green-2", "Fay": "red-1"}
    assert set(once["rounds"][0]["won"]) == {"Bem", "Eve"}
    assert export_record(parse_record(once).replay()) == once
    assert sorted(b.code for b in state.violations if b.rule == "players") == [
        "renamed-player",
        "unknown-player",
    ]
