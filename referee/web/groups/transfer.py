"""A group as one file, in and out: the group's ``table-referee-group/1`` file downloaded
(``/g/<id>/group.json``, by a keeper or a viewer), a new group loaded from one
(``/groups/import``), and a ``table-referee/1`` record added to a group as a table it keeps
(``/g/<id>/add-record``, a keeper's: each of the record's names matched to a roster player or a
guest on a confirm step).

The file is written from the tables the group keeps (``facts.kept_tables``), in the order they
were played, each record as the table's download writes it, its whole log as ``history``: a
group loaded from it on another server has the same roster (ids too), seasons, tables, seats,
counts and evenings, and so the same numbers. A file is loaded off the request that uploads it,
by a process of its own (``import_job.py``), while the uploading browser is shown how far it is;
what cannot be read or loaded is refused with the reader's sentence and nothing is made. Every
group file uploaded counts toward the address's limit on new tables whether it loads or not (a
refused record counts as in ``referee.web.records``), a record added to a group is a new table
of the address's, and every upload has a body limit.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge

from referee.groups import (
    DEFAULT_TIME_ZONE,
    LARGEST_LOADED,
    Group,
    GroupRefused,
    Member,
    checked_time_zone,
    group_text,
)
from referee.records import Record, RecordError, export_record, load_record
from referee.records.history import EntryRefused, as_entered
from referee.rules import GAMES
from referee.store.groups import (
    NewTable,
    UnknownGroup,
    add_record,
    keep_export,
    kept_export,
    may_create_group,
)
from referee.store.imports import get_import, new_import, open_import
from referee.store.links import NoAccess
from referee.store.models import utcnow
from referee.store.refusals import note_refusal
from referee.store.tables import TooManyTables
from referee.web import csrf
from referee.web.downloads import attachment, safe_file_name
from referee.web.errors import on_stale
from referee.web.forms import UPLOAD_LIMIT, UploadForm
from referee.web.groups.glance import kept_tables, positions
from referee.web.groups.group import ZoneForm, load_group
from referee.web.groups.import_job import restart_loader, start_loader
from referee.web.groups.keep import seats_in
from referee.web.groups.new import open_new_group, too_many_groups
from referee.web.groups.words import not_kept_text, refusal_text
from referee.web.i18n import gettext, ngettext
from referee.web.language import chosen
from referee.web.records import may_upload, not_entered, too_many_uploads, window_start
from referee.web.sharing.access import GROUPS, creator

#: The largest group file the import takes: hundreds of card-by-card games with their whole
#: histories (the format allows far more; a server takes what it is willing to read).
GROUP_UPLOAD_LIMIT = LARGEST_LOADED
#: Room in the upload's body for the rest of the form (its token, the time zone, the multipart
#: boundaries): the limit is the file's, so a file of the largest size is taken whole.
FORM_ROOM = 64 * 1024

#: The value of a seat's choice that makes the name a guest.
GUEST = ""


# --- out -----------------------------------------------------------------------------------


def group_file(group: Group) -> Iterator[str]:
    """The group as a ``table-referee-group/1`` document, written a table at a time: its roster,
    seasons and every table it keeps, in the order played (the numbers ``numbers.py`` names
    tables by)."""
    members = [Member(p.id, p.name, p.retired) for p in group.players]
    return group_text(
        group.name, members, group.seasons, exported_tables(group), group.ended_early_counts
    )


def exported_tables(
    group: Group,
) -> Iterator[tuple[datetime, bool, dict[str, str | None], dict[str, Any]]]:
    for kept, (record, state) in kept_tables(group):
        seats = {name: kept.seats.get(name) for name in kept.players}
        # A newcomer seated as a roster player (a guest newcomer needs no seat); a seat of
        # one whose join was taken back is left out.
        for name in state.players[len(kept.players) :]:
            if kept.seats.get(name) is not None:
                seats[name] = kept.seats[name]
        yield kept.played, kept.counts, seats, export_record(state, record.entries)
        time.sleep(0)  # under gevent, the worker's other requests go on between two tables


def export(group_id: str) -> ResponseReturnValue:
    """The group's file, for a keeper or a viewer: sent as written by the last download while
    the group is as it was then (kept gzip-compressed in the database, ``keep_export``), else
    written anew and sent as it is written, a table at a time, then kept."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    name = safe_file_name("group", group.today().isoformat(), group_id[:8]) + ".json"
    made_for = export_key(group)
    body = kept_export(group_id, made_for)
    if body is None:
        response = attachment(stream_with_context(written(group, made_for)), JSON, name)
    elif request.accept_encodings.quality("gzip") > 0:
        response = attachment(body, JSON, name)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = attachment(unzipped(body), JSON, name)
    response.vary.add("Accept-Encoding")
    return response


#: What a group's file is sent as.
JSON = "application/json"


