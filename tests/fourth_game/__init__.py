"""A fourth game only the tests know: Plain Whist (``rules.py``), Blackout without the bids —
fixed hands, a turned trump, a point per trick — with a part for every layer (``record.py``,
``printed.py``, ``screens.py``, ``stats.py``). No file of the app names it: a test adds its line
(``ENTRY``) to the registry of games, and that is all the app needs to offer it, play it, write
and read its record and print it (``tests/web/test_fourth_game.py``)."""

from referee.rules.registry import Entry

#: Its line in the registry of games (``referee.rules.registry``).
ENTRY = Entry("plain-whist", "tests.fourth_game.rules:PlainWhist", "tests.fourth_game")
