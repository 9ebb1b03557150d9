"""Sealed secret bids (Alles oder Nichts): entered privately, shown nowhere until the round ends.

The leak test is a comparison: two tables identical but for the sealed bid (6, which draws a
"bid above the hand" warning in a 5-card round, and 0) must give the same answer to every request
any phone can make before the round ends, once table ids, tokens and times are blanked out.
Likewise every guess at a sealed bid posted from a stale page gets one answer, and a round whose
sealed bids were turned up and then sealed again (made-up tricks, undone) says so on every phone.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.store.tables import current_seq, table_state
from referee.web.polls import POLL_HEADER
from tests.links import join
from tests.sheets.reading import page_texts
from tests.web.group_helpers import group_id_at
from tests.web.helpers import first_event, hidden, new_table, ok, post

PLAYERS = ("Ann", "Ben", "Cho")


def round_two(app: Flask, client: FlaskClient) -> str:
    """A table in round 2 (5 cards each), trump turned: Cho declares first."""
    table = new_table(app, client, "alles-oder-nichts", PLAYERS)
    ok(post(client, table, "trump", trump="red"))
    for seat in (2, 3, 1):
        ok(post(client, table, "declare", player=seat, choice="open-2"))
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=2))
    ok(post(client, table, "trump", trump="blue"))
    return table


def seal(client: FlaskClient, table: str, seat: int, bid: int):
    """The pass-the-phone page's tap: the player's bid, sealed."""
    page = client.get(f"/t/{table}/seal/{seat}").text
    assert "sealed-0" in page, html.unescape(page)[-800:]
    return client.post(
        f"/t/{table}/entry",
        data={
            "seq": hidden(page, "seq"),
            "round": hidden(page, "round"),
            "action": "declare",
            "player": str(seat),
            "choice": f"sealed-{bid}",
            "csrf_token": hidden(page, "csrf_token"),
        },
    )


def blanked(text: str, table: str) -> str:
    """A response with what differs between two tables anyway blanked out."""
    text = text.replace(table, "TABLE")
    text = re.sub(r'name="csrf_token"[^>]*? value="[^"]*"', "CSRF", text)
    text = re.sub(r"/j[/#][A-Za-z0-9_-]+", "/j#TOKEN", text)
    text = re.sub(r"seq\?k=[A-Za-z0-9_-]+", "seq?k=KEY", text)
    # A group page's stream token: a digest of the ids and positions of the tables it shows.
    text = re.sub(r'data-follow="[A-Za-z0-9_-]+"', "FOLLOW", text)
    text = re.sub(r"<svg.*?</svg>", "QR", text, flags=re.S)
    return re.sub(r"\d\d:\d\d:\d\d(\.\d+)?", "TIME", text)  # to the second, or a record's


def everything(app: Flask, table: str, phones: dict[str, FlaskClient], sealed_at: int):
    """Every answer every phone gets from the table: pages, downloads (the PDF as its text), and
    the answers to each page's own poll and stream."""
    answers = {}
    paths = ["", "/sheet", "/standings", "/tv", "/history", "/record.json", "/seq", "/share"]
    paths += [f"/seal/{seat}" for seat in (1, 2, 3)] + [f"/amend/{sealed_at}"]
    for who, phone in phones.items():
        for path in paths:
            response = phone.get(f"/t/{table}{path}")
            answers[who, path] = (response.status_code, blanked(response.text, table))
        # The page's own poll (static/app.js: its key, the position it shows), from the
        # position before the sealed bid (the page) and at it (nothing new): the answers too.
        key = re.search(r"seq\?k=([A-Za-z0-9_-]+)", phone.get(f"/t/{table}/sheet").text)
        for path in ("", "/sheet", "/standings", "/tv", "/history"):
            for seen in (sealed_at - 1, sealed_at):
                headers = {"If-None-Match": f'"seq-{seen}"', POLL_HEADER: key[1] if key else ""}
                response = phone.get(f"/t/{table}{path}", headers=headers)
                answers[who, path, seen] = (response.status_code, blanked(response.text, table))
            # The page's stream, resumed from before the sealed bid: the event that brings it.
            status, event = first_event(phone, f"/t/{table}{path}", sealed_at - 1)
            answers[who, path, "stream"] = (status, blanked(event, table))
        pdf = phone.get(f"/t/{table}/sheet.pdf")
        answers[who, "pdf"] = (pdf.status_code, blanked("\n".join(page_texts(pdf.data)), table))
    return answers


