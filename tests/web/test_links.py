"""Who may do what at a shared table: each kind of link × each action, opening and revoking
links, the share page, the "has anything changed?" request, TV mode, headers and the rate limit."""

from __future__ import annotations

import html
import http.client
import logging
import re
import threading
import time
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, insert, select
from werkzeug.serving import make_server

from referee.store import db
from referee.store.links import access, token_hash
from referee.store.models import Link, Table
from referee.store.tables import current_seq, table_state
from referee.web.sharing.access import creator
from tests.links import join, new_link, open_shared
from tests.web.helpers import hidden, new_table, ok, post
from tests.web.test_newtable import form as new_table_form

PLAYERS = ("Ann", "Ben", "Cho")


def state_of(app: Flask, table: str):
    with app.app_context():
        return table_state(table)


def log_length(app: Flask, table: str) -> int:
    with app.app_context():
        return current_seq(table)


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> str:
    """An Alles oder Nichts table with its trump turned: Ben declares next."""
    table = new_table(app, client, "alles-oder-nichts", PLAYERS)
    ok(post(client, table, "trump", trump="red"))
    return table


def phone(app: Flask, table: str, kind: str | None, player: str | None = None) -> FlaskClient:
    """A browser holding a ``kind`` link to the table (None: no link at all)."""
    other = app.test_client()
    if kind is not None:
        join(app, other, table, kind, player)
    return other


#: Each read of a table, by every link; the answer for a browser without a link.
READS = ["", "/sheet", "/tv", "/history", "/record.json", "/sheet.pdf", "/seq"]


@pytest.mark.parametrize("path", READS)
@pytest.mark.parametrize("kind", ["keeper", "viewer", "player"])
def test_every_link_can_look(app, table, path, kind):
    looker = phone(app, table, kind, "Ben" if kind == "player" else None)
    assert looker.get(f"/t/{table}{path}").status_code == 200


@pytest.mark.parametrize("path", READS)
def test_without_a_link_a_table_does_not_open(app, table, path):
    response = phone(app, table, None).get(f"/t/{table}{path}")
    assert response.status_code == 403
    assert "opens only with one of its links" in response.text


def entry(page: str, **fields: str) -> dict[str, str]:
    return {"seq": hidden(page, "seq"), "round": "1", **fields}


def declare(seat: str, choice: str):
    return lambda page: ("/entry", entry(page, action="declare", player=seat, choice=choice))


#: (what, how to post it given a page of the table) for every write.
WRITES = {
    "Ben declares open": declare("2", "open-2"),
    "Ben seals his bid": declare("2", "sealed-2"),
    "Ann's declaration, out of turn": declare("1", "open-1"),
    "a trump": lambda page: ("/entry", entry(page, action="trump", trump="blue")),
    "undo": lambda page: ("/undo", {"seq": hidden(page, "seq")}),
    "correct the trump": lambda page: ("/amend/1", entry(page, action="trump", trump="blue")),
    "revoke scorekeepers": lambda page: ("/share", {"action": "revoke-keepers"}),
}

#: The status each kind of link gets for each write; 303 is done, 422/409 the rules or the
#: table refused it (the link was allowed to try), 403 the link may not.
MATRIX = {
    "keeper": {
        "Ben declares open": 303,
        "Ben seals his bid": 303,
        "Ann's declaration, out of turn": 422,
        "a trump": 422,
        "undo": 303,
        "correct the trump": 303,
        "revoke scorekeepers": 303,
    },
    "player Ben": {
        "Ben declares open": 303,
        "Ben seals his bid": 303,
        "Ann's declaration, out of turn": 403,
        "a trump": 403,
        "undo": 403,
        "correct the trump": 403,
        "revoke scorekeepers": 403,
    },
    "player Cho": dict.fromkeys(WRITES, 403),
    "viewer": dict.fromkeys(WRITES, 403),
    "no link": dict.fromkeys(WRITES, 403),
}


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("who", list(MATRIX))
def test_permission_matrix(app, client, table, who, write):
    kind, _, player = who.partition(" ")
    writer = phone(app, table, None if kind == "no" else kind, player or None)
    page = client.get(f"/t/{table}").text  # the scorekeeper's page: a valid seq and round
    before = log_length(app, table)
    path, data = WRITES[write](page)
    response = writer.post(f"/t/{table}{path}", data=data)
    assert response.status_code == MATRIX[who][write], response.text[-600:]
    if response.status_code == 403:
        assert log_length(app, table) == before  # nothing written
        assert 'class="error-box"' in response.text  # a page that says why


