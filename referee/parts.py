"""The games the app knows, and where each one keeps what it adds beyond its rules.

A game is its rules, ``referee/rules/<game>.py`` (what is legal, how it scores), and a package
in ``referee/games/<package>/`` with one module for each layer that needs to know the game:

- ``record.py``: its fields in a ``table-referee/1`` record (``referee.records``);
- ``printed.py``: its columns and cells on the PDF score sheet and the blank scorecard
  (``referee.sheets``);
- ``screens.py``: its round screens' view data and the options of a new table
  (``referee.web``), with its templates in ``templates/games/<package>/``.

The shared code of each layer asks ``part(game, layer, kind)`` for the game's part of it, a
subclass of the base class that layer defines. A fourth game is its rules module, a package
in referee/games/ with those modules, its templates and tests, and one line in ``PACKAGES``.
"""

from __future__ import annotations

import importlib
from typing import TypeVar

#: Every game by its record name, with the package here that holds its parts; in the order the
#: pages offer them.
PACKAGES = {
    "blackout": "blackout",
    "alles-oder-nichts": "alles_oder_nichts",
    "ebbes": "ebbes",
}

#: The games in the order the pages offer them.
ORDER = tuple(PACKAGES)

Part = TypeVar("Part")


def part(game: str, layer: str, kind: type[Part]) -> Part:
    """The ``layer`` part of ``game`` (``referee.games.<package>.<layer>.PART``), which must be
    a ``kind``. Imported on first use, so a layer loads only its own parts (the command-line
    referee loads no PDF or web code). ``KeyError`` for a game the app does not know."""
    module = importlib.import_module(f"referee.games.{PACKAGES[game]}.{layer}")
    found = module.PART
    if not isinstance(found, kind):
        raise TypeError(f"referee.games.{PACKAGES[game]}.{layer}.PART is not a {kind.__name__}")
    return found
