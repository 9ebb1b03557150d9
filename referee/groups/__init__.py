"""Groups: the people who play together, their tables and what the tables add up to
(``docs/group-format.md``), in one room. Pure: no web, no database, no PDF.

- ``model``: a group (``Group``: roster, seasons, time zone, the tables it keeps) and every rule
  of what it may hold, checked once (``GroupRefused``); the store keeps it, the web shows it;
- ``document``: the group file, ``table-referee-group/1``, read (``read_group``) and written
  (``group_document``); ``group.schema.json`` its reference copy;
- ``facts``: what one table says of each player at it, from its replayed ``State``
  (``table_facts``), with the base class of each game's part (``referee/games/<game>/stats.py``);
- ``stats``: the facts of many tables added up for a roster and a season, the ``--json``
  document of ``python -m referee stats`` (``statistics``);
- ``rating``: each roster player's rating per game, from the places of complete games
  (openskill);
- ``report``: ``python -m referee stats`` minus its arguments: the JSON, or a table for people.

The names below are the room's front door.
"""

from referee.groups.document import (
    FORMAT,
    LARGEST_LOADED,
    SCHEMA_FILE,
    FileTable,
    GroupError,
    GroupFile,
    group_document,
    group_text,
    read_group,
    write_group,
)
from referee.groups.facts import SeatFacts, TableFacts, table_facts
from referee.groups.model import (
    DEFAULT_TIME_ZONE,
    LONGEST_GROUP_NAME,
    LONGEST_ROSTER,
    Group,
    GroupRefused,
    KeptTable,
    Member,
    Season,
    check_seats,
    checked_name,
    checked_time_zone,
    season_of,
)
from referee.groups.stats import CountedTable, counted_tables, statistics

__all__ = [
    "DEFAULT_TIME_ZONE",
    "FORMAT",
    "LARGEST_LOADED",
    "LONGEST_GROUP_NAME",
    "LONGEST_ROSTER",
    "SCHEMA_FILE",
    "CountedTable",
    "FileTable",
    "Group",
    "GroupError",
    "GroupFile",
    "GroupRefused",
    "KeptTable",
    "Member",
    "Season",
    "SeatFacts",
    "TableFacts",
    "check_seats",
    "checked_name",
    "checked_time_zone",
    "counted_tables",
    "group_document",
    "group_text",
    "read_group",
    "season_of",
    "statistics",
    "table_facts",
    "write_group",
]