def export_key(group: Group) -> str:
    """What a group's file is written from: the group's version and its tables' positions."""
    digest = hashlib.sha256(repr(positions(group)).encode()).hexdigest()[:32]
    return f"{group.version}:{digest}"


def written(group: Group, made_for: str) -> Iterator[bytes]:
    """The group's file as it is written, compressed on the side and kept once it is whole."""
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode="wb", compresslevel=6, mtime=0) as zipped:
        for text in group_file(group):
            chunk = text.encode()
            zipped.write(chunk)
            yield chunk
    keep_export(group.id, made_for, packed.getvalue())


def unzipped(body: bytes, size: int = 256 * 1024) -> Iterator[bytes]:
    """A kept file for a client that takes no gzip, a piece at a time."""
    with gzip.GzipFile(fileobj=io.BytesIO(body)) as zipped:
        while chunk := zipped.read(size):
            yield chunk


def protect() -> None:
    """The CSRF check of an upload, once its size limit is set (as ``referee.web.records``)."""
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()


# --- in: a new group from its file ---------------------------------------------------------


class ImportForm(ZoneForm):
    group = FileField(
        lazy_gettext("Group file (.json)"),
        validators=[FileRequired(lazy_gettext("Choose a group file to load."))],
    )


def render_import(
    form: ImportForm | None = None, errors: list[str] | None = None, status: int = 200
) -> tuple[str, int]:
    page = render_template(
        "groups/import.html",
        form=form if form is not None else ImportForm(formdata=None),
        errors=errors or [],
        limit_mb=GROUP_UPLOAD_LIMIT // (1024 * 1024),
    )
    return page, status


def refuse_import(form: ImportForm | None, errors: list[str], status: int = 422) -> tuple[str, int]:
    """The import page with why the file was refused; the refusal counts toward the address's
    limit (but one for the limit itself)."""
    if status != 429:
        note_refusal(creator(), window_start())
    return render_import(form, errors, status)


def import_page() -> ResponseReturnValue:
    return render_import()


def too_large(limit: int) -> str:
    return gettext(
        "The file is larger than %(limit)d MB. Choose the group's file as the app wrote it.",
        limit=limit // (1024 * 1024),
    )


@csrf.exempt  # checked below, once the size limit is set (CSRFProtect would read the body first)
def import_file() -> ResponseReturnValue:
    """A new group from a group file, loaded off this request (``import_job.py``): the file is
    kept as a job and this browser is sent to the page that says how far it is."""
    request.max_content_length = GROUP_UPLOAD_LIMIT + FORM_ROOM
    if not may_upload():  # before anything is read
        return refuse_import(None, [too_many_uploads()], 429)
    try:
        protect()
        form = ImportForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return refuse_import(None, [too_large(GROUP_UPLOAD_LIMIT)], 413)
    if not valid:
        return refuse_import(form, [str(e) for e in form.group.errors])
    try:
        time_zone = checked_time_zone(form.time_zone.data or DEFAULT_TIME_ZONE)
    except GroupRefused as refusal:
        return refuse_import(form, [refusal_text(refusal)])
    if not may_create_group(creator()):
        return render_import(form, [too_many_groups()], 429)
    data = form.group.data.read(GROUP_UPLOAD_LIMIT + 1)
    if len(data) > GROUP_UPLOAD_LIMIT:
        return refuse_import(None, [too_large(GROUP_UPLOAD_LIMIT)], 413)
    if not data.strip():
        return refuse_import(form, [gettext("The file is empty: it holds no group.")])
    job_id = new_import(data, time_zone, chosen(), creator())
    jobs = [job for job in session.get("imports", []) if isinstance(job, str)]
    session["imports"] = [*jobs, job_id][-KEPT_IMPORTS:]
    start_loader()
    return redirect(url_for("groups.import_status", job_id=job_id), 303)


#: How many of its uploads a browser can come back to.
KEPT_IMPORTS = 4
#: How often the page of a group being loaded asks again, in seconds.
ASK_EVERY = 2


def import_status(job_id: str) -> ResponseReturnValue:
    """How far the loading of this browser's group file is; once it is done, this browser takes
    the new group (its keeper link) and goes to it; if it was refused, why."""
    if job_id not in session.get("imports", []):
        abort(404)
    job = get_import(job_id)
    if job is None:
        abort(404)
    if job.state == "failed":
        return render_import(None, list(job.messages), 422)
    if job.state in ("done", "opened") and job.group_id is not None:
        if open_import(job_id):
            open_new_group(job.group_id)
            flash(
                ngettext(
                    "The group is loaded with its %(num)d table.",
                    "The group is loaded with its %(num)d tables.",
                    job.tables,
                ),
                "info",
            )
            return redirect(url_for("groups.my_link", group_id=job.group_id, made=1), 303)
        return redirect(url_for("groups.page", group_id=job.group_id), 303)
    if job.silent or (job.state == "waiting" and utcnow() - job.updated_at > LOADER_LATE):
        restart_loader()  # its loader is gone (a restart): the next takes the job, or says so
    page = render_template("groups/import_status.html", job=job, every=ASK_EVERY)
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


