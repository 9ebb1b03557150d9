"""The committed digit classifier is what ``tools/train_digits.py`` trains, and the reader's
numpy decisions are scikit-learn's own."""

from __future__ import annotations

import numpy as np

from referee.paper import digits
from tools import train_digits


def test_the_committed_machine_is_the_scripts_and_decides_as_scikit_learn():
    model = train_digits.fitted()
    made = train_digits.arrays(model)
    with np.load(digits.MODEL) as committed:
        assert sorted(committed.files) == sorted(made)
        for name, array in made.items():
            assert committed[name].dtype == array.dtype, name
            assert np.allclose(committed[name], array, rtol=0, atol=1e-9), name
    images, _labels = train_digits.held_out()
    samples = np.stack([digits.features(digits.stroke(image, 28)) for image in images[:200]])
    assert np.allclose(digits.decisions(samples), model.decision_function(samples), atol=1e-9)
