"""The registry of games (``referee.rules.registry``): one line per game, read by every layer.

Each line's rules are the game it names, each game has a part in every layer, and a game added
while the program runs (a test's) is there until it is taken away. That the layers find the
games through it: ``tests/test_layers.py`` (no shared code names a game) and
``tests/web/test_fourth_game.py`` (a game no file of the app names, played through the app)."""

from __future__ import annotations

import pytest

from referee.groups.facts import StatsGame
from referee.parts import part
from referee.records.parts import RecordGame
from referee.rules import GAMES, Game
from referee.rules.registry import GAME_LIST, Entry, Registry
from referee.sheets.printed import PrintedGame
from referee.web.screens import ScreensGame


def test_the_engine_knows_the_games_of_the_list_in_its_order() -> None:
    assert list(GAMES) == [entry.name for entry in GAME_LIST]


@pytest.mark.parametrize("game", list(GAMES))
def test_each_line_names_its_games_rules_and_a_part_for_every_layer(game: str) -> None:
    assert issubclass(GAMES[game], Game) and GAMES[game].name == game
    layers = (
        ("record", RecordGame),
        ("printed", PrintedGame),
        ("screens", ScreensGame),
        ("stats", StatsGame),
    )
    for layer, kind in layers:
        assert isinstance(part(game, layer, kind), kind)


def test_a_game_is_registered_once() -> None:
    with pytest.raises(ValueError, match="already"):
        GAMES.register(GAME_LIST[0])


def test_a_game_added_while_running_is_there_until_taken_away() -> None:
    games = Registry(Game, GAME_LIST[:1])
    games.register(GAME_LIST[2])
    assert list(games) == [GAME_LIST[0].name, GAME_LIST[2].name]
    assert games[GAME_LIST[2].name] is GAMES[GAME_LIST[2].name]
    games.unregister(GAME_LIST[2].name)
    assert list(games) == [GAME_LIST[0].name] and GAME_LIST[2].name not in games


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        ("referee.rules.cards:Card", "is not a Game"),  # not a game's rules at all
        ("referee.rules.ebbes:Ebbes", "is not the game 'blackout'"),  # another game's
    ],
)
def test_a_line_whose_rules_are_not_its_game_is_refused(rules: str, why: str) -> None:
    games = Registry(Game, [Entry("blackout", rules, "referee.games.blackout")])
    with pytest.raises(TypeError, match=why):
        games["blackout"]
