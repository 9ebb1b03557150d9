"""Paper cards read into tables: the entries a confirmed card became, written with the card's
mark and photo in one transaction, the mark the history shows, and the photo its scorekeeper
may look at or delete.

A card is read only into a table with no entries, so its entries are the table's first ones:
``enter_card`` writes them all (``fill_log``, the writer's link checked in the same UPDATE)
and the ``PaperCard`` row naming them, both or neither; ``add_paper_game`` makes a group's new
table of them (``add_record``) with the row, likewise. Deleting the photo empties its column
(the row, and with it the history's "from paper", stays); the log is never touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import CursorResult, bindparam, func, insert, select, update

from referee.records.log import LogEntry
from referee.rules import Setup
from referee.store.db import db
from referee.store.groups import NewTable, add_record
from referee.store.models import PaperCard, utcnow
from referee.store.tables import fill_log

CARDS = PaperCard.__table__


@dataclass(frozen=True)
class PaperMark:
    """A table's paper card: the entries ``first_seq`` to ``last_seq`` came from it; whether
    its photo is still kept, and how large it is."""

    first_seq: int
    last_seq: int
    photo_bytes: int | None

    def marks(self, seq: int) -> bool:
        return self.first_seq <= seq <= self.last_seq


def enter_card(
    table_id: str, payloads: Sequence[dict[str, object]], photo: bytes, link: str | None
) -> None:
    """Write a confirmed card into the table, whose log is empty: its entries (events'
    payloads, in order) and the card's row with ``photo``, in one transaction. Refuses as
    ``fill_log`` does (``StaleTable``: the table has entries now; ``NoAccess``: ``link`` no
    longer opens it), writing nothing."""
    now = utcnow()
    entries = [LogEntry(seq, "event", dict(p), now) for seq, p in enumerate(payloads, start=1)]
    try:
        fill_log(table_id, entries, commit=False, link=link)
        db.session.execute(
            insert(CARDS).values(
                table_id=table_id,
                first_seq=1,
                last_seq=len(entries),
                photo=photo,
                created_at=now,
            )
        )
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()


def add_paper_game(
    group_id: str,
    setup: Setup,
    payloads: Sequence[dict[str, object]],
    seats: Mapping[str, str | None],
    photo: bytes,
    by: str | None,
    creator: str | None,
) -> str:
    """Make a new table of the group from a confirmed paper card (``setup``, its entries'
    payloads, its ``seats`` as ``add_record`` takes them) with the card's row and ``photo``,
    in one transaction; the table's id. Refuses as ``add_record`` does, writing nothing."""
    now = utcnow()
    entries = [LogEntry(seq, "event", dict(p), now) for seq, p in enumerate(payloads, start=1)]
    table_id = add_record(group_id, NewTable(setup, entries, seats), by, creator, commit=False)
    try:
        db.session.execute(
            insert(CARDS).values(
                table_id=table_id, first_seq=1, last_seq=len(entries), photo=photo, created_at=now
            )
        )
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()
    return table_id


_MARK = select(CARDS.c.first_seq, CARDS.c.last_seq, func.length(CARDS.c.photo).label("size")).where(
    CARDS.c.table_id == bindparam("id")
)


def paper_mark(table_id: str) -> PaperMark | None:
    """The table's paper card, or None when none was read into it."""
    row = db.session.execute(_MARK, {"id": table_id}).first()
    if row is None:
        return None
    return PaperMark(row.first_seq, row.last_seq, row.size)


def card_photo(table_id: str) -> bytes | None:
    """The kept photo of the table's paper card (None: no card, or its photo deleted)."""
    query = select(CARDS.c.photo).where(CARDS.c.table_id == table_id)
    photo: bytes | None = db.session.scalar(query)
    return photo


def delete_photo(table_id: str) -> bool:
    """Delete the photo of the table's paper card; whether there was one to delete."""
    done = db.session.execute(
        update(CARDS)
        .where(CARDS.c.table_id == table_id, CARDS.c.photo.is_not(None))
        .values(photo=None)
    )
    db.session.commit()
    assert isinstance(done, CursorResult)  # an UPDATE's result, which counts its rows
    return done.rowcount == 1
