"""The links that open a table: make one, look one up, revoke them.

A link's token is 192 random bits, URL-safe; only its SHA-256 is stored, so the database (or a
backup of it) opens nothing. Looking a link up is one read by the hash's unique index.

A scorekeeper's change to the table's links (``make_link`` and ``revoke`` with ``by``) is
authorised in the statement that makes it: it happens only while ``by`` is an unrevoked keeper
link of the table. Two such changes to one table never overlap (``one_at_a_time``), so two
scorekeepers revoking each other leave one of them, and a phone being revoked makes no link that
outlives the revocation.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    CursorResult,
    Integer,
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


#: What a token opens, by its hash (built once: every request that opens a table runs it).
LINKS = Link.__table__
_ACCESS = select(LINKS.c.table_id, LINKS.c.kind, LINKS.c.player).where(
    LINKS.c.token_hash == bindparam("hash"), LINKS.c.revoked_at.is_(None)
)


#: Whether ``by`` (its token's hash) is an unrevoked scorekeeper link of the table ``table``.
_MINE = LINKS.alias("mine")
_BY_KEEPER = exists().where(
    _MINE.c.token_hash == bindparam("by"),
    _MINE.c.table_id == bindparam("table"),
    _MINE.c.kind == "keeper",
    _MINE.c.revoked_at.is_(None),
)
_LINK_COLUMNS = ["table_id", "kind", "player", "token_hash", "created_at"]
#: A new link, made only while ``by`` keeps score at its table.
_INSERT_BY_KEEPER = (
    insert(LINKS)
    .from_select(
        _LINK_COLUMNS,
        select(*(bindparam(name, type_=LINKS.c[name].type) for name in _LINK_COLUMNS)).where(
            _BY_KEEPER
        ),
    )
    .execution_options(preserve_rowcount=True)
)

#: What ``one_at_a_time`` keeps apart: changes to one table's links, creations by one creator.
LINKS_OF_A_TABLE = 1
TABLES_OF_A_CREATOR = 2

#: The tables with a link revoked since a moment (see ``revoked_since``).
#: Without DISTINCT, which made SQLite scan the whole table by ``table_id`` instead of reading the
#: few revoked rows off ``revoked_at``'s index (1.3 ms at 6,000 links, on every sweep).
_REVOKED_SINCE = select(LINKS.c.table_id).where(LINKS.c.revoked_at >= bindparam("since"))


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
    token = secrets.token_urlsafe(TOKEN_BYTES)
    if by is None:
        db.session.add(
            Link(table_id=table_id, kind=kind, player=player, token_hash=token_hash(token))
        )
    else:
        one_at_a_time(LINKS_OF_A_TABLE, table_id)
        link: dict[str, object] = {"table_id": table_id, "kind": kind, "player": player}
        link |= {"token_hash": token_hash(token), "created_at": utcnow()}
        made = db.session.execute(_INSERT_BY_KEEPER, link | keeper(by, table_id))
        assert isinstance(made, CursorResult)  # an INSERT's result, which counts its rows
        if made.rowcount != 1:
            db.session.rollback()
            raise NoAccess(f"the link does not keep score at table {table_id}")
    if commit:
        db.session.commit()
    return token


def keeper(by: str, table_id: str) -> dict[str, str]:
    """The parameters of ``_BY_KEEPER``."""
    return {"by": token_hash(by), "table": table_id}


def access(token: str, table_id: str | None = None) -> Access | None:
    """What ``token`` opens (optionally: only if it opens ``table_id``); None for a token that
    is unknown, revoked, or for another table."""
    if not 0 < len(token) <= 64:
        return None
    row = run(_ACCESS, {"hash": token_hash(token)}).first()
    if row is None or (table_id is not None and row.table_id != table_id):
        return None
    return Access(row.table_id, row.kind, row.player)


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
    query = update(LINKS).where(
        LINKS.c.table_id == table_id, LINKS.c.kind == kind, LINKS.c.revoked_at.is_(None)
    )
    if by is not None:
        one_at_a_time(LINKS_OF_A_TABLE, table_id)
        query = query.where(LINKS.c.token_hash != token_hash(by), _BY_KEEPER)
    params = {} if by is None else keeper(by, table_id)
    result = db.session.execute(query.values(revoked_at=utcnow()), params)
    assert isinstance(result, CursorResult)  # an UPDATE's result, which counts its rows
    revoked = int(result.rowcount)
    if by is not None and not revoked and not db.session.scalar(select(_BY_KEEPER), params):
        db.session.rollback()
        raise NoAccess(f"the link does not keep score at table {table_id}")
    if commit:
        db.session.commit()
    return revoked
