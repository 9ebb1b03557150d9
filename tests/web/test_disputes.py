"""Dispute tools: the rules in plain words, reachable from every breach, and who wins a trick."""

from __future__ import annotations

import re

import pytest

from tests.web.helpers import new_table, ok, post


@pytest.mark.parametrize(
    ("game", "anchors"),
    [
        ("blackout", ["dealer", "trump", "bid-range", "hook", "trick-total"]),
        ("alles-oder-nichts", ["dealer", "trump", "bid-range", "bid-above-hand", "trick-total"]),
        ("ebbes", ["number", "designation", "starter", "colour-total", "trick-total"]),
    ],
)
def test_each_rules_page_has_a_section_per_rule_it_checks(client, game, anchors):
    page = client.get(f"/rules/{game}").get_data(as_text=True)
    common = ["turn", "follow-suit", "card", "plays", "missing", "players", "round-count"]
    for anchor in anchors + common:
        assert f'id="{anchor}"' in page, anchor


def test_unknown_rules_page_is_404(client):
    assert client.get("/rules/skat").status_code == 404


def test_a_refused_entry_links_to_its_rule(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat in (2, 3):
        ok(post(client, table, "bid", player=seat, bid=0))
    refused = post(client, table, "bid", player=1, bid=1).get_data(as_text=True)
    assert '/rules/blackout#hook">The rule</a>' in refused


def test_noted_breaches_link_to_their_rule(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="KH"))
    for seat, bid in ((2, 0), (3, 1), (1, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    for seat, card in ((2, "AS"), (3, "AC"), (1, "AH")):
        ok(post(client, table, "play", player=seat, card=card, mode="cards"))
    for seat, bid in ((3, 1), (1, 0), (2, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    for seat, card in ((3, "KS"), (1, "AC"), (2, "AD"), (3, "KH"), (1, "AS")):
        ok(post(client, table, "play", player=seat, card=card, mode="cards"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert '/rules/blackout#follow-suit">rule: follow-suit</a>' in page
    assert "the table decides" in page


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "game=blackout&trump=S&card1=10H&card2=QH&card3=2S&card4=AC",
            "Card 3, ♠2, wins: highest trump.",
        ),
        (
            "game=blackout&card1=10H&card2=QH&card3=2S&card4=AH",
            "Card 4, ♥A, wins: highest card of the colour led.",
        ),
        (
            "game=ebbes&trump=blue&card1=red-5&card2=blue-3&card3=red-6",
            "Card 2, blue 3, wins: highest trump.",
        ),
        (
            "game=alles-oder-nichts&trump=green&card1=red-3&card2=red-12&card3=yellow-12",
            "Card 2, red 12, wins: highest card of the colour led.",
        ),
    ],
)
def test_who_wins_this_trick(client, query, answer):
    page = client.get(f"/tools/trick?{query}").get_data(as_text=True)
    found = re.search(r'id="answer"><strong>([^<]*)</strong>', page)
    assert found and found.group(1) == answer


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=blackout&card1=XX&card2=QH", "Card 1, “XX”, is not a card of Blackout."),
        ("game=blackout&card1=QH&card2=qh", "♥Q is in the trick twice: every card exists once."),
        ("game=blackout&card1=QH", "Enter at least two cards: the led card first."),
        ("game=nonsense&card1=<script>&card2=QH", "is not a card of Blackout."),
    ],
)
def test_who_wins_refuses_nonsense_clearly(client, query, message):
    response = client.get(f"/tools/trick?{query}")
    assert response.status_code == 422
    assert message in response.get_data(as_text=True).replace("&#34;", '"')
    assert "<script>" not in response.get_data(as_text=True)


def test_the_home_page_reaches_the_dispute_tools(client):
    page = client.get("/").get_data(as_text=True)
    assert "/tools/trick" in page and "/rules/ebbes" in page


def trick_page(client, query: str) -> str:
    response = client.get(f"/tools/trick?{query}")
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def answer_of(page: str) -> str | None:
    found = re.search(r'id="answer"><strong>([^<]*)</strong>', page)
    return found.group(1) if found else None


def test_who_wins_is_tapped_on_the_card_picker_card_by_card(client):
    page = trick_page(client, "game=blackout")
    assert 'type="text"' not in page  # nothing to type
    assert len(re.findall(r'name="card" value=', page)) == 52
    page = trick_page(client, "game=blackout&trump=S&card=10H")  # the led card, tapped
    assert 'name="card1" value="10H"' in page
    assert 'name="card" value="10H"' not in page  # played: gone from the picker
    assert "error-box" not in page and answer_of(page) is None
    page = trick_page(client, "game=blackout&trump=S&card1=10H&card=QH")
    assert answer_of(page) == "Card 2, ♥Q, wins: highest card of the colour led."
    page = trick_page(client, "game=blackout&trump=S&card1=10H&card2=QH&card=2S")
    assert answer_of(page) == "Card 3, ♠2, wins: highest trump."
    assert '<li class="suit suit-black"><span>♠2</span></li>' in page
    page = trick_page(client, "game=blackout&trump=S&card1=10H&card2=QH&card3=2S&back=1")
    assert answer_of(page) == "Card 2, ♥Q, wins: highest card of the colour led."
    assert 'name="card3"' not in page and 'name="card" value="2S"' in page


def test_the_trick_tools_trumps_follow_the_chosen_game(client):
    def trumps(page: str) -> list[str]:
        return re.findall(r'<input type="radio" name="trump" value="([^"]*)"', page)

    assert trumps(trick_page(client, "game=blackout")) == ["", "S", "H", "D", "C"]
    ebbes = trick_page(client, "game=ebbes&trump=S")  # a suit is no trump of ebbes
    assert trumps(ebbes) == ["", "red", "yellow", "green", "blue", "purple"]
    assert re.search(r'<input type="radio" name="trump" value="" checked>', ebbes)
    # Choosing a game is a link to a new trick of it: no cards, no trump of another game.
    assert 'href="/tools/trick?game=alles-oder-nichts"' in ebbes
    alles = trick_page(client, "game=alles-oder-nichts&trump=green&card=red-3")
    assert trumps(alles) == ["", "red", "yellow", "green", "blue"]
    assert re.search(r'value="green" checked>', alles)
    assert 'class="chip wide colour colour-green"' in alles


def test_a_full_trick_leaves_the_picker(client):
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S"]
    query = "&".join(f"card{i}={card}" for i, card in enumerate(cards, start=1))
    assert 'name="card" value="7S"' in trick_page(client, f"game=blackout&{query}")
    page = trick_page(client, f"game=blackout&{query}&card=7S")
    assert answer_of(page) == "Card 1, ♠A, wins: highest card of the colour led."
    assert 'name="card" value=' not in page  # eight cards: Blackout seats no more
