"""Paper in through the web: a photo of a table's filled-in readable card, its questions
answered, becomes the same table as the game entered by taps; bad photos store nothing."""

from __future__ import annotations

import base64
import html
import io
import json
import random
import re

import cv2
import numpy as np
import pytest

from referee.paper.layout import card_layout
from referee.paper.reader import entries
from referee.rules import Setup
from referee.rules import events as ev
from referee.store.tables import get_table, table_state
from tests.links import join
from tests.paper.photos import (
    Shot,
    app_screen,
    card_photo,
    fill,
    on_screen,
    photograph,
    play,
    printed,
    totals_of,
)
from tests.tools import tool
from tests.web.helpers import new_table, ok, post

NAMES = ("Ann", "Ben", "Cho", "Dee")
GAMES = {
    "blackout": {"max_cards": 3},
    "alles-oder-nichts": {},
}


@pytest.fixture(scope="module", params=list(GAMES))
def photo(request):
    tool("pdftoppm")
    game = request.param
    setup = Setup(game, NAMES, GAMES[game], "Ann")
    rounds = None if game == "blackout" else 3
    data, values = card_photo(random.Random(5), setup, Shot(tilt=12, turn=-8, blur=0.5), rounds)
    return setup, data, values, rounds or 5


def upload(client, table, data, name="card.jpg"):
    page = client.get(f"/t/{table}/paper")
    token = re.search(r'name="csrf_token"[^>]*? value="([^"]*)"', page.text)
    form = {"photo": (io.BytesIO(data), name)}
    if token:
        form["csrf_token"] = token.group(1)
    return client.post(f"/t/{table}/paper", data=form, content_type="multipart/form-data")


def answers(page: str, values) -> dict[str, str]:
    """The confirmation form as the scorekeeper sends it: what it read, and every question
    answered with what the card says."""
    form = dict(re.findall(r'<input type="hidden" name="(c-[^"]+)" value="([^"]*)"', page))
    form["rounds"] = re.search(r'name="rounds" type="hidden" value="(\d+)"', page).group(1)
    for name in ("photo", "seal", "disputed"):
        form[name] = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page).group(1)
    form |= dict(re.findall(r'<input type="hidden" name="(w-[^"]+)" value="([^"]*)"', page))
    token = re.search(r'name="csrf_token"[^>]*? value="([^"]*)"', page)
    if token:
        form["csrf_token"] = token.group(1)
    for key in set(re.findall(r'type="radio" name="(c-[^"]+)"', page)):
        value = values[key[2:]]
        form[key] = ("1" if value else "0") if isinstance(value, bool) else str(value)
    return form


def by_taps(client, table, setup, values, rounds):
    """The same card entered on the round screen, tap by tap."""
    seat = {name: i for i, name in enumerate(setup.players, start=1)}
    secret = []
    for event in entries(setup, values, rounds):
        if isinstance(event, ev.Trump):
            ok(post(client, table, "trump", trump=event.card))
        elif isinstance(event, ev.Bid):
            ok(post(client, table, "bid", player=seat[event.player], bid=event.bid))
        elif isinstance(event, ev.Declare):
            choice = f"open-{event.bid}" if event.open else "secret"
            ok(post(client, table, "declare", player=seat[event.player], choice=choice))
        elif isinstance(event, ev.Tricks):
            fields = {f"tricks_{seat[p]}": n for p, n in event.tricks.items()}
            ok(post(client, table, "tricks", **fields))
        elif isinstance(event, ev.Reveal):
            ok(post(client, table, "reveal", player=seat[event.player], bid=event.bid))
            secret.append(event)


