"""The faces the sheets print with, chosen per document, and what to do with a letter they lack.

Names at a card table come in any script ("Zoë", "Łukasz", "Даша", "Ελένη", "李伟"). A document
whose every letter is in the PDF's built-in Helvetica (the Windows-1252 set: English and the
Western European accents) prints with it: nothing to embed, which makes a sheet about a third
cheaper (``bench/sheets_pdf.py``). Any other letter makes the whole document print again with
Open Sans embedded, shipped as TTF files by the ``ttf-opensans`` package (pinned in
requirements.txt, about 0.6 MB, Apache 2.0): Latin, Greek and Cyrillic; reportlab embeds only
the glyphs a document uses. No small package ships a TrueType CJK font (Noto CJK is
PostScript-flavoured OpenType, which reportlab cannot embed, and several megabytes), so a letter
Open Sans lacks is printed as "?" rather than as an empty box, and the sheet says which letters
those were (``missing``), so nothing is lost silently.

Every text on a sheet passes through ``printable`` (or ``has_glyph``), which is where a letter
outside the built-in set is noticed; ``fitted`` makes the choice for a function that returns a
document. Outside ``fitted`` the embedded faces are in use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, wraps
from importlib.resources import files
from typing import ParamSpec, TypeVar

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: What a letter without a glyph prints as.
NO_GLYPH = "?"


@dataclass(frozen=True)
class Faces:
    """A regular and a bold face, by their reportlab names."""

    regular: str
    bold: str
    #: Whether the faces are embedded TrueType (else: the PDF's built-in faces).
    embedded: bool

    def name(self, bold: bool = False) -> str:
        """The reportlab name of the bold or the regular face."""
        return self.bold if bold else self.regular


BUILT_IN = Faces("Helvetica", "Helvetica-Bold", embedded=False)
EMBEDDED = Faces("TableReferee-Sans", "TableReferee-Sans-Bold", embedded=True)

_faces: ContextVar[Faces] = ContextVar("faces", default=EMBEDDED)


class _Uncovered(Exception):
    """A letter the built-in faces lack: the document must print with the embedded ones."""


def current() -> Faces:
    """The faces the document being made prints with."""
    return _faces.get()


P = ParamSpec("P")
R = TypeVar("R")


def fitted(make: Callable[P, R]) -> Callable[P, R]:
    """``make`` (a function that makes a document) run with the built-in faces when they print
    every letter it uses, else run again with the embedded faces."""

    @wraps(make)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = _faces.set(BUILT_IN)
        try:
            return make(*args, **kwargs)
        except _Uncovered:
            register()
            _faces.set(EMBEDDED)
            return make(*args, **kwargs)
        finally:
            _faces.reset(token)

    return run


@cache
def register() -> None:
    """Register the embedded regular and bold face with reportlab (once per process)."""
    folder = files("ttf_opensans") / "ttf"
    for name, file in ((EMBEDDED.regular, "Regular"), (EMBEDDED.bold, "Bold")):
        pdfmetrics.registerFont(TTFont(name, str(folder / f"OpenSans-{file}.ttf")))
    pdfmetrics.registerFontFamily(EMBEDDED.regular, normal=EMBEDDED.regular, bold=EMBEDDED.bold)


@cache
def _covered(faces: Faces) -> frozenset[int]:
    """The code points both faces have a glyph for."""
    if not faces.embedded:  # Windows-1252, as reportlab encodes the built-in faces
        chars = bytes(range(0x20, 0x100)).decode("cp1252", "ignore")  # 5 bytes are unused
        return frozenset(ord(c) for c in chars if c.isprintable())
    register()
    regular = pdfmetrics.getFont(faces.regular).face.charToGlyph
    bold = pdfmetrics.getFont(faces.bold).face.charToGlyph
    return frozenset(regular) & frozenset(bold)


def has_glyph(char: str) -> bool:
    """The faces in use print ``char`` (a space always prints).

    A letter the built-in faces lack ends the document in the making: ``fitted`` makes it again
    with the embedded faces.
    """
    faces = current()
    if char == " " or ord(char) in _covered(faces):
        return True
    if not faces.embedded and char.isprintable():
        raise _Uncovered(char)
    return False


def printable(text: str) -> str:
    """``text`` with every letter the faces lack (and every control character) as "?"."""
    if text.isascii() and text.isprintable():  # the common case, and every face has ASCII
        return text
    covered = _covered(current())
    if all(ord(c) in covered or c == " " for c in text):
        return text
    return "".join(c if has_glyph(c) else NO_GLYPH for c in text)


def missing(texts: Iterable[str]) -> list[str]:
    """The letters of ``texts`` the faces have no glyph for, each once, in order of appearance.

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
    return string_width(printable(text), current().name(bold), size)


@cache
def string_width(text: str, face: str, size: float) -> float:
    """How wide ``text`` (already printable) prints in the face named ``face``."""
    if face in (EMBEDDED.regular, EMBEDDED.bold):
        register()
    return float(pdfmetrics.stringWidth(text, face, size))


def shorten(text: str, room: float, size: float) -> str:
    """``text`` made printable and cut with "…" so that it fits ``room`` points at ``size``."""
    text = printable(text)
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"
