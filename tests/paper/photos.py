"""Photos of filled-in readable cards, made from the app's own printed card: for the reader's
tests and ``bench/paper.py``.

The PDF is rendered by poppler's ``pdftoppm``; each box is filled with a handwritten digit the
classifier never trained on (``held_out`` of ``tools/train_digits.py``) or a pen tick; the page
is then laid on a table, tilted in space and photographed (perspective, rotation, uneven light
and a shadow, blur, noise, JPEG). Everything random comes from one ``random.Random``.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.paper.layout import PAGE_HEIGHT, Box, CardLayout, card_layout
from referee.paper.reader import entries, running_totals
from referee.rules import Setup, apply, start
from referee.sheets.card import BlankCard
from referee.sheets.readable import readable_card
from tools.train_digits import held_out

#: The printed card's pixels per point before it is photographed.
PRINT_DPI = 150
PX = PRINT_DPI / 72


@dataclass(frozen=True)
class Shot:
    """How a photo is taken: tilt (degrees off square-on), turn (degrees in the picture's
    plane), blur (sigma, pixels), light (how uneven, 0–1), shadow, JPEG quality, long side."""

    tilt: float = 0.0
    turn: float = 0.0
    blur: float = 0.0
    light: float = 0.0
    shadow: bool = False
    quality: int = 90
    side: int = 2000


@cache
def printed(game: str, players: int, options: str = "{}", table: str | None = None) -> np.ndarray:
    """The readable card (``options`` as JSON; ``table``: the table it is printed for, None:
    blank) as a grey image at ``PRINT_DPI`` (rendered once per card)."""
    pdf = readable_card(BlankCard(game, players, (), None, json.loads(options)), table=table)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "card.pdf"
        path.write_bytes(pdf)
        subprocess.run(
            [
                "pdftoppm",
                "-gray",
                "-r",
                str(PRINT_DPI),
                "-singlefile",
                str(path),
                str(path.parent / "card"),
            ],
            check=True,
        )
        image = cv2.imread(str(path.parent / "card.pgm"), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    return image


@cache
def _held_out() -> dict[int, list[np.ndarray]]:
    images, labels = held_out()
    out: dict[int, list[np.ndarray]] = {d: [] for d in range(10)}
    for image, label in zip(images, labels, strict=True):
        out[int(label)].append(image)
    return out


def play(rng: random.Random, setup: Setup, rounds: int | None = None) -> dict[str, Any]:
    """A legal card's values (``reader.Cell`` keys) for ``rounds`` rounds (all: None)."""
    state = start(setup)
    game = state.game
    layout = card_layout(setup.game, len(setup.players), setup.options)
    count = len(layout.rounds) if rounds is None else rounds
    values: dict[str, Any] = {}
    for rnd in layout.rounds[:count]:
        n, hand, seats = rnd.number, rnd.hand, len(setup.players)
        while True:
            tried: dict[str, Any] = {}
            if rnd.trump:
                tried[f"{n}.trump"] = rng.choice([code for code, _box in rnd.trump])
            took = [0] * seats
            for _ in range(hand):
                took[rng.randrange(seats)] += 1
            for seat in range(1, seats + 1):
                tried[f"{n}.took.{seat}"] = took[seat - 1]
                guess = took[seat - 1] + rng.choice([0, 0, 0, 1, -1])
                high = hand if setup.game == "blackout" else 6
                tried[f"{n}.bid.{seat}"] = min(max(guess, 0), high)
                if setup.game != "blackout":
                    tried[f"{n}.open.{seat}"] = rng.random() < 0.5
            bids = sum(tried[f"{n}.bid.{s}"] for s in range(1, seats + 1))
            if setup.game == "blackout" and game.options.get("hook") and bids == hand:
                continue
            values.update(tried)
            break
    entries(setup, values, count)  # the card keeps the rules
    return values


def write_digit(
    rng: random.Random, page: np.ndarray, box: Box, digit: int, size: int | None = None
) -> None:
    """A held-out writer's ``digit`` in ``box`` of the printed page (darkens it); ``size``:
    its height in pixels (None: most of the box's)."""
    sample = rng.choice(_held_out()[digit])
    if size is None:
        size = max(6, round(box.h * PX * rng.uniform(0.62, 0.85)))
    pen = cv2.resize(
        (sample / 16.0).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC
    )
    pen = np.clip((pen - 0.2) * 1.8, 0, 1)
    cx = (box.x + box.w / 2) * PX + rng.uniform(-0.12, 0.12) * box.w * PX
    cy = (box.y + box.h / 2) * PX + rng.uniform(-0.1, 0.1) * box.h * PX
    x0, y0 = round(cx - size / 2), round(cy - size / 2)
    darkness = rng.uniform(0.7, 0.92)
    region = page[y0 : y0 + size, x0 : x0 + size].astype(np.float32)
    region *= 1 - darkness * pen[: region.shape[0], : region.shape[1]]
    page[y0 : y0 + size, x0 : x0 + size] = region.astype(np.uint8)


