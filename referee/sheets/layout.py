"""Paper, page furniture and text styles shared by every printed sheet; rendering to PDF bytes.

A sheet is a list of platypus flowables. ``render`` puts them on pages of the chosen paper with
the rules in force in a running footer and "page n of m" on every page, and returns the PDF.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.pagesizes import A4, LETTER, landscape, portrait
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, SimpleDocTemplate

from referee.sheets import fonts
from referee.sheets.words import _

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
ORIENTATIONS = ("auto", "portrait", "landscape")
MARGIN: float = 12 * mm
FOOTER_SIZE = 7.0
#: The padding platypus keeps inside the margins (``SimpleDocTemplate``'s frame).
FRAME_PADDING = 6.0


@dataclass(frozen=True)
class Page:
    """The paper (``a4`` or ``letter``) and its orientation (``auto`` picks by the grid's width)."""

    paper: str = "a4"
    orientation: str = "auto"

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {self.paper!r}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(
                f"orientation must be one of {', '.join(ORIENTATIONS)}, not {self.orientation!r}"
            )

    def size(self, needed_width: float) -> tuple[float, float]:
        """The page size in points; ``auto`` turns the page to landscape when the grid
        (``needed_width`` points wide) does not fit across a portrait page."""
        paper = PAPERS[self.paper]
        wide = self.orientation == "landscape" or (
            self.orientation == "auto" and needed_width > frame_width(portrait(paper))
        )
        width, height = landscape(paper) if wide else portrait(paper)
        return float(width), float(height)


class Text(Flowable):  # type: ignore[misc]
    """Plain text in one face and size, broken into lines at spaces to fit the width, left-aligned
    or centred.

    Nearly everything the sheets print outside the grid is plain text; a platypus ``Paragraph``
    parses markup and, for text in more than one style, breaks lines fragment by fragment, which
    made the legend alone cost a seventh of a score sheet (``bench/sheets_pdf.py``). A ``Text``
    splits between lines when a page ends. The faces in use when it is made are the ones it
    prints with.
    """

    def __init__(
        self, text: str, size: float = 9, bold: bool = False, centred: bool = False
    ) -> None:
        super().__init__()
        self.text = fonts.printable(text)
        self.size = size
        self.face = fonts.current().name(bold)
        self.centred = centred
        self.leading = size * 1.25
        self.lines: list[str] = []

    def _broken(self, room: float) -> list[str]:
        """The text as lines at most ``room`` wide; a word wider than that is cut."""

        def fits(line: str) -> bool:
            return fonts.string_width(line, self.face, self.size) <= room

        if fits(self.text):
            return [self.text]
        lines: list[str] = []
        line = ""
        for word in self.text.split(" "):
            joined = f"{line} {word}" if line else word
            if fits(joined):
                line = joined
                continue
            if line:
                lines.append(line)
            while not fits(word) and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and not fits(word[:cut]):
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
        return lines

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.lines = self._broken(available_width)
        self.height = self.leading * len(self.lines)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        lines = self._broken(available_width)
        keep = int(available_height // self.leading)
        if keep < 1 or keep >= len(lines):
            return []
        return [self._part(lines[:keep]), self._part(lines[keep:])]

    def _part(self, lines: list[str]) -> Text:
        part = copy.copy(self)
        part.text = " ".join(lines)
        return part

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFont(self.face, self.size)
        y = self.height - self.size  # the first baseline, where a Paragraph would put it
        for line in self.lines:
            if self.centred:
                canvas.drawCentredString(self.width / 2, y, line)
            else:
                canvas.drawString(0, y, line)
            y -= self.leading


def para(text: str, size: float = 9, bold: bool = False) -> Text:
    """A paragraph of plain text (made printable)."""
    return Text(text, size, bold)


def own(text: str, size: float = 9) -> Text:
    """A paragraph of the package's own words (never text a player typed); it must use only
    letters the faces have, so a slip shows up at once instead of as a "?" on paper."""
    lacking = [c for c in text if not fonts.has_glyph(c)]
    if lacking:
        raise ValueError(f"the sheets' font has no glyph for {lacking!r}")
    return Text(text, size)


def option_text(options: Mapping[str, Any], words: Collection[str]) -> str:
    """Every option with its value, as the footer prints them: ``hook: yes · max_cards: 13``;
    the option names and values in ``words`` (marked for the catalog) are translated, others
    printed as they are."""

    def word(v: Any) -> str:
        if isinstance(v, bool):
            return _("yes") if v else _("no")
        if isinstance(v, str):
            return _(v) if v in words else v
        if isinstance(v, (list, tuple)):
            return ", ".join(word(x) for x in v)
        return str(v)

    return " · ".join(
        _("%(option)s: %(value)s", option=word(key), value=word(v)) for key, v in options.items()
    )


def _numbered_canvas(footer: str) -> type[Canvas]:
    """A canvas class that prints ``footer`` and "page n of m" at the foot of every page.

    The page count is known only at the end, so each page's drawing is kept until ``save``.
    """

    class NumberedCanvas(Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            for number, page in enumerate(self._pages, start=1):
                self.__dict__.update(page)
                self._foot(number, len(self._pages))
                super().showPage()
            super().save()

        def _foot(self, number: int, count: int) -> None:
            width = self._pagesize[0]
            label = _("page %(n)s of %(of)s", n=number, of=count)
            self.setFont(fonts.current().regular, FOOTER_SIZE)
            room = width - 2 * MARGIN - fonts.width(label, FOOTER_SIZE) - 4 * mm
            self.drawString(MARGIN, MARGIN / 2, fonts.shorten(footer, room, FOOTER_SIZE))
            self.drawRightString(width - MARGIN, MARGIN / 2, label)

    return NumberedCanvas


def render(
    story: Sequence[Flowable], page_size: tuple[float, float], title: str, footer: str
) -> bytes:
    """The PDF of ``story`` on pages of ``page_size``, ``footer`` and page numbers on each."""
    fonts.register()
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=page_size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=fonts.printable(title),
        author="Table Referee",
        creator="Table Referee",
    )
    doc.build(list(story), canvasmaker=_numbered_canvas(footer))
    return out.getvalue()


def frame_width(page_size: tuple[float, float]) -> float:
    """The width the story has: between the margins, less the frame's padding."""
    return page_size[0] - 2 * MARGIN - 2 * FRAME_PADDING


def frame_height(page_size: tuple[float, float]) -> float:
    """The height the story has: between the margins, less the frame's padding."""
    return page_size[1] - 2 * MARGIN - 2 * FRAME_PADDING
