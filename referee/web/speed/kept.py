"""The kept tables: replayed once and caught up entry by entry, every table's log position, and
the links this process looked up, kept in its memory (``referee.web.loading``'s ``Tables``).

A table only changes by a new entry in its log, which raises its sequence number; so whatever is
computed from the log is kept with the number it was computed at. One indexed read of
``tables.last_seq`` tells whether it is still current, whichever worker process wrote last. A
replayed table that is behind catches up by replaying only the newer entries (``extend``), unless
one of them is an undo or a correction, which changes the past: then the whole log is replayed.
A page of a group's many tables asks for them all at once (``positions_of``, ``tables_of``): the
positions this process does not know are read together, and so are the tables it does not keep,
which it then replays without keeping them (see ``tables_of``).

``Positions`` keeps every table's log position for "has anything changed?", refreshed by a sweep
(every ``sweep_every`` seconds, more often where streams are held: ``streams``), and on PostgreSQL
also told at once of each entry written elsewhere (``wake``); the same sweep tells when to forget
the links this process looked up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from referee.rules import State, extend
from referee.rules.events import event_from_dict
from referee.store.links import Access, access, revoked_count, revoked_since
from referee.store.models import utcnow
from referee.store.tables import (
    LogEntry,
    TableRecord,
    changed_since,
    current_seq,
    current_seqs,
    entries_after,
    get_table,
    get_tables,
)
from referee.web.loading import Loaded, readable, replayed
from referee.web.speed.lru import LRU


class KeptTables:
    """The tables this process keeps (``referee.web.loading.Tables``): replayed once and caught
    up entry by entry, every table's log position (``Positions``), and the links it looked up."""

    def __init__(self, tables: int, links: int, positions: int, sweep_every: float) -> None:
        #: Replayed tables by id: up to about 180 KB each (a complete 25-round game), most of a
        #: process's memory at the default size.
        self.replayed: LRU[Loaded] = LRU(tables)
        #: The links this process looked up, per table: token → what it opens (None: nothing).
        #: A table's are forgotten when a sweep finds one of its links revoked, at once when this
        #: process revokes one. Reads trust them; a write checks its link in the statement that
        #: writes (``referee.store.tables.add_entry``).
        self.links: LRU[dict[str, Access | None]] = LRU(links)
        #: How many links of each table are revoked (the poll key is made with it), forgotten
        #: with the table's links.
        self.revoked: LRU[int] = LRU(links)
        #: Every table's log position, for "has anything changed?".
        self.positions = Positions(positions, self.links, sweep_every, self.revoked)

    def table(self, table_id: str) -> Loaded | None:
        """Kept and caught up: a kept table costs one read of its log position (and the newer
        entries, if any); one this process does not keep is read whole at once."""
        known = self.replayed.get(table_id)
        if known is not None:
            seq = current_seq(table_id)
            if seq is None:
                return None
            self.positions.set(table_id, seq)
            if known[0].last_seq == seq:
                return known
            if known[0].last_seq < seq:
                caught_up = self.catch_up(table_id, *known)
                if caught_up is not None:
                    return caught_up
        record = get_table(table_id)
        if record is None:
            return None
        self.positions.set(table_id, record.last_seq)
        loaded = replayed(record)
        self.replayed.put(table_id, loaded)
        return loaded

    def tables_of(self, table_ids: Sequence[str]) -> Iterator[Loaded]:
        """Each table as it is now: a kept one at the position this process knows (at most a
        sweep old, as ``position``) from memory; the others read together (``get_tables``) and
        replayed, but not kept (a kept one that was behind is kept anew). A page of a group's
        thousands of tables keeps what it computes of each through the memo, once per position
        and far smaller than a replay; keeping their replays here too would push the live tables
        this process serves out of ``replayed`` (``bench/capacity.py``)."""
        unread = []
        for table_id, seq in self.positions.get_many(table_ids).items():
            kept = self.replayed.peek(table_id)
            if kept is not None and kept[0].last_seq == seq:
                yield kept
            else:
                unread.append(table_id)
        for loaded in readable(get_tables(unread)):
            record = loaded[0]
            if self.replayed.peek(record.id) is not None:
                self.replayed.put(record.id, loaded)
            self.positions.set(record.id, record.last_seq)
            yield loaded

    def load_since(self, table_id: str, seq: int) -> Loaded | None:
        """The kept table, without asking the database, if it is at least at ``seq`` and this
        process knows of nothing newer (``position``: another process's write shows within a
        sweep, as on every spectator's page; a write from a page that was overtaken meanwhile is
        refused by its conditional UPDATE). A kept table that is behind ``seq`` (the entry went
        to another process) is caught up without first asking for the log position."""
        known = self.replayed.get(table_id)
        if known is not None and seq <= known[0].last_seq == self.position(table_id):
            return known
        if known is not None and known[0].last_seq < seq:
            caught_up = self.catch_up(table_id, *known)
            if caught_up is not None:
                return caught_up
        return self.table(table_id)

    def catch_up(self, table_id: str, record: TableRecord, state: State) -> Loaded | None:
        """The kept table with the entries written since, replayed onto it (and kept); None
        when there are none or one of them changes the past (an undo, a correction): then only
        a whole replay will do."""
        newer = entries_after(table_id, record.last_seq)
        if not newer or any(entry.kind != "event" for entry in newer):
            return None
        for entry in newer:
            state = extend(state, event_from_dict(entry.payload))
        caught_up = (replace(record, entries=(*record.entries, *newer)), state)
        self.replayed.put(table_id, caught_up)
        self.positions.set(table_id, caught_up[0].last_seq)
        return caught_up

    def position(self, table_id: str) -> int | None:
        """At most a sweep old (see ``Positions``)."""
        return self.positions.get(table_id)

    def positions_of(self, table_ids: Sequence[str], fresh: bool = False) -> dict[str, int]:
        """At most a sweep old, those this process does not know read together; ``fresh``: all
        read together, and noted."""
        if not fresh:
            return self.positions.get_many(table_ids)
        found = current_seqs(table_ids)
        for table_id, seq in found.items():
            self.positions.set(table_id, seq)
        return found

    def shown_position(self, table_id: str, seen: int | None) -> int | None:
        """The one this process knows (at most a sweep old, no read for a repeat view), unless
        the phone's poll answered a newer one (``seen``): a process that had swept since
        answered it, while this one may still be a sweep behind an entry another process wrote.
        Keyed by the known position then, the page would be the one from before the entry, and
        the phone would wait a whole poll interval for the next try; so the database is asked
        (one indexed read) and the position noted."""
        known = self.position(table_id)
        if known is None or seen is None or seen <= known:
            return known
        seq = current_seq(table_id)
        if seq is not None:
            self.positions.set(table_id, seq)
        return seq

    def after(self, record: TableRecord, entry: LogEntry, state: State) -> Loaded:
        kept = (replace(record, entries=(*record.entries, entry)), state)
        self.replayed.put(record.id, kept)
        self.positions.set(record.id, entry.seq)
        return kept

    def link(self, token: str, table_id: str, fresh: bool, opened: Access | None) -> Access | None:
        """Kept by this process unless ``fresh`` (a link revoked in another process is forgotten
        within a sweep)."""
        if not fresh:
            self.positions.sweep()
            kept = self.links.get(table_id)
            if kept is not None and token in kept:
                return kept[token]
            if opened is not None:
                return opened
        found = access(token, table_id)
        self.links.get_or_make(table_id, dict)[token] = found
        return found

    def forget_links(self, table_id: str) -> None:
        self.links.discard(table_id)
        self.revoked.discard(table_id)

    def revocations(self, table_id: str) -> int:
        """Kept by this process (a revocation in another process is seen within a sweep)."""
        self.positions.sweep()
        return self.revoked.get_or_make(table_id, lambda: revoked_count(table_id))

    def known_revocations(self, table_id: str) -> int | None:
        """``revocations`` if this process knows it and no sweep is due; else None. Never asks
        the database (``referee.web.speed.front`` checks poll keys with it)."""
        if time.monotonic() - self.positions.swept >= self.positions.every:
            return None
        return self.revoked.get(table_id)


