"""Blank scorecards, read back: every game and player count, the ladder, the pre-printed 1s."""

from __future__ import annotations

import pytest

from referee.games.blackout.printed import PREFIX
from referee.rules import GAMES, Breach, OptionError, Setup, start
from referee.rules.blackout import hand_sizes
from referee.sheets import BlankCard, Page, blank_card
from referee.sheets.grid import LABEL_SIZE, PREFIX_SIZE
from tests.sheets.reading import line_of, page_sizes, page_texts, pieces, round_numbers, words

CASES = [
    (game, players)
    for game in ("blackout", "alles-oder-nichts", "ebbes")
    for players in range(GAMES[game].min_players, GAMES[game].max_players + 1)
]


def rounds_of(game: str, players: int) -> int:
    return start(Setup(game, tuple(f"P{n}" for n in range(players)))).game.round_count


def printed_runs(pdf: bytes, only: set[str]) -> list[str]:
    """The words of the grid's runs of small pre-printed marks (8 points, one a player in a
    row) made of nothing but ``only`` — not the legend's words, which mention them too."""
    runs = [p.text.split() for p in pieces(pdf) if p.size == PREFIX_SIZE]
    return [word for run in runs if len(run) > 1 and set(run) <= only for word in run]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_blank_card_for_every_game_and_player_count(game, players):
    pdf = blank_card(BlankCard(game, players))
    rounds = rounds_of(game, players)
    assert round_numbers(pdf) == list(range(1, rounds + 1))
    texts = page_texts(pdf)
    for text in texts:  # the header rows are on every page
        assert all(f"seat {n}" in text for n in range(1, players + 1))
        assert ("Round" if game == "ebbes" else "Rd") in text
    found = words(pdf)
    small = [w.text for w in found if w.size == LABEL_SIZE]
    if game == "blackout":
        assert printed_runs(pdf, {PREFIX}).count(PREFIX) == rounds * players
        assert "".join(texts).count("no trump") == 1  # the round that deals the whole deck
    elif game == "alles-oder-nichts":
        assert rounds == 7
        ticks = printed_runs(pdf, {"o", "s"})  # an "o  s" to circle with every bid
        assert ticks.count("o") == ticks.count("s") == 7 * players
        assert small.count("o") == small.count("s") == players  # "o / s" over the column
    else:
        for label in ("number", "trump", "starts"):
            assert small.count(label) == 5, label
    assert "rules in force" in page_texts(pdf)[-1]


def test_the_blackout_ladder_follows_the_sequence_and_max_cards():
    pdf = blank_card(BlankCard("blackout", 4, options={"sequence": "down-up", "max_cards": 5}))
    sizes = hand_sizes("down-up", 5)
    assert round_numbers(pdf) == list(range(1, len(sizes) + 1))
    for number, size in enumerate(sizes, start=1):
        assert line_of(pdf, str(number))[0] == str(size)
    assert "5 down to 1 and back up to 5 cards" in page_texts(pdf)[0]
    # Both max rounds (first and last) have no trump.
    assert line_of(pdf, "1")[1:3] == line_of(pdf, "9")[1:3] == ["no", "trump"]
    assert (
        "sequence: down-up · hook: yes · scoring: prefix-one · max_cards: 5" in page_texts(pdf)[0]
    )


def test_names_and_the_first_dealer_fill_in_every_dealer():
    names = ("Zoë", "Jörg", "Łukasz", "Даша")
    pdf = blank_card(BlankCard("blackout", 4, names, first=2, options={"max_cards": 3}))
    texts = page_texts(pdf)[0]
    assert all(name in texts for name in names)
    dealers = [line_of(pdf, str(n))[1] for n in range(1, 6)]
    assert dealers == ["Jörg", "Łukasz", "Даша", "Zoë", "Jörg"]


def test_a_seat_left_blank_is_written_in_and_dealt_by_its_number():
    pdf = blank_card(BlankCard("alles-oder-nichts", 3, ("Ann", "", "Cho"), first=1))
    assert line_of(pdf, "1")[1] == "Ann"
    assert line_of(pdf, "2")[1:3] == ["seat", "2"]
    assert line_of(pdf, "3")[1] == "Cho"


def test_ebbes_prints_only_the_first_starter():
    pdf = blank_card(BlankCard("ebbes", 3, ("Ann", "Ben", "Cho"), first=3))
    texts = [w.text for w in words(pdf)]
    assert texts.count("Cho") == 2  # the header and round 1's strip
    assert [w.text for w in words(pdf) if w.size == LABEL_SIZE].count("starts") == 5


def test_without_a_first_dealer_the_dealers_are_left_blank():
    pdf = blank_card(BlankCard("blackout", 3, ("Ann", "Ben", "Cho"), options={"max_cards": 2}))
    assert line_of(pdf, "1") == ["1", PREFIX, PREFIX, PREFIX]


@pytest.mark.parametrize(
    ("card", "error"),
    [
        (BlankCard("alles-oder-nichts", 2), "played by 3 to 6 players, not 2"),
        (BlankCard("ebbes", 6), "played by 3 to 5 players, not 6"),
        (BlankCard("blackout", 4, options={"max_cards": 14}), "from 1 to 13, not 14"),
        (BlankCard("blackout", 4, options={"sequence": "sideways"}), "'sequence' must be one of"),
        (BlankCard("blackout", 3, ("Ann", "ann")), "sits at the table twice"),
        (BlankCard("blackout", 2, ("Ann", "Ben", "Cho")), "3 names for a card of 2 players"),
        (BlankCard("blackout", 2, first=3), "seat 3 is not at a table of 2"),
    ],
)
def test_what_the_rules_or_the_card_do_not_allow_is_refused(card, error):
    with pytest.raises((Breach, OptionError, ValueError), match=error):
        blank_card(card)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_paper_and_orientation(paper, orientation):
    pdf = blank_card(BlankCard("blackout", 2), Page(paper, orientation))
    width, height = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}[paper]
    expected = (width, height) if orientation == "portrait" else (height, width)
    assert set(page_sizes(pdf)) == {expected}


def test_automatic_orientation_is_landscape_when_many_players():
    assert page_sizes(blank_card(BlankCard("blackout", 3)))[0] == (595.3, 841.9)
    assert page_sizes(blank_card(BlankCard("blackout", 8)))[0] == (841.9, 595.3)
    assert page_sizes(blank_card(BlankCard("ebbes", 5), Page("letter")))[0] == (792.0, 612.0)


def test_an_unknown_paper_is_refused():
    with pytest.raises(ValueError, match="paper must be one of a4, letter"):
        Page("a5")


def test_the_same_card_gives_the_same_bytes():
    card = BlankCard("blackout", 8, ("Ann",), first=1)
    assert blank_card(card) == blank_card(card)
