"""Draws the app's icons (``static/icon-192.png`` and ``-512.png`` for the web app manifest,
``-48.png`` for the browser's tab, served as ``/favicon.ico``): a playing card with
a red heart on the app's blue, full bleed, with everything that matters inside the middle 80 %
so that a phone may cut it to a circle or a rounded square (a "maskable" icon).

Run it again after changing the drawing (Pillow, which reportlab brings along, is enough):

    .venv/bin/python tools/draw_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "static"
BLUE = (11, 92, 173)  # --accent of static/style.css
CARD = (255, 255, 255)
EDGE = (214, 211, 204)  # --line
RED = (190, 22, 34)
#: Drawn this many times larger, then scaled down: smooth edges without anti-aliasing by hand.
OVERSAMPLE = 4


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A heart ``size`` wide whose middle is at (``cx``, ``cy``): two circles and a point."""
    r = size / 4
    for x in (cx - r, cx + r):
        draw.ellipse((x - r, cy - r * 1.4, x + r, cy + r * 0.6), fill=RED)
    draw.polygon(
        [(cx - 2 * r, cy - r * 0.25), (cx + 2 * r, cy - r * 0.25), (cx, cy + size * 0.7)],
        fill=RED,
    )


def icon(size: int) -> Image.Image:
    big = size * OVERSAMPLE
    image = Image.new("RGB", (big, big), BLUE)
    draw = ImageDraw.Draw(image)
    s = big / 100  # drawn on a 100 × 100 grid
    # The card behind, turned a little: only its edge shows.
    draw.rounded_rectangle((30 * s, 20 * s, 74 * s, 80 * s), 6 * s, fill=EDGE)
    draw.rounded_rectangle((24 * s, 22 * s, 68 * s, 82 * s), 6 * s, fill=CARD)
    heart(draw, 46 * s, 50 * s, 24 * s)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for size in (48, 192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
