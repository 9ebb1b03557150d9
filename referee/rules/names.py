"""Players' names: what a name may hold, when two names are the same, and how to quote text.

A name is shown on every phone at the table, on the TV, on the printed sheet and in a terminal,
so it may not hold what shows as nothing or as something else: control characters (a newline,
an ANSI escape), format characters (a zero-width space, a right-to-left override), surrogates,
private-use and unassigned code points, line and paragraph separators. Two names are the same
when they differ only by case or by Unicode normalisation (``Ben``, ``ben`` and a full-width
``Ｂｅｎ``), since nobody at the table can tell them apart.

>>> hidden_character("Be\\u200bn"), hidden_character("Zoë")
(True, False)
>>> same_name_key("Ｂｅｎ") == same_name_key("ben")
True
>>> quote("x" * 100)[-3:], len(quote("x" * 100))
('xx…', 61)
>>> printable("Ann\\x1b[31m")
'Ann\\\\x1b[31m'
"""

from __future__ import annotations

import unicodedata

#: The longest name, in characters (after trimming).
LONGEST_NAME = 40

#: Unicode categories a name may not hold (see the module docstring).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: The most of a value a message quotes.
QUOTED = 60


def hidden_character(name: str) -> bool:
    """Whether ``name`` holds a character of ``HIDDEN_CATEGORIES``."""
    return not name.isprintable() and any(
        unicodedata.category(c) in HIDDEN_CATEGORIES for c in name
    )


def name_fault(name: str, longest: int = LONGEST_NAME) -> str | None:
    """What keeps ``name`` from being a player's name, as a breach's message code: no name at all
    (``empty-name``: spaces only), longer than ``longest`` once trimmed (``long-name``), a
    character of ``HIDDEN_CATEGORIES`` (``unprintable-name``); None for a good name. (A group's
    name is a name too, only longer.)

    >>> name_fault(" Ann "), name_fault(" "), name_fault("x" * 41), name_fault("Ann\\x1b")
    (None, 'empty-name', 'long-name', 'unprintable-name')
    """
    if not name.strip():
        return "empty-name"
    if len(name.strip()) > longest:
        return "long-name"
    if hidden_character(name):  # a NUL no database stores; others mislead or hide
        return "unprintable-name"
    return None


def same_name_key(name: str) -> str:
    """What two names that are the same share: trimmed, case-folded, NFKC-normalised."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name.strip()).casefold())


def quote(text: str) -> str:
    """At most the first ``QUOTED`` characters of ``text``, with "…" when some are left out:
    what a message repeats of a value, however long the value."""
    return text if len(text) <= QUOTED else text[:QUOTED] + "…"


def printable(text: str) -> str:
    """``text`` with every character that does not print shown as its escape (``\\x1b``,
    ``\\u200b``), for a terminal: what a record holds can never move the cursor or recolour."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
