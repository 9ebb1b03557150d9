"""Keeping score through the web client: a journey per game, corrections, and bad input."""

from __future__ import annotations

import re

import pytest

from referee.store.tables import table_state
from tests.web.helpers import checked, chips, error_of, hidden, kept_as_breach, new_table, ok, post


def state_of(app, table_id):
    with app.app_context():
        return table_state(table_id)


def seats(**by_name):
    return {f"tricks_{i}": n for i, n in enumerate(by_name.values(), start=1)}


# --- Blackout ---------------------------------------------------------------------------------


def test_blackout_game_through_the_web(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 2})
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Round 1 of 3" in page and "Turn up the trump" in page
    ok(post(client, table, "trump", trump="H"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Ben bids" in page  # Ann deals, Ben bids first
    ok(post(client, table, "bid", player=2, bid=0))
    # The dealer's forbidden bid is disabled, with the reason on the page.
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert 'value="1" disabled' in page
    assert "Ann (the dealer) cannot bid 1: the bids would add up to 1" in page
    ok(post(client, table, "bid", player=1, bid=0))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    # Round 2 deals the whole deck: no trump step.
    assert "no trump" in client.get(f"/t/{table}").get_data(as_text=True)
    ok(post(client, table, "bid", player=1, bid=1))
    ok(post(client, table, "bid", player=2, bid=0))
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=1))
    ok(post(client, table, "trump", trump="S"))
    ok(post(client, table, "bid", player=2, bid=1))
    ok(post(client, table, "bid", player=1, bid=1))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    state = state_of(app, table)
    assert state.complete and state.totals() == {"Ann": 21, "Ben": 11}
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Winner" in page and "Ann" in page
    sheet = client.get(f"/t/{table}/sheet").get_data(as_text=True)
    assert "<table" in sheet and 'scope="col"' in sheet
    assert "bid 1, took 1: a 1 written in front of the bid → 11" in sheet
    assert "blacked" in sheet


def test_refused_entries_say_why_and_keep_the_input(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat in (2, 3, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    response = post(client, table, "tricks", tricks_1=1, tricks_2=1, tricks_3=0)
    assert response.status_code == 422
    assert error_of(response) == "The tricks won add up to 2; round 1 has 1 trick."
    page = response.get_data(as_text=True)
    assert chips(page, "tricks-1") == ["0", "1"]  # a chip per count the round can have
    assert checked(page, "tricks-1") == "1"  # the input is kept


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bid": "abc"}, "Ben's bid must be a whole number from 0 to 999, not “abc”."),
        ({"bid": "-1"}, "Ben's bid must be a whole number from 0 to 999, not “-1”."),
        ({"bid": "99999999999999999999"}, "Ben's bid must be a whole number from 0 to 999"),
        ({"bid": ""}, "Enter Ben's bid."),
        ({"bid": "5"}, "Ben cannot bid 5: a bid is 0 to 1 in round 1."),
        ({"bid": "0", "player": "9"}, "Choose a player."),
        ({"bid": "0", "player": "<script>"}, "Choose a player."),
        ({"bid": "0", "player": "3"}, "It is Ben's turn to bid, not Cho's."),
    ],
)
def test_garbage_bids_get_a_clear_message(app, client, fields, message):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    response = post(client, table, "bid", **{"player": "2", **fields})
    assert response.status_code == 422
    assert error_of(response).startswith(message)
    assert state_of(app, table).current.bids == {}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"seq": "x", "round": "1", "action": "bid"},
        {"seq": "0", "round": "1", "action": "launch-missiles"},
        {"seq": "0", "round": "0", "action": "trump", "trump": "H"},
        {"seq": "0", "round": "1", "action": "trump", "trump": "Z" * 5000},
    ],
)
def test_forged_forms_never_break_the_table(app, client, data):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    response = client.post(f"/t/{table}/entry", data=data)
    assert 400 <= response.status_code < 500
    assert state_of(app, table).rounds == [] or not state_of(app, table).current.trump_colour


