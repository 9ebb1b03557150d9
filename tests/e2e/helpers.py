"""What the browser journeys share: sending a form and waiting for its answer to be shown, and
finding a count chip."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


def answered(page: Any, press: Callable[[], Any]) -> None:
    """Do ``press`` (a tap or click that sends a form) and wait until the answer is shown: the
    next page, or the round screen ``static/app.js`` puts in place of this one (entry forms,
    ``data-swap``). The old ``<main>`` is marked first; the answer's has no mark."""
    from playwright.sync_api import expect  # here: without Playwright the browser fixture fails

    page.locator("main").evaluate("main => { main.dataset.sent = 'yes' }")
    press()
    expect(page.locator("main[data-sent]")).to_have_count(0)


def chip(where: Any, row: str, count: int | str) -> Any:
    """The count chip ``count`` in the chip row of ``row`` (a player) within ``where``: the row's
    radio group is named for the player and what is chosen ("Ann: tricks won")."""
    group = where.get_by_role("group", name=re.compile(rf"^{re.escape(row)}(: .*)?$"))
    return group.get_by_role("radio", name=str(count), exact=True)
