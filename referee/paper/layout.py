"""Where everything sits on a readable scorecard: one A4 page, measured in points from its top
left corner, for the PDF (``referee.sheets.readable``) to draw and the reader to look in.

The page carries four ArUco markers (4×4 bits, ids 0–3, clockwise from the top left) in its
corners, which the reader finds to straighten the photo, and a QR code naming the card: its
layout version, game, player count and the game's options that differ from the defaults
(``card_code``: ``TR1 blackout 4 - {"max_cards":5}``, short, so that the code is coarse and
reads from a blurred photo), and the table a table's card was printed for (``-``: none).
Each round is a row: its number and hand size printed, a tick box per trump suit or colour
(none in a round without trump), then per player a box per digit of the bid and of the tricks
won (Alles oder Nichts adds tick boxes for open and secret) and a free box for the running
total, which people keep and the reader leaves alone (the app adds up the scores itself).

The boxes are printed in a light grey, which the reader's ink threshold does not see: only pen
strokes count.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.paper.parts import paper
from referee.rules import Setup, start
from referee.rules.dealt import DealtGame

#: The layout's version, named in the QR code: a reader refuses a card of a version it lacks.
VERSION = 1
#: What the QR code's text starts with (then the version): short, for a coarse code.
CODE_PREFIX = "TR"

#: A4 portrait, in points.
PAGE_WIDTH = 595.2756
PAGE_HEIGHT = 841.8898
MARGIN = 22.0
#: A marker's side (6 × 6 cells: the 4 × 4 bits inside a black border).
MARKER = 36.0
#: The inner bits of the markers of OpenCV's DICT_4X4_50, ids 0–3, row by row (1: white),
#: as ``cv2.aruco.generateImageMarker`` draws them (``tests/paper`` checks them against it).
MARKER_BITS = (
    ((1, 0, 1, 1), (0, 1, 0, 1), (0, 0, 1, 1), (0, 0, 1, 0)),
    ((0, 0, 0, 0), (1, 1, 1, 1), (1, 0, 0, 1), (1, 0, 1, 0)),
    ((0, 0, 1, 1), (0, 0, 1, 1), (0, 0, 1, 0), (1, 1, 0, 1)),
    ((1, 0, 0, 1), (1, 0, 0, 1), (0, 1, 0, 0), (0, 1, 1, 0)),
)
#: The QR code's side, at the top right beside the marker.
QR_SIZE = 84.0

#: A digit box, a tick box, the gaps.
DIGIT_WIDTH = 13.0
DIGIT_HEIGHT = 18.0
TICK = 9.5
TICK_PITCH = 12.0
GAP = 3.0
GROUP_GAP = 5.0
#: The lead columns: round number and hand size.
ROUND_WIDTH = 18.0
CARDS_WIDTH = 22.0
#: The row height's bounds: fewer rounds get taller rows; too many do not fit one page.
MAX_ROW = 26.0
MIN_ROW = 16.0
#: The names row and the column heads above the rounds.
NAMES_HEIGHT = 22.0
HEADS_HEIGHT = 13.0
#: The running total's box: at least this wide, or the card is too wide for a page.
MIN_TOTAL = 18.0
MAX_TOTAL = 40.0


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in points from the top left corner."""

    x: float
    y: float
    w: float
    h: float

    def inset(self, by: float) -> Box:
        return Box(self.x + by, self.y + by, self.w - 2 * by, self.h - 2 * by)


@dataclass(frozen=True)
class PlayerCells:
    """One player's boxes in one round: the bid's and the tricks' digits (tens first), open and
    secret (Alles oder Nichts), and the free total box."""

    bid: tuple[Box, ...]
    took: tuple[Box, ...]
    open: Box | None
    secret: Box | None
    total: Box


@dataclass(frozen=True)
class RoundCells:
    """One round's row: its number, hand size, trump tick boxes (code, box) and the players'."""

    number: int
    hand: int
    bid_high: int
    row: Box
    trump: tuple[tuple[str, Box], ...]
    players: tuple[PlayerCells, ...]


@dataclass(frozen=True)
class Column:
    """A column head: its words (English, for the catalog) and where they go."""

    label: str
    box: Box


@dataclass(frozen=True)
class CardLayout:
    """The whole readable card of a game, player count and options."""

    game: str
    players: int
    options: Mapping[str, Any]
    rounds: tuple[RoundCells, ...]
    names: tuple[Box, ...]
    heads: tuple[Column, ...]
    trump_codes: tuple[str, ...]
    grid: Box
    qr: Box

    def code(self, table: str | None = None) -> str:
        """The card's QR code text, for ``table`` (None: a blank card)."""
        return card_code(self.game, self.players, self.options, table)


