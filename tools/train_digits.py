"""Trains the paper reader's digit classifier and writes it to ``referee/paper/digits.npz``.

The classifier is an RBF support vector machine (scikit-learn's ``SVC``, one against one)
trained on the first ``TRAINED`` of the 1,797 handwritten digits scikit-learn ships (the UCI
"optdigits" set, 43 writers; each a 32 × 32 bitmap counted into 8 × 8 blocks of 0–16), each
also drawn again as a photographed box shows it (``VARIANTS``: size, blur, turn; through the
reader's own ``features``). What the reader needs of it is written as plain arrays: the support
vectors (whole numbers 0–16, as bytes), their coefficients, the intercepts, how many support
vectors each digit has and the kernel's gamma; ``referee.paper.digits`` computes the decision
values from them with numpy alone, so scikit-learn is a tool of the repository
(requirements-dev.txt), not of the running app. The rest of the set (``held_out``) is what
``bench/paper.py`` and the tests write on their cards: mostly other writers than those the
classifier learned from. ``tests/paper/test_digits.py`` checks that this script makes the
committed file and that the reader's numpy decisions are scikit-learn's.

Run it again after changing the training (scikit-learn from requirements-dev.txt):

    .venv/bin/python tools/train_digits.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.paper.digits import MODEL, features, stroke

#: How many of the shipped digits train the classifier; the rest are kept for the bench.
TRAINED = 1300
#: The sizes (pixels), blurs and turns (degrees) each training digit is drawn again at.
VARIANTS = ((22, 0.0, 0.0), (34, 0.0, 0.0), (28, 1.2, 7.0), (40, 0.8, -7.0))
#: The machine's settings, chosen on cards of other seeds than the bench's.
GAMMA = 0.0012
C = 8.0


def fitted() -> Any:
    """The support vector machine, trained."""
    from sklearn.datasets import load_digits
    from sklearn.svm import SVC

    data = load_digits()
    images, labels = data.images[:TRAINED], data.target[:TRAINED]
    samples = [image.reshape(64) for image in images]
    for size, blur, turn in VARIANTS:  # each digit again as the reader sees a written one
        for image in images:
            found = features(stroke(image, size, blur, turn))
            samples.append(found if found is not None else image.reshape(64))
    model = SVC(gamma=GAMMA, C=C, decision_function_shape="ovo")
    model.fit(np.stack(samples), np.concatenate([labels] * (1 + len(VARIANTS))))
    return model


def arrays(model: Any) -> dict[str, NDArray[Any]]:
    """What the reader needs of ``model``, as the file holds it."""
    support = model.support_vectors_
    assert np.array_equal(support, np.round(support)) and support.max() <= 16
    return {
        "support": support.astype(np.uint8),
        "dual": model.dual_coef_.astype(np.float64),
        "intercept": model.intercept_.astype(np.float64),
        "counts": model.n_support_.astype(np.int32),
        "gamma": np.array([model._gamma], np.float64),
    }


def held_out() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The shipped digits the classifier is not trained on (8 × 8, 0–16), with their labels."""
    from sklearn.datasets import load_digits

    data = load_digits()
    return data.images[TRAINED:], data.target[TRAINED:]


def main() -> None:
    save: Any = np.savez_compressed  # numpy's stubs read a ** of arrays as allow_pickle
    save(MODEL, **arrays(fitted()))
    print(f"wrote {MODEL} ({MODEL.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
