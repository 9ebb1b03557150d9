"""The readable scorecard: a blank card the app can read back from a photo (``referee.paper``).

One A4 page drawn straight on a canvas from ``referee.paper.layout``, so the reader looks
exactly where the card has its boxes: ArUco markers in the corners, a QR code naming the card,
a row per round with a tick box per trump, a box per digit of each bid and of the tricks won
(Alles oder Nichts: tick boxes for open and secret) and a free box for the running total. The
boxes are light grey: the reader sees only the pen. Given names (a table's card), they are
printed above their columns, and the first dealer in the heading.
"""

from __future__ import annotations

import io
from gettext import NullTranslations

from reportlab.lib.colors import Color, black, white
from reportlab.pdfgen.canvas import Canvas

from referee.paper.layout import (
    MARKER_BITS,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    Box,
    CardLayout,
    card_layout,
    markers,
)
from referee.rules import start
from referee.rules.cards import SUIT_SYMBOLS
from referee.rules.marks import N_
from referee.sheets import common, fonts
from referee.sheets.card import BlankCard
from referee.sheets.printed import printed
from referee.sheets.words import _, ngettext, speaking

#: The boxes' grey: light enough for the reader's ink threshold to pass over it.
BOX_GREY = Color(0.68, 0.68, 0.68)
#: The grey of every other round's band, to follow a row across.
BAND = Color(0.95, 0.95, 0.95)
#: The colours of the coloured trump dots (Alles oder Nichts' default colours and more).
DOT_COLOURS = {
    "red": Color(0.82, 0.15, 0.15),
    "yellow": Color(0.93, 0.76, 0.05),
    "green": Color(0.15, 0.6, 0.25),
    "blue": Color(0.15, 0.35, 0.8),
    "purple": Color(0.5, 0.2, 0.6),
}
#: ZapfDingbats' suit glyphs (the built-in font has them; Helvetica has none).
DINGBATS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")

HEADS = {
    "Rd": N_("Rd"),
    "Cards": N_("Cards"),
    "bid": N_("bid"),
    "took": N_("took"),
    "total": N_("total"),
    "o": N_("o"),
    "s": N_("s"),
}


def readable_card(
    card: BlankCard, words: NullTranslations | None = None, table: str | None = None
) -> bytes:
    """The readable card as PDF bytes (``CardError``, ``Breach`` or ``OptionError`` when there
    is none for it), in the language of ``words``; ``table``: the id of the table it is
    printed for, which its QR code names (None: a blank card)."""
    with speaking(words):
        return draw(card, table)


@fonts.fitted
def draw(card: BlankCard, table: str | None) -> bytes:
    """The readable card as PDF bytes, in the language being spoken."""
    layout = card_layout(card.game, card.players, card.options)
    game = start(card.setup()).game
    out = io.BytesIO()
    title = _("%(game)s — scorecard to photograph", game=game.title)
    canvas = Canvas(out, pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=True)
    canvas.setTitle(title)
    faces = fonts.current()
    for number, box in enumerate(markers()):
        marker(canvas, box, number)
    qr_code(canvas, layout.qr, layout.code(table))
    left = markers()[0].x + markers()[0].w + 10
    canvas.setFillColor(black)
    canvas.setFont(faces.bold, 14)
    canvas.drawString(left, top(34), fonts.printable(title))
    part = printed(card.game)
    facts = " · ".join(
        [
            ngettext("%(num)s player", "%(num)s players", card.players),
            ngettext("%(num)s round", "%(num)s rounds", game.round_count),
            part.ladder(game),
        ]
    )
    canvas.setFont(faces.regular, 8.5)
    canvas.drawString(left, top(50), fonts.printable(facts))
    names = card.seat_names()
    lines = [_("Date: %(blank)s    Place: %(blank)s", blank="________________")]
    dealer = part.dealer(card, game, 1) if card.first is not None else ""
    if dealer:
        lines.insert(0, _(part.first_line, player=dealer))
    for i, line in enumerate(lines):
        canvas.drawString(left, top(64 + 12 * i), fonts.printable(line))
    grid(canvas, layout, names)
    legend(canvas, layout)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def top(y: float) -> float:
    """A distance from the page's top as reportlab's y (from the bottom)."""
    return PAGE_HEIGHT - y


def rect(canvas: Canvas, box: Box, stroke: int = 1, fill: int = 0) -> None:
    canvas.rect(box.x, top(box.y + box.h), box.w, box.h, stroke=stroke, fill=fill)


def marker(canvas: Canvas, box: Box, number: int) -> None:
    """ArUco marker ``number``: a black square with its 4 × 4 bits inside a black border."""
    cell = box.w / 6
    canvas.setFillColor(black)
    rect(canvas, box, stroke=0, fill=1)
    canvas.setFillColor(white)
    for r, bits in enumerate(MARKER_BITS[number]):
        for c, bit in enumerate(bits):
            if bit:
                rect(canvas, Box(box.x + (c + 1) * cell, box.y + (r + 1) * cell, cell, cell), 0, 1)


