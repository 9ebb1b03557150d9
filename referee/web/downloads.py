"""What every download is: a file name of safe characters, an attachment response that is never
kept by a browser or a proxy, the paper a printed sheet is made for, and a spreadsheet
(``.xlsx``) of rows, which a spreadsheet opens as it is, whatever the reader's language."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence

from flask import Response, send_file
from flask_babel import lazy_gettext
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from referee.sheets import Page

PAPER_LABELS = {"a4": lazy_gettext("A4"), "letter": lazy_gettext("US Letter")}
ORIENTATION_LABELS = {
    "auto": lazy_gettext("Automatic"),
    "portrait": lazy_gettext("Portrait"),
    "landscape": lazy_gettext("Landscape"),
}

#: The media type of a spreadsheet (``.xlsx``, Office Open XML).
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

#: What a cell of a spreadsheet holds: a number, text, or nothing.
SpreadsheetValue = int | float | str | None

#: The narrowest and the widest a spreadsheet's column is made, in characters.
COLUMN_WIDTHS = (6, 40)


def safe_file_name(*parts: str) -> str:
    """A file name of safe characters only (player names never go in it)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", "-".join(parts))


def attachment(body: bytes | str | Iterable[bytes], mimetype: str, name: str) -> Response:
    """``body`` as a download called ``name``; a body given in pieces is sent as they come.
    (The ``Content-Disposition`` has the RFC 5987 form of a name that is not ASCII.)"""
    if isinstance(body, (bytes, str)):
        data = body.encode() if isinstance(body, str) else body
        response = send_file(
            io.BytesIO(data),
            mimetype=mimetype,
            as_attachment=True,
            download_name=name,
            conditional=False,
            etag=False,
        )
    else:
        response = Response(body, mimetype=mimetype)
        response.headers.set("Content-Disposition", "attachment", filename=name)
    response.headers["Cache-Control"] = "no-store"
    return response


def page_from(args: Mapping[str, str]) -> Page:
    """The paper and orientation asked for in the query string; the defaults for anything else."""
    paper = args.get("paper", "a4")
    orientation = args.get("orientation", "auto")
    return Page(
        paper if paper in PAPER_LABELS else "a4",
        orientation if orientation in ORIENTATION_LABELS else "auto",
    )


def spreadsheet(
    title: str,
    rows: Sequence[Sequence[SpreadsheetValue]],
    number_formats: Mapping[int, str] | None = None,
) -> bytes:
    """``rows`` as a spreadsheet (``.xlsx``) of one sheet called ``title``: the first row is
    the header, bold and kept in view while the rest scrolls; each column as wide as its longest
    cell (within ``COLUMN_WIDTHS``); a number is a number, shown in the format
    ``number_formats`` gives its column (by index; ``0.0``, ``0%``), and every text is text,
    never a formula, whatever it starts with (so, unlike a CSV, it needs no ``'`` in front)."""
    formats = number_formats or {}
    book = Workbook()
    sheet = book.worksheets[0]  # a new workbook's one sheet
    sheet.title = title
    widths: dict[int, int] = {}
    for row_number, row in enumerate(rows, start=1):
        for index, value in enumerate(row):
            cell = sheet.cell(row=row_number, column=index + 1, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, even one that starts with "="
            elif value is not None and index in formats:
                cell.number_format = formats[index]
            if row_number == 1:
                cell.font = Font(bold=True)
            shown = "" if value is None else str(value)
            if isinstance(value, float):
                shown = f"{value:.2f}"
            widths[index] = max(widths.get(index, 0), len(shown))
    narrowest, widest = COLUMN_WIDTHS
    for index, width in widths.items():
        letter = get_column_letter(index + 1)
        sheet.column_dimensions[letter].width = min(max(width + 2, narrowest), widest)
    sheet.freeze_panes = "A2"
    book.properties.creator = "Table Referee"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
