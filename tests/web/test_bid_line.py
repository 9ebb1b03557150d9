"""The bid line in the round's fact box (issue 33): what the bids shown add up to against the
tricks, how many players are still to bid, then over, under or even — and in Alles oder Nichts
how many bids are secret, a sealed one telling nothing before the round is over."""

from __future__ import annotations

import html
import re

from tests.web.helpers import hidden, new_table, ok, post


def bid_line(page: str) -> str | None:
    """The bid line of the round's fact box, as read (None: there is none)."""
    box = re.search(r'<section class="panel" id="round".*?</section>', page, re.S)
    assert box, "no fact box"
    line = re.search(r'<p class="sum bid-line">(.*?)</p>', box.group(0), re.S)
    return None if line is None else re.sub(r"\s+", " ", html.unescape(line.group(1))).strip()


def bid(client, table: str, n: int) -> None:
    """The player whose turn it is bids ``n``."""
    ok(post(client, table, "bid", player=hidden(client.get(f"/t/{table}").text, "player"), bid=n))


def test_blackout_says_how_many_are_still_to_bid_then_over_or_under(app, client):
    # Four players, five cards each (round 1 of "down" from five: the most cards, no trump).
    options = {"max_cards": 5, "sequence": "down"}
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho", "Dee"), options)
    assert bid_line(client.get(f"/t/{table}").text) is None  # no bid yet
    bid(client, table, 2)
    assert bid_line(client.get(f"/t/{table}").text) == (
        "Bids add up to 2 of 5 tricks · 3 players still to bid"
    )
    bid(client, table, 1)
    bid(client, table, 0)
    page = client.get(f"/t/{table}").text
    assert bid_line(page) == "Bids add up to 3 of 5 tricks · 1 player still to bid"
    german = client.get(f"/t/{table}?lang=de").text
    assert bid_line(german) == "Die Ansagen ergeben 3 von 5 Stichen · 1 Spieler muss noch ansagen"
    bid(client, table, 3)
    assert bid_line(client.get(f"/t/{table}").text) == "Bids add up to 6 of 5 tricks: over"
    assert bid_line(client.get(f"/t/{table}?lang=de").text) == (
        "Die Ansagen ergeben 6 von 5 Stichen: zu viel"
    )


def declare(client, table: str, choice: str) -> None:
    page = client.get(f"/t/{table}").text
    ok(post(client, table, "declare", player=hidden(page, "player"), choice=choice))


def test_alles_oder_nichts_adds_up_the_open_bids_and_counts_the_secret_ones(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho", "Dee"))
    ok(post(client, table, "trump", trump="red"))
    declare(client, table, "open-2")
    assert bid_line(client.get(f"/t/{table}").text) == (
        "Bids add up to 2 of 6 tricks · 3 players still to bid"
    )
    declare(client, table, "secret")
    declare(client, table, "sealed-5")  # secret, its number given now: it tells nothing yet
    page = client.get(f"/t/{table}").text
    assert bid_line(page) == "Open bids add up to 2 of 6 tricks · 1 player still to bid"
    declare(client, table, "open-1")
    page = client.get(f"/t/{table}").text
    assert bid_line(page) == "Open bids add up to 3 of 6 tricks · 2 secret bids"
    german = client.get(f"/t/{table}?lang=de").text
    assert bid_line(german) == "Die offenen Ansagen ergeben 3 von 6 Stichen · 2 verdeckte Ansagen"
    tv = client.get(f"/t/{table}/tv").text
    assert "Open bids add up to 3 of 6 tricks · 2 secret bids" in re.sub(r"\s+", " ", tv)


def test_all_open_bids_say_over_under_or_even(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    for choice in ("open-2", "open-3", "open-1"):
        declare(client, table, choice)
    assert bid_line(client.get(f"/t/{table}").text) == "Bids add up to 6 of 6 tricks: even"