def qr_code(canvas: Canvas, box: Box, text: str) -> None:
    """The card's QR code, module by module, filling ``box`` (its quiet zone included)."""
    import segno  # the QR library the share pages use; only a readable card needs it here

    code = segno.make(text, error="m", micro=False)
    matrix = list(code.matrix_iter(border=2))
    cell = box.w / len(matrix)
    canvas.setFillColor(black)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                rect(canvas, Box(box.x + c * cell, box.y + r * cell, cell, cell), 0, 1)


def grid(canvas: Canvas, layout: CardLayout, names: tuple[str, ...]) -> None:
    """The names row, the column heads and a row per round with its boxes."""
    faces = fonts.current()
    for i, rnd in enumerate(layout.rounds):
        if i % 2:
            canvas.setFillColor(BAND)
            rect(canvas, rnd.row, stroke=0, fill=1)
    canvas.setStrokeColor(BOX_GREY)
    canvas.setLineWidth(0.6)
    for seat, box in enumerate(layout.names):
        canvas.setFillColor(black)
        canvas.line(box.x, top(box.y + box.h - 3), box.x + box.w, top(box.y + box.h - 3))
        name = names[seat] if seat < len(names) else ""
        canvas.setFont(faces.bold, 9)
        shown = fonts.shorten(name, box.w - 2, 9) if name else ""
        canvas.drawString(box.x + 1, top(box.y + box.h - 6), fonts.printable(shown))
        if not name:
            canvas.setFont(faces.regular, 6)
            canvas.setFillColor(BOX_GREY)
            canvas.drawString(box.x + 1, top(box.y + 7), _("seat %(n)s", n=seat + 1))
    for column in layout.heads:
        head(canvas, column.label, column.box)
    for rnd in layout.rounds:
        canvas.setFillColor(black)
        canvas.setFont(faces.regular, 8)
        middle = top(rnd.row.y + rnd.row.h / 2 + 3)
        canvas.drawRightString(rnd.row.x + 14, middle, str(rnd.number))
        canvas.setFont(faces.bold, 8)
        canvas.drawRightString(rnd.row.x + 36, middle, str(rnd.hand))
        canvas.setStrokeColor(BOX_GREY)
        if not rnd.trump:
            canvas.setFont(faces.regular, 6)
            canvas.setFillColor(BOX_GREY)
            canvas.drawString(rnd.row.x + 42, middle + 1, fonts.printable(_("no trump")))
        for _code, box in rnd.trump:
            rect(canvas, box)
        for cells in rnd.players:
            for box in (*cells.bid, *cells.took):
                rect(canvas, box)
            for tick in (cells.open, cells.secret):
                if tick is not None:
                    rect(canvas, tick)
            canvas.setDash(1, 2)
            rect(canvas, cells.total)
            canvas.setDash()


def head(canvas: Canvas, label: str, box: Box) -> None:
    """A column head: words, or a trump's suit symbol or coloured dot."""
    faces = fonts.current()
    middle = box.x + box.w / 2
    base = top(box.y + box.h - 3)
    if label.startswith("trump:"):
        code = label.split(":", 1)[1]
        if code in DINGBATS:
            canvas.setFillColor(DOT_COLOURS["red"] if code in RED_SUITS else black)
            canvas.setFont("ZapfDingbats", 8)
            canvas.drawCentredString(middle, base, DINGBATS[code])
        else:
            canvas.setFillColor(DOT_COLOURS.get(code, black))
            canvas.circle(middle, base + 3, 3, stroke=0, fill=1)
        return
    canvas.setFillColor(black)
    canvas.setFont(faces.regular, 6.5)
    canvas.drawCentredString(middle, base, fonts.printable(_(HEADS[label])))


def legend(canvas: Canvas, layout: CardLayout) -> None:
    """How to fill the card in, and the order of the trumps, below the grid."""
    faces = fonts.current()
    boxes = markers()
    left = boxes[3].x + boxes[3].w + 8
    room = boxes[2].x - 8 - left
    trumps = ", ".join(
        common.colour_word(code) if code in SUIT_SYMBOLS else _(common.COLOUR_WORDS.get(code, code))
        for code in layout.trump_codes
    )
    lines = [
        _(printed(layout.game).readable_legend),
        _("Trump, left to right: %(trumps)s.", trumps=trumps),
        _("Photograph the whole card, flat and in good light, with its four corner squares."),
    ]
    canvas.setFillColor(black)
    canvas.setFont(faces.regular, 7)
    y = boxes[3].y + 6
    for line in lines:
        for piece in wrap(fonts.printable(line), room, faces.regular, 7):
            canvas.drawString(left, top(y), piece)
            y += 8.5


def wrap(text: str, room: float, face: str, size: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``room`` points wide."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        tried = f"{line} {word}".strip()
        if line and fonts.string_width(tried, face, size) > room:
            lines.append(line)
            line = word
        else:
            line = tried
    return [*lines, line] if line else lines