@pytest.mark.parametrize("how", ["pass the phone", "player link"])
def test_a_sealed_bid_shows_nowhere_before_the_round_is_over(app, client, how, streams):
    answers = []
    for bid in (6, 0):
        keeper = app.test_client()
        table = round_two(app, keeper)
        phones = {"keeper": keeper}
        for kind, player in (("viewer", None), ("player", "Cho"), ("player", "Ann")):
            phones[f"{kind} {player}"] = other = app.test_client()
            join(app, other, table, kind, player)
        sealer = phones["player Cho"] if how == "player link" else keeper
        response = seal(sealer, table, 3, bid)
        ok(response)
        told = sealer.get(f"/t/{table}").text
        assert "bid is sealed" in told and "never be made" not in told  # no telling warning
        with app.app_context():
            sealed_at = current_seq(table)  # the sealed declaration is the newest entry
        answers.append(everything(app, table, phones, sealed_at))
    six, zero = answers
    assert six.keys() == zero.keys()
    for key in six:
        assert six[key] == zero[key], key
    for who in ("keeper", "viewer None", "player Cho", "player Ann"):  # the polls were answered
        before = sealed_at - 1
        assert six[who, "/sheet", before][0] == 200 and "<main" in six[who, "", before][1]
        assert six[who, "/sheet", sealed_at] == (304, "")
        if streams:  # and so were the streams: the page itself, or where the table is
            assert six[who, "/sheet", "stream"][1].startswith(f"id: {sealed_at}\nevent: page\n"), (
                who,
                six[who, "/sheet", "stream"][0],
            )
            assert six[who, "/history", "stream"][1].startswith(f"id: {sealed_at}\nevent: moved")
    status, page = six["keeper", "/amend/7"]  # correcting it would show or erase it
    assert status == 422 and "sealed until the round is over" in html.unescape(page)
    assert "<form" not in page.split("<main>")[1]


def test_after_the_round_the_sealed_bid_is_shown_and_said_to_be_sealed_before_play(app, client):
    table = round_two(app, client)
    ok(seal(client, table, 3, 1))
    ok(post(client, table, "declare", player=1, choice="open-2"))
    ok(post(client, table, "declare", player=2, choice="secret"))  # the other way: turned up later
    history = html.unescape(client.get(f"/t/{table}/history").text)
    assert "Cho declared secret, bid sealed until the round is over" in history
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=1))
    # No turning up needed for Cho: only Ben's unsealed secret bid is asked for.
    page = html.unescape(client.get(f"/t/{table}").text)
    assert "Turn up Ben's secret bid" in page and "Cho's secret" not in page
    ok(post(client, table, "reveal", player=2, bid=2))
    correct = client.get(f"/t/{table}/amend/7")
    assert correct.status_code == 200  # now it can be corrected, and it says what it was
    assert "Cho declared secret, bid sealed before play: 1" in html.unescape(correct.text)
    history = html.unescape(client.get(f"/t/{table}/history").text)
    assert "Cho declared secret, bid sealed before play: 1" in history
    record = json.loads(client.get(f"/t/{table}/record.json").text)
    assert record["rounds"][1]["bids"]["Cho"] == {"bid": 1, "open": False}
    with app.app_context():
        state = table_state(table)
    assert state.rounds[1].bids["Cho"] == 1
    assert state.totals()["Cho"] == 7 + 4  # open 2 took 2: 2 × 2 + 3; secret 1 took 1: 1 + 3


