"""Read a photographed card: every box's likeliest readings, then per round the readings the
rules allow, and the boxes still in doubt.

A box of digits gets a probability for every value it may hold (``digits``); a tick box its
share of ink. Per round, the rules choose among them: the tricks won add up to the hand, a bid
is within the hand (Alles oder Nichts: 0–6), Blackout's bids may not add up to the hand when the
table plays with the hook, one trump is ticked (none in a round that deals the whole deck), one
of open and secret. The chosen readings are the likeliest whole round the rules allow (an exact
search: a few players' sums); a box is in doubt when another value is nearly as likely for the
round as a whole, when the rules had to overrule the classifier, or when it is empty in a round
that was played; and with a box in doubt in a sum, the boxes its runner-up would change too
(answered alone, the round would no longer add up). Last, the chosen card is replayed through
the rules engine itself (``entries``): a round it refuses has all its boxes asked about, so no
reading that breaks a rule is ever proposed unasked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from referee.paper import digits
from referee.paper.layout import (
    Box,
    CardCode,
    CardLayout,
    RoundCells,
    card_code,
    card_layout,
    qr_box,
)
from referee.paper.photo import SCALE, PhotoError, card_of
from referee.rules import Breach, Setup, State, apply, start
from referee.rules import events as ev
from referee.rules.scores import Score

#: A box is asked about when the next likeliest value is within this factor of the chosen one.
DOUBT_RATIO = 22.0
#: ... or when the rules chose a value the classifier gave less than this.
OVERRULED = 0.03
#: The share of a tick box's inside that ink must cover for it to count as ticked.
TICKED = 0.07
#: The share of a digit box's inside that ink must cover for it to hold a digit.
INKED = 0.025
#: How many readings a question offers.
CHOICES = 4
#: The JPEG quality of the card's photo as the table keeps it (``Reading.kept``).
KEPT_QUALITY = 75
#: A written total may be read as every number within this factor of its likeliest reading:
#: the rules' total is strong evidence, so a dispute needs a clear reading against it.
TOTAL_RATIO = 1000.0
#: The most digits a written total is read with.
TOTAL_DIGITS = 4


@dataclass
class Cell:
    """One thing the card says: a round's trump, or a player's bid, tricks, open or secret.

    ``key`` names it in a form (``3.bid.2``: round 3, seat 2's bid); ``value`` is the reading
    chosen (None: nothing chosen), ``choices`` the likeliest allowed readings, best first,
    ``doubtful`` whether the scorekeeper is asked, ``box`` where it is on the card."""

    key: str
    round: int
    seat: int | None
    field: str
    value: Any
    choices: tuple[Any, ...]
    confidence: float
    doubtful: bool
    box: Box
    #: What the box alone says, before the rules (the bench's figure without them).
    alone: Any = None


@dataclass(frozen=True)
class Dispute:
    """A running total written on the card that is not the one the rules give: round
    ``round``'s total of the player in ``seat``, and that player's ``score`` in the round (its
    terms say the scoring rule)."""

    round: int
    seat: int
    player: str
    written: int
    computed: int
    score: Score


@dataclass
class Reading:
    """What the reader made of a card: the rounds filled in and every cell, with the
    straightened photo to cut the doubtful boxes from; the running totals written on it that
    could be read (``totals``: by round and seat) and those the rules disagree with."""

    layout: CardLayout
    rounds: int
    cells: list[Cell]
    image: NDArray[np.uint8]
    refused: dict[int, Breach] = field(default_factory=dict)
    totals: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    disputes: list[Dispute] = field(default_factory=list)

    def values(self) -> dict[str, Any]:
        return {cell.key: cell.value for cell in self.cells}

    def doubts(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.doubtful]

    def cutout(self, cell: Cell) -> bytes:
        """The photo's piece around ``cell`` as PNG bytes, to show beside its question."""
        return self.cutout_box(cell.box)

    def cutout_box(self, box: Box) -> bytes:
        """The photo's piece around ``box`` as PNG bytes."""
        import cv2

        x0 = max(0, int((box.x - 6) * SCALE))
        y0 = max(0, int((box.y - 4) * SCALE))
        x1 = int((box.x + box.w + 6) * SCALE)
        y1 = int((box.y + box.h + 4) * SCALE)
        ok, png = cv2.imencode(".png", self.image[y0:y1, x0:x1])
        assert ok
        return bytes(png.tobytes())

    def kept(self) -> bytes:
        """The card as the table keeps it: the straightened page alone (nothing around it, no
        camera metadata), grey, as a JPEG of a few hundred KB."""
        import cv2

        ok, jpeg = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, KEPT_QUALITY])
        assert ok
        return bytes(jpeg.tobytes())


