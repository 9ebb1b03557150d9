"""Referee mode through the web client: every card recorded, winners named, revokes caught."""

from __future__ import annotations

from referee.store.tables import table_state
from tests.web.helpers import error_of, new_table, ok, post


def state_of(app, table_id):
    with app.app_context():
        return table_state(table_id)


def play(client, table, seat, card):
    response = post(client, table, "play", player=seat, card=card, mode="cards")
    ok(response)
    assert "mode=cards" in response.headers["Location"]
    return client.get(response.headers["Location"]).get_data(as_text=True)


ANN, BEN, CHO = 1, 2, 3


def test_blackout_card_by_card_names_winners_and_catches_a_revoke(app, client):
    # 3 players, at most 2 cards: the deck is ♥K ♠K and the four aces.
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="KH"))  # the turned card itself
    for seat, bid in ((BEN, 0), (CHO, 1), (ANN, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    page = client.get(f"/t/{table}?mode=cards").get_data(as_text=True)
    assert "Ben&#39;s card" in page or "Ben's card" in page
    assert 'value="KH"' not in page  # the turned trump is not in anyone's hand
    play(client, table, BEN, "AS")
    play(client, table, CHO, "AC")
    page = play(client, table, ANN, "AH")
    assert "Ann wins trick 1: highest trump, ♥A" in page
    assert {p: s.points for p, s in state_of(app, table).scores(1).items()} == {
        "Ann": 11,
        "Ben": 10,
        "Cho": 0,
    }
    # Round 2 deals the whole deck (no trump); Cho leads.
    for seat, bid in ((CHO, 1), (ANN, 0), (BEN, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    page = client.get(f"/t/{table}?mode=cards").get_data(as_text=True)
    assert 'value="AS"' in page and 'value="KH"' in page
    play(client, table, CHO, "KS")
    play(client, table, ANN, "AC")  # Ann shows out of spades…
    page = play(client, table, BEN, "AD")
    assert "Cho wins trick 1: highest card of the colour led, ♠K" in page
    assert 'value="KS"' not in page  # played cards are gone from the picker
    page = play(client, table, CHO, "KH")
    response = post(client, table, "play", player=ANN, card="AS", mode="cards")  # …and has one
    ok(response)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Ann showed out of ♠ in trick 1 but played ♠A in trick 2: a revoke." in page
    page = play(client, table, BEN, "AH")
    state = state_of(app, table)
    assert [(b.rule, b.round, b.trick, b.player) for b in state.violations] == [
        ("follow-suit", 2, 1, "Ann")
    ]
    assert state.rounds[1].tricks_won() == {"Cho": 1, "Ann": 0, "Ben": 1}


def test_a_card_already_played_or_out_of_turn_is_refused(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in ((BEN, 0), (CHO, 1), (ANN, 1)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    play(client, table, BEN, "AS")
    again = post(client, table, "play", player=CHO, card="AS", mode="cards")
    assert error_of(again) == "♠A was already played in round 1."
    wrong = post(client, table, "play", player=ANN, card="AC", mode="cards")
    assert error_of(wrong) == "It is Cho's turn to play, not Ann's."
    assert len(state_of(app, table).current.plays[0].cards) == 1


def ebbes_first_trick(app, client, trump_from):
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"), {"trump_from": trump_from})
    ok(post(client, table, "number", number=3))
    play(client, table, ANN, "red-5")
    page = play(client, table, BEN, "blue-3")
    assert "blue is trump (the 1st designating card)." in page
    return table, play(client, table, CHO, "red-6")


def test_ebbes_trump_fixed_mid_trick_counts_now(app, client):
    _, page = ebbes_first_trick(app, client, "now")
    assert "Ben wins trick 1: highest trump, blue 3" in page


def test_ebbes_trump_from_the_next_trick(app, client):
    _, page = ebbes_first_trick(app, client, "next-trick")
    assert "Cho wins trick 1: highest card of the colour led, red 6" in page


def test_ebbes_discards_come_first_and_leave_the_picker(app, client):
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"), {"discard": True})
    ok(post(client, table, "number", number=2))
    page = client.get(f"/t/{table}?mode=cards").get_data(as_text=True)
    assert "Which card did Ann lay aside?" in page
    for seat, card in ((ANN, "red-6"), (BEN, "blue-1"), (CHO, "green-4")):
        ok(post(client, table, "discard", player=seat, card=card, mode="cards"))
    page = client.get(f"/t/{table}?mode=cards").get_data(as_text=True)
    assert "Trick 1 of 9: Ann&#39;s card" in page or "Trick 1 of 9: Ann's card" in page
    assert 'value="red-6"' not in page and 'value="red-5"' in page


def test_alles_oder_nichts_card_by_card(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="green-12"))
    for seat in (BEN, CHO, ANN):
        ok(post(client, table, "declare", player=seat, choice="open-2"))
    play(client, table, BEN, "red-3")
    play(client, table, CHO, "green-1")
    page = play(client, table, ANN, "red-12")
    assert "Cho wins trick 1: highest trump, green 1" in page
