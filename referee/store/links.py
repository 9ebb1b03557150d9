"""The links that open a table (and a group): make one, look one up, revoke them.

A link's token is 192 random bits, URL-safe; only its SHA-256 is stored, so the database (or a
backup of it) opens nothing. Looking a link up is one read by the hash's unique index.

A scorekeeper's change to the table's links (``make_link`` and ``revoke`` with ``by``) is
authorised in the statement that makes it: it happens only while ``by`` is an unrevoked keeper
link of the table. Two such changes to one table never overlap (``one_at_a_time``), so two
scorekeepers revoking each other leave one of them, and a phone being revoked makes no link that
outlives the revocation.

``Capabilities`` holds those statements and steps for one kind of owner and its table of links:
a table's (``links``, here) and a group's (``group_links``, ``referee.store.groups``), so the two
kinds of link work alike and never open each other's owner.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    CursorResult,
    Integer,
    Row,
    Table,
    bindparam,
    exists,
    func,
    insert,
    literal,
    select,
    update,
)

from referee.store.db import db, run
from referee.store.models import LINK_KINDS, Link, utcnow

#: Random bytes in a link's token: 192 bits, 32 URL-safe characters.
TOKEN_BYTES = 24


@dataclass(frozen=True)
class Access:
    """What a link opens: the table, the kind of link, and the player of a player link."""

    table_id: str
    kind: str
    player: str | None

    @property
    def keeps_score(self) -> bool:
        return self.kind == "keeper"


#: What ``one_at_a_time`` keeps apart: changes to one table's links, creations by one creator,
#: changes to one group's links.
LINKS_OF_A_TABLE = 1
TABLES_OF_A_CREATOR = 2
LINKS_OF_A_GROUP = 3


class NoAccess(PermissionError):
    """The link does not open the table (any more: it was revoked), or not as a scorekeeper;
    nothing was written."""


def one_at_a_time(purpose: int, name: str) -> None:
    """Wait until no other transaction holds ``purpose``'s lock on ``name``, then hold it until
    this transaction (``db.session``'s) ends.

    On PostgreSQL a transaction-scoped advisory lock: the statements after it see everything
    the previous holder committed (read committed takes a snapshot per statement). SQLite needs
    none: a statement that writes holds the whole database's write lock from its first read."""
    if db.engine.dialect.name == "postgresql":
        key = func.hashtext(bindparam("name", name))
        db.session.execute(select(func.pg_advisory_xact_lock(literal(purpose, Integer), key)))


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Capabilities:
    """The links of one kind of owner, in their own table: what a token opens, a new link made
    while a keeper link of the owner asks for it, every link of a kind revoked. The statements
    are built once (every request that opens a page runs ``access``).

    ``links``: the table of links, with ``token_hash``, ``kind``, ``created_at`` and
    ``revoked_at`` columns and ``owner``, the column naming what a link opens; ``extra``: the
    other columns a link has (a table's player link names its player); ``lock``: the purpose of
    ``one_at_a_time`` that keeps changes to one owner's links apart."""

    def __init__(self, links: Table, owner: str, extra: Sequence[str], lock: int) -> None:
        self.links = links
        self.owner = owner
        self.lock = lock
        c = links.c
        self.opens = select(c[owner], c.kind, *(c[name] for name in extra)).where(
            c.token_hash == bindparam("hash"), c.revoked_at.is_(None)
        )
        #: Whether ``by`` (its token's hash) is an unrevoked keeper link of the owner ``owner``.
        mine = links.alias("mine")
        self.by_keeper = exists().where(
            mine.c.token_hash == bindparam("by"),
            mine.c[owner] == bindparam("owner"),
            mine.c.kind == "keeper",
            mine.c.revoked_at.is_(None),
        )
        self.columns = [owner, "kind", *extra, "token_hash", "created_at"]
        #: A new link, made only while ``by`` is a keeper link of its owner.
        self.insert_by_keeper = (
            insert(links)
            .from_select(
                self.columns,
                select(*(bindparam(name, type_=c[name].type) for name in self.columns)).where(
                    self.by_keeper
                ),
            )
            .execution_options(preserve_rowcount=True)
        )

    def keeper(self, by: str, owner_id: str) -> dict[str, str]:
        """The parameters of ``by_keeper``."""
        return {"by": token_hash(by), "owner": owner_id}

    def make(
        self,
        owner_id: str,
        kind: str,
        values: Mapping[str, object],
        commit: bool = True,
        by: str | None = None,
    ) -> str:
        """A new ``kind`` link to the owner with the ``extra`` ``values``; returns its token
        (shown once, never stored). ``by``: the token of the keeper link asking for it; the link
        is made only while that one is an unrevoked keeper link of the owner (``NoAccess``
        otherwise)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        link: dict[str, object] = {self.owner: owner_id, "kind": kind, **values}
        link |= {"token_hash": token_hash(token), "created_at": utcnow()}
        if by is None:
            db.session.execute(insert(self.links), link)
        else:
            one_at_a_time(self.lock, owner_id)
            made = db.session.execute(self.insert_by_keeper, link | self.keeper(by, owner_id))
            assert isinstance(made, CursorResult)  # an INSERT's result, which counts its rows
            if made.rowcount != 1:
                db.session.rollback()
                raise NoAccess(f"the link does not keep {owner_id}")
        if commit:
            db.session.commit()
        return token

    def row(self, token: str) -> Row[tuple[object, ...]] | None:
        """What ``token`` opens (its owner, kind and extra columns); None for a token that is
        unknown or revoked."""
        if not 0 < len(token) <= 64:
            return None
        found: Row[tuple[object, ...]] | None = run(self.opens, {"hash": token_hash(token)}).first()
        return found

    def revoke(self, owner_id: str, kind: str, by: str | None = None, commit: bool = True) -> int:
        """Revoke every ``kind`` link of the owner; return how many were revoked.

        ``by``: the token of the keeper link asking for it, which is kept; the links are revoked
        only while it is an unrevoked keeper link of the owner (``NoAccess`` otherwise), so an
        owner is never left without a keeper."""
        c = self.links.c
        query = update(self.links).where(
            c[self.owner] == owner_id, c.kind == kind, c.revoked_at.is_(None)
        )
        if by is not None:
            one_at_a_time(self.lock, owner_id)
            query = query.where(c.token_hash != token_hash(by), self.by_keeper)
        params = {} if by is None else self.keeper(by, owner_id)
        result = db.session.execute(query.values(revoked_at=utcnow()), params)
        assert isinstance(result, CursorResult)  # an UPDATE's result, which counts its rows
        revoked = int(result.rowcount)
        if by is not None and not revoked and not db.session.scalar(select(self.by_keeper), params):
            db.session.rollback()
            raise NoAccess(f"the link does not keep {owner_id}")
        if commit:
            db.session.commit()
        return revoked


#: A table's links.
LINKS = Link.__table__
TABLE_LINKS = Capabilities(LINKS, "table_id", ["player"], LINKS_OF_A_TABLE)

#: The tables with a link revoked since a moment (see ``revoked_since``).
#: Without DISTINCT, which made SQLite scan the whole table by ``table_id`` instead of reading the
#: few revoked rows off ``revoked_at``'s index (1.3 ms at 6,000 links, on every sweep).
_REVOKED_SINCE = select(LINKS.c.table_id).where(LINKS.c.revoked_at >= bindparam("since"))


def make_link(
    table_id: str,
    kind: str,
    player: str | None = None,
    commit: bool = True,
    by: str | None = None,
) -> str:
    """A new link to the table; returns its token (shown once, never stored).

    ``by``: the token of the scorekeeper link asking for it; the link is made only while that
    one is an unrevoked keeper link of the table (``NoAccess`` otherwise).
    """
    if kind not in LINK_KINDS:
        raise ValueError(f"a link is one of {', '.join(LINK_KINDS)}, not {kind!r}")
    if (kind == "player") != (player is not None):
        raise ValueError("a player link, and only a player link, names its player")
    return TABLE_LINKS.make(table_id, kind, {"player": player}, commit, by)


def keeper(by: str, table_id: str) -> dict[str, str]:
    """The parameters of ``TABLE_LINKS.by_keeper`` for the table's keeper link ``by``."""
    return TABLE_LINKS.keeper(by, table_id)


def access(token: str, table_id: str | None = None) -> Access | None:
    """What ``token`` opens (optionally: only if it opens ``table_id``); None for a token that
    is unknown, revoked, or for another table."""
    row = TABLE_LINKS.row(token)
    if row is None or (table_id is not None and row.table_id != table_id):
        return None
    return Access(row.table_id, row.kind, row.player)


#: How many of a table's links are revoked (see ``revoked_count``).
_REVOKED_COUNT = select(func.count()).where(
    LINKS.c.table_id == bindparam("table_id"), LINKS.c.revoked_at.is_not(None)
)


def revoked_count(table_id: str) -> int:
    """How many of the table's links have been revoked: it only grows, by each revocation, so
    it names the table's links as they stand (a page's poll key is made with it)."""
    return int(db.session.scalar(_REVOKED_COUNT, {"table_id": table_id}) or 0)


def revoked_since(since: datetime) -> list[str]:
    """The tables with a link revoked at or after ``since``: one indexed read, on a connection
    of its own like ``referee.store.tables.changed_since`` (processes that keep looked-up links
    forget those tables' links)."""
    with db.engine.connect() as connection:
        found = connection.execute(_REVOKED_SINCE, {"since": since}).scalars()
        return list(dict.fromkeys(found))  # each table once


def revoke(table_id: str, kind: str, by: str | None = None, commit: bool = True) -> int:
    """Revoke every ``kind`` link of the table; return how many were revoked.

    ``by``: the token of the scorekeeper link asking for it, which is kept; the links are
    revoked only while it is an unrevoked keeper link of the table (``NoAccess`` otherwise),
    so a table is never left without a scorekeeper.
    """
    return TABLE_LINKS.revoke(table_id, kind, by, commit)
