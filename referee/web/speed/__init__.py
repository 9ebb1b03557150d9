"""The speed layer: what the app keeps in memory so the requests a card evening repeats cost
little. Every trick of it is here, installed by ``init_app`` and held by the app's ``Speed``
(``app.extensions["referee.speed"]``, so two apps in one process share nothing):

- ``front``: static files, a page's "has anything changed?" poll and a phone's repeated request
  for a page every spectator sees alike, answered in front of Flask;
- ``kept``: tables replayed once and caught up entry by entry, every table's log position, the
  links this process looked up;
- ``Speed.pages``, ``.navs``, ``.pdfs``: pages, navigation bars and PDF sheets rendered once per
  change of their table; ``.fragments``: the parts of every page rendered once per language;
- ``sessions``: session cookies verified once per process;
- ``translations``: the templates' translation functions bound once per page.

The setting ``SPEED`` (``REFEREE_SPEED=false``) switches every one of them off: nothing is kept,
every request asks the database and renders its page, Flask serves the static files and the
polls, and Flask-Babel translates each string. The pages are the same either way (the web tests
run both ways).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask
from markupsafe import Markup

from referee.rules import RoundState, State
from referee.store.links import Access
from referee.store.tables import TableRecord
from referee.web.sessions import Sessions
from referee.web.speed.kept import (
    Positions,
    load,
    load_since,
    recent_seq,
    remember_after,
    shown_position,
    speed,
    table,
)
from referee.web.speed.lru import LRU

if TYPE_CHECKING:
    from referee.web.evening.story import RoundSummary
    from referee.web.speed.pages import Repeat

__all__ = [
    "Speed",
    "init_app",
    "load",
    "load_since",
    "recent_seq",
    "remember_after",
    "shown_position",
    "speed",
    "table",
]


class Speed:
    """Everything the speed layer keeps for one app; with ``on`` false, nothing."""

    def __init__(self, on: bool, tables: int = 2048, sweep_every: float = 0.25) -> None:
        """``tables``: how many live tables each process keeps (``SPEED_TABLES``): a table
        that falls out is read and replayed whole at its next request, so a server that follows
        more live tables than this does that work again and again (``bench/capacity.py``).

        ``sweep_every``: how often each process asks the database which tables changed. A
        watching phone sees a change made through another process up to this much later, on top
        of its own poll interval (``bench/see_change.py``); the sweep is one indexed read per
        process, whatever the number of phones."""
        self.on = on

        def size(n: int) -> int:
            return n if on else 0

        #: Replayed tables by id (``kept.table``): up to about 180 KB each (a complete
        #: 25-round game), most of a process's memory at the default size.
        self.tables: LRU[tuple[TableRecord, State]] = LRU(size(tables))
        #: Rendered pages every spectator of a table sees alike, encoded, by page, table,
        #: position, variant and language (``referee.web.speed.pages``): a live table's page
        #: is asked for by its watching phones within a poll interval of each change.
        self.pages: LRU[bytes] = LRU(size(2 * tables))
        #: Requests a shared page answered, by their shape (``pages.shape``): the same request
        #: again is answered in front of Flask (``pages.again``). One or two per phone.
        self.repeats: LRU[Repeat] = LRU(size(8 * tables))
        #: The navigation bar of a table's pages by game, kind of link, language, address
        #: prefix and page (``referee.web.nav``).
        self.navs: LRU[Markup] = LRU(size(256))
        #: The parts of every page that depend on the language only (``referee.web.fragments``).
        self.fragments: LRU[Markup] = LRU(size(64))
        #: The round screen's summary of the round before the one in play, by that round (its
        #: identity: a round before the last never changes) and language
        #: (``referee.web.evening.story.last_summary``).
        self.summaries: LRU[tuple[RoundState, dict[str, int], RoundSummary | None]] = LRU(
            size(tables)
        )
        #: PDF score sheets by table, log position, paper and language.
        self.pdfs: LRU[bytes] = LRU(size(32))
        #: The links this process looked up, per table: token → what it opens (None: nothing).
        #: A table's are forgotten when a sweep finds one of its links revoked, at once when this
        #: process revokes one. Reads trust them; a write checks its link in the statement that
        #: writes (``referee.store.tables.add_entry``).
        self.links: LRU[dict[str, Access | None]] = LRU(size(16384))
        #: Every table's log position, for "has anything changed?".
        self.positions = Positions(size(65536), self.links, sweep_every)


def init_app(app: Flask) -> None:
    """Give ``app`` its speed layer: on unless the ``SPEED`` setting is false."""
    from referee.web.speed import front, sessions, translations

    on = bool(app.config.get("SPEED", True))
    app.extensions["referee.speed"] = Speed(on, int(app.config["SPEED_TABLES"]))
    front.version_static_urls(app)
    app.session_interface = sessions.CheckedOnce() if on else Sessions()
    if on:
        translations.install(app)
        front.install(app)
