"""Opening a table's link in a test, as a phone does: make the link, then open it as shared
(``/j#<token>``: the ``/j`` page, whose script sends the token on in its form)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from referee.store.links import make_link


def new_link(app: Flask, table_id: str, kind: str = "keeper", player: str | None = None) -> str:
    """A new link of ``kind`` to the table; its token."""
    with app.app_context():
        return make_link(table_id, kind, player)


def join(
    app: Flask,
    client: FlaskClient,
    table_id: str,
    kind: str = "keeper",
    player: str | None = None,
) -> str:
    """Open a new ``kind`` link to the table in ``client``; return its token."""
    token = new_link(app, table_id, kind, player)
    response = open_shared(client, f"/j#{token}")
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"].endswith(f"/t/{table_id}")
    return token


def open_shared(client: FlaskClient, url: str) -> TestResponse:
    """Open a shared link (``…/j#<token>``) as a browser running ``static/app.js`` does: load
    the ``/j`` page (the fragment stays in the browser), then send its form with the token."""
    address, _, token = url.partition("#")
    path = urlsplit(address).path
    page = client.get(path)
    assert page.status_code == 200, page.status_code
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None and "data-join" in page.text
    return client.post(path, data={"link": token, "csrf_token": csrf.group(1)})
