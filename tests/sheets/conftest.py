"""Sheets are rendered with reportlab's ``invariant`` mode in tests: no time stamp, no random
document id, so the same input gives the same bytes."""

from collections.abc import Iterator

import pytest
from reportlab import rl_config


@pytest.fixture(autouse=True)
def invariant_pdfs() -> Iterator[None]:
    before = rl_config.invariant
    rl_config.invariant = 1
    yield
    rl_config.invariant = before
