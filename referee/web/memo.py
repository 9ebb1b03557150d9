"""What is rendered once and kept: pages, navigation bars, page fragments, round summaries and
PDF sheets, through one small interface (``Memo``) with two implementations, chosen when the app
is made (``init_app``): ``PassThrough`` (here), which keeps nothing and makes every value anew,
and the speed layer's shelves.

A key holds everything its value depends on: for what is made of a table, the table and its log
position (a table only changes by a new entry), and the language, the kind of link and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Literal, Protocol, TypeVar

from flask import Flask, current_app

V = TypeVar("V")

#: What is kept, each on a shelf of its own: pages every viewer of a kind sees alike
#: (``referee.web.pages``) and the events of their streams (``referee.web.live``), navigation
#: bars (``referee.web.nav``), parts of every page that depend on the language only
#: (``referee.web.fragments``), the round screen's summary of the round before the one in play
#: (``referee.web.evening.story``), PDF sheets, and what the group pages show of each table and
#: render of a group (``referee.web.groups.glance``).
Shelf = Literal["pages", "events", "navs", "fragments", "summaries", "pdfs", "groups"]


class Memo(Protocol):
    """Values kept by shelf and key."""

    def get_or_make(self, shelf: Shelf, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key`` on ``shelf``, or ``make()`` (then kept)."""


class PassThrough:
    """Keeps nothing: every value is made anew."""

    def get_or_make(self, shelf: Shelf, key: Hashable, make: Callable[[], V]) -> V:
        return make()


def init_app(app: Flask, memo: Memo | None = None) -> None:
    """Give ``app`` its memo: ``memo``, or one that keeps nothing."""
    app.extensions["referee.memo"] = memo if memo is not None else PassThrough()


def memo(shelf: Shelf, key: Hashable, make: Callable[[], V]) -> V:
    """The value kept for ``key`` on ``shelf`` by the current app, or ``make()``."""
    kept: Memo = current_app.extensions["referee.memo"]
    return kept.get_or_make(shelf, key, make)
