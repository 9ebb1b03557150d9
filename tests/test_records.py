"""Records: the JSON Schema agrees with the reader, and export → import → export is stable."""

import json
from pathlib import Path

import jsonschema
import pytest

from referee.records import RecordError, export_record, load_record, parse_record

RECORDS = Path(__file__).parent / "records"
SCHEMA = json.loads((Path(__file__).parents[1] / "referee" / "record.schema.json").read_text())
READABLE = sorted(
    p
    for p in RECORDS.rglob("*.json")
    if not p.name.endswith(".expect.json") and p.parent.name != "unreadable"
)


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
