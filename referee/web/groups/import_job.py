"""The loader of group files: a process of its own that makes a new group from an uploaded file,
so that no request waits for it and no web worker is held by it.

A group file can hold a thousand card-by-card games, a minute of reading and checking. The upload
(``transfer.py``) keeps the file as a job (``referee.store.imports``) and starts a loader
(``start_loader``): a Python that calls ``app.load_group_files`` (``LOADER``), at a lower priority
than the web workers, told the app's settings on its standard input; the loader makes its app with
``create_app``, which it is given (this module never imports ``app``, which imports it). A loader
takes the waiting jobs one at a time until none waits; one loader works per database on a server (a
lock file in the instance folder), and a loader started while another works ends at once, leaving
the job to it.

A job is read and every table checked (as ``as_entered`` takes an uploaded record, the seats
as the group's rules allow) before anything is written; then the group's head is saved and its
tables in pieces of a short transaction each (``referee.store.groups.start_import``), so the
tables being played at the same time wait for the database no longer than a piece (on SQLite,
whose one write lock a piece holds, the loader pauses after each: ``pause``). The group
opens to nobody until its last piece is saved: the uploading browser then takes it
(``transfer.py``'s status page). A refusal is said in the uploader's language, with the number
of the table it is about. A loader that stops mid-way (killed, its server restarted) is found
silent by the next loader, which removes what it saved and refuses the job.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from flask import Flask, current_app
from flask_babel import force_locale

from referee.groups import GroupError, GroupRefused, read_group
from referee.groups.document import GroupFile
from referee.records import RecordError
from referee.records.history import EntryRefused, as_entered
from referee.store.db import db
from referee.store.groups import NewTable, TooManyGroups, keep_imported, remove_group, start_import
from referee.store.imports import (
    ImportJob,
    fail_import,
    finish_import,
    forget_old_imports,
    get_import,
    note_progress,
    silent_imports,
    started_group,
    take_import,
    waiting_imports,
)
from referee.store.models import utcnow
from referee.web.groups.new import too_many_groups
from referee.web.groups.words import refusal_text
from referee.web.i18n import gettext

#: A piece of a group's tables saved in one transaction: at most this many tables …
PIECE_TABLES = 25
#: … and about this many entries (card-by-card tables have hundreds each): on SQLite, whose
#: write lock a piece holds while it writes (its rows are made first: ``create_tables``), some
#: tens of milliseconds, as long as an entry at another table may wait for it.
PIECE_ENTRIES = 1000
#: On SQLite, the least the loader waits after a piece before the next (seconds): longer than
#: the gaps between a waiting writer's first looks for SQLite's write lock (see ``pause``).
PAUSE = 0.05
#: How much lower the loader's priority is than the web workers' (``os.nice``).
NICENESS = 10
#: The settings a loader takes from the app that starts it.
SETTINGS = ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "TABLE_LIMIT", "TABLE_LIMIT_SECONDS")


# --- in the web process -------------------------------------------------------------------------


def lock_path(app: Flask) -> Path:
    """The lock a loader holds while it works: one per database and server."""
    database = str(app.config["SQLALCHEMY_DATABASE_URI"]).encode()
    return (
        Path(app.instance_path) / f"group-loader-{hashlib.sha256(database).hexdigest()[:16]}.lock"
    )


#: What the loader process runs, in the app's folder: its entry point in ``app.py``.
LOADER = "import sys, app; sys.exit(app.load_group_files())"


def start_loader() -> None:
    """Start a loader process for the current app's database (it ends at once if one works)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    settings = {name: app.config[name] for name in SETTINGS}
    settings |= {"SPEED": False}
    process = subprocess.Popen(
        [sys.executable, "-c", LOADER],
        stdin=subprocess.PIPE,
        cwd=app.root_path,
        start_new_session=True,  # a Ctrl-C at the server's terminal is not the loader's
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps([settings, str(lock_path(app))]).encode())
    process.stdin.close()
    # Waited for in the background (a green thread under gevent), so it leaves no zombie.
    threading.Thread(target=process.wait, daemon=True).start()


#: When this web process last started a loader for a job found late, per lock (``restart``).
_restarted: dict[Path, float] = {}
#: How often one web process starts a loader for jobs found late, at most, in seconds.
RESTART_EVERY = 10.0


def restart_loader() -> None:
    """Start a loader for a job whose loader is late or gone, unless this process did so in the
    last ``RESTART_EVERY`` seconds: the page of a loading asks every few seconds, from every
    browser waiting, and one loader per database is all that works."""
    lock = lock_path(current_app)
    now = time.monotonic()
    if now - _restarted.get(lock, -RESTART_EVERY) >= RESTART_EVERY:
        _restarted[lock] = now
        start_loader()


# --- in the loader process ------------------------------------------------------------------------


def cannot_read(reason: str) -> str:
    return gettext("This group file cannot be read: %(reason)s", reason=reason)


def in_table(number: int, reason: str) -> str:
    return gettext("Table %(number)d of the file: %(reason)s", number=number, reason=reason)


def cannot_load(reason: str) -> str:
    return gettext("This record cannot be loaded: %(reason)s", reason=reason)


def stopped() -> str:
    return gettext(
        "Loading the group stopped before it was done (the server was restarted). Nothing of "
        "it was kept: load the file again."
    )


