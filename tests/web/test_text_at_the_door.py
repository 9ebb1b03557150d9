"""Text at the door: forms and addresses that are not valid Unicode, names that hide characters,
and values far too long to repeat, on the new-table form and the other forms."""

import re
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from tests.web.test_newtable import form, table_count
from tests.web.test_records_web import assert_every_page_answers

NOT_UNICODE = "holds text that is not valid Unicode (UTF-8), so nothing was read or saved."


def post_bytes(client: FlaskClient, path: str, body: bytes):
    return client.post(path, data=body, content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("path", ["/new", "/scorecards"])
def test_a_form_that_is_not_utf8_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, path: str
) -> None:
    assert client.post("/new", data=form()).status_code == 303  # a table on this browser's pages
    body = urlencode(form()).encode() + b"&player_2=B\xed\xa0\x80n"  # a surrogate, as UTF-8
    response = post_bytes(client, path, body)
    assert response.status_code == 400
    assert NOT_UNICODE in response.text
    assert table_count(app) == 1
    assert_every_page_answers(client)


@pytest.mark.parametrize(
    "escaped",
    [b"%ff%fe", b"B%ED%A0%80n", b"%C3", b"Ann%C3&player_3=%A9", b"%c0%80", b"%F4%90%80%80"],
    ids=["ff-fe", "surrogate", "cut-short", "cut-across-fields", "overlong-nul", "past-unicode"],
)
@pytest.mark.parametrize("path", ["/new", "/scorecards", "/groups/new"])
def test_a_form_whose_escapes_are_not_utf8_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, path: str, escaped: bytes
) -> None:
    """Percent-escapes of bytes that are no UTF-8 text: Werkzeug reads them as the escape's own
    characters (``%FF%FE``), which a page would have stored as a name."""
    body = urlencode(form()).encode() + b"&player_2=" + escaped + b"&name=" + escaped
    response = post_bytes(client, path, body + b"&players=Ann%0A" + escaped)
    assert response.status_code == 400, response.text[-800:]
    assert NOT_UNICODE in response.text
    assert table_count(app) == 0
    assert "%FF" not in client.get("/").text


def test_a_multipart_form_that_is_not_utf8_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient
) -> None:
    """Werkzeug reads such a part as replacement characters (U+FFFD)."""
    body = b"".join(
        b'--b\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (name, value)
        for name, value in ((b"game", b"blackout"), (b"player_1", b"Ann"), (b"player_2", b"\xff"))
    )
    response = client.post(
        "/new", data=body + b"--b--\r\n", content_type="multipart/form-data; boundary=b"
    )
    assert response.status_code == 400
    assert NOT_UNICODE in response.text
    assert table_count(app) == 0


@pytest.mark.parametrize("path", ["/new", "/scorecards", "/"])
def test_an_address_that_is_not_utf8_is_refused_with_a_sentence(
    client: FlaskClient, path: str
) -> None:
    """Gunicorn refuses such bytes itself; a server that passes them on (Flask's own) made
    ``request.args`` raise: a 500."""
    response = client.get(path, environ_overrides={"QUERY_STRING": "game=\xed\xa0\x80"})
    assert response.status_code == 400
    assert NOT_UNICODE in response.text
    response = client.get(path, environ_overrides={"QUERY_STRING": "game=%ff%fe"})
    assert response.status_code == 400
    assert NOT_UNICODE in response.text
    assert_every_page_answers(client)


@pytest.mark.parametrize(
    "name",
    ["\u200b", "Be\u200bn", "Ann\u202egnp.exe", "\x1b[31mAnn", "Ann\r\nBen", "Ann\x7f"],
)
def test_a_name_that_hides_characters_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, name: str
) -> None:
    response = client.post("/new", data=form(names=["Ann", name, "Ben"]))
    assert response.status_code == 422
    message = f"The name {name.strip()!r} holds a character that does not show"
    assert str(escape(message)) in response.text
    assert table_count(app) == 0


@pytest.mark.parametrize(
    ("names", "twice"), [(["Ben", "ben"], "ben"), (["Zoë", "Zoe\u0308"], "Zoe\u0308")]
)
def test_names_the_same_but_for_case_or_normalisation_are_refused(
    client: FlaskClient, names: list[str], twice: str
) -> None:
    response = client.post("/new", data=form(names=["Ann", *names]))
    assert response.status_code == 422
    assert str(escape(f"{twice!r} sits at the table twice")) in response.text


def test_no_message_repeats_a_long_name(app: Flask, client: FlaskClient) -> None:
    """Eight long names in: each comes back once, in its own row (the input is kept), and
    nowhere else: not in the seat list of who deals first, not in the refusal."""
    names = [f"{n}" * 5000 for n in range(1, 9)]
    response = client.post("/new", data=form(names=names))
    assert response.status_code == 422
    html = response.text
    assert "is longer than 40 characters" in html
    assert "&#39;" + "1" * 60 + "…&#39; is longer than 40 characters" in html
    for name in names:
        assert html.count(name) == 1
    assert len(html) < sum(map(len, names)) + 30_000
    assert re.search(r'name="player_1"[^>]*maxlength="40"|maxlength="40"[^>]*name="player_1"', html)


def test_a_colour_name_far_too_long_is_refused_quoting_its_start(
    app: Flask, client: FlaskClient
) -> None:
    colours = "red, yellow, green, " + "b" * 5000
    response = client.post("/new", data=form("alles-oder-nichts", alles_colours=colours))
    assert response.status_code == 422
    assert "A colour&#39;s name is at most 40 characters, not “" + "b" * 60 + "…”." in response.text
    assert response.text.count("b" * 5000) == 1  # the field, as typed
    assert table_count(app) == 0
