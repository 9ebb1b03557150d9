"""Where each game keeps what it adds beyond its rules.

A game is its rules (what is legal, how it scores) and a package of parts, one module for each
layer that needs to know the game, both named by its line in the registry of games
(``referee.rules.registry``):

- ``record.py``: its fields in a ``table-referee/1`` record (``referee.records``);
- ``printed.py``: its columns and cells on the PDF score sheet and the blank scorecard
  (``referee.sheets``);
- ``screens.py``: its round screens' view data, the entries of its own round screens and the
  options of a new table (``referee.web``), with its templates in ``templates/games/<package>/``.
- ``stats.py``: what it says of a player's round and adds to the group statistics
  (``referee.groups``);
- ``paper.py`` (optional: a game without it has no readable card): what its readable card
  holds beyond the shared rows (``referee.paper``).

The shared code of each layer asks ``part(game, layer, kind)`` for the game's part of it, a
subclass of the base class that layer defines.
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from referee.rules import GAMES

Part = TypeVar("Part")


def part(game: str, layer: str, kind: type[Part]) -> Part:
    """The ``layer`` part of ``game`` (``<its parts' package>.<layer>.PART``), which must be a
    ``kind``. Imported on first use, so a layer loads only its own parts (the command-line
    referee loads no PDF or web code). ``KeyError`` for a game the app does not know."""
    name = f"{GAMES.entry(game).parts}.{layer}"
    found = importlib.import_module(name).PART
    if not isinstance(found, kind):
        raise TypeError(f"{name}.PART is not a {kind.__name__}")
    return found


def package(game: str) -> str:
    """The folder of ``game``'s templates under ``templates/games/`` (``alles_oder_nichts``)."""
    return GAMES.entry(game).package
