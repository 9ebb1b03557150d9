"""Printable sheets on the web: a table's score sheet as PDF, and blank scorecards to print.

The PDFs themselves are made by ``referee.sheets`` from the replayed state; this blueprint
reads the table and its log (for the corrections to footnote), picks the paper, and sends the
bytes as a download. The scorecard page is a Flask-WTF form; whether its players and options
are allowed is the rules engine's decision, so its sentence is what the page shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.rules.events import event_from_dict
from referee.sheets import Correction, SheetInfo, table_sheet
from referee.store.tables import LogEntry, TableRecord
from referee.web.downloads import attachment, page_from, safe_file_name
from referee.web.round.screen import describe_event
from referee.web.sharing.access import require
from referee.web.speed.kept import LRU, load

bp = Blueprint("sheet", __name__)

#: Rendered sheets by (table id, log sequence number, page): a table's PDF changes only with it.
_pdfs: LRU[bytes] = LRU(32)


def corrections(entries: Sequence[LogEntry]) -> list[Correction]:
    """Every undo and amendment in the log, with the round of the event it changed."""
    by_seq = {entry.seq: entry for entry in entries}

    def event_entry(seq: int) -> LogEntry | None:
        """The event an entry is about, following undos and amendments back to it."""
        entry = by_seq.get(seq)
        while entry is not None and entry.kind != "event":
            entry = by_seq.get(entry.payload["target"])
        return entry

    def said(payload: Mapping[str, Any]) -> str:
        return describe_event(event_from_dict(payload)).split(": ", 1)[-1]

    out: list[Correction] = []
    for entry in entries:
        if entry.kind == "event":
            continue
        target = by_seq.get(entry.payload["target"])
        event = event_entry(entry.payload["target"])
        if target is None or event is None:
            continue
        when = entry.created_at.strftime("%H:%M UTC")
        if entry.kind == "amend":
            text = gettext(
                "entry %(n)d “%(old)s” was corrected to “%(new)s” (%(when)s).",
                n=event.seq,
                old=said(event.payload),
                new=said(entry.payload["event"]),
                when=when,
            )
        elif target.kind == "event":
            text = gettext(
                "entry %(n)d “%(old)s” was undone (%(when)s).",
                n=event.seq,
                old=said(event.payload),
                when=when,
            )
        else:
            text = gettext(
                "entry %(n)d, a correction of “%(old)s”, was undone (%(when)s).",
                n=target.seq,
                old=said(event.payload),
                when=when,
            )
        out.append(Correction(event_from_dict(event.payload).round, text))
    return out


def sheet_info(record: TableRecord) -> SheetInfo:
    return SheetInfo(date=record.created_at.date(), corrections=tuple(corrections(record.entries)))


@bp.get("/t/<table_id>/sheet.pdf")
def pdf(table_id: str) -> ResponseReturnValue:
    """The table's score sheet as a PDF download (``?paper=letter&orientation=landscape``)."""
    require(table_id)
    record, state = load(table_id)
    page = page_from(request.args)
    body = _pdfs.get_or_make(
        (table_id, record.last_seq, page),
        lambda: table_sheet(state, sheet_info(record), page),
    )
    day = record.created_at.strftime("%Y-%m-%d")
    return attachment(
        body, "application/pdf", safe_file_name(state.setup.game, day, table_id[:8], "sheet.pdf")
    )
