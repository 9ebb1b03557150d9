"""Opening a table's link in a test, as a phone does: make the link, then open ``/j/<token>``."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

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
    response = client.get(f"/j/{token}")
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"].endswith(f"/t/{table_id}")
    return token
