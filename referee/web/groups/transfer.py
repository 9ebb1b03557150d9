"""A group as one file, in and out: the group's ``table-referee-group/1`` file downloaded
(``/g/<id>/group.json``, by a keeper or a viewer), a new group loaded from one
(``/groups/import``), and a ``table-referee/1`` record added to a group as a table it keeps
(``/g/<id>/add-record``, a keeper's: each of the record's names matched to a roster player or a
guest on a confirm step).

The file is written from the tables the group keeps (``facts.kept_tables``), in the order they
were played, each record as the table's download writes it, its whole log as ``history``: a
group loaded from it on another server has the same roster (ids too), seasons, tables, seats,
counts and evenings, and so the same numbers. A file is read by ``referee.groups.read_group``
and each record taken as the app takes an uploaded one (``as_entered``); what cannot be read
or loaded is refused with the reader's sentence and nothing is made: the group and all its
tables are written in one transaction. Refused uploads count toward the address's limit as a
refused record does (``referee.web.records``), and every upload has a body limit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import StringField

from referee.groups import GroupError, Member, read_group, write_group
from referee.records import Record, RecordError, export_record, load_record
from referee.records.history import EntryRefused, as_entered
from referee.rules import GAMES
from referee.store.groups import (
    DEFAULT_TIME_ZONE,
    GroupRecord,
    GroupRefused,
    NewTable,
    RosterPlayer,
    TooManyGroups,
    UnknownGroup,
    add_record,
    import_group,
)
from referee.store.links import NoAccess
from referee.store.models import utcnow
from referee.store.refusals import note_refusal
from referee.web import csrf
from referee.web.downloads import attachment, safe_file_name
from referee.web.errors import on_stale
from referee.web.groups.access import held_group_token, require_group
from referee.web.groups.facts import kept_tables
from referee.web.groups.keep import seats_in
from referee.web.groups.routes import bp, load_group, open_new_group, too_many_groups
from referee.web.groups.words import not_kept_text, refusal_text
from referee.web.home import UPLOAD_LIMIT
from referee.web.i18n import gettext, ngettext
from referee.web.records import may_upload, not_entered, too_many_uploads, window_start
from referee.web.sharing.access import creator

#: The largest group file the import takes: hundreds of card-by-card games with their whole
#: histories (the format allows far more; a server takes what it is willing to read).
GROUP_UPLOAD_LIMIT = 16 * 1024 * 1024

#: The value of a seat's choice that makes the name a guest.
GUEST = ""


# --- out -----------------------------------------------------------------------------------


def group_file(group: GroupRecord) -> dict[str, Any]:
    """The group as a ``table-referee-group/1`` document: its roster, seasons and every table
    it keeps, in the order played (the numbers ``numbers.py`` names tables by)."""
    tables = []
    for kept, (record, state) in kept_tables(group):
        seats = {name: kept.seats.get(name) for name in kept.players}
        tables.append((kept.played, kept.counts, seats, export_record(state, record.entries)))
    members = [Member(p.id, p.name, p.retired) for p in group.players]
    return write_group(group.name, members, group.seasons, tables)


@bp.get("/g/<group_id>/group.json")
def export(group_id: str) -> ResponseReturnValue:
    """The group's file, for a keeper or a viewer."""
    require_group(group_id)
    group = load_group(group_id)
    body = json.dumps(group_file(group), ensure_ascii=False, indent=2) + "\n"
    name = safe_file_name("group", group.today().isoformat(), group_id[:8]) + ".json"
    return attachment(body, "application/json", name)


def protect() -> None:
    """The CSRF check of an upload, once its size limit is set (as ``referee.web.records``)."""
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()


# --- in: a new group from its file ---------------------------------------------------------


