"""What the filled-in sheet and the blank scorecard print alike: the lead columns, the words for
trumps, the heading, and the way a grid becomes pages of PDF."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from reportlab.platypus import Flowable, Spacer

from referee.rules.cards import SUIT_NAMES
from referee.rules.marks import N_
from referee.sheets import fonts
from referee.sheets.grid import BODY_SIZE, Column, Grid
from referee.sheets.layout import Page, frame_height, frame_width, option_text, para, render
from referee.sheets.words import _

#: The words for the suits and colours, marked for the catalog (the engine's are codes).
COLOUR_WORDS = {
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
}

#: The bounds of a blank card's row height (points) when it is fitted to the page, and the
#: room kept free below.
MIN_ROW_HEIGHT = 17.0
MAX_ROW_HEIGHT = 30.0
SLACK = 12.0

#: The widest a dealer's name is printed (longer names are cut with "…").
DEALER_ROOM = 74.0


def dealer_width(names: Iterable[str]) -> float:
    """The dealer column's width: the longest name, within bounds."""
    widest = max((fonts.width(name, BODY_SIZE) for name in names), default=0.0)
    return min(max(widest, 30.0), DEALER_ROOM) + 6


def dealer_text(name: str | None) -> str:
    """A dealer's name as the narrow dealer column prints it."""
    return "" if name is None else fonts.shorten(name, DEALER_ROOM, BODY_SIZE)


def colour_word(colour: str | None) -> str:
    """A suit or colour as a word ("hearts", "red"), so it reads on any printer; '' for none."""
    if colour is None:
        return ""
    word = SUIT_NAMES.get(colour, colour)
    return _(COLOUR_WORDS.get(word, word))


def heading(title: str, lines: Sequence[str]) -> list[Flowable]:
    """The title in large print and a few lines of facts below it."""
    out: list[Flowable] = [para(title, 15, bold=True), Spacer(0, 2)]
    out += [para(line, 9) for line in lines if line]
    out.append(Spacer(0, 6))
    return out


def seats_line(names: Sequence[str]) -> str:
    """Players in seat order: ``1 Ann · 2 Ben · …``."""
    seats = " · ".join(f"{seat} {name}" for seat, name in enumerate(names, start=1))
    return _("Players in seat order (clockwise): %(seats)s", seats=seats)


def column_legend(columns: Iterable[Column]) -> list[Flowable]:
    """The column heads printed shorter than what they stand for, each spelled out ("Sti. =
    Gewonnene Stiche"), so nobody has to guess an abbreviation; nothing when every head is a
    whole word in the document's language."""
    pairs: list[str] = []
    for column in columns:
        if not column.meaning:
            continue
        short, whole = _(column.label), _(column.meaning)
        pair = f"{short} = {whole}"
        if short.casefold() != whole.casefold() and pair not in pairs:
            pairs.append(pair)
    if not pairs:
        return []
    return [Spacer(0, 4), para(_("Column heads: %(heads)s", heads=" · ".join(pairs)), 8)]


def glyph_note(texts: Iterable[str]) -> list[Flowable]:
    """A note naming the letters printed as "?" because the font has no glyph for them."""
    lacking = fonts.missing(texts)
    if not lacking:
        return []
    shown = " ".join(f"U+{ord(c):04X}" for c in lacking)
    return [
        Spacer(0, 4),
        para(
            _(
                'Letters the embedded font cannot print are shown as "%(mark)s" '
                "(%(count)s: %(letters)s).",
                mark=fonts.NO_GLYPH,
                count=len(lacking),
                letters=shown,
            ),
            8,
        ),
    ]


def pdf(
    grid: Grid,
    page: Page,
    title: str,
    head: Sequence[Flowable],
    notes: Sequence[Flowable],
    game_title: str,
    options: Mapping[str, Any],
    option_words: Collection[str],
) -> bytes:
    """The sheet as PDF: heading, grid and notes on as many pages as it takes, with the rules
    in force and the page number in the footer of every page.

    The rows of a grid that ``fill``s the page are made as tall as one page allows (more room
    to write in), within bounds; a card too long for one page keeps its rows as they are.
    """
    size = page.size(grid.natural_width)
    width, height = frame_width(size), frame_height(size)
    table = grid.table(width)
    if grid.fill and grid.row_height is not None and table.writable:
        used = sum(f.wrap(width, height)[1] for f in [*head, table, *notes])
        fits = grid.row_height + (height - SLACK - used) / len(table.writable)
        if fits >= MIN_ROW_HEIGHT:
            table.fit_rows(min(MAX_ROW_HEIGHT, fits))
    footer = _(
        "%(game)s · rules in force: %(options)s",
        game=game_title,
        options=option_text(options, option_words),
    )
    return render([*head, table, *notes], size, title, footer)
