"""Tap, don't type: the counts of a round are chips (radio buttons, so a phone without JavaScript
posts them as a form), suits and colours are drawn as cards and coloured chips, and the card
picker is a grid of a row per colour. Each test posts only what the page offers."""

from __future__ import annotations

import re

from referee.store.tables import table_state
from tests.web.helpers import checked, chips, error_of, new_table, ok, post

FOUR = ("Ann", "Ben", "Cho", "Dee")


def page_of(client, table: str, query: str = "") -> str:
    return client.get(f"/t/{table}{query}").get_data(as_text=True)


def tapped(page: str, choices: dict[str, int]) -> dict[str, str]:
    """The fields a phone posts after tapping these chips: each must be on the page."""
    for field, value in choices.items():
        assert str(value) in chips(page, field), f"no chip {value} for {field}"
    return {field: str(value) for field, value in choices.items()}


def blackout_played(app, client) -> str:
    """Four players, Blackout's first round (10 cards each: the whole deck, no trump), the bids
    in."""
    table = new_table(app, client, "blackout", FOUR, {"sequence": "down", "max_cards": 10})
    for seat in (2, 3, 4, 1):
        ok(post(client, table, "bid", player=seat, bid=2))
    return table


def test_trick_counts_are_a_row_of_chips_per_player(app, client):
    table = blackout_played(app, client)
    page = page_of(client, table)
    for seat in range(1, 5):
        assert chips(page, f"tricks-{seat}") == [str(n) for n in range(11)]
        assert checked(page, f"tricks-{seat}") is None
    assert 'type="number"' not in page  # nothing to type
    # Each row a radio group named for its player and what is chosen.
    said, shown = "Dee: tricks won", "Dee"
    legend = f'<span class="visually-hidden">{said}</span><span aria-hidden="true">{shown}</span>'
    assert f"<legend>{legend}</legend>" in page
    counts = {"tricks-1": 2, "tricks-2": 3, "tricks-3": 1, "tricks-4": 4}
    ok(post(client, table, "tricks", **tapped(page, counts)))
    with app.app_context():
        state = table_state(table)
    assert state.rounds[0].tricks_won() == {"Ann": 2, "Ben": 3, "Cho": 1, "Dee": 4}


def test_chips_that_do_not_add_up_are_refused_and_kept(app, client):
    table = blackout_played(app, client)
    page = page_of(client, table)
    counts = {"tricks-1": 2, "tricks-2": 3, "tricks-3": 1, "tricks-4": 5}
    response = post(client, table, "tricks", **tapped(page, counts))
    assert error_of(response) == "The tricks won add up to 11; round 1 has 10 tricks."
    kept = response.get_data(as_text=True)
    assert [checked(kept, f"tricks-{seat}") for seat in range(1, 5)] == ["2", "3", "1", "5"]


def ebbes_counted(app, client, options=None) -> str:
    """Four players of ebbes (8 cards a colour), every role fixed: red is trump."""
    table = new_table(app, client, "ebbes", FOUR, options)
    ok(post(client, table, "number", number=3))
    for colour in ("red", "yellow", "green", "blue"):
        ok(post(client, table, "designate", colour=colour))
    return table


#: Cards won without the trump (red): whole tricks of four need the red ones, which score nothing.
WON = {
    1: {"yellow": 2, "green": 2, "blue": 2, "purple": 2},
    2: {"yellow": 3, "green": 1, "blue": 2, "purple": 2},
    3: {"yellow": 1, "green": 4, "blue": 0, "purple": 3},
    4: {"yellow": 2, "green": 1, "blue": 4, "purple": 1},
}


def test_ebbes_asks_for_the_cards_won_of_every_colour_but_trump(app, client):
    table = ebbes_counted(app, client)
    page = page_of(client, table)
    assert "red is trump: its cards score nothing, so they are not counted." in page
    for seat in range(1, 5):
        assert chips(page, f"won-{seat}-red") == []
        for colour in ("yellow", "green", "blue", "purple"):
            assert chips(page, f"won-{seat}-{colour}") == [str(n) for n in range(9)]
    fields = {f"won-{seat}-{c}": n for seat, counts in WON.items() for c, n in counts.items()}
    ok(post(client, table, "won", **tapped(page, fields)))
    with app.app_context():
        state = table_state(table)
    # yellow is plus (+1 a card), green ebbes (+3 to Ann alone, neither most nor fewest),
    # blue minus (−1 a card).
    assert {p: s.points for p, s in state.scores(1).items()} == {
        "Ann": 2 + 3 - 2,
        "Ben": 3 - 2,
        "Cho": 1,
        "Dee": 2 - 4,
    }
    assert state.violations == []


