"""``flask --app app table``: a laptop serves the app to the room, with no internet needed.

It works out the laptop's address on the local network (``lan_address``), makes it the app's
public address (``PUBLIC_URL``, so every shared link and QR code names it; a ``PUBLIC_URL`` set
in the environment is kept), prints it with a QR code to scan, and serves the app with waitress,
a production server that runs on Linux, macOS and Windows alike: on every network interface, or
on the one address ``--address`` gives (``127.0.0.1``: this laptop alone).
"""

from __future__ import annotations

import io
import socket
import sys

import click
import waitress
from flask import Blueprint, Flask, current_app
from segno import make as make_qr

from referee.web.i18n import gettext

bp = Blueprint("serve", __name__, cli_group=None)

#: Where a UDP socket is "connected" to learn which address this machine would send from: one
#: address past the default route, then one in each private range (a cabin's Wi-Fi without
#: internet may have no default route). Connecting a UDP socket sends nothing.
PROBES = ("192.0.2.1", "10.254.254.254", "172.31.254.254", "192.168.254.254")

#: The port served when none is given.
PORT = 8000


def lan_address(probes: tuple[str, ...] = PROBES) -> str:
    """This machine's address on its local network, or ``127.0.0.1`` when it has none."""
    for probe in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
            except OSError:  # no route there
                continue
            address = str(udp.getsockname()[0])
        if not address.startswith(("127.", "0.")):
            return address
    return "127.0.0.1"


def room_url(address: str, port: int) -> str:
    """The address phones open: ``http://<address>:<port>``."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"


def announcement(url: str) -> str:
    """What the terminal shows: where the app is, how to join, and the QR code of it."""
    lines = [
        gettext("Table Referee serves this room at %(url)s", url=url),
        gettext(
            "Phones on the same network (Wi-Fi or this laptop's hotspot) open that address, "
            "or scan this code. Stop with Ctrl+C."
        ),
        "",
    ]
    qr = io.StringIO()
    make_qr(url, error="m").terminal(out=qr, compact=True, border=2)  # half blocks: any terminal
    return "\n".join(lines) + "\n" + qr.getvalue()


def prepare(app: Flask, address: str | None, port: int) -> str:
    """Make the room's address the app's public one (unless ``PUBLIC_URL`` is set); the address
    phones open."""
    url = room_url(address or lan_address(), port)
    if not app.config["PUBLIC_URL"]:
        app.config["PUBLIC_URL"] = url
    return str(app.config["PUBLIC_URL"])


@bp.cli.command("table")
@click.option("--port", type=int, default=PORT, show_default=True, help="The port to serve.")
@click.option(
    "--address",
    default=None,
    help=(
        "The address to serve on, which phones open (default: every interface, and this "
        "machine's address on the local network for the phones)."
    ),
)
@click.option("--threads", type=int, default=8, show_default=True, help="Requests at once.")
def table_command(port: int, address: str | None, threads: int) -> None:
    """Serve the app to the phones in the room, on this machine's local network address."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    url = prepare(app, address, port)
    click.echo(announcement(url))
    sys.stdout.flush()
    host = address or "0.0.0.0"  # an address given is the only one listened on
    waitress.serve(app, host=host, port=port, threads=threads, ident="Table Referee")
