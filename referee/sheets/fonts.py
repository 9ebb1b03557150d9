"""The font the sheets print with, and what to do with a letter it has no glyph for.

Names at a card table come in any script ("Zoë", "Łukasz", "Даша", "Ελένη", "李伟"), so the
sheets embed a TrueType font instead of using the PDF's built-in Helvetica (Latin-1 only):
Open Sans, shipped as TTF files by the ``ttf-opensans`` package (pinned in requirements.txt,
about 0.6 MB, Apache 2.0). It covers Latin, Greek and Cyrillic; reportlab embeds only the glyphs
a document uses. No small package ships a TrueType CJK font (Noto CJK is PostScript-flavoured
OpenType, which reportlab cannot embed, and several megabytes), so a letter the font lacks is
printed as "?" rather than as an empty box, and the sheet says which letters those were
(``missing``), so nothing is lost silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: The names the sheets use for the regular and the bold face.
REGULAR = "TableReferee-Sans"
BOLD = "TableReferee-Sans-Bold"

#: What a letter without a glyph prints as.
NO_GLYPH = "?"


@cache
def register() -> None:
    """Register the regular and bold face with reportlab (once per process)."""
    folder = files("ttf_opensans") / "ttf"
    for name, file in ((REGULAR, "OpenSans-Regular.ttf"), (BOLD, "OpenSans-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD)


@cache
def _covered() -> frozenset[int]:
    """The code points both faces have a glyph for."""
    register()
    regular = pdfmetrics.getFont(REGULAR).face.charToGlyph
    bold = pdfmetrics.getFont(BOLD).face.charToGlyph
    return frozenset(regular) & frozenset(bold)


def has_glyph(char: str) -> bool:
    """The font prints ``char`` (a space always prints)."""
    return char == " " or ord(char) in _covered()


def printable(text: str) -> str:
    """``text`` with every letter the font lacks (and every control character) as "?"."""
    if text.isascii() and text.isprintable():  # the common case, and the font has ASCII
        return text
    covered = _covered()
    if all(ord(c) in covered or c == " " for c in text):
        return text
    return "".join(c if has_glyph(c) else NO_GLYPH for c in text)


def markup(text: str) -> str:
    """``text`` made printable and escaped for a reportlab ``Paragraph``."""
    return escape(printable(text))


def missing(texts: Iterable[str]) -> list[str]:
    """The letters of ``texts`` the font has no glyph for, each once, in order of appearance.

    Control characters are left out: they are not letters anybody meant to print.
    """
    seen: dict[str, None] = {}
    for text in texts:
        for char in text:
            if not has_glyph(char) and char.isprintable():
                seen.setdefault(char)
    return list(seen)


def width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` prints at ``size`` points."""
    register()
    return float(pdfmetrics.stringWidth(printable(text), BOLD if bold else REGULAR, size))


def shorten(text: str, room: float, size: float) -> str:
    """``text`` made printable and cut with "…" so that it fits ``room`` points at ``size``."""
    text = printable(text)
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"