def test_a_photographed_card_is_the_table_entered_by_taps(app, client, photo):
    setup, data, values, rounds = photo
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    assert "Keeping score on paper?" in client.get(f"/t/{table}").text  # the table says so
    page = client.get(f"/t/{table}/paper")
    assert 'accept="image/*" capture="environment"' in page.text
    read = upload(client, table, data)
    assert read.status_code == 200, read.text[-2000:]
    with app.app_context():
        assert get_table(table).last_seq == 0  # nothing stored before it is confirmed
    confirmed = client.post(f"/t/{table}/paper/confirm", data=answers(read.text, values))
    assert confirmed.status_code == 303, confirmed.text[-2000:]
    assert "Keeping score on paper?" not in client.get(f"/t/{table}").text
    tapped = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    by_taps(client, tapped, setup, values, rounds)
    with app.app_context():
        logs = [[e.payload for e in get_table(t).entries] for t in (table, tapped)]
        assert logs[0] == logs[1]
        assert len(logs[0]) > rounds
        assert table_state(table).totals() == table_state(tapped).totals()
    # The history marks the card's entries, and only them; the tapped table's none.
    history = client.get(f"/t/{table}/history").text
    assert history.count("from paper") == len(logs[0])
    assert "from paper" not in client.get(f"/t/{tapped}/history").text
    # The card's photo is kept: the straightened card, as a JPEG, for the scorekeeper.
    kept = client.get(f"/t/{table}/paper/photo.jpg")
    assert kept.status_code == 200 and kept.mimetype == "image/jpeg"
    assert kept.data[:3] == b"\xff\xd8\xff" and "no-store" in kept.headers["Cache-Control"]
    assert f"/t/{table}/paper/photo.jpg" in client.get(f"/t/{table}/paper").text


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"not an image at all", "not a photo the app can read"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\xff\xff\x00\x00\xff\xff\x08\x00",
            "more pixels",
        ),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "JPEG"),
    ],
    ids=["text", "bomb", "truncated"],
)
def test_bad_photos_are_refused_with_a_sentence_and_store_nothing(app, client, data, says):
    table = new_table(app, client, "blackout", NAMES, {"max_cards": 3}, first="Ann")
    answer = upload(client, table, data)
    assert answer.status_code == 422
    assert "The photo was not read" in answer.text
    with app.app_context():
        assert get_table(table).last_seq == 0


def test_a_card_of_another_game_is_refused(app, client, photo):
    setup, data, _values, _rounds = photo
    other = "alles-oder-nichts" if setup.game == "blackout" else "blackout"
    table = new_table(app, client, other, NAMES, GAMES[other], first="Ann")
    answer = upload(client, table, data)
    assert answer.status_code == 422
    assert "another game" in answer.text
    with app.app_context():
        assert get_table(table).last_seq == 0


def test_the_upload_needs_the_form_token(db_app, photo):
    setup, data, _values, _rounds = photo
    client = db_app.test_client()
    table = new_table(db_app, client, setup.game, NAMES, setup.options, first="Ann")
    form = {"photo": (io.BytesIO(data), "card.jpg")}
    answer = client.post(f"/t/{table}/paper", data=form, content_type="multipart/form-data")
    assert answer.status_code == 400
    confirm = client.post(f"/t/{table}/paper/confirm", data={"rounds": "1", "c-1.trump": "S"})
    assert confirm.status_code == 400
    with db_app.app_context():
        assert get_table(table).last_seq == 0


def test_the_scorecards_page_makes_a_blank_readable_card(app, client):
    made = client.post("/scorecards", data={"game": "blackout", "players": "4", "readable": "y"})
    assert made.status_code == 200
    assert made.mimetype == "application/pdf"
    assert "paper-card.pdf" in made.headers["Content-Disposition"]
    plain = client.post("/scorecards", data={"game": "blackout", "players": "4"})
    assert "paper-card.pdf" not in plain.headers["Content-Disposition"]
    refused = client.post("/scorecards", data={"game": "ebbes", "players": "4", "readable": "y"})
    assert refused.status_code == 422
    assert "no card the app can read back" in refused.text