def test_a_stale_page_and_a_double_tap(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    form = {"seq": hidden(page, "seq"), "round": "1", "action": "trump", "trump": "H"}
    ok(client.post(f"/t/{table}/entry", data=form))
    # The same tap again (a double tap): nothing new, and the player is told.
    again = client.post(f"/t/{table}/entry", data=form)
    assert again.status_code == 303
    assert "already recorded" in client.get(f"/t/{table}").get_data(as_text=True)
    # Another phone, still showing the old page, enters a different trump: refused, kept.
    other = client.post(f"/t/{table}/entry", data={**form, "trump": "S"})
    assert other.status_code == 409
    assert "changed on another phone" in error_of(other)
    assert state_of(app, table).current.trump_colour == "H"
    assert len(state_of(app, table).rounds) == 1


@pytest.mark.parametrize("then", ["undone", "corrected"])
def test_an_entry_no_longer_in_force_was_not_already_recorded(app, client, then):
    """Phone A enters "Ben open 2", phone B undoes it (or corrects it to open 3), and A taps
    again on its stale page: the table does not hold that entry, so A is not told it does."""
    from tests.links import join

    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    page = client.get(f"/t/{table}").text
    form = {"seq": hidden(page, "seq"), "round": "1", "action": "declare", "player": "2"}
    ok(client.post(f"/t/{table}/entry", data={**form, "choice": "open-2"}))
    other = app.test_client()
    join(app, other, table)
    if then == "undone":
        ok(other.post(f"/t/{table}/undo", data={"seq": "2"}))
    else:
        fix = {**form, "seq": "2", "choice": "open-3"}
        ok(other.post(f"/t/{table}/amend/2", data=fix))
    again = client.post(f"/t/{table}/entry", data={**form, "choice": "open-2"})
    assert again.status_code == 409 and "changed on another phone" in error_of(again)
    assert state_of(app, table).current.bids == ({} if then == "undone" else {"Ben": 3})
    assert "already recorded" not in client.get(f"/t/{table}").text


@pytest.mark.speed_layer  # a read trusting its memory of links is the speed layer's
@pytest.mark.parametrize(
    "refusal", ["malformed", "not an entry", "breach", "stale", "double tap", "correction"]
)
def test_a_link_revoked_by_another_worker_sees_no_table_in_a_refusal(
    app, client, sweep_due, refusal
):
    """A POST that writes nothing but would show the table (a refused entry, a stale page, a
    refused correction) checks the link against the database, as its write would have: this
    process's memory of links learns of the revocation only at its next sweep."""
    from referee.store.links import revoke

    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    base = {"seq": "1", "round": "1", "action": "declare", "player": "2"}
    path, form = {
        "malformed": ("entry", {**base, "seq": "x"}),
        "not an entry": ("entry", {**base, "choice": "maybe"}),
        "breach": ("entry", {**base, "player": "1", "choice": "open-1"}),  # Ann's turn is later
        "stale": ("entry", {**base, "seq": "0", "choice": "open-1"}),
        "double tap": ("entry", {"seq": "0", "round": "1", "action": "trump", "trump": "red"}),
        "correction": ("amend/1", {"seq": "1", "round": "1", "action": "trump", "trump": "XX"}),
    }[refusal]
    with app.app_context():  # another worker revokes the link: this process is not told
        revoke(table, "keeper")
    assert "Ben declares" in client.get(f"/t/{table}").text  # a read may trust its memory
    refused = client.post(f"/t/{table}/{path}", data=form)
    assert refused.status_code == 403 and "has been revoked" in refused.text
    assert "Ben" not in refused.text and "red" not in refused.text
    with client.session_transaction() as session:
        assert "_flashes" not in session  # nor in a message for the next page
    assert state_of(app, table).current.open == {}


def test_an_entry_sent_by_the_script_is_answered_with_the_next_screen(app, client):
    from referee.web.round.routes import NEXT_SCREEN_HEADER

    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    page = client.get(f"/t/{table}?mode=cards").text
    assert 'method="post"' in page and "data-swap" in page  # app.js sends these forms
    data = {"seq": "1", "round": "1", "action": "bid", "player": "2", "bid": "1"}
    answer = client.post(f"/t/{table}/entry", data=data, headers={NEXT_SCREEN_HEADER: "1"})
    assert answer.status_code == 200  # the screen itself, not a redirect to it
    assert 'data-seq="2"' in answer.text and "Ben: 1" in answer.text
    assert "Cho bids" in answer.text  # what comes next
    assert client.get(f"/t/{table}").text.count("Ben: 1") == 1  # recorded once
    # A refused entry comes back as before: the reason, the input kept, the log untouched.
    again = client.post(f"/t/{table}/entry", data=data, headers={NEXT_SCREEN_HEADER: "1"})
    assert again.status_code == 303  # a double tap: fetch follows to the page that says so
    assert "already recorded" in client.get(again.headers["Location"]).text
    refused = {"seq": "2", "round": "1", "action": "bid", "player": "3", "bid": "9"}
    answer = client.post(f"/t/{table}/entry", data=refused, headers={NEXT_SCREEN_HEADER: "1"})
    assert answer.status_code == 422 and 'role="alert"' in answer.text
    with app.app_context():
        assert table_state(table).current.bids == {"Ben": 1}


def test_undo_and_history(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    ok(post(client, table, "bid", player=2, bid=1))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    ok(client.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")}))
    assert "Undone: Round 1: Ben bid 1" in client.get(f"/t/{table}").get_data(as_text=True)
    assert state_of(app, table).current.bids == {}
    history = client.get(f"/t/{table}/history").get_data(as_text=True)
    assert "Ben bid 1" in history and "Undo of entry 2" in history
    # An undo from a stale page undoes nothing.
    client.post(f"/t/{table}/undo", data={"seq": "1"})
    assert state_of(app, table).current.trump_colour == "H"


def test_amending_an_earlier_round_replays_and_shows_new_breaches(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    for seat, bid in ((2, 1), (3, 1), (1, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0))
    assert state_of(app, table).totals() == {"Ann": 10, "Ben": 11, "Cho": 0}
    # Correct Cho's bid (entry 3) to 0: the dealer's 0 now makes the bids even.
    page = client.get(f"/t/{table}/amend/3").get_data(as_text=True)
    assert 'name="bid" value="1" checked' in page  # the bid as it was, on its chip
    response = kept_as_breach(
        client,
        f"/t/{table}/amend/3",
        {"seq": hidden(page, "seq"), "round": "1", "action": "bid", "player": "3", "bid": "0"},
    )
    ok(response)
    state = state_of(app, table)
    assert state.totals() == {"Ann": 10, "Ben": 11, "Cho": 10}
    assert [b.rule for b in state.violations] == ["hook"]
    assert "Breaches noted" in client.get(f"/t/{table}").get_data(as_text=True)


def test_an_amendment_that_breaks_a_rule_itself_is_refused(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    page = client.get(f"/t/{table}/amend/1").get_data(as_text=True)
    response = client.post(
        f"/t/{table}/amend/1",
        data={"seq": hidden(page, "seq"), "round": "1", "action": "trump", "trump": "XX"},
    )
    assert response.status_code == 422
    assert "'XX' is not a suit, colour or card of this deck." in error_of(response)


def test_unknown_tables_and_entries_are_404(app, client):
    assert client.get("/t/nope").status_code == 404
    assert client.get("/t/" + "x" * 500).status_code == 404
    assert client.post("/t/nope/entry", data={}).status_code == 404
    table = new_table(app, client, "blackout", ("Ann", "Ben"))
    assert client.get(f"/t/{table}/amend/7").status_code == 404


def test_player_names_are_escaped(app, client):
    table = new_table(app, client, "blackout", ("<script>alert(1)</script>", "Ben"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.csrf
def test_entries_need_the_csrf_token(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    form = {"seq": hidden(page, "seq"), "round": "1", "action": "trump", "trump": "H"}
    refused = client.post(f"/t/{table}/entry", data=form)
    assert refused.status_code == 400
    assert state_of(app, table).rounds == []
    ok(client.post(f"/t/{table}/entry", data={**form, "csrf_token": hidden(page, "csrf_token")}))
    assert state_of(app, table).current.trump_colour == "H"


# --- Alles oder Nichts ---------------------------------------------------------------------


def test_alles_oder_nichts_round_with_open_and_secret_bids(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="red"))
    ok(post(client, table, "declare", player=2, choice="open-2"))
    ok(post(client, table, "declare", player=3, choice="secret"))
    refused = post(client, table, "declare", player=1, choice="open-7")  # a forged button
    assert error_of(refused) == "Ann cannot bid 7: a bid is 0 to 6 in round 1."
    ok(post(client, table, "declare", player=1, choice="open-1"))
    state = state_of(app, table)
    assert state.current.open == {"Ben": True, "Cho": False, "Ann": True}
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=2, tricks_3=3))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Turn up Cho&#39;s secret bid" in page or "Turn up Cho's secret bid" in page
    ok(post(client, table, "reveal", player=3, bid=3))
    state = state_of(app, table)
    assert {p: s.points for p, s in state.scores(1).items()} == {"Ann": 5, "Ben": 7, "Cho": 6}


def test_alles_oder_nichts_warns_about_a_bid_above_the_hand(app, client):
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    # Get to round 4 (3 cards) quickly: everyone open 0, the first bidder takes all.
    for size in (6, 5, 4):
        ok(post(client, table, "trump", trump="blue"))
        state = state_of(app, table)
        order = state.game.declaring_order(state.game.upcoming(state))
        for name in order:
            ok(
                post(
                    client,
                    table,
                    "declare",
                    player=("Ann", "Ben", "Cho").index(name) + 1,
                    choice="open-0",
                )
            )
        counts = {name: (size if name == order[0] else 0) for name in ("Ann", "Ben", "Cho")}
        ok(post(client, table, "tricks", **seats(**counts)))
    ok(post(client, table, "trump", trump="blue"))
    response = post(client, table, "declare", player=2, choice="open-5")  # Ann deals round 4
    ok(response)
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Ben bid 5 with 3 cards: legal, but it can never be made exactly." in page


# --- ebbes -----------------------------------------------------------------------------------

WON = {  # 3 players, 6 cards a colour, whole tricks of 3
    1: {"red": 2, "yellow": 3, "green": 3, "blue": 1, "purple": 3},
    2: {"red": 2, "yellow": 2, "green": 2, "blue": 2, "purple": 1},
    3: {"red": 2, "yellow": 1, "green": 1, "blue": 3, "purple": 2},
}


def won_fields(won=WON):
    return {
        f"won-{seat}-{colour}": n for seat, counts in won.items() for colour, n in counts.items()
    }


def test_ebbes_rounds_through_the_web(app, client):
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Reveal the number card" in page
    ok(post(client, table, "number", number=3))
    for colour in ("red", "yellow", "green", "blue"):
        ok(post(client, table, "designate", colour=colour))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "purple" in page and "nix" in page
    response = client.post(
        f"/t/{table}/entry",
        data={"seq": hidden(page, "seq"), "round": "1", "action": "won", **won_fields()},
    )
    ok(response)
    state = state_of(app, table)
    assert {p: s.points for p, s in state.scores(1).items()} == {"Ann": 2, "Ben": 3, "Cho": -2}
    # Round 2: Ann had the most nix cards and chooses; 3 is no longer offered.
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Ann had the most nix cards" in page
    ok(post(client, table, "starter", player=2, chosen_by=1))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert 'name="number" value="3"' not in page and 'name="number" value="4"' in page
    response = post(client, table, "number", number=3)
    assert error_of(response) == "The number card 3 was already used in round 1."


def test_ebbes_cards_won_that_do_not_add_up_are_refused_and_kept(app, client):
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "number", number=1))
    for colour in ("red", "yellow", "green", "blue"):
        ok(post(client, table, "designate", colour=colour))
    bad = {seat: dict(counts) for seat, counts in WON.items()}
    bad[1]["yellow"] = 4  # red is trump: its counts are not asked for, so not kept either
    response = post(client, table, "won", **won_fields(bad))
    assert response.status_code == 422
    # Said in cards of the colour that does not add up, not as Ann's odd total of cards.
    assert error_of(response) == "7 yellow cards are won in all; 6 are in play."
    assert checked(response.get_data(as_text=True), "won-1-yellow") == "4"


def test_a_sealed_secret_bid_stays_hidden_until_the_round_is_over(app, client):
    from referee.rules import events as ev
    from referee.store.tables import append_entry

    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    with app.app_context():
        append_entry(table, 0, "event", ev.Trump(1, "red").to_dict())
        append_entry(table, 1, "event", ev.Declare(1, "Ben", False, 4).to_dict())
    for page in (f"/t/{table}", f"/t/{table}/sheet"):
        text = client.get(page).get_data(as_text=True)
        # Cho's step offers every bid as a chip ("open 4"): the sealed 4 is nowhere else.
        offered = re.findall(r'<button [^>]*value="open-\d+">.*?</button>', text)
        assert len(offered) == (7 if page == f"/t/{table}" else 0)
        for chip in offered:
            text = text.replace(chip, "")
        assert "Ben: 4" not in text and ">4<" not in text.replace(" ", "")


def test_ebbes_placed_designators_round(app, client):
    table = new_table(
        app, client, "ebbes", ("Ann", "Ben", "Cho"), {"variant": "placed-designators"}
    )
    assert "Place the designators" in client.get(f"/t/{table}").get_data(as_text=True)
    numbers = {"red": 1, "yellow": 2, "green": 2, "blue": 4, "purple": 5}
    ok(post(client, table, "designators", **{f"designator-{c}": n for c, n in numbers.items()}))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "When a designator card is played, tap its colour: it becomes trump." in page
    for colour in ("blue", "red", "green", "purple"):
        ok(post(client, table, "designate", colour=colour))
    ok(post(client, table, "won", **won_fields()))
    state = state_of(app, table)
    assert state.current.role_map()["nix"] == "yellow"
    assert state.scores(1) is not None


def test_the_table_links_its_record(app, client):
    table = new_table(app, client, "blackout", ("Ann", "Ben"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert f"/t/{table}/record.json" in page


def test_every_page_string_is_marked_for_translation(tmp_path):
    from referee.catalogs import extract

    found = {message.id for message in extract(tmp_path / "messages.pot")}
    for sentence in ("Undo the last entry", "Enter the tricks", "Score sheet", "New table"):
        assert sentence in found
    # The engine's sentences, one and with its plural form.
    assert "%(card)s was already played in round %(round)s." in found
    assert (
        "%(player)s cannot win %(count)s trick.",
        "%(player)s cannot win %(count)s tricks.",
    ) in found
