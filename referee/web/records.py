"""Game records on the web: download a table as a ``table-referee/1`` record, load one as a table.

A loaded record becomes a table whose log is the record's events, so it is replayed like any
other table. Only a record the referee accepts (``python -m referee check`` exit 0, warnings
allowed) is loaded; otherwise the page shows why, as the command-line referee would (the first
``BREACHES_SHOWN`` breaches).

Reading a record is the costliest thing a stranger can ask for, so every refused upload counts
toward the address's limit on new tables (``TABLE_LIMIT`` in ``TABLE_LIMIT_SECONDS``), in the
database (``referee.store.refusals``) so that all worker processes share the count, and the limit
is asked before anything is read.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from werkzeug.exceptions import RequestEntityTooLarge

from referee.records import Record, RecordError, export_record, load_record
from referee.rules import Breach, OptionError, replay
from referee.store.models import utcnow
from referee.store.refusals import note_refusal, refused_since
from referee.store.tables import append_entry, checked_payload, create_table, created_since
from referee.web import csrf
from referee.web.downloads import attachment, safe_file_name
from referee.web.errors import on_stale
from referee.web.home import UPLOAD_LIMIT, UploadForm, render_home
from referee.web.sharing.access import creator, open_new_table, require
from referee.web.speed import load
from referee.web.words import breach_text

bp = Blueprint("records", __name__)

#: How many of a loaded record's warnings are shown after loading it.
WARNINGS_SHOWN = 5

#: How many of a refused record's breaches its page lists (the command-line referee lists all).
BREACHES_SHOWN = 20


@bp.get("/t/<table_id>/record.json")
def download(table_id: str) -> ResponseReturnValue:
    require(table_id)
    table, state = load(table_id)
    body = json.dumps(export_record(state), ensure_ascii=False, indent=2) + "\n"
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


def refuse(
    form: UploadForm | None,
    errors: list[str],
    breaches: list[dict[str, Any]] | None = None,
    status: int = 422,
    more: int = 0,
) -> ResponseReturnValue:
    """The home page with why the upload was refused (``more``: breaches not listed). The
    refusal counts toward the address's limit, except one for the limit itself."""
    if status != 429:
        note_refusal(creator(), window_start())
    return render_home(form, errors, breaches or [], status, more)


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
    state = record.replay()
    if state.violations:
        count = len(state.violations)
        message = ngettext(
            "This record breaks the rules (%(num)d breach), so it was not loaded:",
            "This record breaks the rules (%(num)d breaches), so it was not loaded:",
            count,
        )
        breaches = sorted(state.violations, key=lambda b: (b.round or 0, b.trick or 0))
        listed = [located(breach) for breach in breaches[:BREACHES_SHOWN]]
        return refuse(form, [message], listed, more=count - len(listed))
    try:
        table_id = load_table(record, creator())
    except (Breach, OptionError, ValueError) as error:
        return refuse(form, [gettext("This record cannot be loaded: %(reason)s", reason=error)])
    open_new_table(table_id)
    flash(gettext("The record is loaded as a new table."), "info")
    for warning in state.warnings[:WARNINGS_SHOWN]:
        flash(breach_text(warning), "warning")
    return redirect(url_for("round.show", table_id=table_id), 303)


def located(breach: Breach) -> dict[str, Any]:
    """A breach as the page lists it: where (round, trick, player), the sentence, the rule."""
    parts = []
    if breach.round is not None:
        parts.append(gettext("Round %(number)s", number=breach.round))
    if breach.trick is not None:
        parts.append(gettext("trick %(number)s", number=breach.trick))
    if breach.player is not None:
        parts.append(breach.player)
    return {"where": ", ".join(parts), "message": breach_text(breach), "rule": breach.rule}


def load_table(record: Record, creator: str | None = None) -> str:
    """A new table whose log holds the record's events (not its round markers); its id.

    The events are replayed strictly first, as the app would have taken them one by one: a
    record whose unfinished last round skipped a step is refused (``Breach``), since the lenient
    check notes nothing for a round still under way. Every payload is checked before the table
    is created, so a record is loaded whole or not at all (``ValueError``).
    """
    events = [e for e in record.events if e.type != "begin-round"]
    replay(record.setup, events)  # strict, as the app enters them: a Breach refuses the record
    payloads = [e.to_dict() for e in events]
    for seq, payload in enumerate(payloads):
        checked_payload("event", payload, seq)
    table_id = create_table(record.setup, creator)
    seq = 0
    for payload in payloads:
        seq = append_entry(table_id, seq, "event", payload)
    return table_id


@on_stale("records.upload")
def stale(message: str) -> ResponseReturnValue:
    return refuse(None, [message + " " + gettext("Choose the file again.")], status=400)
