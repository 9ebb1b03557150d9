"""Group files being loaded, off the request that uploaded them (``GroupImport``): the upload is
kept as a job, a loader process takes jobs one at a time and says how far it is, and the
uploading browser asks until the group is made or refused (``referee.web.groups.import_job``).

Every change of a job is one conditional UPDATE, so two loaders (of two servers on one
PostgreSQL, or one left over from a restart) never take one job, and one browser's two tabs
never open one group twice.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, Row, delete, insert, select, update

from referee.store.db import db
from referee.store.models import GroupImport, utcnow

JOBS = GroupImport.__table__

#: A loader that has said nothing for this long is gone (killed, its server restarted): its job
#: is refused and what it saved is removed. It speaks at least every few seconds while it works.
SILENT_SECONDS = 90
#: How long a job is kept once it is over (it counts toward its address's limit meanwhile).
KEPT_FOR = timedelta(days=1)


@dataclass(frozen=True)
class ImportJob:
    """A job as the pages and the loader read it (its upload aside)."""

    id: str
    state: str
    tables: int
    checked: int
    saved: int
    group_id: str | None
    messages: tuple[str, ...]
    time_zone: str
    language: str
    creator: str | None
    updated_at: datetime

    @property
    def silent(self) -> bool:
        """Whether its loader has been silent too long (only a job in hand has a loader)."""
        quiet = utcnow() - self.updated_at > timedelta(seconds=SILENT_SECONDS)
        return self.state == "running" and quiet


_FIELDS = [JOBS.c[name] for name in ImportJob.__dataclass_fields__]


def _job(row: Row[Any]) -> ImportJob:
    values = dict(row._mapping)
    values["messages"] = tuple(values["messages"] or ())
    at = values["updated_at"]
    values["updated_at"] = at if at.tzinfo is not None else at.replace(tzinfo=utcnow().tzinfo)
    return ImportJob(**values)


def new_import(data: bytes, time_zone: str, language: str, creator: str | None) -> str:
    """Keep an uploaded group file as a job waiting for the loader; its id."""
    job_id = secrets.token_urlsafe(16)
    now = utcnow()
    db.session.execute(
        insert(JOBS).values(
            id=job_id,
            creator=creator,
            state="waiting",
            time_zone=time_zone,
            language=language,
            data=data,
            created_at=now,
            updated_at=now,
        )
    )
    db.session.commit()
    return job_id


def get_import(job_id: str) -> ImportJob | None:
    if not (0 < len(job_id) <= 32 and job_id.isprintable()):
        return None
    row = db.session.execute(select(*_FIELDS).where(JOBS.c.id == job_id)).first()
    return None if row is None else _job(row)


def _moved(job_id: str, while_in: str, **values: object) -> bool:
    """Change the job, only while it is in the state ``while_in``, and commit; whether it did."""
    statement = update(JOBS).where(JOBS.c.id == job_id, JOBS.c.state == while_in)
    done = db.session.execute(statement.values(updated_at=utcnow(), **values))
    assert isinstance(done, CursorResult)
    db.session.commit()
    return done.rowcount == 1


def take_import() -> tuple[ImportJob, bytes] | None:
    """The oldest waiting job, now this loader's, with its upload; None when none waits."""
    while True:
        query = select(JOBS.c.id).where(JOBS.c.state == "waiting").order_by(JOBS.c.created_at)
        job_id = db.session.scalar(query.limit(1))
        db.session.commit()
        if job_id is None:
            return None
        if _moved(job_id, "waiting", state="running"):
            data = db.session.scalar(select(JOBS.c.data).where(JOBS.c.id == job_id))
            job = get_import(job_id)
            db.session.commit()
            assert job is not None
            return job, data or b""


def waiting_imports() -> int:
    query = select(JOBS.c.id).where(JOBS.c.state == "waiting").limit(1)
    found = db.session.scalar(query)
    db.session.commit()
    return 0 if found is None else 1


def note_progress(job_id: str, **counts: int) -> None:
    """How far the loader is (``tables``, ``checked``, ``saved``); also its heartbeat."""
    _moved(job_id, "running", **counts)


def started_group(job_id: str, group_id: str) -> None:
    """The group the job is making (removed again if the job stops before it is done)."""
    _moved(job_id, "running", group_id=group_id)


def finish_import(job_id: str) -> bool:
    """The job's group is whole: the uploading browser may open it."""
    return _moved(job_id, "running", state="done", data=None)


def fail_import(job_id: str, messages: list[str]) -> bool:
    """The job is refused with ``messages`` (in its language); its upload is forgotten."""
    return _moved(job_id, "running", state="failed", data=None, messages=messages)


def open_import(job_id: str) -> bool:
    """The uploading browser takes the job's group: true once only."""
    return _moved(job_id, "done", state="opened")


def silent_imports() -> list[ImportJob]:
    """Jobs in hand whose loader has been silent too long."""
    since = utcnow() - timedelta(seconds=SILENT_SECONDS)
    query = select(*_FIELDS).where(JOBS.c.state == "running", JOBS.c.updated_at < since)
    jobs = [_job(row) for row in db.session.execute(query)]
    db.session.commit()
    return jobs


def forget_old_imports() -> None:
    """Delete the jobs over for longer than ``KEPT_FOR``."""
    before = utcnow() - KEPT_FOR
    over = JOBS.c.state.in_(("done", "opened", "failed"))
    db.session.execute(delete(JOBS).where(over, JOBS.c.updated_at < before))
    db.session.commit()
