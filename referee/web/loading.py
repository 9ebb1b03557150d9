"""How pages get a table: the stored table replayed through the rules engine, its log position,
and what a link opens at it — through one small interface (``Tables``) with two implementations,
chosen when the app is made (``init_app``):

- ``Replayed`` (here): every question asks the database, every table is replayed whole;
- the speed layer's kept tables: replayed once and caught up entry by entry.

Pages call the functions below, never an implementation. A table only changes by a new entry in
its log, so whatever is computed from the log is the same for the same log position. A page of
many tables (a group's standings: thousands) asks for all their positions at once
(``recent_seqs``) and reads the tables it has nothing kept of together (``each_table``): a few
reads of the database however many tables, not one or two per table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Protocol

from flask import Flask, abort, current_app, request

from referee.rules import State, replay
from referee.store.links import Access, access, revoked_count
from referee.store.tables import (
    LogEntry,
    TableRecord,
    current_seq,
    current_seqs,
    effective_events,
    get_table,
    get_tables,
)

#: A stored table and its lenient replay (breaches are shown, not hidden).
Loaded = tuple[TableRecord, State]

#: The header a watching phone's page fetch carries (``static/app.js``): the log position its
#: poll answered, which the page it fetches must show.
SEEN_HEADER = "X-Table-Seq"


def position_in(text: str | None) -> int | None:
    """A log position as a page's script sends it in a header (``SEEN_HEADER``, the ``N`` of an
    ETag ``"seq-N"``): ASCII digits, at most 12; None for anything else, which the request is
    then answered as if it had not sent (a digit of another script, a sign, a number longer
    than Python reads: a header any client can forge)."""
    if text is None or not (0 < len(text) <= 12 and text.isascii() and text.isdigit()):
        return None
    return int(text)


class Tables(Protocol):
    """What pages ask of the tables (see the module)."""

    def table(self, table_id: str) -> Loaded | None:
        """The table as it is now; None for an unknown table."""

    def load_since(self, table_id: str, seq: int) -> Loaded | None:
        """The table at log position ``seq`` or later (a request that knows the log got
        there); None for an unknown table."""

    def position(self, table_id: str) -> int | None:
        """The table's log position, for "has anything changed?"; None for an unknown table."""

    def positions_of(self, table_ids: Sequence[str], fresh: bool = False) -> dict[str, int]:
        """Each table's ``position``, in a few reads however many; an unknown table is left
        out. ``fresh``: as the database has it now (and so noted)."""

    def tables_of(self, table_ids: Sequence[str]) -> Iterator[Loaded]:
        """Each table as it is now (``table``), lazily, in no particular order, those to read
        read together (a few reads however many); an unknown table is left out, and so is one
        this version cannot replay (``readable``)."""

    def shown_position(self, table_id: str, seen: int | None) -> int | None:
        """The log position to render a page every viewer sees alike at, for a phone whose
        poll answered ``seen`` (None: it did not say); None for an unknown table."""

    def after(self, record: TableRecord, entry: LogEntry, state: State) -> Loaded:
        """The table after this process wrote ``entry`` (``state``: its lenient replay)."""

    def link(self, token: str, table_id: str, fresh: bool, opened: Access | None) -> Access | None:
        """What the link ``token`` opens at the table (None: nothing). ``fresh``: ask the
        database; ``opened``, when given, is what the session says the link opened, enough for
        a request whose write checks the link itself."""

    def forget_links(self, table_id: str) -> None:
        """Forget what is known of the table's links (after revoking some)."""

    def revocations(self, table_id: str) -> int:
        """How many of the table's links have been revoked (``revoked_count``): a revocation in
        another process is seen within a sweep, as the links themselves."""


