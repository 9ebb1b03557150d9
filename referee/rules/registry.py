"""Every game the referee knows, one line each (``GAME_LIST``): the one list every layer reads.

A line names a game by its record name, says where its rules are (a ``Game`` subclass, as
``"module:Class"``) and which package holds its parts, a module for each layer that needs to know
the game (``record.py``, ``printed.py``, ``screens.py``: ``referee.parts``). The engine finds a
game's rules here (``referee.rules.GAMES``), the layers its parts, the record schema its name
(``referee.records.record_schema``), and the pages and the tests walk the games in this order.

The lines are strings, so this module imports no game: the engine imports it, each game imports
the engine, and no import runs back. A game's rules module is imported the first time the game
is asked for, so the command-line referee loads only its record's game. A game kept elsewhere (a
test's) is added while the program runs with ``Registry.register`` and taken away with
``Registry.unregister``; adding a game to the app is its own files and one line here.

>>> games = Registry(object, [Entry("blackout", "referee.rules.blackout:Blackout", "x.blackout")])
>>> list(games), "ebbes" in games, games.entry("blackout").package
(['blackout'], False, 'blackout')
>>> games["blackout"].title
'Blackout'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True)
class Entry:
    """One game: its record name, its rules class (``"module:Class"``) and its parts' package."""

    name: str
    rules: str
    parts: str

    @property
    def package(self) -> str:
        """The last name of its parts' package (``alles_oder_nichts``): the folder of its
        templates too (``templates/games/<package>/``)."""
        return self.parts.rpartition(".")[2]


#: Every game, in the order the app offers them.
GAME_LIST = (
    Entry("blackout", "referee.rules.blackout:Blackout", "referee.games.blackout"),
    Entry(
        "alles-oder-nichts",
        "referee.rules.alles:AllesOderNichts",
        "referee.games.alles_oder_nichts",
    ),
    Entry("ebbes", "referee.rules.ebbes:Ebbes", "referee.games.ebbes"),
)

T = TypeVar("T")


class Registry(Mapping[str, type[T]]):
    """The games by record name, in order, each its rules class (a ``kind``), imported when it
    is first asked for; ``KeyError`` for a game there is none of."""

    def __init__(self, kind: type[T], entries: Iterable[Entry]) -> None:
        self.kind = kind
        self.entries: dict[str, Entry] = {}
        self.loaded: dict[str, type[T]] = {}
        for entry in entries:
            self.register(entry)

    def register(self, entry: Entry) -> None:
        """Add a game after the others."""
        if entry.name in self.entries:
            raise ValueError(f"There is a game {entry.name!r} already.")
        self.entries[entry.name] = entry

    def unregister(self, name: str) -> None:
        """Take the game ``name`` away."""
        del self.entries[name]
        self.loaded.pop(name, None)

    def entry(self, name: str) -> Entry:
        """The line of the game ``name``."""
        return self.entries[name]

    def __getitem__(self, name: str) -> type[T]:
        found = self.loaded.get(name)
        if found is None:
            module, _, attribute = self.entries[name].rules.partition(":")
            found = getattr(importlib.import_module(module), attribute)
            if not (isinstance(found, type) and issubclass(found, self.kind)):
                raise TypeError(f"{self.entries[name].rules} is not a {self.kind.__name__}")
            if getattr(found, "name", name) != name:
                raise TypeError(f"{self.entries[name].rules} is not the game {name!r}")
            self.loaded[name] = found
        return found

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)
