"""The links that open a table: make one, look one up, revoke them.

A link's token is 192 random bits, URL-safe; only its SHA-256 is stored, so the database (or a
backup of it) opens nothing. Looking a link up is one read by the hash's unique index.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import CursorResult, bindparam, select, update

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


#: The tables with a link revoked since a moment (see ``revoked_since``).
_REVOKED_SINCE = select(LINKS.c.table_id).where(LINKS.c.revoked_at >= bindparam("since")).distinct()


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def make_link(table_id: str, kind: str, player: str | None = None, commit: bool = True) -> str:
    """A new link to the table; returns its token (shown once, never stored)."""
    if kind not in LINK_KINDS:
        raise ValueError(f"a link is one of {', '.join(LINK_KINDS)}, not {kind!r}")
    if (kind == "player") != (player is not None):
        raise ValueError("a player link, and only a player link, names its player")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    db.session.add(Link(table_id=table_id, kind=kind, player=player, token_hash=token_hash(token)))
    if commit:
        db.session.commit()
    return token


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
        return list(connection.execute(_REVOKED_SINCE, {"since": since}).scalars())


def revoke(table_id: str, kind: str, keep: str | None = None) -> int:
    """Revoke every ``kind`` link of the table except the one whose token is ``keep``; return
    how many were revoked."""
    query = update(Link).where(
        Link.table_id == table_id, Link.kind == kind, Link.revoked_at.is_(None)
    )
    if keep is not None:
        query = query.where(Link.token_hash != token_hash(keep))
    revoked = db.session.execute(query.values(revoked_at=utcnow()))
    assert isinstance(revoked, CursorResult)  # an UPDATE's result, which counts its rows
    db.session.commit()
    return revoked.rowcount