def test_a_card_the_rules_refuse_is_asked_again_and_nothing_is_stored(app, client, photo):
    setup, data, values, _rounds = photo
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    read = upload(client, table, data)
    form = answers(read.text, values)
    form["c-2.took.1"] = str(int(form["c-2.took.1"]) + 1)  # the tricks no longer add up
    refused = client.post(f"/t/{table}/paper/confirm", data=form)
    assert refused.status_code == 422
    assert "The rules refuse this card as it stands" in refused.text
    asked = set(re.findall(r'type="radio" name="c-([^"]+)"', refused.text))
    assert "2.took.1" in asked and all(key.startswith("2.") for key in asked)
    with app.app_context():
        assert get_table(table).last_seq == 0
    again = answers(refused.text, values)
    assert client.post(f"/t/{table}/paper/confirm", data=again).status_code == 303


def test_a_card_printed_for_another_table_is_refused(app, client, photo):
    setup, _data, _values, rounds = photo
    printed_for = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    card = client.get(f"/t/{printed_for}/paper-card.pdf")
    assert card.status_code == 200 and card.mimetype == "application/pdf"
    data, _ = card_photo(random.Random(2), setup, Shot(tilt=5), min(rounds, 2), printed_for)
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    answer = upload(client, table, data)
    assert answer.status_code == 422
    assert "printed for another table" in answer.text
    assert upload(client, printed_for, data).status_code == 200
    with app.app_context():
        assert get_table(table).last_seq == 0


def read_and_confirm(app, client, setup, data, values) -> str:
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    read = upload(client, table, data)
    confirmed = client.post(f"/t/{table}/paper/confirm", data=answers(read.text, values))
    assert confirmed.status_code == 303, confirmed.text[-2000:]
    return table


def test_only_the_scorekeeper_sees_the_photo_and_may_delete_it(app, client, photo):
    setup, data, values, _rounds = photo
    table = read_and_confirm(app, client, setup, data, values)
    spectator = app.test_client()
    join(app, spectator, table, "viewer")
    assert spectator.get(f"/t/{table}/paper/photo.jpg").status_code == 403
    assert spectator.get(f"/t/{table}/paper").status_code == 403
    assert "from paper" in spectator.get(f"/t/{table}/history").text  # the mark is for all
    page = client.get(f"/t/{table}/paper").text
    token = re.search(r'name="csrf_token"[^>]*? value="([^"]*)"', page)
    form = {"csrf_token": token.group(1)} if token else {}
    assert spectator.post(f"/t/{table}/paper/photo/delete", data=form).status_code in (400, 403)
    assert client.get(f"/t/{table}/paper/photo.jpg").status_code == 200
    gone = client.post(f"/t/{table}/paper/photo/delete", data=form, follow_redirects=True)
    assert "The card&#39;s photo is deleted" in gone.text or "photo is deleted" in gone.text
    assert "Its photo was deleted." in gone.text
    assert client.get(f"/t/{table}/paper/photo.jpg").status_code == 404
    with app.app_context():
        entered = get_table(table).last_seq
    history = client.get(f"/t/{table}/history").text
    assert history.count("from paper") == entered  # the entries and their mark stay


def test_a_confirmation_takes_back_only_the_photo_it_read(app, client, photo):
    setup, data, values, _rounds = photo
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    form = answers(upload(client, table, data).text, values)
    for forged in (
        {"photo": base64.b64encode(b"\xff\xd8\xff another image").decode()},
        {"seal": "0" * 64},
        {"photo": "not base64!"},
    ):
        answer = client.post(f"/t/{table}/paper/confirm", data=form | forged)
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/t/{table}")
        with app.app_context():
            assert get_table(table).last_seq == 0
    other = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    moved = client.post(f"/t/{other}/paper/confirm", data=form)  # sealed for another table
    assert moved.status_code == 303
    with app.app_context():
        assert get_table(other).last_seq == 0
    assert client.post(f"/t/{table}/paper/confirm", data=form).status_code == 303
    with app.app_context():
        assert get_table(table).last_seq > 0


