"""The handwritten digit classifier: trained on first use from the digits scikit-learn ships.

scikit-learn's ``load_digits`` holds 1,797 handwritten digits (from the UCI "optdigits" set, by
43 writers), each a 32 × 32 bitmap counted into 8 × 8 blocks of 0–16 pixels. The classifier is
an RBF support vector machine trained on the first ``TRAINED`` of them when a process first
reads a card (about a second), and kept for the life of the process; nothing is downloaded or
stored. The rest of the set, written mostly by other writers, is what ``bench/paper.py`` fills
its cards with, so the figures measure writers the classifier never saw.

A box's ink is brought to the same shape as the training digits (``features``): the ink's
bounding box made square around its middle, scaled to 32 × 32, thresholded and counted in
4 × 4 blocks.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: How many of the shipped digits train the classifier; the rest are kept for the bench.
TRAINED = 1300
#: The sizes (pixels), blurs and turns (degrees) each training digit is drawn again at.
VARIANTS = ((22, 0.0, 0.0), (34, 0.0, 0.0), (28, 1.2, 7.0), (40, 0.8, -7.0))
#: The digit pairs of the one-against-one decision values, in scikit-learn's order.
PAIRS = [(i, j) for i in range(10) for j in range(i + 1, 10)]
#: How sharply the margins become odds (see ``probabilities``).
SHARPNESS = 6.0
#: The smallest probability a digit is given, so that the rules can still choose it.
FLOOR = 1e-4


@cache
def _model() -> Any:
    """The trained classifier (trained once per process)."""
    from sklearn.datasets import load_digits
    from sklearn.svm import SVC

    data = load_digits()
    images, labels = data.images[:TRAINED], data.target[:TRAINED]
    samples = [image.reshape(64) for image in images]
    for size, blur, turn in VARIANTS:  # each digit again as the reader sees a written one
        for image in images:
            found = features(stroke(image, size, blur, turn))
            samples.append(found if found is not None else image.reshape(64))
    model = SVC(gamma=0.0012, C=8.0, decision_function_shape="ovo")
    model.fit(np.stack(samples), np.concatenate([labels] * (1 + len(VARIANTS))))
    return model


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


def held_out() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The shipped digits the classifier is not trained on (8 × 8, 0–16), with their labels."""
    from sklearn.datasets import load_digits

    data = load_digits()
    return data.images[TRAINED:], data.target[TRAINED:]


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
    pairs = _model().decision_function(np.stack(samples))
    weakest = np.full((len(samples), 10), np.inf)
    for k, (i, j) in enumerate(PAIRS):
        weakest[:, i] = np.minimum(weakest[:, i], pairs[:, k])
        weakest[:, j] = np.minimum(weakest[:, j], -pairs[:, k])
    scaled = np.exp(SHARPNESS * (weakest - weakest.max(axis=1, keepdims=True)))
    out = np.maximum(scaled / scaled.sum(axis=1, keepdims=True), FLOOR)
    result: NDArray[np.float64] = out / out.sum(axis=1, keepdims=True)
    return result
