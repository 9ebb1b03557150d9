"""The score grid both the filled-in sheet and the blank scorecard are printed with.

A grid has lead columns (round, cards, dealer, trump), then one group of columns per player
(bid, tricks, score, total …) under the player's name, one row per round and a totals row. The
two header rows repeat on every page. A row may carry a full-width strip above it (ebbes'
designations), sharing the round number cell with it. Cells are plain strings, or ``Mark`` for
the few printed specially (a blacked-out score, the pre-printed "1", a winner's total).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Table

from referee.sheets import fonts
from referee.sheets.layout import Text
from referee.sheets.words import _

BODY_SIZE = 9.0
LABEL_SIZE = 6.5
PREFIX_SIZE = 8.0
SMALLEST = 6.5
MAX_GROW = 1.4
STRIPE = colors.Color(0.93, 0.93, 0.93)
RULE = 0.4
#: An empty cell: a list of no flowables draws nothing (an empty string is still drawn).
EMPTY: list[Flowable] = []
GROUP_RULE = 1.4
#: A line of the grid's text is this many times its size high; a cell's padding above and below
#: (platypus' default).
LEADING = 1.2
PADDING = 3.0


@dataclass(frozen=True)
class Mark:
    """A cell printed specially.

    ``blacked``: white on a black box (a missed Blackout bid); ``prefix``: a small pre-printed
    digit at the left of an empty cell (the Blackout "1"); ``bold``; ``boxed``: bold in a heavy
    frame (a winner's total); ``tick``: choices to circle, in small print ("o   s").
    """

    text: str
    kind: str


Cell: TypeAlias = "str | Mark | Flowable"


@dataclass(frozen=True)
class Column:
    """A column: its header label, its width in points before any scaling, the ``Mark`` kind
    its body cells are printed with, if any (``bold`` running totals, the ``prefix``), and what
    the label stands for in whole words, for a label a language shortens to fit (the sheet's
    legend then spells it out: ``common.column_legend``)."""

    label: str
    width: float
    mark: str | None = None
    meaning: str = ""


@dataclass
class Row:
    """One round: a cell per column, and optionally a full-width strip printed above it.

    The strip is (label, value) pairs, each printed as a box with the label in small print and
    the value below it, or room to write it in when the value is ''.
    """

    cells: Sequence[Cell]
    strip: Sequence[tuple[str, str]] = ()


@dataclass
class Grid:
    """The whole grid; ``table(room)`` makes it a platypus ``Table`` at most ``room`` wide."""

    lead: Sequence[Column]
    per_player: Sequence[Column]
    #: Players' names in seat order; '' leaves room to write the name in.
    names: Sequence[str]
    rows: Sequence[Row]
    foot: Sequence[Cell] = ()
    #: Small print above each name ("seat 1"); empty for none.
    captions: Sequence[str] = ()
    #: The rounds' and the totals' row height; ``None``: one line of text (cells are one line).
    row_height: float | None = None
    name_height: float | None = None
    stripes: bool = True
    #: Grow the rows to fill a page that has room to spare (blank cards: room to write).
    fill: bool = False

    @property
    def natural_width(self) -> float:
        """The grid's width at full size."""
        group = sum(c.width for c in self.per_player)
        return sum(c.width for c in self.lead) + group * len(self.names)

    def group_start(self, seat: int) -> int:
        """The column index of the first column of the player in ``seat`` (0-based)."""
        return len(self.lead) + seat * len(self.per_player)

    def table(self, room: float) -> BatchedTable:
        """The grid as a table, scaled down (text too, to a floor) when it is wider than
        ``room`` — or widened to fill it, up to a point, when it ``fill``s the page; its two
        header rows repeat on every page."""
        scale = min(MAX_GROW if self.fill else 1.0, room / self.natural_width)
        size = max(SMALLEST, BODY_SIZE * min(1.0, scale))
        widths = [c.width * scale for c in self.lead]
        for _seat in self.names:
            widths += [c.width * scale for c in self.per_player]
        styles = self._base_styles(size)
        data: list[list[Any]] = [self._name_row(size), self._label_row()]
        heights: list[float | None] = [self.name_height, None]
        writable: list[int] = []  # the rows of the rounds and the totals
        # Given, not measured: measuring every cell is a fifth of what laying out costs.
        row_height = self.row_height or size * LEADING + 2 * PADDING
        for row in self.rows:
            if row.strip:
                at = len(data)
                boxes = _strip(row.strip, sum(widths[1:]), size)
                data.append([row.cells[0], boxes] + [""] * (len(widths) - 2))
                heights.append(None)
                styles += [
                    ("SPAN", (1, at), (-1, at)),
                    ("SPAN", (0, at), (0, at + 1)),
                    ("NOSPLIT", (0, at), (-1, at + 1)),
                    ("LINEABOVE", (0, at), (-1, at), GROUP_RULE, colors.black),
                    ("LEFTPADDING", (1, at), (1, at), 0),
                    ("RIGHTPADDING", (1, at), (1, at), 0),
                    ("TOPPADDING", (1, at), (1, at), 0),
                    ("BOTTOMPADDING", (1, at), (1, at), 0),
                ]
                data.append(["", *row.cells[1:]])
            else:
                data.append(list(row.cells))
            writable.append(len(heights))
            heights.append(row_height)
        if self.stripes and not any(row.strip for row in self.rows):
            styles.append(("ROWBACKGROUNDS", (0, 2), (-1, -1), [colors.white, STRIPE]))
        if self.foot:
            data.append(list(self.foot))
            writable.append(len(heights))
            heights.append(row_height)
            styles += [
                ("SPAN", (0, -1), (len(self.lead) - 1, -1)),
                ("LINEABOVE", (0, -1), (-1, -1), GROUP_RULE, colors.black),
                ("FONTNAME", (0, -1), (-1, -1), fonts.current().bold),
                ("BACKGROUND", (0, -1), (-1, -1), colors.white),
            ]
        for r, cells in enumerate(data):
            for c, cell in enumerate(cells):
                if isinstance(cell, Mark):
                    cells[c] = fonts.printable(cell.text)
                    styles += _mark_styles(cell.kind, (c, r), (c, r))
                elif cell == "":
                    cells[c] = EMPTY
                elif isinstance(cell, str):
                    cells[c] = fonts.printable(cell)
        table = BatchedTable(
            data,
            colWidths=widths,
            rowHeights=heights,
            repeatRows=2,
            style=styles,
            hAlign="LEFT",
        )
        table.writable = writable
        return table

    def _name_row(self, size: float) -> list[Any]:
        """Header row 1: the lead labels (spanning both header rows), then each name."""
        cells: list[Any] = [_(c.label) for c in self.lead]
        span = len(self.per_player)
        for seat, name in enumerate(self.names):
            caption = self.captions[seat] if seat < len(self.captions) else ""
            cell = [Text(caption, LABEL_SIZE, centred=True)] if caption else []
            if name:
                cell.append(Text(name, size, bold=True, centred=True))
            cells.append(cell)
            cells += [""] * (span - 1)
        return cells

    def _label_row(self) -> list[str]:
        """Header row 2: each player's column labels under their name."""
        return [""] * len(self.lead) + [_(c.label) for c in self.per_player] * len(self.names)

    def _base_styles(self, size: float) -> list[tuple[Any, ...]]:
        lead = len(self.lead)
        span = len(self.per_player)
        out: list[tuple[Any, ...]] = [
            # Few commands over the whole grid: each one touches every cell (and costs so).
            ("FONT", (0, 0), (-1, -1), fonts.current().regular, size, size * LEADING),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("GRID", (0, 0), (-1, -1), RULE, colors.black),
            ("BOX", (0, 0), (-1, -1), GROUP_RULE, colors.black),
            ("LINEBELOW", (0, 1), (-1, 1), GROUP_RULE, colors.black),
            ("FONTSIZE", (0, 1), (-1, 1), LABEL_SIZE),
            ("FONTSIZE", (0, 0), (lead - 1, 0), LABEL_SIZE),
            ("VALIGN", (0, 0), (-1, 1), "BOTTOM"),
        ]
        for c in range(lead):
            out.append(("SPAN", (c, 0), (c, 1)))
        for seat in range(len(self.names)):
            start = self.group_start(seat)
            out += [
                ("SPAN", (start, 0), (start + span - 1, 0)),
                ("LINEBEFORE", (start, 0), (start, -1), GROUP_RULE, colors.black),
            ]
            for j, column in enumerate(self.per_player):
                if column.mark is not None:
                    out += _mark_styles(column.mark, (start + j, 2), (start + j, -1))
        return out


class BatchedTable(Table):  # type: ignore[misc]
    """A platypus ``Table`` that writes all its one-line text cells in a single text object.

    ``Table`` gives every text cell a PDF text object of its own (``drawCentredString``), and
    encodes each string anew for the embedded font; for a sheet of several hundred numbers that
    is most of the time it takes to make (measured by ``bench/sheets_pdf.py``). Here the text
    cells are collected while the table draws, then written as one text object, each distinct
    string encoded once: the same strings at the same places, in the same font. Flowable cells
    (names, strips) and everything else are drawn by ``Table`` as usual.
    """

    #: The rows written in by hand (rounds and totals), whose height ``fit_rows`` may change.
    writable: Sequence[int] = ()

    def fit_rows(self, height: float) -> None:
        """Make the ``writable`` rows ``height`` points tall, before the table is laid out.

        ``Table`` lays itself out on every ``wrap`` from the row heights it was given
        (``_argH``), keeping only the rectangles of spanned cells from the last layout
        (``_spanRects``): changing the one and dropping the other spares building the table
        again, which costs as much as drawing it. (reportlab internals, pinned version; the
        blank card tests check the layout.)
        """
        for row in self.writable:
            self._argH[row] = height
        self.__dict__.pop("_spanRects", None)

    def draw(self) -> None:
        self._texts: list[tuple[str, float, Any, float, float, str]] = []
        super().draw()
        canvas = self.canv
        shown: dict[tuple[str, str], list[tuple[str, str]]] = {}
        code = ["q BT"]
        current: tuple[str, float] | None = None
        colour = None
        for name, size, fill, x, y, value in self._texts:
            if colour != fill:
                colour = fill
                code.append(f"{fp_str(*colors.toColor(fill).rgb())} rg")
            code.append(f"1 0 0 1 {fp_str(x, y)} Tm")
            runs = shown.get((name, value))
            if runs is None:  # each distinct string is encoded once
                runs = shown[name, value] = _encoded(value, name, canvas)
            for font, show in runs:
                if current != (font, size):
                    current = (font, size)
                    code.append(f"{font} {fp_str(size)} Tf")
                code.append(show)
        code.append("ET Q")
        canvas.addLiteral(" ".join(code))

    def _drawCell(
        self, value: Any, style: Any, pos: tuple[float, float], size: tuple[float, float]
    ) -> None:
        if value is EMPTY:
            return
        faces = fonts.current()
        ours = style.fontname in (faces.regular, faces.bold)
        plain = style.alignment in ("LEFT", "RIGHT", "CENTER", "CENTRE")
        if not (ours and plain and isinstance(value, str)) or "\n" in value:
            super()._drawCell(value, style, pos, size)
            return
        (left, bottom), (width, height) = pos, size
        x = left + style.leftPadding
        if style.alignment != "LEFT":
            room = width - style.leftPadding - style.rightPadding
            spare = room - fonts.string_width(value, style.fontname, style.fontsize)
            x += spare if style.alignment == "RIGHT" else spare / 2
        if style.valign == "BOTTOM":
            y = bottom + style.bottomPadding + style.leading - style.fontsize
        elif style.valign == "TOP":
            y = bottom + height - style.topPadding - style.fontsize
        else:
            y = bottom + (style.bottomPadding + height - style.topPadding + style.leading) / 2
            y -= style.fontsize
        self._texts.append((style.fontname, style.fontsize, style.color, x, y, value))


def _encoded(text: str, face: str, canvas: Canvas) -> list[tuple[str, str]]:
    """``text`` as PDF text operators: (the font's name in the PDF, the "(…) Tj" operator) for
    each run; an embedded face splits a text into runs by glyph subset."""
    font = pdfmetrics.getFont(face)
    doc = canvas._doc
    if not font._dynamicFont:  # a built-in face: one run, in Windows-1252 (``fonts.BUILT_IN``)
        data = text.encode("cp1252")
        return [(doc.getInternalFontName(face), f"({canvas._escape(data)}) Tj")]
    return [
        (font.getSubsetInternalName(subset, doc), f"({canvas._escape(data)}) Tj")
        for subset, data in font.splitString(text, doc)
    ]


def _strip(pairs: Sequence[tuple[str, str]], width: float, size: float) -> Table:
    """A row of labelled boxes ``width`` wide: the label small, the value (if any) bold below."""
    cells = []
    for name, value in pairs:
        box = [Text(_(name), LABEL_SIZE)]
        if value:
            box.append(Text(value, size, bold=True))
        cells.append(box)
    return Table(
        [cells],
        colWidths=[width / len(pairs)] * len(pairs),
        minRowHeights=[max(2.6 * size, 22)],  # room to write in; taller for long values
        style=[
            ("INNERGRID", (0, 0), (-1, -1), RULE, colors.black),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ],
    )


def key(sample: Mark, meaning: Flowable, size: float = PREFIX_SIZE) -> Table:
    """A legend line: ``sample`` printed as the grid prints its kind of mark, then ``meaning``."""
    return Table(
        [[sample.text, meaning]],
        colWidths=[fonts.width(sample.text, size, bold=True) + 6, None],
        style=[
            ("FONT", (0, 0), (-1, -1), fonts.current().regular, size, size * 1.25),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            *_mark_styles(sample.kind, (0, 0), (0, 0)),
        ],
        hAlign="LEFT",
    )


def _mark_styles(kind: str, at: tuple[int, int], to: tuple[int, int]) -> list[tuple[Any, ...]]:
    """The table style commands that print the cells from ``at`` to ``to`` as ``kind``."""
    if kind == "blacked":
        return [
            ("BACKGROUND", at, to, colors.black),
            ("TEXTCOLOR", at, to, colors.white),
            ("FONTNAME", at, to, fonts.current().bold),
        ]
    if kind == "prefix":
        return [
            ("FONTSIZE", at, to, PREFIX_SIZE),
            ("LEADING", at, to, PREFIX_SIZE),
            ("ALIGN", at, to, "LEFT"),
            ("VALIGN", at, to, "MIDDLE"),
            ("LEFTPADDING", at, to, 4),
        ]
    if kind == "boxed":
        return [("FONTNAME", at, to, fonts.current().bold), ("BOX", at, to, 2, colors.black)]
    if kind == "bold":
        return [("FONTNAME", at, to, fonts.current().bold)]
    if kind == "tick":
        return [("FONTSIZE", at, to, PREFIX_SIZE), ("LEADING", at, to, PREFIX_SIZE)]
    raise ValueError(f"no cell mark {kind!r}")
