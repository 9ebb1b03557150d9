"""The database tables: a game table, its append-only log of entries, the links that open it,
the record uploads refused to an address (for the rate limit), the paper cards read into
tables (with their photos), and groups: the people who play together (a roster, seasons, the
tables they keep, the links that open them).

A game table is its setup plus its entries; everything else (state, scores, sheets) is computed
by replaying them. Entries are only ever inserted: a correction or an undo is a new entry that
names the one it changes (see ``referee.store.tables.effective_events``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
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


class PaperCard(db.Model):  # type: ignore[name-defined,misc]
    """A paper card read into a table (``referee.web.paper``): the table's entries
    ``first_seq`` to ``last_seq`` came from it (the history marks them "from paper"), and
    ``photo`` is the card as it was read, straightened and cropped to the page, a grey JPEG
    (None once its scorekeeper deleted it; the mark stays). One a table: a card is read only
    into a table with no entries."""

    __tablename__ = "paper_cards"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey(Table.id), unique=True)
    first_seq: Mapped[int]
    last_seq: Mapped[int]
    photo: Mapped[bytes | None] = mapped_column(sa.LargeBinary)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


# --- groups: the people who play together, their tables and their links -------------------------


class Group(db.Model):  # type: ignore[name-defined,misc]
    """A group (``docs/group-format.md``): its name, the time zone its evenings are dated in,
    and ``version``, raised by every change of the group (its roster, seasons, tables, name), so
    a form shown at one version can tell that the group changed since, and a page kept for one
    version is the group's page while it stays. ``id`` is its address in URLs; what lets someone
    in is one of its ``GroupLink``s."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    #: An IANA time zone name (``Europe/Berlin``): a table's evening is its start's date there.
    time_zone: Mapped[str] = mapped_column(sa.String(64))
    version: Mapped[int] = mapped_column(default=1)
    #: Whether a game its table ended early (``docs/rules.md``, "Ending early") counts in the
    #: group's numbers (the group's choice; a keeper changes it beside the standings).
    ended_early_counts: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    #: Who created the group, as a keyed hash of their network address (for the rate limit).
    creator: Mapped[str | None] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    __table_args__ = (sa.Index("ix_groups_creator_created_at", "creator", "created_at"),)


class GroupPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player of a group's roster: ``player_id`` is the stable id of the group file (``p1``,
    ``p2`` …, never reused or changed: a renamed player keeps it, so old tables' seats still
    point to them); ``name`` the one shown now; a ``retired`` player keeps their history and is
    not offered for new tables. ``number`` orders the roster as players were added."""

    __tablename__ = "group_players"
    __table_args__ = (sa.UniqueConstraint("group_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(sa.ForeignKey(Group.id))
    player_id: Mapped[str] = mapped_column(sa.String(40))
    number: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(64))
    retired: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class GroupSeason(db.Model):  # type: ignore[name-defined,misc]
    """A season of a group: it runs from ``starts_on`` (the group's local date) to the next
    season's."""

    __tablename__ = "group_seasons"
    __table_args__ = (
        sa.UniqueConstraint("group_id", "starts_on"),
        sa.UniqueConstraint("group_id", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(sa.ForeignKey(Group.id))
    name: Mapped[str] = mapped_column(sa.String(64))
    starts_on: Mapped[date] = mapped_column(sa.Date)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class GroupTable(db.Model):  # type: ignore[name-defined,misc]
    """A table kept in a group (a table is in one group at most): ``seats`` maps every player
    name of the table to a roster ``player_id``, or to None for a guest; ``counts`` false keeps
    it out of every statistic; ``played_at`` is when it started (UTC) and ``played_offset`` the
    offset in minutes of the time it is told in (the group's zone then), so its evening is
    ``(played_at + offset).date()`` and its ``played`` in a group file keeps that offset."""

    __tablename__ = "group_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(sa.ForeignKey(Group.id), index=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey(Table.id), unique=True)
    seats: Mapped[dict[str, str | None]] = mapped_column(sa.JSON)
    counts: Mapped[bool] = mapped_column(default=True)
    played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    played_offset: Mapped[int] = mapped_column(default=0)
    added_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


#: What a group link lets its holder do: keep the group (start tables, edit the roster, attach
#: and detach tables, seasons) or only look.
GROUP_LINK_KINDS = ("keeper", "viewer")


class GroupLink(db.Model):  # type: ignore[name-defined,misc]
    """A link to a group, as a table's ``Link``: a random token whose SHA-256 is ``token_hash``;
    a revoked link (``revoked_at`` set) opens nothing. A table's links are another table's
    rows, so they never open a group, nor a group's a table."""

    __tablename__ = "group_links"
    __table_args__ = (sa.CheckConstraint(f"kind IN {GROUP_LINK_KINDS!r}", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(sa.ForeignKey(Group.id), index=True)
    kind: Mapped[str] = mapped_column(sa.String(8))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


#: Where a group file being loaded is: waiting for the loader, being read and saved, saved (the
#: uploading browser has not opened it yet), opened by that browser, or refused.
IMPORT_STATES = ("waiting", "running", "done", "opened", "failed")


class GroupImport(db.Model):  # type: ignore[name-defined,misc]
    """A group file being loaded as a new group, off the request that uploaded it
    (``referee.web.groups.import_job``): the upload is kept in ``data`` until the loader has
    read it; ``checked`` and ``saved`` count its tables as the loader goes (``updated_at`` is
    its heartbeat), so the uploading browser can show how far it is; ``group_id`` is the new
    group, made whole before it is ``done``; ``messages`` why it was refused, in ``language``.
    ``id`` is a random token only the uploading browser's session holds. Counted with the tables
    its ``creator`` made, whether it finishes or not, for the limit on new tables."""

    __tablename__ = "group_imports"
    __table_args__ = (
        sa.CheckConstraint(f"state IN {IMPORT_STATES!r}", name="state"),
        sa.Index("ix_group_imports_creator_created_at", "creator", "created_at"),
        sa.Index("ix_group_imports_state", "state"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    creator: Mapped[str | None] = mapped_column(sa.String(64))
    state: Mapped[str] = mapped_column(sa.String(8), default="waiting")
    time_zone: Mapped[str] = mapped_column(sa.String(64))
    language: Mapped[str] = mapped_column(sa.String(8))
    data: Mapped[bytes | None] = mapped_column(sa.LargeBinary)
    tables: Mapped[int] = mapped_column(default=0)
    checked: Mapped[int] = mapped_column(default=0)
    saved: Mapped[int] = mapped_column(default=0)
    group_id: Mapped[str | None] = mapped_column(sa.String(64))
    messages: Mapped[list[str] | None] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class GroupExport(db.Model):  # type: ignore[name-defined,misc]
    """A group's file as its last download wrote it, gzip-compressed, and what it was written
    from (``made_for``: the group's version and a digest of its tables' log positions): a
    download while the group is as it was sends it again instead of writing it anew
    (``referee.web.groups.transfer``). One per group, replaced when the group changed."""

    __tablename__ = "group_exports"

    group_id: Mapped[str] = mapped_column(sa.ForeignKey(Group.id), primary_key=True)
    made_for: Mapped[str] = mapped_column(sa.String(80))
    body: Mapped[bytes] = mapped_column(sa.LargeBinary)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