class CardMismatch(ValueError):
    """A card that is not this table's: another game, player count or options, or printed for
    another table. ``reason``: ``game``, ``players``, ``options`` or ``table``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def read(data: bytes, setup: Setup, table: str | None = None) -> Reading:
    """Read the photo ``data`` of a readable card for the table ``setup`` (its id ``table``:
    a card printed for another table is refused; a blank card fits any table like it).
    ``PhotoError`` when it cannot be read as a card, ``CardMismatch`` when it is another
    table's kind of card."""
    game = start(setup).game
    here = card_layout(setup.game, len(setup.players), setup.options)
    card = card_of(data, here.qr)
    code = card.code
    if code.game != setup.game:
        raise CardMismatch("game", f"a card of {code.game}")
    if code.players != len(setup.players):
        raise CardMismatch("players", f"a card for {code.players} players")
    if code.table is not None and table is not None and code.table != table:
        raise CardMismatch("table", f"a card printed for table {code.table}")
    try:
        theirs = card_layout(code.game, code.players, code.options)
    except ValueError as error:
        raise CardMismatch("options", str(error)) from error
    if theirs.options != dict(game.options):
        raise CardMismatch("options", f"a card for the options {theirs.options}")
    return read_straight(card.image, here, setup)


def read_blank(data: bytes) -> tuple[CardCode, Reading]:
    """Read the photo ``data`` of a blank readable card of any game (a group's paper game):
    what its code names, and the card read for a table of that game with its seats as players
    (``seat 1``, ``seat 2`` …; who sat where is asked after). ``PhotoError`` as ``read``;
    ``CardMismatch`` (``table``) for a card printed for a table, which is read into that
    table, and (``game``) for a card whose game or options this app has no card for."""
    card = card_of(data, qr_box())
    code = card.code
    if code.table is not None:
        raise CardMismatch("table", f"a card printed for table {code.table}")
    names = tuple(f"seat {n}" for n in range(1, code.players + 1))
    try:
        layout = card_layout(code.game, code.players, code.options)
        setup = Setup(code.game, names, dict(layout.options), names[0])
        start(setup)
    except (ValueError, KeyError, LookupError) as error:  # no such game, size or options here
        raise CardMismatch("game", str(error)) from error
    if card_code(code.game, code.players, layout.options) != card_code(
        code.game, code.players, code.options
    ):
        raise CardMismatch("options", f"a card for the options {code.options}")
    return code, read_straight(card.image, layout, setup)


