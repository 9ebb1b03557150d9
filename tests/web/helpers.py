"""Playing a table through the web client as a phone would: read the page, post its form."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from referee.rules import Setup
from referee.store.tables import create_table
from tests.links import join


def new_table(app, client, game: str, players: tuple[str, ...], options=None, first=None) -> str:
    """A new table, and ``client`` (if any) holding its scorekeeper link."""
    with app.app_context():
        table_id = create_table(Setup(game, players, options or {}, first))
    if client is not None:
        join(app, client, table_id)
    return table_id


def hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*? value="([^"]*)"', page)
    assert match, f"no {name} on the page"
    return match.group(1)


def undo(client: FlaskClient, table: str) -> None:
    """Undo the last entry from the page as it is now (its seq), and read the message it leaves."""
    page = client.get(f"/t/{table}").text
    ok(client.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")}))
    client.get(f"/t/{table}")


def post(client: FlaskClient, table_id: str, action: str, **fields: str):
    """Post an entry from the page as it is now (its seq and round), like a tap on a button."""
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    data = {"seq": hidden(page, "seq"), "round": hidden(page, "round"), "action": action}
    token = re.search(r'name="csrf_token"[^>]*? value="([^"]*)"', page)
    if token:  # what the page's form sends (an app with CSRF protection on needs it)
        data["csrf_token"] = token.group(1)
    data.update(
        {
            k.replace("_", "-") if k.startswith(("tricks", "won")) else k: str(v)
            for k, v in fields.items()
        }
    )
    return client.post(f"/t/{table_id}/entry", data=data)


def ok(response) -> None:
    assert response.status_code == 303, response.get_data(as_text=True)[-1500:]


def error_of(response) -> str:
    match = re.search(r'class="error-box"[^>]*>([^<]*)<', response.get_data(as_text=True))
    assert match, "no error on the page"
    return html.unescape(match.group(1).strip())


def chips(page: str, name: str) -> list[str]:
    """The values of the chips (radio buttons) named ``name`` on the page, in page order."""
    return re.findall(rf'<input type="radio" name="{name}" [^>]*?value="([^"]*)"', page)


def checked(page: str, name: str) -> str | None:
    """The value of the chip named ``name`` the page shows tapped (None: none is)."""
    chip = rf'<input type="radio" name="{name}" [^>]*?value="([^"]*)"[^>]* checked'
    found = re.findall(chip, page)
    assert len(found) <= 1, f"more than one {name} chip tapped"
    return found[0] if found else None


def kept_as_breach(client: FlaskClient, url: str, data: dict[str, str]):
    """Post a correction that makes a breach (``url``: its form): refused first with the box
    that keeps it as a breach, then posted again with that box ticked, as a scorekeeper would."""
    refused = client.post(url, data=data)
    assert refused.status_code == 422, refused.text[-1500:]
    return client.post(url, data=data | {"keep_breach": hidden(refused.text, "keep_breach")})


def first_event(
    client: FlaskClient, path: str, since: int | str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """The page's stream as ``EventSource`` asks for it, resuming after position ``since``
    (``referee.web.live``): the answer's status, and its first event after the ``ready`` one
    (the whole answer, when it is no stream). The table must be past ``since``: the first event
    then comes at once."""
    asked = {"Accept": "text/event-stream", "Last-Event-ID": str(since), **(headers or {})}
    response = client.get(path, headers=asked, buffered=False)
    try:
        if response.status_code != 200:
            return response.status_code, response.get_data(as_text=True)
        for chunk in response.response:
            if not chunk.startswith((b"retry:", b":")):
                return 200, chunk.decode()
        return 200, ""
    finally:
        response.close()


def event_data(event: str) -> str:
    """The data of one event (``first_event``), as ``EventSource`` hands it to the page."""
    lines = [line for line in event.split("\n") if line.startswith("data:")]
    return "\n".join(line.removeprefix("data:").removeprefix(" ") for line in lines)
