"""Record uploads refused to an address, for the rate limit on what an address may ask for.

A refused upload costs the server the reading and says so to nobody else, so without a count an
address could send record after record for free. ``note_refusal`` keeps one row per refusal
(``RefusedUpload``) and forgets the address's rows older than the limit's window; the web layer
counts them with the tables the address made (``referee.web.records.may_upload``). Kept in the
database, so every worker process and every server sees the same count.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, insert, select

from referee.store.db import db
from referee.store.models import RefusedUpload, utcnow


def note_refusal(creator: str, forget_before: datetime) -> None:
    """Count a refused upload for ``creator``, forgetting its refusals before ``forget_before``."""
    db.session.execute(
        delete(RefusedUpload).where(
            RefusedUpload.creator == creator, RefusedUpload.created_at < forget_before
        )
    )
    db.session.execute(insert(RefusedUpload).values(creator=creator, created_at=utcnow()))
    db.session.commit()


def refused_since(creator: str, since: datetime) -> int:
    """How many uploads were refused to ``creator`` since ``since`` (an indexed count)."""
    query = select(func.count()).where(
        RefusedUpload.creator == creator, RefusedUpload.created_at >= since
    )
    return int(db.session.scalar(query) or 0)