def test_a_player_link_declares_only_in_its_own_turn_and_sees_no_other_controls(app, table):
    ben = phone(app, table, "player", "Ben")
    page = ben.get(f"/t/{table}").text
    assert "Declare on this phone" in page and 'name="action"' not in page
    assert "Undo the last entry" not in page and "/share" not in page
    cho = phone(app, table, "player", "Cho")
    page = cho.get(f"/t/{table}").text
    assert "Declare on this phone" not in page
    assert "The scorekeeper's phone records it" in html.unescape(page)
    assert cho.get(f"/t/{table}/seal/2").status_code == 403  # Ben's seat
    assert cho.get(f"/t/{table}/seal/3").status_code == 200  # own seat: not yet her turn
    assert "not Cho's turn" in html.unescape(cho.get(f"/t/{table}/seal/3").text)


def test_a_viewer_sees_the_table_without_any_control(app, table):
    viewer = phone(app, table, "viewer")
    page = viewer.get(f"/t/{table}").text
    assert "Ben" in page and "Totals" in page
    assert "<form" not in page and "/share" not in page and "/seal/" not in page
    assert "Correct" not in viewer.get(f"/t/{table}/history").text
    assert viewer.get(f"/t/{table}/share").status_code == 403


def test_opening_links(app, client, table):
    other = app.test_client()
    for bad in ("nope", "x" * 500, "A" * 32):
        response = other.get(f"/j/{bad}")
        assert response.status_code == 404 and "opens no table and no group" in response.text
    token = new_link(app, table, "viewer")
    response = other.get(f"/j/{token}")
    assert response.status_code == 303 and response.headers["Cache-Control"] == "no-store"
    assert table in other.get("/").text  # listed on the home page
    # A scorekeeper who scans the spectator code stays the scorekeeper.
    client.get(f"/j/{new_link(app, table, 'viewer')}")
    assert "Undo the last entry" in client.get(f"/t/{table}").text
    # Opening the scorekeeper link makes a viewer a scorekeeper.
    join(app, other, table, "keeper")
    assert "Undo the last entry" in other.get(f"/t/{table}").text


def test_the_join_page_opens_a_pasted_link_of_either_form(app, table):
    """The page a shared link (``/j#<token>``) opens: its script sends the token from the
    fragment at once (tests/e2e); without JavaScript the link is pasted into its form."""
    phone = app.test_client()
    page = phone.get("/j")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "data-join" in page.text and "runs no JavaScript" in page.text
    token = new_link(app, table, "viewer")
    for pasted in (f" http://localhost/j#{token} ", f"http://localhost/j/{token}", token):
        opened = app.test_client().post("/j", data={"link": pasted})
        assert opened.status_code == 303 and opened.headers["Location"] == f"/t/{table}"
        assert opened.headers["Cache-Control"] == "no-store"
    wrong = phone.post("/j", data={"link": f"http://localhost/j#{token[:-1]}"})
    assert wrong.status_code == 404 and "opens no table and no group" in wrong.text
    assert f'value="http://localhost/j#{token[:-1]}"' in wrong.text  # kept, to correct
    assert phone.get(f"/t/{table}").status_code == 403


@pytest.mark.csrf
def test_a_stale_join_page_shows_its_link_again_with_a_fresh_token(app, client):
    table = new_table(app, None, "blackout", PLAYERS)
    token = new_link(app, table, "viewer")
    stale = client.post("/j", data={"link": f"/j#{token}", "csrf_token": "old"})
    assert stale.status_code == 400 and f'value="/j#{token}"' in stale.text
    again = client.post(
        "/j", data={"link": f"/j#{token}", "csrf_token": hidden(stale.text, "csrf_token")}
    )
    assert again.status_code == 303


