"""The sheets' words in the reader's language: the translations a document is printed with.

The sheets know no web: whoever asks for a document hands in the translations to print it with
(``table_sheet(..., words=...)``, ``blank_card(..., words=...)``; the web layer hands in
Flask-Babel's for the request), and every sentence the sheets print goes through ``_`` or
``ngettext`` while the document is made. Without translations they print the catalog's own
language, English. Words fixed before any document (column labels, a game's legend) are marked
with ``N_`` (``referee.rules.marks``) where they are written and translated with ``_`` where
they are printed.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from gettext import NullTranslations
from typing import Any

from referee.rules.wording import Number

#: The translations of the document being made (the catalog's own language outside one).
current: contextvars.ContextVar[NullTranslations | None] = contextvars.ContextVar(
    "sheet_words", default=None
)
#: What ``current`` stands for when it is None.
OWN = NullTranslations()


@contextmanager
def speaking(words: NullTranslations | None) -> Iterator[None]:
    """Print in ``words`` (None: the catalog's own language) until the block ends."""
    token = current.set(words)
    try:
        yield
    finally:
        current.reset(token)


def translations() -> NullTranslations:
    """The translations of the document being made (the engine's sentences are said in them)."""
    return current.get() or OWN


def _(message: str, **variables: Any) -> str:
    """``message`` in the document's language, its ``%(name)s`` filled in."""
    text = (current.get() or OWN).gettext(message)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The form of ``singular``/``plural`` for ``num`` in the document's language; ``%(num)s``
    is ``num`` (a negative one with the minus sign)."""
    found = (current.get() or OWN).ngettext(singular, plural, num)
    return found % {"num": Number(num), **variables}
