"""A page's poll of its own address (``referee.web.polls``): ``If-None-Match: "seq-N"`` and the
table's poll key (``X-Table-Poll``), as ``static/app.js`` asks. A bodiless 304 while the table is
at N; once it has moved, the page itself, exactly as the same phone's request for the page gets
it (its link kind, its language), so the phone needs one request per change; nothing for a phone
the page would refuse. With the speed layer and without (then Flask answers at once)."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from referee.web.polls import POLL_HEADER
from tests.links import join
from tests.web.helpers import new_table, ok, post

#: Every page that follows its table (``templates/_poll.html``).
FOLLOWING = ["", "?mode=cards", "/sheet", "/tv", "/standings", "/history", "/history?round=1"]


def key_of(page: str) -> str:
    """The poll key a page carries (the ``k`` of its ``data-poll`` address)."""
    found = re.search(r'data-poll="[^"]*\?k=([^"&]+)"', page)
    assert found, page[-500:]
    return html.unescape(found.group(1))


def asking(key: str, seq: int) -> dict[str, str]:
    """The headers of a page's poll whose page shows position ``seq``."""
    return {"If-None-Match": f'"seq-{seq}"', POLL_HEADER: key}


def blanked(text: str) -> str:
    """A page with its CSRF token blanked (made anew for each request)."""
    return re.sub(r'name="csrf_token"[^>]*? value="[^"]*"', "CSRF", text)


