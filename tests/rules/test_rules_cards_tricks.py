"""Cards, decks and the trick mechanics of all three games (docs/rules.md, "Common trick play")."""

import pytest

from referee.rules.cards import Card, blackout_deck, coloured_deck
from referee.rules.tricks import trick_winner


def cards(*texts: str) -> list[Card]:
    deck = blackout_deck(4, 13)
    parsed = [deck.parse_card(t) for t in texts]
    assert all(parsed)
    return parsed  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("played", "trump", "winner", "why"),
    [
        (("10H", "QH", "2S", "AC"), "S", 2, "highest-trump"),  # any trump beats the led colour
        (("10H", "QH", "2S", "AC"), None, 1, "highest-led"),  # no trump: highest of the led
        (("10H", "QH", "2S", "AS"), "S", 3, "highest-trump"),  # the highest of several trumps
        (("5D", "AC", "KS", "4D"), "H", 0, "highest-led"),  # off-colour cards never win
        (("5D", "AC", "KS", "4D"), "D", 0, "highest-trump"),  # trump led is followed like any
    ],
)
def test_trick_winner(played, trump, winner, why):
    assert trick_winner(cards(*played), trump) == (winner, why)


@pytest.mark.parametrize(
    ("players", "max_cards", "size"),
    [(4, 13, 52), (5, 10, 50), (3, 17, 51), (4, 3, 12), (7, 7, 49), (2, 1, 2)],
)
def test_blackout_deck_has_players_times_max_cards(players, max_cards, size):
    assert len(blackout_deck(players, max_cards)) == size


def test_blackout_deck_removal_order_within_a_rank():
    # 52 - 49 = 3 cards go: the 2 of clubs, of diamonds, of hearts; the 2 of spades stays.
    deck = blackout_deck(7, 7)
    assert [str(c) for c in cards("2C", "2D", "2H") if c in deck] == []
    assert Card("S", 2) in deck
    # 4 × 3 = 12 cards: only the queens, kings and aces remain.
    assert sorted({c.value for c in blackout_deck(4, 3)}) == [12, 13, 14]


@pytest.mark.parametrize(
    ("text", "spelled"),
    [("QH", "QH"), ("qh", "QH"), (" 10s ", "10S"), ("TS", "10S"), ("ah", "AH"), ("2c", "2C")],
)
def test_french_card_spellings(text, spelled):
    assert str(blackout_deck(4, 13).parse_card(text)) == spelled


@pytest.mark.parametrize("text", ["", "H", "1H", "11H", "QX", "Q", "010S", "red-7", "½H"])
def test_not_french_cards(text):
    assert blackout_deck(4, 13).parse_card(text) is None


@pytest.mark.parametrize(
    ("text", "spelled"), [("red-7", "red-7"), (" Purple-10 ", "purple-10"), ("RED-1", "red-1")]
)
def test_coloured_card_spellings(text, spelled):
    deck = coloured_deck(("red", "yellow", "green", "blue", "purple"), 10)
    assert str(deck.parse_card(text)) == spelled


@pytest.mark.parametrize("text", ["red7", "orange-3", "red-", "red-x", "red-07", "-3"])
def test_not_coloured_cards(text):
    deck = coloured_deck(("red", "yellow", "green", "blue", "purple"), 10)
    assert deck.parse_card(text) is None
