"""Fixtures for the web tests that depend on when this process sweeps other processes' writes."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from referee.web.speed import kept as cache


@pytest.fixture
def sweep_due(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Holds this process's sweep (``cache.Positions.sweep``) to the moments the test chooses: the
    first request sweeps, then none falls due on its own however slow the machine, until the test
    calls the returned function (as if ``SWEEP_EVERY`` had passed)."""

    def due() -> None:
        cache.positions.swept = -math.inf

    monkeypatch.setattr(cache, "SWEEP_EVERY", 3600.0)
    due()
    return due
