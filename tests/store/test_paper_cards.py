"""``referee.store.paper``: a confirmed paper card's entries and its photo written in one
transaction, or nothing; the card's mark, its photo read back and deleted; on SQLite and on
PostgreSQL."""

import pytest
from flask import Flask

from referee.rules import Setup
from referee.rules import events as ev
from referee.store.links import NoAccess, make_link, revoke
from referee.store.paper import card_photo, delete_photo, enter_card, paper_mark
from referee.store.tables import StaleTable, append_entry, create_table, get_table

CARD = [ev.Trump(1, "H").to_dict(), ev.Bid(1, "Ben", 1).to_dict(), ev.Bid(1, "Ann", 1).to_dict()]
PHOTO = b"\xff\xd8\xff" + bytes(range(256)) * 40


def new_table() -> str:
    return create_table(Setup("blackout", ("Ann", "Ben"), {"max_cards": 3}, "Ann"))


def test_a_card_is_its_entries_its_mark_and_its_photo(store_app: Flask) -> None:
    table = new_table()
    assert paper_mark(table) is None and card_photo(table) is None
    enter_card(table, CARD, PHOTO, make_link(table, "keeper"))
    stored = get_table(table)
    assert stored is not None and [e.payload for e in stored.entries] == CARD
    mark = paper_mark(table)
    assert mark is not None and (mark.first_seq, mark.last_seq) == (1, 3)
    assert mark.photo_bytes == len(PHOTO) and card_photo(table) == PHOTO
    assert [mark.marks(seq) for seq in (0, 1, 3, 4)] == [False, True, True, False]
    # Deleting the photo empties it; the mark and the entries stay.
    assert delete_photo(table) is True
    assert delete_photo(table) is False
    assert card_photo(table) is None
    mark = paper_mark(table)
    assert mark is not None and mark.photo_bytes is None and mark.last_seq == 3
    assert get_table(table).last_seq == 3


def test_a_table_with_an_entry_takes_no_card_and_nothing_is_written(store_app: Flask) -> None:
    table = new_table()
    append_entry(table, 0, "event", CARD[0])
    with pytest.raises(StaleTable):
        enter_card(table, CARD, PHOTO, None)
    assert get_table(table).last_seq == 1 and paper_mark(table) is None


def test_a_revoked_link_writes_no_card(store_app: Flask) -> None:
    table = new_table()
    token = make_link(table, "keeper")
    revoke(table, "keeper")
    with pytest.raises(NoAccess):
        enter_card(table, CARD, PHOTO, token)
    with pytest.raises(NoAccess):  # a link of another table opens nothing here
        enter_card(table, CARD, PHOTO, make_link(new_table(), "keeper"))
    assert get_table(table).last_seq == 0 and paper_mark(table) is None


def test_a_card_the_log_will_not_take_writes_nothing(store_app: Flask) -> None:
    table = new_table()
    with pytest.raises(ValueError):
        enter_card(table, [*CARD, {"type": "shuffle", "round": 1}], PHOTO, None)
    assert get_table(table).last_seq == 0 and paper_mark(table) is None