def pieces(tables: Sequence[NewTable]) -> Iterator[Sequence[NewTable]]:
    """``tables`` in pieces of at most ``PIECE_TABLES`` tables and about ``PIECE_ENTRIES``
    entries."""
    start, entries = 0, 0
    for index, table in enumerate(tables):
        entries += len(table.entries)
        if index + 1 - start >= PIECE_TABLES or entries >= PIECE_ENTRIES:
            yield tables[start : index + 1]
            start, entries = index + 1, 0
    if start < len(tables):
        yield tables[start:]


def checked_tables(job: ImportJob, data: bytes) -> tuple[GroupFile, list[NewTable]] | str:
    """The group file read and each of its tables checked; else why it is refused."""
    from referee.web.records import not_entered

    try:
        group = read_group(data)
    except GroupError as error:
        return cannot_read(str(error))
    note_progress(job.id, tables=len(group.tables))
    now = utcnow()  # the seats were checked as the file was read (``referee.groups.model``)
    tables: list[NewTable] = []
    for number, table in enumerate(group.tables, start=1):
        record = table.record
        try:
            entries = as_entered(record.setup, record.events, record.log, now)
        except EntryRefused as refused:
            return in_table(number, not_entered(refused))
        except RecordError as error:
            return in_table(number, cannot_load(str(error)))
        tables.append(NewTable(record.setup, entries, table.seats, table.counts, table.played))
        if number % PIECE_TABLES == 0:
            note_progress(job.id, checked=number)
    note_progress(job.id, checked=len(tables))
    return group, tables


def load(job: ImportJob, data: bytes) -> None:
    """Make the job's group, or refuse the job with why (in the uploader's language)."""
    found = checked_tables(job, data)
    del data
    if isinstance(found, str):
        fail_import(job.id, [found])
        return
    group, tables = found
    try:
        kept = start_import(
            group.name,
            job.time_zone,
            group.players,
            group.seasons,
            job.creator,
            group.ended_early_counts,
        )
    except GroupRefused as refusal:
        fail_import(job.id, [refusal_text(refusal)])
        return
    except TooManyGroups:
        fail_import(job.id, [too_many_groups()])
        return
    group_id, roster = kept.id, kept.by_id
    started_group(job.id, group_id)
    saved = 0
    for piece in pieces(tables):
        began = time.monotonic()
        try:
            keep_imported(group_id, piece, roster, job.time_zone)
        except GroupRefused as refusal:
            remove_group(group_id)
            fail_import(job.id, [in_table(saved + 1, refusal_text(refusal))])
            return
        except ValueError as error:  # a log the store will not take (``fill_log``)
            remove_group(group_id)
            fail_import(job.id, [cannot_load(str(error))])
            return
        held = time.monotonic() - began  # at most: the piece's rows are made before the lock
        saved += len(piece)
        note_progress(job.id, saved=saved)
        pause(held)
    finish_import(job.id)


def pause(held: float) -> None:
    """On SQLite, after a piece that held the write lock ``held`` seconds, wait as long (at
    least ``PAUSE``), so that the entries at the tables being played write meanwhile. SQLite has
    one write lock for the whole file: a loader that opened its next piece at once left the lock
    free only for moments, which a waiting writer, looking every 100 ms, seldom found; entries
    waited seconds and some were refused after the busy timeout. (A web worker waiting for the
    lock waits in C, holding up its other requests too: the shorter the piece, the less.) On
    PostgreSQL a piece locks only its own new rows, and the loader goes on at once."""
    if db.engine.dialect.name == "sqlite":
        time.sleep(max(PAUSE, held))


def given_up(job_id: str) -> None:
    """Refuse a job that failed for a fault of the app, removing what it saved."""
    db.session.rollback()
    job = get_import(job_id)
    if job is not None and job.group_id is not None:
        remove_group(job.group_id)
    fail_import(job_id, [gettext("An error of the app: the group could not be loaded.")])


def sweep() -> None:
    """Refuse the jobs whose loader went silent, removing what they saved; forget old jobs."""
    for job in silent_imports():
        if job.group_id is not None:
            remove_group(job.group_id)
        with force_locale(job.language):
            fail_import(job.id, [stopped()])
    forget_old_imports()


def work(app: Flask, lock_file: str | Path) -> None:
    """Take the waiting jobs one at a time until none waits, holding ``lock_file`` meanwhile
    (see the module)."""
    lock = FileLock(lock_file)
    while True:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return  # another loader works, and takes what waits when it is done
        try:
            with app.test_request_context():
                sweep()
                while (taken := take_import()) is not None:
                    job, data = taken
                    with force_locale(job.language):
                        try:
                            load(job, data)
                        except Exception:
                            app.logger.exception("group file %s could not be loaded", job.id)
                            given_up(job.id)
        finally:
            lock.release()
        with app.app_context():
            if not waiting_imports():
                return


def main(create_app: Callable[[Mapping[str, Any]], Flask]) -> int:
    """The loader process (``LOADER``): the app's settings and the lock's path come as JSON on
    standard input; ``create_app`` makes the app of those settings."""
    settings, lock_file = json.loads(sys.stdin.read())
    os.nice(NICENESS)
    work(create_app(settings), lock_file)
    return 0