class ImportForm(FlaskForm):
    group = FileField(
        lazy_gettext("Group file (.json)"),
        validators=[FileRequired(lazy_gettext("Choose a group file to load."))],
    )
    time_zone = StringField(
        lazy_gettext("Time zone"), default=DEFAULT_TIME_ZONE, render_kw={"maxlength": 64}
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


@bp.get("/groups/import")
def import_page() -> ResponseReturnValue:
    return render_import()


def too_large(limit: int) -> str:
    return gettext(
        "The file is larger than %(limit)d MB. Choose the group's file as the app wrote it.",
        limit=limit // (1024 * 1024),
    )


@bp.post("/groups/import")
@csrf.exempt  # checked below, once the size limit is set (CSRFProtect would read the body first)
def import_file() -> ResponseReturnValue:
    """A new group from a group file: this browser keeps it."""
    request.max_content_length = GROUP_UPLOAD_LIMIT
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
    data = form.group.data.read(GROUP_UPLOAD_LIMIT + 1)
    if not data.strip():
        return refuse_import(form, [gettext("The file is empty: it holds no group.")])
    try:
        group = read_group(data)
    except GroupError as error:
        return refuse_import(form, [cannot_read(str(error))])
    now = utcnow()
    tables = []
    for number, table in enumerate(group.tables, start=1):
        try:
            entries = as_entered(table.record.setup, table.record.events, table.record.log, now)
        except EntryRefused as refused:
            return refuse_import(form, [in_table(number, not_entered(refused))])
        except RecordError as error:
            reason = gettext("This record cannot be loaded: %(reason)s", reason=str(error))
            return refuse_import(form, [in_table(number, reason)])
        tables.append(
            NewTable(table.record.setup, entries, table.seats, table.counts, table.played)
        )
    players = [RosterPlayer(m.id, m.name, m.retired) for m in group.players]
    try:
        group_id = import_group(
            group.name,
            form.time_zone.data or DEFAULT_TIME_ZONE,
            players,
            group.seasons,
            tables,
            creator(),
        )
    except GroupRefused as refusal:
        return refuse_import(form, [refusal_text(refusal)])
    except TooManyGroups:
        return render_import(form, [too_many_groups()], 429)
    except ValueError as error:  # a log the store will not take (``fill_log``)
        reason = gettext("This record cannot be loaded: %(reason)s", reason=str(error))
        return refuse_import(form, [reason])
    open_new_group(group_id)
    flash(
        ngettext(
            "The group is loaded with its %(num)d table.",
            "The group is loaded with its %(num)d tables.",
            len(tables),
        ),
        "info",
    )
    return redirect(url_for("groups.page", group_id=group_id), 303)


def cannot_read(reason: str) -> str:
    return gettext("This group file cannot be read: %(reason)s", reason=reason)


def in_table(number: int, reason: str) -> str:
    return gettext("Table %(number)d of the file: %(reason)s", number=number, reason=reason)


@on_stale("groups.import_file")
def stale_import(message: str) -> ResponseReturnValue:
    return refuse_import(None, [message + " " + gettext("Choose the file again.")], 400)


# --- in: a record as a table of the group --------------------------------------------------


class RecordForm(FlaskForm):
    record = FileField(
        lazy_gettext("Game record (.json)"),
        validators=[FileRequired(lazy_gettext("Choose a record file to load."))],
    )


@dataclass(frozen=True)
class SeatChoice:
    """A name of the record and whom it is taken for (a roster id, or ``GUEST``)."""

    index: int
    name: str
    chosen: str


def render_add(
    group: GroupRecord,
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
        form=RecordForm(formdata=None),
        errors=errors or [],
        record=record,
        game_title="" if record is None else GAMES[record.setup.game].title,
        text=text,
        seats=seats,
        limit_mb=UPLOAD_LIMIT // (1024 * 1024),
    )
    return page, status


@bp.get("/g/<group_id>/add-record")
def add_record_page(group_id: str) -> ResponseReturnValue:
    require_group(group_id, "keeper")
    return render_add(load_group(group_id))


def refuse_add(group: GroupRecord, errors: list[str], status: int = 422) -> tuple[str, int]:
    if status != 429:
        note_refusal(creator(), window_start())
    return render_add(group, status, errors)


@bp.post("/g/<group_id>/add-record")
@csrf.exempt  # checked below, once the size limit is set
def add_record_post(group_id: str) -> ResponseReturnValue:
    """Upload a record (then confirm who is who), or confirm it: the table is made and kept."""
    require_group(group_id, "keeper")
    # The confirm step carries the record's text back (multipart: not percent-encoded).
    request.max_content_length = 2 * UPLOAD_LIMIT
    group = load_group(group_id)
    if not may_upload():
        return refuse_add(group, [too_many_uploads()], 429)
    try:
        protect()
        confirming = request.form.get("action") == "confirm"
        form = RecordForm()
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
    token = held_group_token(group_id)
    if token is None:
        abort(403)
    try:
        table_id = add_record(group_id, NewTable(record.setup, entries, seats), by=token)
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
    require_group(group_id, "keeper")
    return render_add(
        load_group(group_id), 400, [message + " " + gettext("Choose the file again.")]
    )