def write_number(rng: random.Random, page: np.ndarray, box: Box, number: int) -> None:
    """A held-out writer's ``number`` in the free ``box``, its digits side by side a little
    apart, towards the right as people write a total."""
    text = str(number)
    size = max(6, round(min(box.h * rng.uniform(0.62, 0.8), box.w * 0.8 / len(text)) * PX))
    gap = rng.uniform(0.12, 0.3) * size
    width = len(text) * size + (len(text) - 1) * gap
    room = box.w * PX - width
    x = box.x * PX + room * rng.uniform(0.45, 0.9)
    for char in text:
        digit = Box((x + size / 2) / PX - box.h / 2, box.y, box.h, box.h)
        write_digit(rng, page, digit, int(char), size)
        x += size + gap


def totals_of(setup: Setup, values: Mapping[str, Any], rounds: int) -> dict[tuple[int, int], int]:
    """Each player's running total after each round, by round and seat, as the rules give it."""
    state = start(setup)
    for event in entries(setup, values, rounds):
        state = apply(state, event)
    return {
        (number, seat): totals[player]
        for number, totals in enumerate(running_totals(state, rounds), start=1)
        for seat, player in enumerate(setup.players, start=1)
    }


def write_tick(rng: random.Random, page: np.ndarray, box: Box) -> None:
    """A pen tick or cross in ``box``."""
    x0, y0, w, h = box.x * PX, box.y * PX, box.w * PX, box.h * PX
    ink = int(rng.uniform(20, 70))
    width = max(2, round(rng.uniform(0.4, 0.7) / 25.4 * PRINT_DPI))  # a 0.4–0.7 mm pen

    def at(fx: float, fy: float) -> tuple[int, int]:
        return round(x0 + fx * w + rng.uniform(-1, 1)), round(y0 + fy * h + rng.uniform(-1, 1))

    if rng.random() < 0.5:
        cv2.line(page, at(0.15, 0.2), at(0.85, 0.8), ink, width)
        cv2.line(page, at(0.85, 0.2), at(0.15, 0.8), ink, width)
    else:
        cv2.line(page, at(0.1, 0.55), at(0.4, 0.85), ink, width)
        cv2.line(page, at(0.4, 0.85), at(0.95, 0.1), ink, width)


def fill(
    rng: random.Random,
    layout: CardLayout,
    values: Mapping[str, Any],
    table: str | None = None,
    totals: Mapping[tuple[int, int], int] | None = None,
) -> np.ndarray:
    """The printed card (for ``table``; None: blank) filled in with ``values``, and the running
    ``totals`` (by round and seat) written in their boxes."""
    options = json.dumps(dict(layout.options), sort_keys=True)
    page = printed(layout.game, layout.players, options, table).copy()
    for rnd in layout.rounds:
        n = rnd.number
        if f"{n}.took.1" not in values:
            break
        for code, box in rnd.trump:
            if values.get(f"{n}.trump") == code:
                write_tick(rng, page, box)
        for seat, cells in enumerate(rnd.players, start=1):
            for name, boxes in (("bid", cells.bid), ("took", cells.took)):
                number = values[f"{n}.{name}.{seat}"]
                text = str(number)
                if len(text) < len(boxes):
                    place = [boxes[-1]] if rng.random() < 0.85 else [boxes[0]]
                else:
                    place = list(boxes)
                for box, char in zip(place, text, strict=True):
                    write_digit(rng, page, box, int(char))
            if cells.open is not None and cells.secret is not None:
                write_tick(rng, page, cells.open if values[f"{n}.open.{seat}"] else cells.secret)
            if totals is not None and (n, seat) in totals:
                write_number(rng, page, cells.total, totals[n, seat])
    return page