def test_ebbes_cards_won_of_a_colour_that_do_not_add_up_are_refused(app, client):
    table = ebbes_counted(app, client)
    page = page_of(client, table)
    wrong = {seat: dict(counts) for seat, counts in WON.items()}
    wrong[4]["blue"] = 3  # 7 blue cards of 8
    fields = {f"won-{seat}-{c}": n for seat, counts in wrong.items() for c, n in counts.items()}
    response = post(client, table, "won", **tapped(page, fields))
    assert response.status_code == 422
    assert "blue" in error_of(response)
    assert checked(response.get_data(as_text=True), "won-4-blue") == "3"


def test_suits_are_drawn_red_and_black(app, client):
    table = new_table(app, client, "blackout", FOUR)
    page = page_of(client, table)
    for suit, style in (("H", "red"), ("D", "red"), ("S", "black"), ("C", "black")):
        assert re.search(rf'value="{suit}" class="suit suit-{style}"', page), suit


def test_colours_are_chips_in_their_colour_that_say_their_name(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    page = page_of(client, table)
    for colour in ("red", "yellow", "green", "blue"):
        assert f'value="{colour}" class="colour colour-{colour}">{colour}</button>' in page
    german = {"colours": ["Rot", "Eichel", "Gelb", "Laub"]}
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"), german)
    page = page_of(client, table)
    assert 'value="rot" class="colour colour-red">rot</button>' in page
    assert 'value="eichel" class="colour">eichel</button>' in page  # no colour of its own


def test_ebbes_colours_are_chips_when_they_get_their_roles(app, client):
    table = new_table(app, client, "ebbes", FOUR)
    ok(post(client, table, "number", number=3))
    ok(post(client, table, "designate", colour="red"))
    page = page_of(client, table)
    assert 'value="red"' not in page
    for colour in ("yellow", "green", "blue", "purple"):
        assert f'value="{colour}" class="colour colour-{colour}">{colour}</button>' in page
    assert '<legend class="colour colour-yellow">' not in page  # not counted yet


def test_the_card_picker_is_a_row_per_suit_named_for_screen_readers(app, client):
    table = blackout_played(app, client)
    page = page_of(client, table, "?mode=cards")
    rows = re.findall(
        r'<div class="pick-row cols-6 ([^"]*)" role="group" aria-label="([^"]*)"', page
    )
    assert rows == [  # ten cards a suit and its symbol: two lines of six
        ("suit suit-black", "♠ spades"),
        ("suit suit-red", "♥ hearts"),
        ("suit suit-red", "♦ diamonds"),
        ("suit suit-black", "♣ clubs"),
    ]
    assert 'value="QH" class="card" aria-label="♥Q">Q</button>' in page
    assert len(re.findall(r'name="card" value=', page)) == 40


def test_the_card_picker_of_a_coloured_deck_names_each_card(app, client):
    table = new_table(app, client, "ebbes", FOUR)
    ok(post(client, table, "number", number=3))
    page = page_of(client, table, "?mode=cards")
    # eight cards a colour, its name on a line above them: two lines of four (eight chips of a
    # thumb's width do not fit a 360 px phone), in the grid of six the picker keeps at least
    assert 'class="pick-row cols-6 colour colour-purple" role="group" aria-label="purple">' in page
    assert 'value="purple-8" class="card" aria-label="purple 8">8</button>' in page


def test_each_reader_gets_the_picker_in_their_own_language(app, client):
    # A chip is built once per card and language: the English picker, built first, must not
    # be what a German reader gets, nor the German one what the next English reader gets.
    table = new_table(app, client, "ebbes", FOUR)
    ok(post(client, table, "number", number=3))
    for lang, name in (("en", "purple"), ("de", "Lila"), ("en", "purple")):
        page = page_of(client, table, f"?mode=cards&lang={lang}")
        assert f'value="purple-8" class="card" aria-label="{name} 8">8</button>' in page


def test_placed_designators_are_tapped_one_number_a_colour(app, client):
    table = new_table(app, client, "ebbes", FOUR, {"variant": "placed-designators"})
    page = page_of(client, table)
    assert "<select" not in page
    numbers = {"red": 3, "yellow": 1, "green": 5, "blue": 2, "purple": 4}
    for colour in numbers:
        assert chips(page, f"designator-{colour}") == ["1", "2", "3", "4", "5"]
    fields = {f"designator-{colour}": n for colour, n in numbers.items()}
    ok(post(client, table, "designators", **tapped(page, fields)))
    with app.app_context():
        state = table_state(table)
    assert [str(card) for card in state.rounds[0].designators] == [
        f"{colour}-{n}" for colour, n in numbers.items()
    ]


def test_the_trick_so_far_shows_its_cards_in_their_colours(app, client):
    table = blackout_played(app, client)
    ok(post(client, table, "play", player=2, card="AH", mode="cards"))
    page = page_of(client, table, "?mode=cards")
    assert 'Ben <span class="played suit suit-red">♥A</span>' in page
