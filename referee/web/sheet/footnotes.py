"""The footnotes of a table's printed sheet: every undo and correction in its log, with the
round it touched, in a sentence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import format_time

from referee.rules.events import event_from_dict
from referee.sheets import Correction, SheetInfo
from referee.store.tables import LogEntry, TableRecord
from referee.web.history.lines import target_event
from referee.web.i18n import gettext
from referee.web.words import entry_text


def corrections(entries: Sequence[LogEntry]) -> list[Correction]:
    """Every undo and amendment in the log, with the round of the event it changed."""
    by_seq = {entry.seq: entry for entry in entries}

    def said(payload: Mapping[str, Any]) -> str:
        return entry_text(event_from_dict(payload), symbols=False)

    out: list[Correction] = []
    for entry in entries:
        if entry.kind == "event":
            continue
        target = by_seq.get(entry.payload["target"])
        event = target_event(by_seq, entry.payload["target"])
        if target is None or event is None:
            continue
        when = f"{format_time(entry.created_at, 'HH:mm')} UTC"
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
    return SheetInfo(
        date=record.created_at.date(),
        corrections=tuple(corrections(record.entries)),
    )