def test_opening_shared_links_writes_no_token_to_the_dev_servers_log(app, client, table, caplog):
    """``flask run``'s server (werkzeug's) logs every request line."""
    ok(client.post(f"/t/{table}/share", data={"action": "viewer"}))
    viewer = re.search(
        r'id="viewer-link"[^>]*value="([^"]+)"', client.get(f"/t/{table}/share").text
    )
    keeper = re.search(
        r'id="keeper-link"[^>]*value="([^"]+)"',
        client.post(f"/t/{table}/share", data={"action": "keeper"}).text,
    )
    urls = [viewer.group(1), keeper.group(1)]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.INFO, logger="werkzeug")
    try:
        for url in urls:  # opened as a browser running app.js opens them
            address, _, fragment = url.partition("#")
            path = urlsplit(address).path
            status, _ = http_request(server.server_port, "GET", path)
            if fragment:
                status, _ = http_request(server.server_port, "POST", path, {"link": fragment})
            assert status in (200, 303)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    lines = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    for url in urls:
        assert re.split(r"[#/]", url)[-1] not in "\n".join(lines), "a token is in the log"
    assert any("POST /j HTTP/1.1" in line for line in lines), lines  # it logs request lines


def http_request(port: int, method: str, path: str, form: dict[str, str] | None = None):
    """One request to the server on ``port``: its status and Location."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form else {}
        connection.request(method, path, body=urlencode(form) if form else None, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.headers.get("Location", "")
    finally:
        connection.close()


def test_links_are_stored_hashed_and_are_long_enough(app, table):
    token = new_link(app, table, "keeper")
    assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # ≥ 192 bits
    with app.app_context():
        from referee.store import db

        hashes = db.session.scalars(db.select(Link.token_hash)).all()
        assert token not in hashes and token_hash(token) in hashes
        assert access(token, table).kind == "keeper"
        assert access(token, "another-table") is None


def test_the_share_page_shows_both_links_as_qr_codes_and_revokes(app, client, table):
    page = client.get(f"/t/{table}/share").text
    assert 'id="viewer-link"' not in page  # a table made elsewhere: no spectator link yet
    ok(client.post(f"/t/{table}/share", data={"action": "viewer"}))
    page = client.get(f"/t/{table}/share").text
    viewer_url = re.search(r'id="viewer-link"[^>]*value="([^"]+)"', page).group(1)
    assert 'id="keeper-link"' not in page  # made on request, shown once
    page = client.post(f"/t/{table}/share", data={"action": "keeper"}).text
    keeper_url = re.search(r'id="keeper-link"[^>]*value="([^"]+)"', page).group(1)
    again = client.post(f"/t/{table}/share", data={"action": "keeper"}).text
    assert keeper_url not in again  # a new link each time
    assert page.count("<svg") == 2 and "<path" in page  # QR codes drawn here, not fetched
    assert "http" not in re.sub(r'value="[^"]*"|xmlns="[^"]*"', "", page)  # no third party
    # Another phone scans the scorekeeper code: both keep score; then it revokes the others.
    second = app.test_client()
    open_shared(second, keeper_url)
    follower = app.test_client()
    open_shared(follower, viewer_url)
    assert "Undo the last entry" in second.get(f"/t/{table}").text
    share = second.get(f"/t/{table}/share").text
    assert "Revoke every other scorekeeper link" in share
    ok(second.post(f"/t/{table}/share", data={"action": "revoke-keepers"}))
    assert "2 other scorekeeper links revoked" in second.get(f"/t/{table}/share").text
    assert "has been revoked" in client.get(f"/t/{table}").text
    data = entry(second.get(f"/t/{table}").text, action="declare", player="2", choice="open-1")
    refused = client.post(f"/t/{table}/entry", data=data)
    assert refused.status_code == 403 and "has been revoked" in refused.text
    assert follower.get(f"/t/{table}").status_code == 200  # spectators are not affected
    ok(post(second, table, "declare", player=2, choice="open-1"))
    # Revoking the spectator links: the follower is out, a new spectator link is shown.
    ok(second.post(f"/t/{table}/share", data={"action": "revoke-viewers"}))
    assert follower.get(f"/t/{table}").status_code == 403
    page = second.get(f"/t/{table}/share").text
    new_url = re.search(r'id="viewer-link"[^>]*value="([^"]+)"', page).group(1)
    assert new_url != viewer_url
    assert open_shared(app.test_client(), new_url).status_code == 303


def test_a_player_link_is_made_for_a_player_of_the_table_only(app, client, table):
    response = client.post(f"/t/{table}/share", data={"action": "player:Cho"})
    assert response.status_code == 200 and "Cho's player link" in html.unescape(response.text)
    url = re.search(r'id="player-link"[^>]*value="([^"]+)"', response.text).group(1)
    with app.app_context():
        found = access(url.rsplit("#", 1)[1], table)
        assert found.kind == "player" and found.player == "Cho"
    response = client.post(f"/t/{table}/share", data={"action": "player:Zed"})
    assert response.status_code == 303
    assert "not something this page can do" in client.get(f"/t/{table}").text


def test_has_anything_changed_is_a_304_until_the_table_changes(app, client, table):
    viewer = phone(app, table, "viewer")
    first = viewer.get(f"/t/{table}/seq")
    assert first.text == "1" and first.headers["ETag"] == '"seq-1"'
    again = viewer.get(f"/t/{table}/seq", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    ok(post(client, table, "declare", player=2, choice="open-1"))
    changed = viewer.get(f"/t/{table}/seq", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.text == "2"
    body = re.search(r"<body\s[^>]*>", viewer.get(f"/t/{table}").text).group(0)
    assert f'data-poll="/t/{table}/seq?k=' in body and 'data-seq="2"' in body


def test_a_pages_own_poll_needs_no_cookie_and_opens_nothing_else(app, client, table):
    other = new_table(app, client, "blackout", ("Ann", "Ben"))
    page = phone(app, table, "viewer").get(f"/t/{table}").text
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    assert poll.startswith(f"/t/{table}/seq?k=")
    cookieless = app.test_client()
    assert cookieless.get(poll).text == "1"  # the page's own poll: no cookie needed
    ok(post(client, table, "declare", player=2, choice="open-1"))
    assert cookieless.get(poll).text == "2"  # (written by this process: seen at once)
    key = poll.split("k=")[1]
    assert cookieless.get(f"/t/{other}/seq?k={key}").status_code == 403  # another table's
    assert cookieless.get(f"/t/{table}/seq?k=forged").status_code == 403
    assert cookieless.get(f"/t/{table}").status_code == 403  # the key opens nothing else
    assert cookieless.get(f"/t/nope/seq?k={key}").status_code == 404


def poll_of(page: str) -> str:
    """The poll address a page carries (its ``data-poll``: the table's key in ``k``)."""
    return html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))