class CardError(ValueError):
    """A card that cannot be made readable: its game has no readable card, or it is too wide or
    long for one page. ``reason`` is a code the web page words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def markers() -> tuple[Box, ...]:
    """The four markers' boxes, ids 0–3: top left, top right, bottom right, bottom left."""
    right = PAGE_WIDTH - MARGIN - MARKER
    bottom = PAGE_HEIGHT - MARGIN - MARKER
    return (
        Box(MARGIN, MARGIN, MARKER, MARKER),
        Box(right, MARGIN, MARKER, MARKER),
        Box(right, bottom, MARKER, MARKER),
        Box(MARGIN, bottom, MARKER, MARKER),
    )


#: What a blank card's code names instead of a table.
NO_TABLE = "-"


@dataclass(frozen=True)
class CardCode:
    """What a card's QR code names: the layout version, the game, the player count, its
    options and the table it was printed for (None: a blank card, for any table like it)."""

    version: int
    game: str
    players: int
    options: dict[str, Any]
    table: str | None = None


def card_code(game: str, players: int, options: Mapping[str, Any], table: str | None = None) -> str:
    """The QR code's text: the layout version, the game, the player count, the table (``-``
    for none) and the options (those that differ from the game's defaults: a shorter text is a
    coarser, easier code)."""
    names = tuple(f"seat {n}" for n in range(1, players + 1))
    defaults = start(Setup(game, names, {})).game.options
    own = {key: value for key, value in options.items() if defaults.get(key) != value}
    text = json.dumps(own, separators=(",", ":"), sort_keys=True)
    return f"{CODE_PREFIX}{VERSION} {game} {players} {table or NO_TABLE} {text}"


def read_code(text: str) -> CardCode | None:
    """What a QR code's text names, or None when it is not a card's code."""
    parts = text.split(" ", 4)
    if len(parts) != 5 or not parts[0].startswith(CODE_PREFIX):
        return None
    version, game, players, table, rest = parts[0][len(CODE_PREFIX) :], *parts[1:]
    if not (version.isascii() and version.isdigit() and players.isascii() and players.isdigit()):
        return None
    try:
        options = json.loads(rest)
    except ValueError:
        return None
    if not isinstance(options, dict) or len(version) > 3 or len(players) > 2 or len(table) > 64:
        return None
    return CardCode(int(version), game, int(players), options, None if table == NO_TABLE else table)


def has_card(game: str, players: int, options: Mapping[str, Any]) -> bool:
    """Whether a table of ``game``, ``players`` and ``options`` has a readable card."""
    try:
        card_layout(game, players, options)
    except ValueError:  # CardError, and what the rules say of the players or options
        return False
    return True


def digits_for(high: int) -> int:
    """How many digit boxes a number up to ``high`` needs."""
    return len(str(high))