def ink_of(image: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Pen ink on the straightened card, 0 (paper, and the light grey boxes) to 1 (pen): the
    grey level against the paper's own brightness nearby, so that shade and uneven light do
    not count as ink."""
    import cv2

    grey = image.astype(np.float32)
    paper = cv2.dilate(grey, np.ones((15, 15), np.uint8))
    paper = cv2.GaussianBlur(paper, (0, 0), 8)
    ratio = grey / np.maximum(paper, 1.0)
    ink: NDArray[np.float32] = np.clip((0.66 - ratio) / 0.3, 0.0, 1.0).astype(np.float32)
    return ink


def inside(ink: NDArray[np.float32], box: Box, by: float) -> NDArray[np.float32]:
    """The ink inside ``box``, ``by`` points in from its edges (its printed lines)."""
    inner = box.inset(by)
    y0, y1 = int(inner.y * SCALE), int((inner.y + inner.h) * SCALE)
    x0, x1 = int(inner.x * SCALE), int((inner.x + inner.w) * SCALE)
    return ink[y0:y1, x0:x1]


def covered(piece: NDArray[np.float32]) -> float:
    return float((piece > 0.5).mean()) if piece.size else 0.0


@dataclass
class Field:
    """One cell's raw readings: a probability for every value, before the rules."""

    key: str
    seat: int | None
    field: str
    box: Box
    odds: dict[Any, float]
    blank: bool


def number_odds(
    ink: NDArray[np.float32], boxes: Sequence[Box], high: int
) -> tuple[dict[Any, float], bool]:
    """The odds of every value 0…``high`` a box of digits holds, and whether it is empty. One
    box written: that digit (people write a small number in either box); two: tens and units."""
    pieces = [inside(ink, box, 1.6) for box in boxes]
    written = [covered(piece) >= INKED for piece in pieces]
    samples = [
        digits.features(piece) if w else None for piece, w in zip(pieces, written, strict=True)
    ]
    found = [s for s in samples if s is not None]
    probs = list(digits.probabilities(found))
    per_box = [probs.pop(0) if s is not None else None for s in samples]
    used = [p for p in per_box if p is not None]
    values = range(high + 1)
    if not used:
        return {v: 1.0 for v in values}, True
    if len(used) == 1:
        odds = {v: float(used[0][v]) if v < 10 else digits.FLOOR**2 for v in values}
    else:
        tens, units = used[0], used[-1]
        odds = {v: float(tens[v // 10] * units[v % 10]) if v < 100 else 0.0 for v in values}
    total = sum(odds.values()) or 1.0
    return {v: max(p / total, 1e-6) for v, p in odds.items()}, False


def written_total(ink: NDArray[np.float32], box: Box) -> tuple[int, ...] | None:
    """The running total written in a free ``box``: its digits found left to right as the
    columns of ink between gaps (one too wide for a digit split evenly), each read by the
    classifier. The readings it may be, likeliest first: every number within ``TOTAL_RATIO``
    of the likeliest (a total disagrees only when the rules' is none of them); None when the
    box is empty or does not hold a number of at most ``TOTAL_DIGITS`` digits."""
    piece = inside(ink, box, 1.6)
    mask = piece > 0.35
    if mask.sum() < 8:
        return None
    columns: list[bool] = np.asarray(mask.any(axis=0), bool).tolist()
    runs: list[tuple[int, int]] = []
    start_at: int | None = None
    for x, inked in enumerate([*columns, False]):
        if inked and start_at is None:
            start_at = x
        elif not inked and start_at is not None:
            if x - start_at >= 2:
                runs.append((start_at, x))
            start_at = None
    rows = np.flatnonzero(mask.any(axis=1))
    if not runs or not rows.size:
        return None
    height = rows[-1] - rows[0] + 1
    spans: list[tuple[int, int]] = []
    for x0, x1 in runs:
        parts = max(1, round((x1 - x0) / (0.85 * height)))
        step = (x1 - x0) / parts
        spans += [(round(x0 + i * step), round(x0 + (i + 1) * step)) for i in range(parts)]
    if len(spans) > TOTAL_DIGITS:
        return None
    samples = [digits.features(piece[:, x0:x1]) for x0, x1 in spans]
    found = [sample for sample in samples if sample is not None]
    if len(found) != len(samples):
        return None
    odds = digits.probabilities(found)
    readings: dict[int, float] = {0: 1.0}
    for row in odds:
        likely = [d for d in range(10) if row[d] * TOTAL_RATIO >= row.max()]
        readings = {v * 10 + d: p * float(row[d]) for v, p in readings.items() for d in likely}
    best = max(readings.values())
    kept = [v for v, p in readings.items() if p * TOTAL_RATIO >= best]
    return tuple(sorted(kept, key=lambda v: -readings[v]))


def running_totals(state: State, rounds: int) -> list[dict[str, int]]:
    """Each player's running total after each of the first ``rounds`` rounds of ``state``."""
    out: list[dict[str, int]] = []
    totals = dict.fromkeys(state.players, 0)
    for number in range(1, rounds + 1):
        for player, score in (state.scores(number) or {}).items():
            totals[player] = totals.get(player, 0) + score.points
        out.append(dict(totals))
    return out


def disputes(
    setup: Setup,
    values: Mapping[str, Any],
    rounds: int,
    written: Mapping[tuple[int, int], Sequence[int]],
) -> list[Dispute]:
    """The running totals ``written`` on the card (by round and seat: what each may be read
    as, likeliest first) that the rules do not give, for the card whose cells say ``values``:
    each player's first (the later ones follow from it). A total counts as disagreeing only
    when the next total read disagrees too, by the same amount (a slip on paper, or a box read
    wrong, is carried on; a total read wrong is not), or, the last one read, when it reads only
    one way.
    Nothing when the card's rounds are not yet a game the rules allow."""
    try:
        state = start(setup)
        for event in entries(setup, values, rounds):
            state = apply(state, event)
    except (Breach, KeyError, ValueError):
        return []
    running = running_totals(state, rounds)
    found: dict[int, Dispute] = {}
    for seat, player in enumerate(setup.players, start=1):
        read_at = [
            (n, tuple(written[n, seat]))
            for n in range(1, rounds + 1)
            if written.get((n, seat)) and player in running[n - 1]
        ]
        for at, (n, readings) in enumerate(read_at):
            computed = running[n - 1][player]
            if computed in readings:
                continue
            later = read_at[at + 1 : at + 2]
            if later:  # a slip is carried on, by the same amount; a total read wrong is not
                after, then = later[0]
                following = running[after - 1][player]
                offsets = {w - computed for w in readings}
                if following in then or not any(v - following in offsets for v in then):
                    continue
            elif len(readings) > 1:
                continue
            score = (state.scores(n) or {}).get(player)
            if score is not None:
                found[seat] = Dispute(n, seat, player, readings[0], computed, score)
            break
    return [found[seat] for seat in sorted(found)]


def tick_odds(shares: Mapping[Any, float]) -> dict[Any, float]:
    """The odds that each tick box is the one ticked, from the ink in each."""
    marks = {key: share for key, share in shares.items()}
    odds = {key: 0.9 if share >= TICKED else 0.02 + share for key, share in marks.items()}
    total = sum(odds.values())
    return {key: p / total for key, p in odds.items()}


def raw_fields(
    ink: NDArray[np.float32], layout: CardLayout, rnd: RoundCells, hand: int
) -> list[Field]:
    """Every cell of round ``rnd`` with its odds before the rules."""
    out: list[Field] = []
    n = rnd.number
    if rnd.trump:
        shares: dict[Any, float] = {code: covered(inside(ink, box, 1.2)) for code, box in rnd.trump}
        boxes = tuple(box for _c, box in rnd.trump)
        whole = Box(boxes[0].x, boxes[0].y, boxes[-1].x + boxes[-1].w - boxes[0].x, boxes[0].h)
        blank = all(share < TICKED for share in shares.values())
        out.append(Field(f"{n}.trump", None, "trump", whole, tick_odds(shares), blank))
    bid_high = rnd.bid_high
    for seat, cells in enumerate(rnd.players, start=1):
        if cells.open is not None and cells.secret is not None:
            shares = {
                True: covered(inside(ink, cells.open, 1.2)),
                False: covered(inside(ink, cells.secret, 1.2)),
            }
            whole = Box(
                cells.open.x,
                cells.open.y,
                cells.secret.x + cells.secret.w - cells.open.x,
                cells.open.h,
            )
            ticked = [k for k, share in shares.items() if share >= TICKED]
            out.append(
                Field(f"{n}.open.{seat}", seat, "open", whole, tick_odds(shares), len(ticked) != 1)
            )
        for name, boxes, high in (("bid", cells.bid, bid_high), ("took", cells.took, hand)):
            odds, blank = number_odds(ink, boxes, high)
            whole = Box(boxes[0].x, boxes[0].y, boxes[-1].x + boxes[-1].w - boxes[0].x, boxes[0].h)
            out.append(Field(f"{n}.{name}.{seat}", seat, name, whole, odds, blank))
    return out


def joint_scores(
    odds: Sequence[Mapping[int, float]], allowed: Callable[[int], bool]
) -> tuple[list[dict[int, float]], list[int]]:
    """For several numbers whose sum must be ``allowed``: for each number and each value it may
    take, the log-likelihood of the likeliest whole set with it at that value (-inf when none
    is allowed); and the likeliest whole set itself. Exact, by sums: forward and backward over
    the numbers."""
    count = len(odds)
    logs = [{v: math.log(p) for v, p in o.items()} for o in odds]
    forward: list[dict[int, float]] = [{0: 0.0}]
    for i in range(count):
        step: dict[int, float] = {}
        for total, score in forward[i].items():
            for v, lp in logs[i].items():
                key = total + v
                if score + lp > step.get(key, -math.inf):
                    step[key] = score + lp
        forward.append(step)
    backward: list[dict[int, float]] = [{} for _ in range(count + 1)]
    backward[count] = {0: 0.0}
    for i in range(count - 1, -1, -1):
        step = {}
        for total, score in backward[i + 1].items():
            for v, lp in logs[i].items():
                key = total + v
                if score + lp > step.get(key, -math.inf):
                    step[key] = score + lp
        backward[i] = step
    out: list[dict[int, float]] = []
    for i in range(count):
        best: dict[int, float] = {}
        for v, lp in logs[i].items():
            top = -math.inf
            for before, left in forward[i].items():
                for after, right in backward[i + 1].items():
                    if allowed(before + v + after):
                        top = max(top, left + lp + right)
            best[v] = top
        out.append(best)
    chosen: list[int] = []
    so_far = 0
    for i in range(count):
        best_value, top = next(iter(logs[i])), -math.inf
        for v, lp in logs[i].items():
            for after, right in backward[i + 1].items():
                if allowed(so_far + v + after) and lp + right > top:
                    best_value, top = v, lp + right
        chosen.append(best_value)
        so_far += best_value
    return out, chosen


def likeliest(
    odds: Sequence[Mapping[int, float]], allowed: Callable[[int], bool], forced: Mapping[int, int]
) -> list[int] | None:
    """The likeliest values of several numbers whose sum must be ``allowed``, with the numbers
    ``forced`` (by index) at the values given; None when no such set is allowed."""
    fixed = [
        {v: p for v, p in o.items() if v == forced[i]} if i in forced else o
        for i, o in enumerate(odds)
    ]
    if any(not o for o in fixed):
        return None
    joints, chosen = joint_scores(fixed, allowed)
    return chosen if all(max(j.values()) > -math.inf for j in joints) else None


def decide(
    fields: Sequence[Field], scores: Mapping[str, dict[Any, float]], best: Mapping[str, Any]
) -> list[Cell]:
    """Each field's reading: its value in the likeliest allowed round (``best``; else its
    own likeliest), with its doubts: how close the likeliest round with another value in it
    comes (``scores``), whether the rules overruled the box, whether it is empty."""
    cells = []
    for f in fields:
        joint = scores[f.key]
        ranked = sorted((v for v in joint if joint[v] > -math.inf), key=lambda v: -joint[v])
        if not ranked:
            ranked = sorted(f.odds, key=lambda v: -f.odds[v])
        chosen = best.get(f.key, ranked[0])
        ranked = [chosen, *(v for v in ranked if v != chosen)]
        others = [joint[v] for v in ranked[1:] if v in joint]
        margin = joint.get(chosen, -math.inf) - max(others, default=-math.inf)
        overruled = f.odds.get(chosen, 0.0) < OVERRULED
        doubtful = f.blank or overruled or margin < math.log(DOUBT_RATIO)
        n = int(f.key.split(".")[0])
        cells.append(
            Cell(
                f.key,
                n,
                f.seat,
                f.field,
                chosen,
                tuple(ranked[:CHOICES]),
                f.odds.get(chosen, 0.0),
                doubtful,
                f.box,
                max(f.odds, key=lambda v: f.odds[v]),
            )
        )
    return cells


def round_cells(fields: Sequence[Field], layout: CardLayout, hand: int, hook: bool) -> list[Cell]:
    """A round's readings as the rules choose them."""
    scores: dict[str, dict[Any, float]] = {}
    best: dict[str, Any] = {}
    for f in fields:
        if f.field in ("trump", "open") or (f.field == "bid" and not hook):
            scores[f.key] = {k: math.log(p) for k, p in f.odds.items()}
    sums = [("took", lambda total: total == hand)]
    if hook:  # the bids may not add up to the hand (Blackout's hook)
        sums.append(("bid", lambda total: total != hand))
    groups = []
    for name, allowed in sums:
        group = [f for f in fields if f.field == name]
        joints, chosen = joint_scores([f.odds for f in group], allowed)
        for f, joint, value in zip(group, joints, chosen, strict=True):
            scores[f.key], best[f.key] = joint, value
        groups.append((group, allowed))
    cells = decide(fields, scores, best)
    # A box asked about in a sum asks about the boxes the likeliest round with its runner-up
    # changes too: answered alone, the round would no longer add up.
    by_key = {cell.key: cell for cell in cells}
    for group, allowed in groups:
        for i, f in enumerate(group):
            cell = by_key[f.key]
            if not cell.doubtful or len(cell.choices) < 2:
                continue
            other = likeliest([g.odds for g in group], allowed, {i: cell.choices[1]})
            for g, value in zip(group, other or [], strict=False):
                if value != by_key[g.key].value:
                    by_key[g.key].doubtful = True
    return cells


def read_straight(image: NDArray[np.uint8], layout: CardLayout, setup: Setup) -> Reading:
    """Read a straightened card of the table ``setup``."""
    ink = ink_of(image)
    game = start(setup).game
    hook = bool(game.options.get("hook", False))
    per_round = [raw_fields(ink, layout, rnd, rnd.hand) for rnd in layout.rounds]
    filled = [
        n
        for n, fields in enumerate(per_round, start=1)
        if any(not f.blank for f in fields if f.field in ("bid", "took"))
    ]
    rounds = max(filled, default=0)
    cells: list[Cell] = []
    for rnd, fields in zip(layout.rounds[:rounds], per_round[:rounds], strict=True):
        cells += round_cells(fields, layout, rnd.hand, hook)
    reading = Reading(layout, rounds, cells, image)
    check(reading, setup)
    for rnd in layout.rounds[:rounds]:
        for seat, own in enumerate(rnd.players, start=1):
            total = written_total(ink, own.total)
            if total is not None:
                reading.totals[rnd.number, seat] = total
    reading.disputes = disputes(setup, reading.values(), rounds, reading.totals)
    # A total that disagrees may be a box misread: its player's boxes of that round are asked.
    for dispute in reading.disputes:
        for cell in reading.cells:
            if cell.round == dispute.round and cell.seat == dispute.seat:
                cell.doubtful = True
    return reading


def check(reading: Reading, setup: Setup) -> None:
    """Replay the chosen card through the rules engine: every box of a round it refuses (and of
    the rounds after, which build on it) becomes a question."""
    try:
        entries(setup, reading.values(), reading.rounds)
    except Breach as breach:
        bad = breach.round or 1
        reading.refused[bad] = breach
        for cell in reading.cells:
            if cell.round >= bad:
                cell.doubtful = True


def entries(setup: Setup, values: Mapping[str, Any], rounds: int) -> list[ev.Event]:
    """The table's entries for the first ``rounds`` rounds of a card whose cells say ``values``
    (keys as ``Cell.key``), in the order the table makes them, each checked by the rules
    engine (``Breach`` for the first it refuses; ``KeyError`` for a value missing)."""
    state = start(setup)
    seat_of = {player: seat for seat, player in enumerate(setup.players, start=1)}
    out: list[ev.Event] = []
    while (step := state.next_step()) is not None and step.round <= rounds:
        n = step.round
        event: ev.Event
        if step.action == "trump":
            event = ev.Trump(n, str(values[f"{n}.trump"]))
        elif step.action == "bid":
            assert step.player is not None
            event = ev.Bid(n, step.player, int(values[f"{n}.bid.{seat_of[step.player]}"]))
        elif step.action == "declare":
            assert step.player is not None
            seat = seat_of[step.player]
            opened = bool(values[f"{n}.open.{seat}"])
            bid = int(values[f"{n}.bid.{seat}"]) if opened else None
            event = ev.Declare(n, step.player, opened, bid)
        elif step.action == "reveal":
            assert step.player is not None
            event = ev.Reveal(n, step.player, int(values[f"{n}.bid.{seat_of[step.player]}"]))
        else:
            tricks = {p: int(values[f"{n}.took.{seat_of[p]}"]) for p in state.seats_in(n)}
            event = ev.Tricks(n, tricks)
        state = apply(state, event)
        out.append(event)
    return out


__all__ = [
    "CardMismatch",
    "Cell",
    "Dispute",
    "PhotoError",
    "Reading",
    "disputes",
    "entries",
    "read",
    "read_blank",
]
