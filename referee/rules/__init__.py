"""The rules engine of Table Referee: pure Python, no I/O, no web, no database.

A table is a ``Setup`` plus a list of events (``referee.rules.events``). ``start`` gives a new
table's state, ``apply`` one strict step (a new state, or a ``Breach`` saying why not), ``replay``
a whole list (``lenient=True`` notes every breach and goes on, for records and corrected tables).
``GAMES`` knows every game (the list: ``referee.rules.registry``); a game's rules module
(``Blackout`` …) is imported when it is first asked for, so the command-line referee loads only
its record's game.

>>> from referee.rules import Setup, apply, start, events as ev
>>> state = start(Setup("blackout", ("Ann", "Ben", "Cho", "Dee")))
>>> state = apply(state, ev.Trump(round=1, card="H"))
>>> for name, bid in [("Ben", 1), ("Cho", 0), ("Dee", 0)]:
...     state = apply(state, ev.Bid(round=1, player=name, bid=bid))
>>> [(bid, breach is None) for bid, breach in state.game.allowed_bids(state, "Ann")]
[(0, False), (1, True)]
>>> state = apply(state, ev.Bid(round=1, player="Ann", bid=1))
>>> state = apply(state, ev.Tricks(round=1, tricks={"Ann": 1, "Ben": 0, "Cho": 0, "Dee": 0}))
>>> {name: s.points for name, s in state.scores(1).items()}
{'Ann': 11, 'Ben': 0, 'Cho': 10, 'Dee': 10}
>>> state.scores(1)["Ann"].explain()
'bid 1, took 1: a 1 written in front of the bid → 11'
"""

from typing import Any

from referee.rules import events
from referee.rules.breaches import (
    Breach,
    Caution,
    IllegalEntry,
    Miscount,
    Missing,
    OutOfTurn,
    Revoke,
)
from referee.rules.cards import Card, Deck
from referee.rules.engine import (
    GAMES,
    Game,
    OptionError,
    RoundState,
    Setup,
    State,
    Step,
    allowed,
    apply,
    extend,
    replay,
    start,
)
from referee.rules.scores import Score, Term
from referee.rules.tricks import trick_winner

__all__ = [
    "GAMES",
    "Breach",
    "Card",
    "Caution",
    "Deck",
    "Game",
    "IllegalEntry",
    "Miscount",
    "Missing",
    "OptionError",
    "OutOfTurn",
    "Revoke",
    "RoundState",
    "Score",
    "Setup",
    "State",
    "Step",
    "Term",
    "allowed",
    "apply",
    "events",
    "extend",
    "replay",
    "start",
    "trick_winner",
]


def __getattr__(name: str) -> Any:
    """A game's rules class by its class name (``Blackout`` …), imported on first use."""
    for game in GAMES:
        if GAMES.entry(game).rules.endswith(f":{name}"):
            return GAMES[game]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