def test_a_revoked_links_poll_key_stops_answering(app, client, table, sweep_due):
    """The poll key a page carries answers without a cookie only until a link of the table is
    revoked, here or in another process (within a sweep): the revoked phone learns nothing
    more, while the pages of the links still open follow the table with a key made anew."""
    from referee.store.links import revoke

    follower = phone(app, table, "viewer")
    old = poll_of(follower.get(f"/t/{table}").text)
    cookieless = app.test_client()
    assert cookieless.get(old).text == "1"
    ok(client.post(f"/t/{table}/share", data={"action": "revoke-viewers"}))
    for asked in (cookieless, follower):
        assert asked.get(old).status_code == 403
    page_poll = {"If-None-Match": '"seq-1"', "X-Table-Poll": old.split("k=")[1]}
    assert follower.get(f"/t/{table}", headers=page_poll).status_code == 403
    assert client.get(f"/t/{table}", headers=page_poll).status_code == 304  # still follows
    new = poll_of(client.get(f"/t/{table}").text)
    assert new != old and cookieless.get(new).text == "1"
    newcomer = phone(app, table, "viewer")
    assert poll_of(newcomer.get(f"/t/{table}").text) == new
    ok(post(client, table, "declare", player=2, choice="open-1"))
    assert cookieless.get(new).text == "2"
    with app.app_context():  # another process revokes the spectator links: within a sweep
        revoke(table, "viewer")
    sweep_due()
    assert cookieless.get(new).status_code == 403
    assert newcomer.get(f"/t/{table}").status_code == 403
    assert cookieless.get(poll_of(client.get(f"/t/{table}").text)).text == "2"


