"""Many tables read together (a group's thousands): ``get_tables`` and ``current_seqs`` give
exactly what ``get_table`` and ``current_seq`` give of each table, leave out an id no table has,
and name at most ``BATCH`` tables a statement, on SQLite and PostgreSQL."""

import pytest
from flask import Flask

from referee.rules import Setup
from referee.rules import events as ev
from referee.store import tables
from referee.store.tables import (
    append_entry,
    create_table,
    current_seq,
    current_seqs,
    get_table,
    get_tables,
)
from tests.databases import statements

FOUR = ("Ann", "Ben", "Cho", "Dee")


#: Blackout round 1, Ann dealing: the trump, then the first bids.
EVENTS = [ev.Trump(round=1, card="H"), ev.Bid(round=1, player="Ben", bid=1)]
EVENTS.append(ev.Bid(round=1, player="Cho", bid=0))


def some_tables() -> list[str]:
    """Tables with logs of 0 to 4 entries, the last one an undo."""
    made = []
    for length in range(5):
        table_id = create_table(Setup("blackout", FOUR))
        for seq, event in enumerate(EVENTS[:length]):
            append_entry(table_id, seq, "event", event.to_dict())
        if length == 4:
            append_entry(table_id, 3, "undo", {"target": 3})
        made.append(table_id)
    return made


def test_tables_read_together_are_the_tables_read_one_by_one(store_app: Flask) -> None:
    made = some_tables()
    asked = [*made, "no-such-table", "bad\x00id", made[0]]  # unknown, unreadable, twice
    together = {record.id: record for record in get_tables(asked)}
    assert together == {table_id: get_table(table_id) for table_id in made}
    assert [len(together[table_id].entries) for table_id in made] == [0, 1, 2, 3, 4]
    assert current_seqs(asked) == {table_id: current_seq(table_id) for table_id in made}
    assert list(get_tables([])) == [] and current_seqs([]) == {}


def test_a_statement_names_at_most_a_batch_of_tables(
    store_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = some_tables()
    monkeypatch.setattr(tables, "BATCH", 2)
    with statements(store_app) as ran:
        together = {record.id: record for record in get_tables(made)}
    assert len(ran) == 3  # 5 tables, 2 a read
    assert together == {table_id: get_table(table_id) for table_id in made}
    with statements(store_app) as ran:
        assert current_seqs(made) == {table_id: current_seq(table_id) for table_id in made}
    assert len(ran) == 3 + len(made)