class Replayed:
    """Every question asks the database; every table is replayed whole."""

    def table(self, table_id: str) -> Loaded | None:
        record = get_table(table_id)
        return None if record is None else replayed(record)

    def load_since(self, table_id: str, seq: int) -> Loaded | None:
        return self.table(table_id)

    def position(self, table_id: str) -> int | None:
        return current_seq(table_id)

    def positions_of(self, table_ids: Sequence[str], fresh: bool = False) -> dict[str, int]:
        return current_seqs(table_ids)

    def tables_of(self, table_ids: Sequence[str]) -> Iterator[Loaded]:
        return readable(get_tables(table_ids))

    def shown_position(self, table_id: str, seen: int | None) -> int | None:
        return current_seq(table_id)

    def after(self, record: TableRecord, entry: LogEntry, state: State) -> Loaded:
        return replace(record, entries=(*record.entries, entry)), state

    def link(self, token: str, table_id: str, fresh: bool, opened: Access | None) -> Access | None:
        if not fresh and opened is not None:
            return opened
        return access(token, table_id)

    def forget_links(self, table_id: str) -> None:
        pass

    def revocations(self, table_id: str) -> int:
        return revoked_count(table_id)


def replayed(record: TableRecord) -> Loaded:
    """The stored table and its lenient replay."""
    return record, replay(record.setup, effective_events(record.entries), lenient=True)


def readable(records: Iterable[TableRecord]) -> Iterator[Loaded]:
    """Each table ``replayed``, but one whose stored log this version cannot replay is logged and
    left out: one such table must not hide a whole group's others."""
    for record in records:
        try:
            yield replayed(record)
        except (ValueError, KeyError, TypeError):
            current_app.logger.exception("table %s cannot be replayed", record.id)


def init_app(app: Flask, tables: Tables | None = None) -> None:
    """Give ``app`` its tables: ``tables``, or the ones that ask the database every time."""
    app.extensions["referee.tables"] = tables if tables is not None else Replayed()


def tables() -> Tables:
    """The current app's tables."""
    found: Tables = current_app.extensions["referee.tables"]
    return found


def table(table_id: str) -> Loaded | None:
    """The stored table and its replayed state; None for an unknown table."""
    return tables().table(table_id)


def load(table_id: str) -> Loaded:
    """The stored table and its replayed state, or a 404 page for an unknown table."""
    found = tables().table(table_id)
    if found is None:
        abort(404)
    return found


def load_since(table_id: str, seq: int) -> Loaded:
    """The table as it is at log position ``seq`` or later, for a request that knows the log
    reached ``seq`` (the page that follows this phone's own entry, an entry posted from a page
    shown at ``seq``); a 404 page for an unknown table."""
    found = tables().load_since(table_id, seq)
    if found is None:
        abort(404)
    return found


def revocations(table_id: str) -> int:
    """How many of the table's links have been revoked (``Tables.revocations``)."""
    return tables().revocations(table_id)


def recent_seq(table_id: str) -> int | None:
    """The table's log position, for "has anything changed?"; None for an unknown table."""
    return tables().position(table_id)


def recent_seqs(table_ids: Sequence[str], fresh: bool = False) -> dict[str, int]:
    """Each table's ``recent_seq``, in a few reads however many; an unknown table is left out.
    ``fresh``: as the database has it now, not a sweep old."""
    return tables().positions_of(table_ids, fresh)


def each_table(table_ids: Sequence[str]) -> Iterator[Loaded]:
    """Each table as it is now (``table``), lazily and in no particular order, those to read
    read together; an unknown table is left out, and so is one this version cannot replay
    (logged: ``readable``)."""
    return tables().tables_of(table_ids)


def shown_position(table_id: str) -> int | None:
    """The log position to render a page every viewer sees alike at (``referee.web.pages``);
    None for an unknown table. A phone that follows the table says which position its poll
    answered (``SEEN_HEADER``): the page must show at least that one."""
    return tables().shown_position(table_id, position_in(request.headers.get(SEEN_HEADER)))


def remember_after(record: TableRecord, entry: LogEntry, state: State) -> Loaded:
    """The table as it is after ``entry``, which this request wrote (``state``: ``extend`` of
    the old state), so that the page that follows needs no replay."""
    return tables().after(record, entry, state)