def card_layout(game: str, players: int, options: Mapping[str, Any] | None = None) -> CardLayout:
    """The readable card of ``game`` for ``players`` with ``options`` (``CardError`` when it
    has none or it does not fit; ``Breach``/``OptionError`` when the rules do not allow it)."""
    own = paper(game)
    if own is None:
        raise CardError("game", f"{game} has no readable card")
    names = tuple(f"seat {n}" for n in range(1, players + 1))
    rules = start(Setup(game, names, dict(options or {}))).game
    options = dict(rules.options)
    schedule = list(rules.schedule)
    codes = own.trump_codes(rules)
    bid_high = max(own.bid_high(rules, hand) for hand in schedule)
    ticks = own.declares
    if len(codes) > 6:
        raise CardError("wide", f"{len(codes)} trump colours do not fit a readable card")
    bid_digits = digits_for(bid_high)
    took_digits = digits_for(max(schedule))
    trump_width = len(codes) * TICK_PITCH + GAP
    lead = ROUND_WIDTH + CARDS_WIDTH + trump_width
    fixed = (bid_digits + took_digits) * DIGIT_WIDTH + 2 * GAP + GROUP_GAP
    if ticks:
        fixed += 2 * TICK_PITCH + GAP
    across = PAGE_WIDTH - 2 * MARGIN
    total = min(MAX_TOTAL, (across - lead) / players - fixed)
    if total < MIN_TOTAL:
        raise CardError("wide", f"{players} players do not fit a readable card")
    top = MARGIN + QR_SIZE + 8
    first_row = top + NAMES_HEIGHT + HEADS_HEIGHT
    bottom = PAGE_HEIGHT - MARGIN - MARKER - 6
    row = min(MAX_ROW, (bottom - first_row) / len(schedule))
    if row < MIN_ROW:
        raise CardError("long", f"{len(schedule)} rounds do not fit a readable card")
    box_height = min(DIGIT_HEIGHT, row - 5)
    group = fixed + total
    width = lead + group * players
    left = MARGIN + (across - width) / 2

    heads: list[Column] = [
        Column("Rd", Box(left, top + NAMES_HEIGHT, ROUND_WIDTH, HEADS_HEIGHT)),
        Column("Cards", Box(left + ROUND_WIDTH, top + NAMES_HEIGHT, CARDS_WIDTH, HEADS_HEIGHT)),
    ]
    trump_left = left + ROUND_WIDTH + CARDS_WIDTH
    for i, code in enumerate(codes):
        box = Box(trump_left + i * TICK_PITCH, top + NAMES_HEIGHT, TICK_PITCH, HEADS_HEIGHT)
        heads.append(Column("trump:" + code, box))
    name_boxes = []
    for seat in range(players):
        gx = left + lead + seat * group
        name_boxes.append(Box(gx, top, group - GROUP_GAP, NAMES_HEIGHT))
        x = gx
        heads.append(Column("bid", Box(x, top + NAMES_HEIGHT, bid_digits * DIGIT_WIDTH, 13)))
        x += bid_digits * DIGIT_WIDTH + GAP
        if ticks:
            heads.append(Column("o", Box(x, top + NAMES_HEIGHT, TICK_PITCH, HEADS_HEIGHT)))
            heads.append(
                Column("s", Box(x + TICK_PITCH, top + NAMES_HEIGHT, TICK_PITCH, HEADS_HEIGHT))
            )
            x += 2 * TICK_PITCH + GAP
        heads.append(Column("took", Box(x, top + NAMES_HEIGHT, took_digits * DIGIT_WIDTH, 13)))
        x += took_digits * DIGIT_WIDTH + GAP
        heads.append(Column("total", Box(x, top + NAMES_HEIGHT, total, HEADS_HEIGHT)))

    rounds = []
    for number, hand in enumerate(schedule, start=1):
        y = first_row + (number - 1) * row
        digit_y = y + (row - box_height) / 2
        tick_y = y + (row - TICK) / 2
        bare = isinstance(rules, DealtGame) and rules.whole_deck(number)
        trump: tuple[tuple[str, Box], ...] = ()
        if not bare:
            trump = tuple(
                (
                    code,
                    Box(trump_left + i * TICK_PITCH + (TICK_PITCH - TICK) / 2, tick_y, TICK, TICK),
                )
                for i, code in enumerate(codes)
            )
        cells = []
        for seat in range(players):
            x = left + lead + seat * group
            bid = tuple(
                Box(x + d * DIGIT_WIDTH, digit_y, DIGIT_WIDTH, box_height)
                for d in range(bid_digits)
            )
            x += bid_digits * DIGIT_WIDTH + GAP
            opened = secret = None
            if ticks:
                pad = (TICK_PITCH - TICK) / 2
                opened = Box(x + pad, tick_y, TICK, TICK)
                secret = Box(x + TICK_PITCH + pad, tick_y, TICK, TICK)
                x += 2 * TICK_PITCH + GAP
            took = tuple(
                Box(x + d * DIGIT_WIDTH, digit_y, DIGIT_WIDTH, box_height)
                for d in range(took_digits)
            )
            x += took_digits * DIGIT_WIDTH + GAP
            cells.append(PlayerCells(bid, took, opened, secret, Box(x, digit_y, total, box_height)))
        rounds.append(
            RoundCells(
                number,
                hand,
                own.bid_high(rules, hand),
                Box(left, y, width, row),
                trump,
                tuple(cells),
            )
        )
    grid = Box(left, top, width, first_row + len(schedule) * row - top)
    return CardLayout(
        game,
        players,
        options,
        tuple(rounds),
        tuple(name_boxes),
        tuple(heads),
        codes,
        grid,
        qr_box(),
    )


def qr_box() -> Box:
    """Where every card has its QR code: at the top right, beside the marker."""
    return Box(PAGE_WIDTH - MARGIN - MARKER - 6 - QR_SIZE, MARGIN, QR_SIZE, QR_SIZE)
