"""The database tables: a game table, its append-only log of entries, the links that open it,
and the record uploads refused to an address (for the rate limit).

A game table is its setup plus its entries; everything else (state, scores, sheets) is computed
by replaying them. Entries are only ever inserted: a correction or an undo is a new entry that
names the one it changes (see ``referee.store.tables.effective_events``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from referee.store.db import db

#: The kinds of entry: an event, the undo of an earlier entry, an amendment of an earlier event.
ENTRY_KINDS = ("event", "undo", "amend")


def utcnow() -> datetime:
    """Now, in UTC, with its time zone."""
    return datetime.now(UTC)


class Table(db.Model):  # type: ignore[name-defined,misc]
    """A game table: who plays what, with which options.

    ``id`` is the table's address in URLs; what lets someone in is one of its ``Link``s.
    ``last_seq`` is the ``seq`` of the newest entry (0 before any): it lets a page ask "has
    anything changed?" cheaply, and ``append_entry`` advances it with a conditional UPDATE so
    two writers on the same step cannot both land.
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(32))
    players: Mapped[list[str]] = mapped_column(sa.JSON)
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    first_player: Mapped[str | None] = mapped_column(sa.String(64))
    #: Who created the table, as a keyed hash of their network address (for the rate limit).
    creator: Mapped[str | None] = mapped_column(sa.String(64))
    last_seq: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        sa.Index("ix_tables_creator_created_at", "creator", "created_at"),
        sa.Index("ix_tables_updated_at", "updated_at"),
    )


class Entry(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a table's log, numbered 1, 2, 3 … per table by ``seq``, never changed.

    ``payload`` is ``Event.to_dict()`` for an ``event``, ``{"target": seq}`` for an ``undo`` and
    ``{"target": seq, "event": {...}}`` for an ``amend``. The UNIQUE (table_id, seq) constraint
    is the last guard against two writers taking the same number, and its index (on both SQLite
    and PostgreSQL) is the one that reading a table's log in order uses.
    """

    __tablename__ = "entries"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seq"),
        sa.CheckConstraint(f"kind IN {ENTRY_KINDS!r}", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey(Table.id))
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(sa.String(8))
    payload: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


#: What a link lets its holder do: keep score, only look, or look and declare as one player.
LINK_KINDS = ("keeper", "viewer", "player")


class Link(db.Model):  # type: ignore[name-defined,misc]
    """A link to a table: a random token (never stored) whose SHA-256 is ``token_hash``.

    ``keeper`` links record and correct; ``viewer`` links only look; a ``player`` link looks and
    lets ``player`` seal their own secret bid. A revoked link (``revoked_at`` set) opens nothing.
    """

    __tablename__ = "links"
    __table_args__ = (sa.CheckConstraint(f"kind IN {LINK_KINDS!r}", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey(Table.id), index=True)
    kind: Mapped[str] = mapped_column(sa.String(8))
    player: Mapped[str | None] = mapped_column(sa.String(64))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: Indexed: every app process asks once a second which tables had a link revoked.
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), index=True)


class RefusedUpload(db.Model):  # type: ignore[name-defined,misc]
    """A record upload refused to an address (a keyed hash, like ``Table.creator``).

    Reading a record costs the server more than anything else a stranger can ask for, so a
    refused one counts toward the address's limit on new tables like a table made; rows older
    than the limit's window are deleted as new ones come (``referee.store.refusals``).
    """

    __tablename__ = "refused_uploads"
    __table_args__ = (sa.Index("ix_refused_uploads_creator_created_at", "creator", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    creator: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
