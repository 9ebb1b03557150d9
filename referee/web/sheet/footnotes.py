"""The footnotes of a table's printed sheet: every undo and correction in its log, with the
round it touched, in a sentence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import get_translations, gettext

from referee.rules.events import event_from_dict
from referee.sheets import Correction, SheetInfo
from referee.store.tables import LogEntry, TableRecord
from referee.web.words import entry_text


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
        return entry_text(event_from_dict(payload), symbols=False)

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
    return SheetInfo(
        date=record.created_at.date(),
        corrections=tuple(corrections(record.entries)),
        translations=get_translations(),
    )
