"""Game records on the web: download a table as a ``table-referee/1`` record, load one as a table.

A download carries the table's whole log as the record's ``history`` (``docs/record-history.md``),
so a loaded record becomes the same table: the same log, entry times included. A record without
one becomes a table whose log is the entries of its rounds. Either way each entry is taken as the
app takes it (``referee.records.history.as_entered``): a breach a table keeps, such as a revoke,
is kept and noted, and the page says so; a record whose entries the app could not have taken is
refused with the reason (``docs/record-format.md``, "Loading a record into the app").

Reading a record is the costliest thing a stranger can ask for, so every refused upload counts
toward the address's limit on new tables (``TABLE_LIMIT`` in ``TABLE_LIMIT_SECONDS``), in the
database (``referee.store.refusals``) so that all worker processes share the count, and the limit
is asked before anything is read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from referee.records import RecordError, export_record, load_record
from referee.records.history import EntryRefused, as_entered
from referee.records.log import LogEntry
from referee.rules import Breach, Setup, State
from referee.store.models import utcnow
from referee.store.refusals import note_refusal, refused_since
from referee.store.tables import checked_payload, create_table, created_since, fill_log
from referee.web import csrf
from referee.web.downloads import attachment, safe_file_name
from referee.web.errors import on_stale
from referee.web.forms import UPLOAD_LIMIT, UploadForm
from referee.web.home import render_home
from referee.web.i18n import gettext, ngettext
from referee.web.loading import load
from referee.web.sealed import shown_notes
from referee.web.sharing.access import TABLES, creator, open_new_table
from referee.web.words import breach_text

bp = Blueprint("records", __name__)

#: How many of a loaded record's breaches kept, and of its warnings, are shown after loading it
#: (the sheet notes them all).
NOTES_SHOWN = 5


@bp.get("/t/<table_id>/record.json")
def download(table_id: str) -> ResponseReturnValue:
    TABLES.require(table_id)
    table, state = load(table_id)
    body = json.dumps(export_record(state, table.entries), ensure_ascii=False, indent=2) + "\n"
    day = table.created_at.strftime("%Y-%m-%d")
    name = safe_file_name(table.setup.game, day, table_id[:8]) + ".json"
    return attachment(body, "application/json", name)


@bp.get("/records")
def upload_page() -> ResponseReturnValue:
    """The upload form lives on the home page (a reload after a refused upload lands here)."""
    return redirect(url_for("home.index") + "#load-record")


def window_start() -> datetime:
    """The start of the limit's window: what happened before it no longer counts."""
    return utcnow() - timedelta(seconds=int(current_app.config["TABLE_LIMIT_SECONDS"]))


def may_upload() -> bool:
    """Whether this address may upload a record now: the tables it made and the uploads refused
    to it since ``window_start`` are fewer than ``TABLE_LIMIT``."""
    who, since = creator(), window_start()
    made = created_since(who, since) + refused_since(who, since)
    return made < int(current_app.config["TABLE_LIMIT"])


def too_many_uploads() -> str:
    """What an upload refused for the limit says."""
    return gettext(
        "Too many records and new tables from this network in a short time (refused records "
        "count too). Wait a few minutes and try again."
    )


def refuse(form: UploadForm | None, errors: list[str], status: int = 422) -> ResponseReturnValue:
    """The home page with why the upload was refused. The refusal counts toward the address's
    limit, except one for the limit itself."""
    if status != 429:
        note_refusal(creator(), window_start())
    return render_home(form, errors, status)


