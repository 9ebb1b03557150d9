"""The speed layer: what the app keeps in memory so that the requests a card evening repeats
cost little. ``init_app`` installs it, and only when the ``SPEED`` setting is on
(``REFEREE_SPEED=false``: this package is not even imported). Each idea is kept only while a
side-by-side measurement shows what it buys (``bench/README.md``):

- ``kept``: the app's ``referee.web.loading.Tables`` — tables replayed once and caught up entry
  by entry, every table's log position, the links this process looked up;
- ``Shelves``: the app's ``referee.web.memo.Memo`` — pages and their streams' events, navigation
  bars, page fragments, round summaries and PDF sheets made once per change of their table; the
  pages also in files beside the instance (``beside``), made once for every worker;
- ``streams``: the app's ``referee.web.live.Waits`` — live pages' streams held under gevent
  workers, each woken when its table moves;
- ``front``: a page's "has anything changed?" (the fallback of a page without its stream)
  answered in front of Flask, by the table's position and the page's poll key, and a shared page
  opened again, by the table's position, the phone's link and its language;
- ``translations``: the templates' translation functions bound once per page;
- ``sessions``: each session cookie's signature verified once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from flask import Flask

from referee.web import live, loading, memo
from referee.web.memo import Shelf
from referee.web.speed import beside, front, sessions, translations
from referee.web.speed.beside import PageFiles
from referee.web.speed.kept import KeptTables
from referee.web.speed.lru import LRU
from referee.web.speed.streams import Streams

V = TypeVar("V")


#: How many tables of the groups viewed the statistics' facts are kept of
#: (``referee.web.groups.numbers``): a group of ten thousand tables loaded from its file, and
#: more. Fewer, and every look at its standings would replay most of its tables again.
GROUP_TABLES = 16384


class Shelves:
    """The app's memo (``referee.web.memo.Memo``): a least-recently-used map per shelf, sized
    for ``tables`` live tables; a page this process does not keep is looked for in ``files``
    (made by another worker) before it is made."""

    def __init__(self, tables: int, files: PageFiles) -> None:
        self.files = files
        self.shelves: dict[Shelf, LRU[Any]] = {
            # a live table's page is asked for by its watching phones within a poll interval
            # of each change: two kinds of viewer of each live table
            "pages": LRU(2 * tables),
            # the same pages as the events of their streams (``referee.web.live``)
            "events": LRU(2 * tables),
            # by game, kind of link, language, address prefix and page: few
            "navs": LRU(256),
            # by template, language and address prefix: few
            "fragments": LRU(64),
            # one per live table and language spoken at it
            "summaries": LRU(tables),
            "pdfs": LRU(32),
            # a group page's facts of each table and its rendered evenings: a few per live
            # table; and the statistics' facts of each table of the groups viewed (about 2 KB
            # each, against 110 KB for a replay of the same table)
            "groups": LRU(2 * tables + GROUP_TABLES),
        }

    def get_or_make(self, shelf: Shelf, key: Hashable, make: Callable[[], V]) -> V:
        if shelf == "pages":  # a page's bytes, by ``referee.web.pages.SharedPage.key``
            page = cast(Callable[[], bytes], make)
            files = lambda: self.files.get_or_make(cast(tuple[Hashable, ...], key), page)  # noqa: E731
            return cast(V, self.shelves[shelf].get_or_make(key, files))
        found: V = self.shelves[shelf].get_or_make(key, make)
        return found

    def page(self, key: tuple[Hashable, ...]) -> bytes | None:
        """The page ``key`` (``referee.web.pages.SharedPage.key``) if this worker or another
        made it; None: not made (nothing is made here)."""
        found: bytes | None = self.shelves["pages"].get(key)
        if found is None:
            found = self.files.read(key)
            if found is not None:
                self.shelves["pages"].put(key, found)
        return found

    def __getitem__(self, shelf: Shelf) -> LRU[Any]:
        return self.shelves[shelf]


class Speed:
    """Everything the speed layer keeps for one app (``app.extensions["referee.speed"]``, so
    two apps in one process share nothing)."""

    def __init__(self, files: PageFiles, tables: int = 2048, sweep_every: float = 0.25) -> None:
        """``tables``: how many live tables each process keeps (``SPEED_TABLES``): a table
        that falls out is read and replayed whole at its next request, so a server that follows
        more live tables than this does that work again and again (``bench/capacity.py``).

        ``sweep_every``: how often each process asks the database which tables changed. A
        watching phone sees a change made through another process up to this much later, on top
        of its own poll interval (``bench/see_change.py``); the sweep is one indexed read per
        process, whatever the number of phones."""
        self.tables = KeptTables(tables, links=16384, positions=65536, sweep_every=sweep_every)
        self.positions = self.tables.positions
        self.memo = Shelves(tables, files)


def init_app(app: Flask) -> None:
    """Give ``app`` its speed layer."""
    kept = Speed(beside.for_app(app), int(app.config["SPEED_TABLES"]))
    app.extensions["referee.speed"] = kept
    loading.init_app(app, kept.tables)
    memo.init_app(app, kept.memo)
    translations.install(app)
    app.session_interface = sessions.CheckedOnce()
    live.init_app(app, Streams(app, kept.positions))
    front.install(app)