def test_a_link_revoked_in_another_process_writes_nothing_and_reads_until_a_sweep_at_most(
    app, sweep_due, client, table
):
    from referee.store.links import revoke

    second = app.test_client()
    join(app, second, table, "keeper")
    follower = phone(app, table, "viewer")
    data = entry(client.get(f"/t/{table}").text, action="declare", player="2", choice="open-1")
    assert follower.get(f"/t/{table}").status_code == 200  # this process keeps both links
    with app.app_context():  # another process revokes the spectator links …
        revoke(table, "viewer")
    sweep_due()  # … which this process's next sweep finds
    assert follower.get(f"/t/{table}").status_code == 403
    assert client.get(f"/t/{table}").status_code == 200  # kept again
    with app.app_context():  # … and every scorekeeper link but the second phone's
        revoke(table, "keeper", by=held_token_of(app, second, table))
    # No sweep is due: this process still keeps the link.
    refused = client.post(f"/t/{table}/entry", data=data)  # its write checks the link itself
    assert refused.status_code == 403 and "has been revoked" in refused.text
    assert log_length(app, table) == 1
    share = client.post(f"/t/{table}/share", data={"action": "viewer"})  # asks the database
    assert share.status_code == 403
    ok(post(second, table, "declare", player=2, choice="open-1"))  # the kept link still writes
    assert log_length(app, table) == 2


def held_token_of(app: Flask, browser: FlaskClient, table: str) -> str:
    """The token of the link ``browser`` holds for the table (from its session cookie)."""
    with browser.session_transaction() as session:
        token, _kind, _player = session["links"][table]
        return token


def test_tv_mode_is_the_sheet_without_controls(app, client, table):
    ok(post(client, table, "declare", player=2, choice="open-1"))
    tv = phone(app, table, "viewer").get(f"/t/{table}/tv")
    assert 'class="tv"' in tv.text and "Round 1 of 7" in tv.text
    assert "<form" not in tv.text and 'class="bar"' not in tv.text
    assert '<meta http-equiv="refresh"' in tv.text  # inside <noscript>: follows without JS
    # Rendered once per change and per kind of viewer: the scorekeeper's sheet has Share.
    assert "/share" in client.get(f"/t/{table}/sheet").text
    assert "/share" not in phone(app, table, "viewer").get(f"/t/{table}/sheet").text


def test_a_message_is_never_served_to_other_phones_from_a_cached_sheet(app, client, table):
    """A phone with a message waiting (a correction's, which comes back to the sheet) gets a
    sheet of its own, once, with the message; the sheet kept for every other phone never has
    it, before or after."""
    said = "not something this page can do"
    other = phone(app, table, "keeper")  # the same kind of viewer: the same kept sheet
    ok(post(client, table, "declare", player=2, choice="open-1"))  # leaves no message behind
    assert said not in other.get(f"/t/{table}/sheet").text  # the kept sheet, made now
    client.post(f"/t/{table}/share", data={"action": "player:Zed"})  # leaves a message
    assert said in client.get(f"/t/{table}/sheet").text  # this phone's own
    assert said not in other.get(f"/t/{table}/sheet").text
    assert said not in client.get(f"/t/{table}/sheet").text  # said once
    assert said not in client.get(f"/t/{table}").text


def test_security_headers_on_every_page(app, client, table):
    for path in ("/", "/new", f"/t/{table}", f"/t/{table}/sheet", f"/t/{table}/seq", "/nope"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"


def test_a_header_a_view_sets_is_kept_and_none_is_doubled(app, client, table):
    with client.get("/static/app.js") as response:  # a file response: closed when read
        assert response.headers.getlist("X-Frame-Options") == ["DENY"]
    with app.test_request_context():
        from flask import make_response

        from referee.web.headers import security_headers

        own = make_response("x", 200, {"x-frame-options": "SAMEORIGIN"})
        assert security_headers(own).headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]