@bp.post("/records")
@csrf.exempt  # checked below, once the size limit is set (CSRFProtect would read the body first)
def upload() -> ResponseReturnValue:
    request.max_content_length = UPLOAD_LIMIT
    if not may_upload():  # before anything is read
        return refuse(None, [too_many_uploads()], status=429)
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = UploadForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return refuse(
            None,
            [
                gettext(
                    "The file is larger than %(limit)d MB, far more than any game record. "
                    "Choose the record file.",
                    limit=UPLOAD_LIMIT // (1024 * 1024),
                )
            ],
            status=413,
        )
    if not valid:
        return refuse(form, [str(e) for e in form.record.errors])
    data = form.record.data.read(UPLOAD_LIMIT + 1)
    if not data.strip():
        return refuse(form, [gettext("The file is empty: it holds no game record.")])
    try:
        record = load_record(data)
    except RecordError as error:
        return refuse(form, [gettext("This record cannot be read: %(reason)s", reason=str(error))])
    try:
        entries = as_entered(record.setup, record.events, record.log, utcnow())
        table_id = load_table(record.setup, entries, creator())
    except EntryRefused as refused:
        return refuse(form, [not_entered(refused)])
    except (RecordError, ValueError) as error:
        return refuse(form, [gettext("This record cannot be loaded: %(reason)s", reason=error)])
    open_new_table(table_id)
    tell_loaded(load(table_id)[1])
    return redirect(url_for("round.show", table_id=table_id), 303)


def tell_loaded(state: State) -> None:
    """Say that the record is loaded, with the breaches it keeps and its warnings (the first
    ``NOTES_SHOWN`` of each; none about a bid still sealed)."""
    kept = sorted(shown_notes(state, state.violations), key=lambda b: (b.round or 0, b.trick or 0))
    if kept:
        flash(
            ngettext(
                "The record is loaded as a new table, with the %(num)d breach of the rules it "
                "holds kept: the sheet notes it, as at the table the record comes from.",
                "The record is loaded as a new table, with the %(num)d breaches of the rules it "
                "holds kept: the sheet notes them, as at the table the record comes from.",
                len(kept),
            ),
            "info",
        )
    else:
        flash(gettext("The record is loaded as a new table."), "info")
    for note in kept[:NOTES_SHOWN]:
        flash(noted(note), "warning")
    if len(kept) > NOTES_SHOWN:
        more = len(kept) - NOTES_SHOWN
        flash(
            ngettext(
                "… and %(num)d more breach: the sheet lists them all.",
                "… and %(num)d more breaches: the sheet lists them all.",
                more,
            ),
            "warning",
        )
    for note in shown_notes(state, state.warnings)[:NOTES_SHOWN]:
        flash(noted(note), "warning")


def not_entered(refused: EntryRefused) -> str:
    """Why a record's entries cannot become a table, in a sentence."""
    reason = breach_text(refused.breach)
    if refused.seq is None:
        return gettext("This record cannot be loaded: %(reason)s", reason=reason)
    return gettext(
        "This record cannot be loaded: entry %(seq)d of its history: %(reason)s",
        seq=refused.seq,
        reason=reason,
    )


def noted(breach: Breach) -> str:
    """A breach or warning as the page lists it: where (round, trick, player), the sentence."""
    parts = []
    if breach.round is not None:
        parts.append(gettext("Round %(number)s", number=breach.round))
    if breach.trick is not None:
        parts.append(gettext("trick %(number)s", number=breach.trick))
    if breach.player is not None:
        parts.append(breach.player)
    if not parts:
        return breach_text(breach)
    return gettext("%(where)s: %(sentence)s", where=", ".join(parts), sentence=breach_text(breach))


def load_table(setup: Setup, entries: Sequence[LogEntry], creator: str | None = None) -> str:
    """A new table whose log is ``entries`` (``as_entered``), times included; its id.

    Every payload is checked before the table is created and the log is written in one
    transaction, so a record is loaded whole or not at all (``ValueError``).
    """
    for seq, entry in enumerate(entries):
        checked_payload(entry.kind, entry.payload, seq)
    table_id = create_table(setup, creator)
    fill_log(table_id, entries)
    return table_id


@on_stale("records.upload")
def stale(message: str) -> ResponseReturnValue:
    return refuse(None, [message + " " + gettext("Choose the file again.")], status=400)
