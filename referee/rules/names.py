"""Players' names: what a name may hold, when two names are the same, and how to quote text.

A name is shown on every phone at the table, on the TV, on the printed sheet and in a terminal,
so it may not hold what shows as nothing or as something else: control characters (a newline,
an ANSI escape), format characters (a zero-width space, a right-to-left override), surrogates,
private-use and unassigned code points, line and paragraph separators; nor be made only of what
shows as nothing (spaces, a Hangul filler, a blank braille pattern). Two names are the same when
they differ only by case, by Unicode normalisation (``Ben``, ``ben`` and a full-width ``Ｂｅｎ``)
or by what shows as nothing (``Ann`` and ``Ann`` with a combining grapheme joiner), since nobody
at the table can tell them apart. One rule for every name people read: a player's, a roster
player's, a group's and a season's, and the colours of a deck.

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

#: Unicode's default-ignorable code points (``Default_Ignorable_Code_Point`` in
#: DerivedCoreProperties.txt), first and last of each run: a text shows the same without them.
#: Most are format characters (hidden, refused); the rest are letters and marks that show as
#: nothing (a Hangul filler, the combining grapheme joiner, a variation selector), which a name
#: may hold but which leave it the same name.
IGNORABLE = (
    *((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160)),
    *((0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E)),
    *((0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF)),
    *((0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A)),
    (0xE0000, 0xE0FFF),
)
#: What ``shown`` does to a text's characters: each ignorable one left out, and a blank braille
#: pattern (a blank that is no space to ``str.strip``) made a space.
SHOWN: dict[int, str | None] = {
    **{code: None for first, last in IGNORABLE for code in range(first, last + 1)},
    0x2800: " ",
}

#: The most of a value a message quotes.
QUOTED = 60


def hidden_character(name: str) -> bool:
    """Whether ``name`` holds a character of ``HIDDEN_CATEGORIES``."""
    return not name.isprintable() and any(
        unicodedata.category(c) in HIDDEN_CATEGORIES for c in name
    )


def name_fault(name: str, longest: int = LONGEST_NAME) -> str | None:
    """What keeps ``name`` from being a player's name, as a breach's message code: no name at all
    (``empty-name``: spaces only, or only what shows as nothing), longer than ``longest`` once
    trimmed (``long-name``), a character of ``HIDDEN_CATEGORIES`` (``unprintable-name``); None
    for a good name. (A group's name is a name too, only longer; a colour's, only shorter.)

    >>> name_fault(" Ann "), name_fault(" "), name_fault("x" * 41), name_fault("Ann\\x1b")
    (None, 'empty-name', 'long-name', 'unprintable-name')
    """
    if not name.strip():
        return "empty-name"
    if len(name.strip()) > longest:
        return "long-name"
    if hidden_character(name):  # a NUL no database stores; others mislead or hide
        return "unprintable-name"
    if not shown(name):  # only what shows as nothing: no name either
        return "empty-name"
    return None


def shown(text: str) -> str:
    """``text`` as it shows: without its default-ignorable code points (``IGNORABLE``), a blank
    that is no space to Python as a space, trimmed.

    >>> shown(" Ann\u034f\u2800"), shown("\u3164")
    ('Ann', '')
    """
    if text.isascii():
        return text.strip()
    return text.translate(SHOWN).strip()


def same_name_key(name: str) -> str:
    """What two names that are the same share: as they show (``shown``), NFKC-normalised and
    case-folded."""
    key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", shown(name)).casefold())
    return key if key.isascii() else shown(key)


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