#: How far back each sweep looks before the last one, for clocks of writers that differ a little
#: (each writer stamps its own ``updated_at``).
SWEEP_OVERLAP = timedelta(seconds=5)


class Positions:
    """Every table's log position as this process knows it, for "has anything changed?".

    Phones poll every few seconds and thousands of them follow a table each; asking the database
    once per poll cost more than the rest of the request (``bench/web_poll.py``). Instead, at
    most once per ``every`` seconds, one indexed read fetches the tables changed since the last
    look (``changed_since``); a table this process has not seen yet is read once; a table it
    writes itself is known at once.
    """

    def __init__(
        self,
        size: int,
        links: LRU[dict[str, Access | None]],
        every: float,
        revoked: LRU[int] | None = None,
    ) -> None:
        """``links``, ``revoked``: what is known of each table's links, forgotten for a table
        that a sweep finds a link of revoked."""
        self.known: LRU[int] = LRU(size)
        self.links = links
        self.revoked = revoked
        #: How often this process asks the database which tables changed (seconds): a change
        #: made by another process shows in a poll at most this much later.
        self.every = every
        self.lock = threading.Lock()
        self.swept = -every  # monotonic time of the last sweep
        #: The time the next sweep reads from: from the start, so that no change made after a
        #: position was noted is missed, however long before the first sweep it was made (a
        #: stream waiting at such a position would wait for the next change).
        self.since: datetime = utcnow() - SWEEP_OVERLAP
        #: Told of each table whose position moved (``referee.web.speed.streams``: its streams).
        self.moved: Callable[[str], None] | None = None

    def get(self, table_id: str) -> int | None:
        """The table's log position, at most ``every`` seconds old; None for an unknown table."""
        self.sweep()
        seq = self.known.get(table_id)
        if seq is None:
            seq = current_seq(table_id)
            if seq is not None:
                self.known.put(table_id, seq)
        return seq

    def get_many(self, table_ids: Iterable[str]) -> dict[str, int]:
        """Each table's ``get``, the ones this process does not know read together
        (``current_seqs``: a few reads for a group's thousands); an unknown table is left out."""
        self.sweep()
        found: dict[str, int] = {}
        unknown = []
        for table_id in table_ids:
            seq = self.known.get(table_id)
            if seq is None:
                unknown.append(table_id)
            else:
                found[table_id] = seq
        for table_id, seq in current_seqs(unknown).items():
            self.known.put(table_id, seq)
            found[table_id] = seq
        return found

    def fresh(self, table_id: str) -> int | None:
        """The table's position if this process knows it and no sweep is due; else None. Never
        asks the database (``referee.web.speed.front`` answers polls with it)."""
        if time.monotonic() - self.swept >= self.every:
            return None
        return self.known.get(table_id)

    def sweep(self, every: float | None = None) -> None:
        """At most once per ``every`` seconds (default: ``self.every``): note the positions of
        the tables that changed, and forget the links of the tables that had one revoked
        (``links``). Nothing to do when nothing is kept."""
        now = time.monotonic()
        if now - self.swept < (self.every if every is None else every):
            return
        if not self.lock.acquire(blocking=False):
            return  # fresh enough, or another thread of this process is sweeping
        try:
            start = utcnow()
            for table_id, seq in changed_since(self.since):
                self.heard(table_id, seq)
            for table_id in revoked_since(self.since):
                self.links.discard(table_id)
                if self.revoked is not None:
                    self.revoked.discard(table_id)
            self.since = start - SWEEP_OVERLAP
            self.swept = now
        finally:
            self.lock.release()

    def heard(self, table_id: str, seq: int) -> None:
        """Note a position another process wrote (found by a sweep, or told: ``wake``), if this
        process knows the table: one it does not know is read when it is first asked for."""
        known = self.known.peek(table_id)  # mostly the same (a sweep's overlap)
        if known is not None and seq > known:
            self.set(table_id, seq)

    def set(self, table_id: str, seq: int) -> None:
        """Note a table's position (never moving it back: the log only grows)."""
        known = self.known.get(table_id)
        if seq >= (known or 0):
            self.known.put(table_id, seq)
            if seq != known and self.moved is not None:
                self.moved(table_id)