def test_a_written_total_the_rules_disagree_with_is_shown_before_confirming(app, client):
    tool("pdftoppm")
    setup = Setup("alles-oder-nichts", NAMES, {}, "Ann")
    rng = random.Random(11)
    values = play(rng, setup)
    right = totals_of(setup, values, 7)
    slipped = {(n, s): t + (10 if s == 2 and n >= 3 else 0) for (n, s), t in right.items()}
    layout = card_layout(setup.game, 4, setup.options)
    page = fill(random.Random(11), layout, values, totals=slipped)
    data = photograph(random.Random(12), page, Shot(tilt=12, turn=4))
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    read = upload(client, table, data)
    assert read.status_code == 200
    said = html.unescape(read.text)
    assert "Totals on the card that are not the rules'" in said
    assert f"Round 3, Ben: the card says {slipped[3, 2]}, the rules {right[3, 2]}." in said
    assert "Round 3: " + ("open bid" if values["3.open.2"] else "secret bid") in said
    form = answers(read.text, values)
    assert {"c-3.bid.2", "c-3.took.2"} <= set(re.findall(r'type="radio" name="(c-[^"]+)"', said))
    # A page that did not show the dispute (an old one) shows it first and enters nothing.
    unseen = client.post(f"/t/{table}/paper/confirm", data=form | {"disputed": ""})
    assert unseen.status_code == 200 and "are not the rules'" in html.unescape(unseen.text)
    with app.app_context():
        assert get_table(table).last_seq == 0
    assert client.post(f"/t/{table}/paper/confirm", data=form).status_code == 303
    with app.app_context():
        assert table_state(table).totals()["Ben"] == right[7, 2]  # the rules' totals are kept


def screen_photo(page, dark: bool = False) -> bytes:
    shot = Shot(tilt=10, quality=75)  # under 500 KB: a test client spools larger bodies to a file
    return photograph(random.Random(3), on_screen(random.Random(2), page, dark), shot)


@pytest.mark.parametrize(
    ("shown", "says"),
    [
        ("app", "A page of the app, a card on a screen in dark mode"),
        ("card-dark", "A page of the app, a card on a screen in dark mode"),
        ("card", "photograph the paper card, not a screen."),
        ("mirrored", "a mirrored photo has none"),
    ],
)
def test_a_photo_of_a_screen_or_a_mirror_is_refused_saying_why(app, client, shown, says):
    tool("pdftoppm")
    setup = Setup("blackout", NAMES, GAMES["blackout"], "Ann")
    blank = printed("blackout", 4, json.dumps(GAMES["blackout"]))
    if shown == "app":
        data = screen_photo(app_screen())
    elif shown == "mirrored":
        data, _values = card_photo(random.Random(5), setup, Shot(tilt=8))
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        flipped = cv2.flip(image, 1)
        data = cv2.imencode(".jpg", flipped, [cv2.IMWRITE_JPEG_QUALITY, 75])[1].tobytes()
    else:
        data = screen_photo(blank, dark=shown == "card-dark")
    table = new_table(app, client, setup.game, NAMES, setup.options, first="Ann")
    answer = upload(client, table, data)
    assert answer.status_code == 422
    assert says in html.unescape(answer.text), re.findall(r"<li>(.*?)</li>", answer.text)[:3]
    with app.app_context():
        assert get_table(table).last_seq == 0


def test_an_upside_down_card_is_read_upright(app, client):
    """A card photographed upside down (the phone turned round, or the card) reads as it
    was written: the corner squares say which way up it is."""
    tool("pdftoppm")
    setup = Setup("blackout", NAMES, GAMES["blackout"], "Ann")
    data, values = card_photo(random.Random(7), setup, Shot(tilt=15, turn=178, blur=0.5))
    table = read_and_confirm(app, client, setup, data, values)
    with app.app_context():
        stored = [e.payload for e in get_table(table).entries]
    assert stored == [e.to_dict() for e in entries(setup, values, 5)]