def photograph(rng: random.Random, page: np.ndarray, shot: Shot) -> bytes:
    """The page photographed on a table as ``shot`` says, as JPEG bytes."""
    h, w = page.shape
    side = shot.side
    short = round(side * 0.75)
    scene_w, scene_h = (short, side) if rng.random() < 0.8 else (side, short)
    # The page as a plane in space, tilted about a random axis in it, seen by a pinhole camera.
    corners = np.array(
        [[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]]
    )
    axis = rng.uniform(0, math.pi)
    tilt = math.radians(shot.tilt)
    ax, ay = math.cos(axis), math.sin(axis)
    c, s = math.cos(tilt), math.sin(tilt)
    # Rodrigues' rotation about (ax, ay, 0).
    rot = np.array(
        [
            [c + ax * ax * (1 - c), ax * ay * (1 - c), ay * s],
            [ax * ay * (1 - c), c + ay * ay * (1 - c), -ax * s],
            [-ay * s, ax * s, c],
        ]
    )
    turn = math.radians(shot.turn)
    spin = np.array(
        [[math.cos(turn), -math.sin(turn), 0], [math.sin(turn), math.cos(turn), 0], [0, 0, 1]]
    )
    points = corners @ rot.T @ spin.T
    focal = 1.4 * max(w, h)
    distance = focal * 1.05
    projected = points[:, :2] * focal / (distance + points[:, 2:3])
    span = projected.max(axis=0) - projected.min(axis=0)
    fit = min(scene_w / span[0], scene_h / span[1]) * rng.uniform(0.8, 0.92)
    projected = projected * fit
    projected += (
        np.array([scene_w, scene_h]) / 2 - (projected.max(axis=0) + projected.min(axis=0)) / 2
    )
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    homography = cv2.getPerspectiveTransform(source, projected.astype(np.float32))
    table = np.full((scene_h, scene_w), rng.randint(60, 120), np.uint8)
    warped = cv2.warpPerspective(page, homography, (scene_w, scene_h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full_like(page, 255), homography, (scene_w, scene_h))
    scene = np.where(mask > 127, warped, table).astype(np.float32)
    if shot.light:
        yy, xx = np.mgrid[0:scene_h, 0:scene_w].astype(np.float32)
        angle = rng.uniform(0, 2 * math.pi)
        ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / max(scene_w, scene_h)
        scene *= 1 - shot.light * (ramp - ramp.min())
    if shot.shadow:
        shade = np.zeros((scene_h, scene_w), np.float32)
        centre = (rng.randrange(scene_w), rng.randrange(scene_h))
        axes = (
            rng.randrange(scene_w // 6, scene_w // 2),
            rng.randrange(scene_h // 6, scene_h // 2),
        )
        cv2.ellipse(shade, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        shade = cv2.GaussianBlur(shade, (0, 0), scene_w / 30)
        scene *= 1 - 0.35 * shade
    if shot.blur:
        scene = cv2.GaussianBlur(scene, (0, 0), shot.blur)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, 3, scene.shape)
    scene = np.clip(scene + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, shot.quality])
    assert ok
    return bytes(jpeg.tobytes())


def on_screen(rng: random.Random, page: np.ndarray, dark: bool = False) -> np.ndarray:
    """``page`` shown on a screen, as a camera sees it square on: its pixels as a grid of
    lit cells (the dark lines between them make moiré once photographed), a black bezel and
    a glare; ``dark``: shown in dark mode (light on dark). Photograph it with ``photograph``."""
    h, w = page.shape
    shown = cv2.resize(page, (540, round(540 * h / w)), interpolation=cv2.INTER_AREA)
    if dark:
        shown = 255 - shown
    cells = cv2.resize(shown, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST).astype(np.float32)
    cells[:, 2::3] *= 0.55
    cells[2::3, :] *= 0.7
    bezel = round(cells.shape[1] * 0.06)
    screen = np.zeros((cells.shape[0] + 2 * bezel, cells.shape[1] + 2 * bezel), np.float32)
    screen[bezel:-bezel, bezel:-bezel] = cells
    yy, xx = np.mgrid[0 : screen.shape[0], 0 : screen.shape[1]].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * screen.shape[1], rng.uniform(0.2, 0.8) * screen.shape[0]
    glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (screen.shape[1] / 5) ** 2))
    return np.asarray(np.clip(screen + 90 * glare, 0, 255), np.uint8)


def app_screen() -> np.ndarray:
    """A page of the app as a phone shows it (360 × 740, drawn): a heading, players' totals
    and buttons; no corner squares and no card code."""
    page = np.full((740 * 2, 360 * 2), 250, np.uint8)
    cv2.putText(page, "Round 3", (30, 90), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 20, 4)
    for row, name in enumerate(("Ann 23", "Ben 11", "Cho 30", "Dee 12")):
        cv2.putText(page, name, (40, 220 + 110 * row), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 40, 3)
    for row in range(3):
        cv2.rectangle(page, (40, 760 + 180 * row), (680, 880 + 180 * row), 70, -1)
    return page


def random_shot(rng: random.Random) -> Shot:
    """A phone photo as the bench takes them: up to 30° of tilt, any turn, some blur, uneven
    light, sometimes a shadow, JPEG quality 60–90."""
    return Shot(
        tilt=rng.uniform(0, 30),
        turn=rng.choice([rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(0, 360)]),
        blur=rng.uniform(0, 1.2),
        light=rng.uniform(0, 0.45),
        shadow=rng.random() < 0.3,
        quality=rng.randint(60, 90),
        side=rng.choice([1800, 2000, 2400]),
    )


def card_photo(
    rng: random.Random,
    setup: Setup,
    shot: Shot,
    rounds: int | None = None,
    table: str | None = None,
    totals: bool | Mapping[tuple[int, int], int] = False,
) -> tuple[bytes, dict[str, Any]]:
    """A photo of a legal card of the table ``setup`` (printed for ``table``; None: blank),
    and the values written on it. ``totals``: the running totals are written too (True: as
    the rules give them; or these, by round and seat)."""
    layout = card_layout(setup.game, len(setup.players), setup.options)
    values = play(rng, setup, rounds)
    written = None
    if totals is True:
        written = totals_of(setup, values, rounds or len(layout.rounds))
    elif totals:
        written = dict(totals)
    return photograph(rng, fill(rng, layout, values, table, written), shot), values


__all__ = [
    "PAGE_HEIGHT",
    "Shot",
    "app_screen",
    "card_photo",
    "fill",
    "on_screen",
    "photograph",
    "play",
    "printed",
    "random_shot",
    "totals_of",
]