def session_of(app: Flask, response) -> object:
    """What a response puts in the browser's session cookie: its keys and its messages (the
    rest is the browser's links and CSRF token); None when it sets no cookie."""
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    if not cookies:
        return None
    value = cookies[0].split(";")[0].removeprefix("session=")
    session = app.session_interface.get_signing_serializer(app).loads(value)
    return sorted(session), session.get("_flashes")


def answer(app: Flask, response, table: str) -> tuple:
    """Everything a phone learns from a response: status, the headers that matter, the size and
    the body (with the table id, tokens and times blanked out), and the session it keeps."""
    return (
        response.status_code,
        blanked(response.headers.get("Location", ""), table),
        response.headers.get("Content-Type"),
        len(response.data),
        blanked(response.text, table),
        session_of(app, response),
    )


@pytest.mark.parametrize("bid", [0, 6])
def test_every_guess_at_a_sealed_bid_from_a_stale_page_gets_the_same_answer(db_app, bid):
    """The scorekeeper re-posts a sealed declaration from the page before it with each bid
    0–6 in turn: no answer, nor the page it leads to, may tell which one was sealed."""
    app = db_app
    keeper = app.test_client()
    table = round_two(app, keeper)
    stale = keeper.get(f"/t/{table}/seal/3").text  # the page before Cho seals
    ok(seal(keeper, table, 3, bid))
    keeper.get(f"/t/{table}")  # Cho's phone shows what it was told, then it goes back
    with app.app_context():
        sealed_at = current_seq(table)
    answers = []
    for guess in range(7):
        data = {name: hidden(stale, name) for name in ("csrf_token", "seq", "round", "action")}
        data |= {"player": "3", "choice": f"sealed-{guess}"}
        response = keeper.post(f"/t/{table}/entry", data=data)
        then = keeper.get(response.headers.get("Location") or f"/t/{table}")
        answers.append((answer(app, response, table), answer(app, then, table)))
    assert all(a == answers[0] for a in answers), [a[0][:2] for a in answers]
    with app.app_context():
        assert current_seq(table) == sealed_at  # nothing was written
        assert table_state(table).rounds[1].bids["Cho"] == bid


SHOWN = "The sealed bids of round 2 were shown before the round was over"


def test_sealed_bids_turned_up_by_an_entry_undone_later_are_marked_on_every_phone(app, client):
    """Made-up tricks turn the sealed bids up, the sheet shows them, an undo seals them again:
    the sheet, TV mode and the history say so to every phone, for the rest of the game."""
    table = round_two(app, client)
    viewer = app.test_client()
    join(app, viewer, table, "viewer")

    def marked() -> list[bool]:
        pages = [
            phone.get(f"/t/{table}{path}").text
            for phone in (client, viewer)
            for path in ("/sheet", "/tv", "/history")
        ]
        return [SHOWN in html.unescape(page) for page in pages]

    def undo() -> None:
        seq = hidden(client.get(f"/t/{table}").text, "seq")
        ok(client.post(f"/t/{table}/undo", data={"seq": seq}))

    ok(seal(client, table, 3, 1))
    undo()  # Cho changes their mind before the round: nothing was shown
    ok(seal(client, table, 3, 4))
    ok(post(client, table, "declare", player=1, choice="open-2"))
    ok(post(client, table, "declare", player=2, choice="open-1"))
    assert marked() == [False] * 6
    ok(post(client, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=1))  # made up
    assert "bid sealed before play: 4" in html.unescape(viewer.get(f"/t/{table}/history").text)
    assert marked() == [False] * 6  # the round is over, as far as anyone can tell
    undo()  # sealed again …
    assert "sealed before play" not in html.unescape(viewer.get(f"/t/{table}/history").text)
    assert marked() == [True] * 6  # … and every phone is told the bids were seen
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=1, tricks_3=3))  # played for real
    assert marked() == [True] * 6  # the mark stays for the rest of the game
    assert "sealed bids of round 1" not in client.get(f"/t/{table}/sheet").text