def test_looking_again_sends_no_new_session_cookie(app, table):
    viewer = phone(app, table, "viewer")
    viewer.get(f"/t/{table}")  # the table goes on this phone's home page: the cookie changes
    for path in (f"/t/{table}", f"/t/{table}/sheet", f"/t/{table}/history"):
        assert "Set-Cookie" not in viewer.get(path).headers, path


def test_pages_have_no_inline_script_or_style(app, client, table):
    for path in ("/", "/new", f"/t/{table}", f"/t/{table}/sheet", f"/t/{table}/share"):
        html = client.get(path).text
        assert not re.search(r"<script(?![^>]*\ssrc=)", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert not re.search(r'\sstyle="', html), path


def test_creating_tables_is_rate_limited_per_address(app, client):
    app.config["TABLE_LIMIT"] = 3
    for _ in range(3):
        assert client.post("/new", data=new_table_form()).status_code == 303
    refused = client.post("/new", data=new_table_form(names=["Zoë", "Ben"]))
    assert refused.status_code == 429
    assert "Too many new tables" in refused.text
    assert 'value="Zoë"' in refused.text  # the input is kept
    elsewhere = app.test_client()
    response = elsewhere.post(
        "/new", data=new_table_form(), environ_base={"REMOTE_ADDR": "192.0.2.7"}
    )
    assert response.status_code == 303  # another address is not held up


def test_a_creation_that_loses_the_race_for_the_last_place_is_refused(app, client):
    """Another phone on the same network creates a table between this request's early check
    (``may_create``) and its insert: the insert counts again and refuses."""
    app.config["TABLE_LIMIT"] = 1
    with app.app_context():
        engine = db.engine
    raced: list[str] = []

    def another_phone_creates(_connection, _cursor, statement: str, *_args) -> None:
        if "count(*)" in statement and not raced:
            raced.append(statement)
            with engine.begin() as other:  # a connection of its own, as another request's
                other.execute(
                    insert(Table),
                    {
                        "id": "raced",
                        "game": "blackout",
                        "players": ["A", "B"],
                        "options": {},
                        "creator": creator(),
                    },
                )

    event.listen(engine, "after_cursor_execute", another_phone_creates)
    try:
        refused = client.post("/new", data=new_table_form())
    finally:
        event.remove(engine, "after_cursor_execute", another_phone_creates)
    assert raced and refused.status_code == 429
    assert "so this one was not created" in refused.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Table)) == 1  # the other's


@pytest.mark.csrf
def test_a_write_needs_both_the_link_and_the_csrf_token(app, client):
    created = client.post("/new", data={**new_table_form(), "csrf_token": csrf(client, "/new")})
    table = created.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{table}").text
    data = {"seq": "0", "round": "1", "action": "trump", "trump": "H"}
    # The scorekeeper's browser without the form's token: refused as stale, nothing written.
    assert client.post(f"/t/{table}/entry", data=data).status_code == 400
    # Another browser with a valid token of its own but no link: refused.
    stranger = app.test_client()
    token = csrf(stranger, "/new")
    assert stranger.post(f"/t/{table}/entry", data={**data, "csrf_token": token}).status_code == 403
    assert state_of(app, table).rounds == []
    # Both: recorded.
    ok(client.post(f"/t/{table}/entry", data={**data, "csrf_token": hidden(page, "csrf_token")}))


def csrf(client: FlaskClient, path: str) -> str:
    return re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(path).text
    ).group(1)


def test_the_creator_of_a_table_holds_its_scorekeeper_link_and_a_spectator_link(app, client):
    table = client.post("/new", data=new_table_form()).headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{table}/share").text
    viewer_url = re.search(r'id="viewer-link"[^>]*value="([^"]+)"', page).group(1)
    follower = app.test_client()
    assert open_shared(follower, viewer_url).status_code == 303
    assert follower.get(f"/t/{table}").status_code == 200
    assert follower.get(f"/t/{table}/share").status_code == 403


