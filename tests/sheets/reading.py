"""Reading a sheet's PDF back: its pages, its text, and each piece of text with its place."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader


@dataclass(frozen=True)
class Piece:
    """One string drawn on a page: where (points from the bottom left), how big, what."""

    page: int
    x: float
    y: float
    size: float
    text: str


def reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


def page_texts(pdf: bytes) -> list[str]:
    """The extracted text of each page."""
    return [page.extract_text() for page in reader(pdf).pages]


def pieces(pdf: bytes) -> list[Piece]:
    """Every string drawn, page by page, in drawing order. (The text extraction joins strings
    written one after the other on a line, as the grid's cells are, with spaces between.)"""
    found: list[Piece] = []
    for number, page in enumerate(reader(pdf).pages, start=1):

        def visit(text, cm, tm, font, size, number=number):
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                found.append(Piece(number, x, y, float(size), text.strip()))

        page.extract_text(visitor_text=visit)
    return found


def words(pdf: bytes) -> list[Piece]:
    """Every word drawn: the pieces split at spaces (each word keeps its piece's place)."""
    return [Piece(p.page, p.x, p.y, p.size, word) for p in pieces(pdf) for word in p.text.split()]


def rows(pdf: bytes, page: int | None = None) -> list[list[Piece]]:
    """The words grouped into lines (within 3 points of each other), top to bottom, each line
    in reading order."""
    chosen = sorted(
        (p for p in words(pdf) if page is None or p.page == page), key=lambda p: (p.page, -p.y)
    )
    lines: list[list[Piece]] = []
    for piece in chosen:
        line = lines[-1] if lines else None
        if line and line[0].page == piece.page and abs(line[0].y - piece.y) <= 3:
            line.append(piece)
        else:
            lines.append([piece])
    return [sorted(line, key=lambda p: p.x) for line in lines]  # stable: words of a piece stay


def line_of(pdf: bytes, first: str) -> list[str]:
    """The words of the last line whose first word is ``first``, after it."""
    found = [line for line in rows(pdf) if line[0].text == first]
    assert found, f"no line starts with {first!r}"
    return [p.text for p in found[-1][1:]]


def round_numbers(pdf: bytes) -> list[int]:
    """The round numbers down the first column of the grid, on every page: the lines between
    the header ("Rd", ebbes "Round") and the totals that start with a number (a round number
    may carry the correction mark "*")."""
    out = []
    header: dict[int, Piece] = {}
    for line in rows(pdf):
        first = line[0]
        page, head = first.page, first.text.rstrip("*")
        if head in ("Rd", "Round") and page not in header:
            header[page] = first
        elif head == "Total":
            break
        elif page in header and head.isdigit():
            below, aligned = first.y < header[page].y, first.x < header[page].x + 15
            if below and aligned:
                out.append(int(head))
    return out


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's width and height in points."""
    return [
        (round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1))
        for p in reader(pdf).pages
    ]


def font_names(pdf: bytes) -> set[str]:
    """The base font names a PDF's pages use, and whether each is embedded: ``Helvetica`` or
    ``OpenSans-Regular (embedded)``."""
    found = set()
    for page in reader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            name = str(font["/BaseFont"]).lstrip("/").split("+")[-1]
            descendants = font.get("/DescendantFonts") or [font]
            described = [d.get_object().get("/FontDescriptor") for d in descendants]
            embedded = any(
                d is not None and any(k in d.get_object() for k in ("/FontFile", "/FontFile2"))
                for d in described
            )
            found.add(f"{name} (embedded)" if embedded else name)
    return found