#: A job still waiting this long after its upload (or its last word) gets a loader started.
LOADER_LATE = timedelta(seconds=10)


@on_stale("groups.import_file")
def stale_import(message: str) -> ResponseReturnValue:
    return refuse_import(None, [message + " " + gettext("Choose the file again.")], 400)


# --- in: a record as a table of the group --------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """A name of the record and whom it is taken for (a roster id, or ``GUEST``)."""

    index: int
    name: str
    chosen: str


def render_add(
    group: Group,
    status: int = 200,
    errors: list[str] | None = None,
    record: Record | None = None,
    text: str = "",
    chosen: dict[str, str] | None = None,
) -> tuple[str, int]:
    """The page that adds a record to the group: its upload form, or (``record``) the confirm
    step, each of its names with whom it is taken for."""
    seats = []
    if record is not None:
        matched = seats_in(group, record.setup.players)
        for index, name in enumerate(record.setup.players):
            default = matched.get(name) or GUEST
            seats.append(SeatChoice(index, name, (chosen or {}).get(name, default)))
    page = render_template(
        "groups/add_record.html",
        group=group,
        keeper=True,
        form=UploadForm(formdata=None),
        errors=errors or [],
        record=record,
        game_title="" if record is None else GAMES[record.setup.game].title,
        text=text,
        seats=seats,
        limit_mb=UPLOAD_LIMIT // (1024 * 1024),
    )
    return page, status


def add_record_page(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id, "keeper")
    return render_add(load_group(group_id))


def refuse_add(group: Group, errors: list[str], status: int = 422) -> tuple[str, int]:
    if status != 429:
        note_refusal(creator(), window_start())
    return render_add(group, status, errors)


@csrf.exempt  # checked below, once the size limit is set
def add_record_post(group_id: str) -> ResponseReturnValue:
    """Upload a record (then confirm who is who), or confirm it: the table is made and kept."""
    GROUPS.require(group_id, "keeper")
    # The confirm step carries the record's text back (multipart: not percent-encoded).
    request.max_content_length = 2 * UPLOAD_LIMIT
    group = load_group(group_id)
    if not may_upload():
        return refuse_add(group, [too_many_uploads()], 429)
    try:
        protect()
        confirming = request.form.get("action") == "confirm"
        form = UploadForm()
        valid = confirming or form.validate()
    except RequestEntityTooLarge:
        return refuse_add(group, [too_large(UPLOAD_LIMIT)], 413)
    if not valid:
        return refuse_add(group, [str(e) for e in form.record.errors])
    if confirming:
        text = request.form.get("record_text", "")
    else:
        text = form.record.data.read(UPLOAD_LIMIT + 1).decode("utf-8", "replace")
    if len(text.encode()) > UPLOAD_LIMIT:
        return refuse_add(group, [too_large(UPLOAD_LIMIT)], 413)
    if not text.strip():
        return refuse_add(group, [gettext("The file is empty: it holds no game record.")])
    try:
        record = load_record(text)
        entries = as_entered(record.setup, record.events, record.log, utcnow())
    except RecordError as error:
        return refuse_add(
            group, [gettext("This record cannot be read: %(reason)s", reason=str(error))]
        )
    except EntryRefused as refused:
        return refuse_add(group, [not_entered(refused)])
    if not confirming:
        return render_add(group, record=record, text=text)
    chosen = {
        name: request.form.get(f"seat-{index}", GUEST)
        for index, name in enumerate(record.setup.players)
    }
    seats = {name: (player or None) for name, player in chosen.items()}
    token = GROUPS.held_token(group_id)
    if token is None:
        abort(403)
    try:
        table_id = add_record(
            group_id, NewTable(record.setup, entries, seats), by=token, creator=creator()
        )
    except TooManyTables:
        return render_add(group, 429, [too_many_uploads()], record, text, chosen)
    except GroupRefused as refusal:
        return render_add(group, 422, [refusal_text(refusal)], record, text, chosen)
    except NoAccess:
        abort(403, description=not_kept_text())
    except UnknownGroup:
        abort(404)
    except ValueError as error:
        reason = gettext("This record cannot be loaded: %(reason)s", reason=str(error))
        return refuse_add(group, [reason])
    flash(gettext("The record is a table of the group now."), "info")
    return redirect(url_for("groups.kept_table", group_id=group_id, table_id=table_id), 303)


@on_stale("groups.add_record_post")
def stale_add(message: str) -> ResponseReturnValue:
    group_id = str((request.view_args or {}).get("group_id", ""))
    GROUPS.require(group_id, "keeper")
    return render_add(
        load_group(group_id), 400, [message + " " + gettext("Choose the file again.")]
    )