def test_a_lost_table_gets_a_new_link_from_the_command_line(app, runner, table):
    result = runner.invoke(args=["link", table])
    assert result.exit_code == 0 and result.output.startswith("/j#")
    rescuer = app.test_client()
    assert open_shared(rescuer, result.output.strip()).status_code == 303
    assert "Undo the last entry" in rescuer.get(f"/t/{table}").text
    assert runner.invoke(args=["link", "nope"]).exit_code != 0


EVIL = ('"><script>alert(1)</script>', "<img src=x onerror=alert(2)>", "Ann")


def test_hostile_names_stay_inert_on_the_new_pages(app, client):
    table = new_table(app, client, "alles-oder-nichts", EVIL)
    ok(post(client, table, "trump", trump="red"))
    pages = [client.get(f"/t/{table}{path}").text for path in ("", "/share", "/tv", "/seal/1")]
    for player in EVIL:
        pages.append(client.post(f"/t/{table}/share", data={"action": f"player:{player}"}).text)
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "&lt;script&gt;" in page or "&lt;img" in page


def test_static_files_are_addressed_by_their_content_and_kept_a_year(app, client):
    page = client.get("/").text
    addresses = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    # The style sheet, the script and the web app manifest (issue 19).
    assert len(addresses) == 3 and all(re.search(r"\.[0-9a-f]{12}\.\w+$", a) for a in addresses)
    with client.get(addresses[0]) as response:  # a file response: closed when read
        assert response.status_code == 200
        assert "immutable" in response.headers["Cache-Control"]


@pytest.mark.speed_layer
def test_spectators_get_one_page_rendered_once_per_change(app, client, table, monkeypatch):
    from referee.web.round import routes as tables

    renders = []
    render = tables.render_table
    monkeypatch.setattr(
        tables, "render_table", lambda *a, **k: renders.append(1) or render(*a, **k)
    )
    first, second = phone(app, table, "viewer"), phone(app, table, "viewer")
    page = first.get(f"/t/{table}").text
    assert page == second.get(f"/t/{table}").text and "Ben declares" in page
    assert len(renders) == 1
    ok(post(client, table, "declare", player=2, choice="open-1"))
    renders.clear()
    page = second.get(f"/t/{table}").text
    assert "Cho declares" in page and 'data-seq="2"' in page
    assert page == first.get(f"/t/{table}").text
    assert len(renders) == 1
    assert "already recorded" not in page and "Undo the last entry" not in page


def test_a_change_written_by_another_process_reaches_the_poll_within_a_second(app, client, table):
    from referee.rules import events as ev
    from referee.store.tables import append_entry

    page = phone(app, table, "viewer").get(f"/t/{table}").text
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    assert app.test_client().get(poll).text == "1"
    with app.app_context():  # another worker records Ben's declaration: this process is not told
        append_entry(table, 1, "event", ev.Declare(1, "Ben", True, 2).to_dict())
    kept = app.extensions.get("referee.speed")  # without it, every poll asks the database
    time.sleep((kept.positions.every if kept else 0) + 0.2)
    assert app.test_client().get(poll).text == "2"
    assert "Cho declares" in phone(app, table, "viewer").get(f"/t/{table}").text


def test_static_files_carry_an_etag_and_nothing_outside_their_folder_is_served(client):
    address = re.search(r'href="(/static/style\.[0-9a-f]{12}\.css)"', client.get("/").text)[1]
    with client.get(address) as first:  # a file response: closed
        assert first.mimetype == "text/css" and b"--accent" in first.data
    with client.get(address, headers={"If-None-Match": first.headers["ETag"]}) as again:
        assert again.status_code == 304
    for bad in ("/static/nope.css", "/static/../app.py", "/static/%2e%2e/app.py", "/static/"):
        assert client.get(bad).status_code == 404, bad


def forget_links(app) -> None:
    """Forget the links the app's speed layer keeps, if it is on."""
    if "referee.speed" in app.extensions:
        app.extensions["referee.speed"].tables.links.clear()