@pytest.fixture
def calls(app: Flask) -> list[str]:
    """The paths of the requests that reached Flask."""
    found: list[str] = []

    @app.before_request
    def count() -> None:
        found.append(request.path)

    return found


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> str:
    """A Blackout table with a trump turned up; ``client`` keeps its score."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(client, table, "trump", trump="H"))
    return table


def phone(app: Flask, table: str, kind: str, player: str | None = None) -> FlaskClient:
    """A phone holding a ``kind`` link of the table, its page opened once."""
    found = app.test_client()
    join(app, found, table, kind, player)
    found.get(f"/t/{table}")
    return found


@pytest.mark.parametrize("page", FOLLOWING)
def test_a_poll_is_a_bodiless_304_until_the_table_moves_then_the_page(app, client, table, page):
    viewer = phone(app, table, "viewer")
    address = f"/t/{table}{page}"
    shown = viewer.get(address)
    assert 'data-seq="1"' in shown.text
    key = key_of(shown.text)
    same = viewer.get(address, headers=asking(key, 1))
    assert (same.status_code, same.data, same.headers["ETag"]) == (304, b"", '"seq-1"')
    assert "no-cache" in same.headers["Cache-Control"]
    ok(post(client, table, "bid", player=2, bid=1))
    changed = viewer.get(address, headers=asking(key, 1))
    assert changed.status_code == 200 and 'data-seq="2"' in changed.text
    assert changed.mimetype == "text/html"
    assert changed.data == viewer.get(address).data  # the page itself, as the phone gets it
    assert viewer.get(address, headers=asking(key, 2)).status_code == 304


@pytest.mark.parametrize("page", ["", "/sheet", "/history"])
def test_each_phone_gets_its_own_page_in_its_language(app, client, table, page):
    """Each kind of link gets the page it would get asking for it (a scorekeeper's has its
    forms, a spectator's none), in the language it asks for, never another's."""
    phones = {
        "keeper": client,
        "viewer": phone(app, table, "viewer"),
        "player": phone(app, table, "player", "Ben"),
    }
    address = f"/t/{table}{page}"
    key = key_of(client.get(address).text)
    ok(post(client, table, "bid", player=2, bid=1))
    answers = {}
    for who, found in phones.items():
        for language in ("en", "de"):
            headers = {"Accept-Language": language}
            polled = found.get(address, headers=asking(key, 1) | headers)
            assert polled.status_code == 200 and f'lang="{language}"' in polled.text
            plain = found.get(address, headers=headers)
            assert blanked(polled.text) == blanked(plain.text), (who, language)
            answers[who, language] = blanked(polled.text)
    assert answers["keeper", "en"] != answers["viewer", "en"]
    assert answers["viewer", "en"] != answers["viewer", "de"]
    if page == "":  # the scorekeeper's entry forms are on the scorekeeper's page only
        assert f"/t/{table}/entry" in answers["keeper", "en"]
        assert f"/t/{table}/entry" not in answers["viewer", "en"]


@pytest.mark.parametrize("page", ["", "/sheet", "/history"])
def test_a_poll_without_access_gets_what_the_page_without_access_gets(app, client, table, page):
    """No cookie (with the page's key, a forged one, another table's, none), a revoked link:
    whether the table moved or not, the answer of a page request without access."""
    from referee.store.links import revoke
    from referee.web.sharing.access import forget_links

    address = f"/t/{table}{page}"
    key = key_of(client.get(address).text)
    other = new_table(app, None, "blackout", ("Ann", "Ben", "Cho"))
    other_key = key_of(phone(app, other, "viewer").get(f"/t/{other}").text)
    cookieless = app.test_client()
    viewer = phone(app, table, "viewer")
    viewer.get(address)
    refused = cookieless.get(address)
    assert refused.status_code == 403
    for moved in (False, True):
        if moved:
            ok(post(client, table, "bid", player=2, bid=1))
        for given in (key, "forged", other_key, ""):
            for seq in (1, 2):
                answer = cookieless.get(address, headers=asking(given, seq))
                assert (answer.status_code, answer.data) == (refused.status_code, refused.data)
    # A phone whose link opens the table gets its page whatever key it sends …
    forged = viewer.get(address, headers=asking("forged", 1))
    assert forged.status_code == 200 and forged.data == viewer.get(address).data
    assert viewer.get(address, headers=asking("forged", 2)).status_code == 304
    assert viewer.get(address, headers=asking(key, 2)).status_code == 304
    # … until its link is revoked.
    with app.test_request_context():
        revoke(table, "viewer")
        forget_links(table)
    revoked = viewer.get(address)
    assert revoked.status_code == 403 and "revoked" in revoked.text
    for seq in (1, 2):
        answer = viewer.get(address, headers=asking(key, seq))
        assert (answer.status_code, answer.data) == (403, revoked.data)


def test_the_older_poll_answers_as_before(app, client, table):
    """A page rendered before this one still asks ``/t/<id>/seq?k=…``: the same answers."""
    viewer = phone(app, table, "viewer")
    address = html.unescape(re.search(r'data-poll="([^"]+)"', viewer.get(f"/t/{table}").text)[1])
    first = app.test_client().get(address)
    assert (first.status_code, first.text, first.headers["ETag"]) == (200, "1", '"seq-1"')
    etag = {"If-None-Match": first.headers["ETag"]}
    assert app.test_client().get(address, headers=etag).status_code == 304


@pytest.mark.speed_layer
def test_watching_phones_polls_cost_flask_one_page_per_change(app, calls, client, table):
    """With the speed layer: "unchanged" never reaches Flask; after a change, each spectator's
    poll is the page request it is (Flask checks its link), each with the page its own request
    gets, the same bytes (made once)."""
    # No sweep of the positions due while the phones poll, however slow a loaded machine makes
    # them (one is due every 0.25 s): a due sweep sends a poll on to Flask, as it should.
    app.extensions["referee.speed"].positions.every = 3600.0
    address = f"/t/{table}/sheet"
    viewers = [phone(app, table, "viewer") for _ in range(4)]
    for viewer in viewers:  # each page opened as the phone opens it (settled: no new cookie)
        for _ in range(3):
            if "Set-Cookie" not in viewer.get(address).headers:
                break
    key = key_of(viewers[0].get(address).text)
    calls.clear()
    for viewer in viewers:
        assert viewer.get(address, headers=asking(key, 1)).status_code == 304
    assert calls == []
    ok(post(client, table, "bid", player=2, bid=1))
    calls.clear()
    answers = [viewer.get(address, headers=asking(key, 1)) for viewer in viewers]
    assert [a.status_code for a in answers] == [200] * 4
    assert len({a.data for a in answers}) == 1 and 'data-seq="2"' in answers[0].text
    assert calls == [address] * 4


#: Values of the poll's headers that no page's script sends: a digit that is not ASCII (as
#: gunicorn hands on the byte 0xb2), more digits than Python reads, a sign, nothing.
MALFORMED = {
    "superscript-two": "\xb2",
    "arabic-three": "\u0663",
    "5000-digits": "9" * 5000,
    "negative": "-1",
    "plus": "+1",
    "empty": "",
    "space": " 1",
    "fraction": "1.5",
}


@pytest.mark.parametrize("page", ["", "/sheet"])
@pytest.mark.parametrize("value", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_position_in_a_poll_or_a_page_request_is_ignored(app, table, page, value):
    """``If-None-Match: "seq-…"`` and ``X-Table-Seq`` that are no log position answer as if
    they were not sent: the page itself (asked again, as the speed layer answers a repeat),
    with the security headers."""
    from tests.web.test_front import assert_security_headers

    viewer = phone(app, table, "viewer")
    address = f"/t/{table}{page}"
    plain = viewer.get(address)
    key = key_of(plain.text)
    for headers in (
        {"If-None-Match": f'"seq-{value}"', POLL_HEADER: key},
        {"If-None-Match": f'"seq-{value}", "seq-1"', POLL_HEADER: key},
        {"X-Table-Seq": value},
        {"X-Table-Seq": value, "If-None-Match": f'"seq-{value}"', POLL_HEADER: key},
        {POLL_HEADER: key + value, "If-None-Match": '"seq-1"'},
    ):
        for _ in range(3):
            answer = viewer.get(address, headers=headers)
            assert_security_headers(answer)
            if answer.status_code == 304:  # the page's own position asked too: unchanged
                assert "seq-1" in headers.get("If-None-Match", "")
            else:
                assert answer.status_code == 200, (headers, answer.status_code)
                assert blanked(answer.text) == blanked(plain.text)
