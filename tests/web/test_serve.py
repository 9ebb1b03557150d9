"""``flask --app app table``: the laptop's network address, the URL and QR code it prints, and
every shared link and QR code naming that address (issue 19).

The command is run with Flask's CLI runner; waitress' ``serve`` is replaced by a recorder, so
no test binds a port on the real network (the address it would serve on is checked instead).
"""

from __future__ import annotations

import io
import re
import socket

import pytest
import segno
import waitress

from referee.web import serve
from referee.web.sharing.routes import qr_svg
from tests.links import open_shared
from tests.web.helpers import new_table, ok
from tests.web.test_settings import share_links


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """What ``waitress.serve`` was called with, instead of serving."""
    calls: list[dict[str, object]] = []
    monkeypatch.setattr(waitress, "serve", lambda app, **options: calls.append(options))
    return calls


def terminal_qr(url: str) -> str:
    shown = io.StringIO()
    segno.make(url, error="m").terminal(out=shown, compact=True, border=2)
    return shown.getvalue()


def test_the_lan_address_is_one_of_this_machines_or_the_loopback():
    address = serve.lan_address()
    socket.inet_aton(address)  # a dotted IPv4 address
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.bind((address, 0))  # only an address of this machine can be bound


def test_without_a_route_anywhere_the_address_is_the_loopback():
    # A broadcast address cannot be connected to without SO_BROADCAST: as if no network.
    assert serve.lan_address(("255.255.255.255",)) == "127.0.0.1"


def test_the_table_command_prints_the_room_address_and_its_qr_code(app, served):
    done = app.test_cli_runner().invoke(
        args=["table", "--address", "192.168.1.23", "--port", "8123"]
    )
    assert done.exit_code == 0, done.output
    url = "http://192.168.1.23:8123"
    assert f"Table Referee serves this room at {url}\n" in done.output
    assert terminal_qr(url) in done.output  # the code scans to that address
    assert served == [
        {"host": "192.168.1.23", "port": 8123, "threads": 8, "ident": "Table Referee"}
    ]  # the address given, and no other


def test_without_an_address_the_table_is_served_on_every_interface(app, served, monkeypatch):
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.50")
    done = app.test_cli_runner().invoke(args=["table"])
    assert done.exit_code == 0, done.output
    assert "Table Referee serves this room at http://192.168.1.50:8000\n" in done.output
    assert served == [
        {"host": "0.0.0.0", "port": 8000, "threads": 8, "ident": "Table Referee"}
    ]  # every interface: the room's network and this laptop itself


def test_every_shared_link_and_qr_code_names_the_room_address(app, client, served):
    app.config["PUBLIC_URL"] = ""
    done = app.test_cli_runner().invoke(args=["table", "--address", "10.0.0.7"])
    assert done.exit_code == 0, done.output
    table = new_table(app, client, "blackout", ["Ann", "Ben", "Cho"])
    ok(client.post(f"/t/{table}/share", data={"action": "viewer"}))  # a spectator link to show
    url, qr = share_links(client, table)  # asked at http://localhost/
    assert re.fullmatch(r"http://10\.0\.0\.7:8000/j#[\w-]{32}", url), url
    assert qr == qr_svg(url, "Spectator link")
    assert open_shared(app.test_client(), url).status_code == 303


def test_a_public_address_set_for_the_app_is_kept(app, served):
    app.config["PUBLIC_URL"] = "https://cabin.example"
    done = app.test_cli_runner().invoke(args=["table", "--address", "10.0.0.7"])
    assert done.exit_code == 0, done.output
    assert "Table Referee serves this room at https://cabin.example\n" in done.output
    assert terminal_qr("https://cabin.example") in done.output
