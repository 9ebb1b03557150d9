"""The handwritten digit classifier: a support vector machine, run with numpy alone.

The machine was trained by ``tools/train_digits.py`` on scikit-learn's handwritten digits (the
UCI "optdigits" set: 43 writers, each digit a 32 × 32 bitmap counted into 8 × 8 blocks of
0–16), and is committed as ``digits.npz``: its support vectors, their coefficients, the
intercepts and the kernel's gamma. Here the one-against-one decision values are computed from
them as libsvm does (an RBF kernel against every support vector, then per pair of digits the
two digits' weighted sums and the intercept), so the app needs neither scikit-learn nor
anything downloaded; the file is read once per process.

A box's ink is brought to the same shape as the training digits (``features``): the ink's
bounding box made square around its middle, scaled to 32 × 32, thresholded and counted in
4 × 4 blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: The trained machine (``tools/train_digits.py`` writes it).
MODEL = Path(__file__).with_name("digits.npz")
#: The digit pairs of the one-against-one decision values, in libsvm's order.
PAIRS = [(i, j) for i in range(10) for j in range(i + 1, 10)]
#: How sharply the margins become odds (see ``probabilities``).
SHARPNESS = 6.0
#: The smallest probability a digit is given, so that the rules can still choose it.
FLOOR = 1e-4


@dataclass(frozen=True)
class Machine:
    """The trained machine: support vectors (rows, by digit), their coefficients against each
    other digit, the pairs' intercepts, where each digit's support vectors start, gamma."""

    support: NDArray[np.float64]
    squares: NDArray[np.float64]
    dual: NDArray[np.float64]
    intercept: NDArray[np.float64]
    starts: tuple[int, ...]
    gamma: float


@cache
def _model() -> Machine:
    """The committed machine (read once per process)."""
    with np.load(MODEL) as saved:
        support = saved["support"].astype(np.float64)
        counts = [int(n) for n in saved["counts"]]
        return Machine(
            support,
            (support**2).sum(axis=1),
            saved["dual"],
            saved["intercept"],
            tuple(int(n) for n in np.concatenate([[0], np.cumsum(counts)])),
            float(saved["gamma"][0]),
        )


def decisions(samples: NDArray[np.float64]) -> NDArray[np.float64]:
    """The 45 one-against-one decision values of each sample (rows), in ``PAIRS`` order:
    positive where the pair's first digit wins."""
    machine = _model()
    distances = (
        (samples**2).sum(axis=1)[:, None]
        + machine.squares[None, :]
        - 2 * samples @ machine.support.T
    )
    kernel = np.exp(-machine.gamma * np.maximum(distances, 0.0))
    starts = machine.starts
    out = np.empty((len(samples), len(PAIRS)))
    for k, (i, j) in enumerate(PAIRS):
        own, other = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
        out[:, k] = (
            kernel[:, own] @ machine.dual[j - 1, own]
            + kernel[:, other] @ machine.dual[i, other]
            + machine.intercept[k]
        )
    return out


def stroke(
    image: NDArray[np.float64], size: int, blur: float = 0.0, turn: float = 0.0
) -> NDArray[np.float32]:
    """An 8 × 8 digit (0–16) drawn ``size`` pixels high as ink (0–1) with a margin, blurred by
    ``blur`` (sigma, pixels) and turned by ``turn`` degrees: how the reader sees it written in
    a box and photographed."""
    import cv2

    pen = cv2.resize((image / 16.0).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    ink: NDArray[Any] = np.zeros((size + 8, size + 8), np.float32)
    ink[4 : 4 + size, 4 : 4 + size] = np.clip((pen - 0.2) * 1.8, 0.0, 1.0)
    if turn:
        middle = ((size + 8) / 2, (size + 8) / 2)
        ink = cv2.warpAffine(ink, cv2.getRotationMatrix2D(middle, turn, 1.0), ink.shape[::-1])
    if blur:
        ink = np.clip(cv2.GaussianBlur(ink, (0, 0), blur) * 1.3, 0.0, 1.0)
    return np.asarray(ink, np.float32)


def features(ink: NDArray[np.float32]) -> NDArray[np.float64] | None:
    """A box's ink (0 paper … 1 pen) as the classifier's 64 counts, or None when it holds no
    stroke worth reading."""
    mask = ink > 0.35
    if mask.sum() < 4:
        return None
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    side = max(bottom - top, right - left)
    square = np.zeros((side, side), np.float32)
    y0 = (side - (bottom - top)) // 2
    x0 = (side - (right - left)) // 2
    square[y0 : y0 + bottom - top, x0 : x0 + right - left] = ink[top:bottom, left:right]
    import cv2

    big = cv2.resize(square, (32, 32), interpolation=cv2.INTER_AREA)
    bits = (big > 0.3).astype(np.float64)
    counts: NDArray[np.float64] = bits.reshape(8, 4, 8, 4).sum(axis=(1, 3)).reshape(64)
    return counts


def probabilities(samples: list[NDArray[np.float64]]) -> NDArray[np.float64]:
    """Each sample's probability of being 0–9 (rows). The machine's 45 one-against-one
    decision values give each digit its weakest win (its margin against its closest rival);
    a softmax of those, ``SHARPNESS`` times, makes the odds. On the held-out digits a gap of
    about half a unit between the two best separates almost every misreading from the rest."""
    if not samples:
        return np.zeros((0, 10))
    pairs = decisions(np.stack(samples))
    weakest = np.full((len(samples), 10), np.inf)
    for k, (i, j) in enumerate(PAIRS):
        weakest[:, i] = np.minimum(weakest[:, i], pairs[:, k])
        weakest[:, j] = np.minimum(weakest[:, j], -pairs[:, k])
    scaled = np.exp(SHARPNESS * (weakest - weakest.max(axis=1, keepdims=True)))
    out = np.maximum(scaled / scaled.sum(axis=1, keepdims=True), FLOOR)
    result: NDArray[np.float64] = out / out.sum(axis=1, keepdims=True)
    return result
