"""Programs some tests run beside the app (``wrk`` for the benchmarks' machinery, LibreOffice to
open the spreadsheet download): where one is missing the test is skipped, unless
``REQUIRE_TOOLS=1`` (``.ci/run``, which installs them): then it fails."""

from __future__ import annotations

import os
import shutil

import pytest


def tool(*names: str) -> str:
    """The path of the first of ``names`` on this machine."""
    for name in names:
        found = shutil.which(name)
        if found is not None:
            return found
    missing = f"{' or '.join(names)} is not installed"
    if os.environ.get("REQUIRE_TOOLS") == "1":
        pytest.fail(f"REQUIRE_TOOLS=1 but {missing}", pytrace=False)
    pytest.skip(missing)