def test_correcting_or_undoing_a_sealed_bid_tells_nothing_of_it(app):
    """Two tables alike but for the sealed bid: a refused correction of it, its undo, the
    message the undo leaves and every page afterwards read the same."""
    answers = []
    for bid in (6, 0):
        keeper = app.test_client()
        table = round_two(app, keeper)
        ok(seal(keeper, table, 3, bid))
        with app.app_context():
            sealed_at = current_seq(table)
        page = keeper.get(f"/t/{table}").text
        fix = {"seq": hidden(page, "seq"), "round": "2", "action": "declare", "player": "3"}
        said = {
            "correct": keeper.post(f"/t/{table}/amend/{sealed_at}", data=fix | {"choice": "open-2"})
        }
        said["undo"] = keeper.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")})
        said["after undo"] = keeper.get(f"/t/{table}")
        found = {key: answer(app, response, table) for key, response in said.items()}
        answers.append((found, everything(app, table, {"keeper": keeper}, sealed_at)))
    six, zero = answers
    assert six == zero
    said = six[0]
    assert said["correct"][0] == 422
    assert "sealed until the round is over" in html.unescape(said["correct"][4])
    told = html.unescape(said["after undo"][4])
    assert "Undone: Round 2: Cho declared secret, bid sealed until the round is over" in told


def test_a_sealed_bid_shows_on_no_group_page(app):
    """A group keeps the table (made from it by its scorekeeper): every group page, to every kind
    of phone — the group's keeper who keeps the table's score, a group keeper and a group viewer
    who hold no link of the table, a group viewer who holds Cho's player link — reads the same
    for every sealed bid 0–6 before the round is over, once ids, tokens and times are blanked."""
    from tests.web.group_helpers import join_group

    answers = []
    for bid in range(7):
        keeper = app.test_client()
        table = round_two(app, keeper)
        made = keeper.post(f"/t/{table}/group", data={"action": "new", "name": "Club"})
        group = group_id_at(made.headers["Location"])
        phones = {"keeper": keeper}
        for kind, table_link in (("keeper", None), ("viewer", None), ("viewer", "Cho")):
            phones[f"group {kind}, {table_link}"] = other = app.test_client()
            join_group(app, other, group, kind)
            if table_link is not None:
                join(app, other, table, "player", table_link)
        ok(seal(keeper, table, 3, bid))
        found = {}
        paths = ["", "/roster", "/evenings", "/share", "/new", "/t/TABLE", "/tv"]
        paths += ["/standings", "/standings?season=all", "/stats.json", "/group.json"]
        paths += ["/report.pdf", "/report.pdf?season=all"]
        paths += [f"/p/{player}?game=alles-oder-nichts" for player in ("p1", "p2", "p3")]
        for who, phone in phones.items():
            phone.get(f"/g/{group}")  # a first view made the pages kept, then each is read
            for path in paths:
                response = phone.get(f"/g/{group}{path.replace('TABLE', table)}")
                if response.mimetype == "application/pdf":  # its words (not its date or id)
                    text = "\n".join(page_texts(response.data))
                else:
                    text = response.text
                found[who, path] = (response.status_code, blanked(text, table))
                found[who, path] = tuple(
                    part.replace(group, "GROUP") for part in map(str, found[who, path])
                )
        answers.append(found)
    for other in answers[1:]:
        for key in answers[0]:
            assert other[key] == answers[0][key], key
    status, page = answers[0]["group viewer, None", ""]
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert status == "200" and "Alles oder Nichts · Round 2 of" in words
    assert "Ann 7 Ben 7 Cho 7" in words  # round 1's totals: no more before round 2 is over
    status, page = answers[0]["group viewer, None", "/p/p3?game=alles-oder-nichts"]
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert status == "200" and "Rounds 1 Complete rounds" in words and "Points 7 Cho" in words