def test_a_write_takes_what_its_link_may_do_from_the_session_and_checks_the_link_itself(
    app, sweep_due, client, table
):
    """A write by a link this process does not keep reads no link first: the signed session
    says what the link opened (its kind and player never change), and the write's own statement
    checks that it still opens the table; a link revoked meanwhile writes nothing."""
    from referee.store.links import revoke
    from tests.databases import statements

    ben = phone(app, table, "player", "Ben")
    cho = phone(app, table, "player", "Cho")
    forget_links(app)  # as in a process that never saw the links
    bens = {"seq": "1", "round": "1", "action": "declare", "player": "2", "choice": "open-1"}
    with statements(app) as ran:
        ok(ben.post(f"/t/{table}/entry", data=bens))
    assert not [s for s in ran if s.lstrip().upper().startswith("SELECT") and "links" in s], ran
    at_two = {"seq": "2", "round": "1"}
    forget_links(app)
    not_hers = cho.post(f"/t/{table}/entry", data=at_two | {"action": "trump", "trump": "red"})
    assert not_hers.status_code == 403 and log_length(app, table) == 2
    with app.app_context():  # another process revokes the player links
        revoke(table, "player")
    forget_links(app)
    declared = {"action": "declare", "player": "3", "choice": "open-0"}
    refused = cho.post(f"/t/{table}/entry", data=at_two | declared)
    assert refused.status_code == 403 and "has been revoked" in refused.text
    assert log_length(app, table) == 2


def test_a_session_from_before_sessions_said_what_a_link_opens_still_opens_it(app, table):
    """A cookie that holds only the link's token (as sessions did before) reads and writes."""
    keeper = phone(app, table, "keeper")
    token = held_token_of(app, keeper, table)
    with keeper.session_transaction() as session:
        session["links"] = {table: token}
    page = keeper.get(f"/t/{table}")
    assert page.status_code == 200
    ok(keeper.post(f"/t/{table}/entry", data=entry(page.text, action="declare", player="2",
                                                   choice="open-1")))  # fmt: skip
    assert log_length(app, table) == 2


def test_every_page_that_shows_a_link_is_kept_by_no_cache(app, client, table):
    """A page that shows a link's token (the share pages, and each as a form just made a link)
    says ``no-store``: neither the browser's cache nor the phone's offline copies
    (``static/sw.js`` keeps no such page) hold a link that may be revoked since."""
    from tests.web.group_helpers import new_group

    group_id = new_group(client)
    for answer in (
        client.get(f"/t/{table}/share"),
        client.post(f"/t/{table}/share", data={"action": "keeper"}),
        client.post(f"/t/{table}/share", data={"action": "player:Ben"}),
        client.get(f"/g/{group_id}/share"),
        client.post(f"/g/{group_id}/share", data={"action": "keeper"}),
        client.get("/j"),
    ):
        if answer.request.method == "POST":
            assert "/j#" in answer.text  # the link just made
        assert answer.status_code == 200, answer.request.path
        assert "no-store" in answer.headers.get("Cache-Control", ""), answer.request.path


def test_the_service_worker_keeps_no_page_said_not_to_be_stored(client):
    """What ``static/sw.js`` and ``static/app.js`` keep for offline: never a ``no-store``
    answer (a share page's links)."""
    worker = client.get("/sw.js").text
    assert re.search(r'control\.includes\("no-store"\)\)\s*\{\s*return;', worker)
    with client.get("/static/app.js") as script:
        keep = script.text.split("function keepScreen", 1)[1].split("\n}\n", 1)[0]
    assert 'includes("no-store")' in keep


def test_a_group_link_kept_to_show_again_by_an_older_session_is_still_shown(app, client):
    """Sessions kept the viewer link a browser made for a group as a bare token (now, as a
    table's, by kind): its share page still shows that link."""
    from tests.web.group_helpers import new_group

    group_id = new_group(client)
    with client.session_transaction() as session:
        token = session["group_shown"][group_id]["viewer"]
        session["group_shown"] = {group_id: token}
    page = client.get(f"/g/{group_id}/share")
    assert page.status_code == 200 and token in page.text
