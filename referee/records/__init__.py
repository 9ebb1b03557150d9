"""Game records: the ``table-referee/1`` format (``docs/record-format.md``), in one room.

- ``document``: a record read (shape, limits, each round's entries as events) and written;
  ``record.schema.json`` its reference copy, built from the games' parts (``record_schema``);
- ``parts``: the base class of a game's record part (``referee/games/<game>/record.py``) and the
  readers the parts share;
- ``history``: a record's ``history`` (``docs/record-history.md``) and how a loaded record's
  entries are taken;
- ``log``: a table's log and which of its entries are in force;
- ``check``: the referee's report, ``python -m referee check``.

The names below are the room's front door: what the rest of the project reads records with.
"""

from referee.records.document import (
    LARGEST_TABLE,
    OPTION_TEXT,
    SCHEMA_FILE,
    Decoded,
    Record,
    RecordError,
    check_values,
    export_record,
    load_record,
    parse_record,
    read_json,
    record_schema,
)

__all__ = [
    "LARGEST_TABLE",
    "OPTION_TEXT",
    "SCHEMA_FILE",
    "Decoded",
    "Record",
    "RecordError",
    "check_values",
    "export_record",
    "load_record",
    "parse_record",
    "read_json",
    "record_schema",
]
