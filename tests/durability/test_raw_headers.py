"""Malformed request headers under the production server (gunicorn's gevent workers), on SQLite
and on PostgreSQL: a byte that is not ASCII, or text that is no value of its header, in every
header the app reads itself (a page's poll, ``X-Table-Seq``, the way back, the language, the
session cookie, the language switch's origin checks) and in the ones the server and the
libraries read for it (the host, the body's type and length, a static file's conditions and
range). Each is answered by the app — its own page, or as if the header were not sent — with
the security headers, never a server error.

gunicorn hands a header's bytes on as Latin-1 text (``\\xb2`` arrives as ``²``, a digit to
``str.isdigit``), and a client that sends such bytes is no browser: the requests are written on
a raw socket.
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass

import pytest
from flask import Flask

from referee.rules import Setup
from referee.store.tables import create_table
from referee.web.headers import HEADERS
from referee.web.polls import POLL_HEADER, poll_key
from tests.durability.conftest import Phone, Server
from tests.links import new_link

pytestmark = pytest.mark.durability


@dataclass
class Raw:
    status: int
    headers: dict[str, list[str]]
    body: bytes


def raw_request(server: Server, head: bytes, body: bytes = b"") -> Raw:
    """Send ``head`` (the request line and headers, without the blank line that ends them) and
    ``body`` as they are, on a connection of its own; the answer as it came."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(head + b"\r\nConnection: close\r\n\r\n" + body)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    top, _, rest = received.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return Raw(status, headers, rest)


def answered_by_the_app(answer: Raw, what: str) -> None:
    """Not a server error, and every security header, once."""
    assert answer.status < 500, (what, answer.status, answer.body[-500:])
    for name, value in HEADERS.items():
        assert answer.headers.get(name.lower()) == [value], (what, name, answer.status)


def followed(store: Flask, server: Server) -> tuple[str, str, str]:
    """A new table, the cookie of a phone that opened its viewer link and its page, and the
    table's poll key."""
    with store.app_context():
        table_id = create_table(Setup("blackout", ("Ann", "Ben", "Cho")))
        key = poll_key(table_id, "durability")
    viewer = Phone(server)
    assert viewer.open_link(new_link(store, table_id, "viewer")) == f"/t/{table_id}"
    for _ in range(3):  # until the page sets no new cookie: the next request is a repeat
        viewer.get(f"/t/{table_id}")
    cookie = "; ".join(f"{name}={value}" for name, value in viewer.cookies.items())
    return table_id, cookie, key


BYTE = b"\xb2"  # "²" to gunicorn: a digit to str.isdigit, not to int


def test_malformed_headers_get_the_apps_answer(store: Flask, server: Server) -> None:
    table_id, cookie, key = followed(store, server)
    page = f"GET /t/{table_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}".encode()
    sheet = page.replace(f"/t/{table_id}".encode(), f"/t/{table_id}/sheet".encode(), 1)
    poll = f"\r\n{POLL_HEADER}: {key}".encode()
    heads = {
        "poll, seq-²": page + poll + b'\r\nIf-None-Match: "seq-' + BYTE + b'"',
        "poll, 5000 digits": page + poll + b'\r\nIf-None-Match: "seq-' + b"9" * 5000 + b'"',
        "poll, key ²": page + b"\r\n" + POLL_HEADER.encode() + b": " + BYTE,
        "older poll, seq-²": f"GET /t/{table_id}/seq?k={key} HTTP/1.1\r\nHost: x".encode()
        + b'\r\nIf-None-Match: "seq-'
        + BYTE
        + b'"',
        "page, X-Table-Seq ²": page + b"\r\nX-Table-Seq: " + BYTE,
        "sheet, X-Table-Seq ²": sheet + b"\r\nX-Table-Seq: " + BYTE,
        "page, X-Table-Seq 5000 digits": page + b"\r\nX-Table-Seq: " + b"9" * 5000,
        "page, If-None-Match ²": page + b"\r\nIf-None-Match: " + BYTE,
        "page, Accept-Language ²": page + b"\r\nAccept-Language: " + BYTE + b";q=" + BYTE,
        "page, Cookie ²": f"GET /t/{table_id} HTTP/1.1\r\nHost: x\r\nCookie: session=".encode()
        + BYTE
        + b"; lang="
        + BYTE,
        "home, Host ²": b"GET / HTTP/1.1\r\nHost: " + BYTE,
        "home, Host [": b"GET / HTTP/1.1\r\nHost: [",
        "switch, Origin ²": b"GET /language/de?next=/ HTTP/1.1\r\nHost: x\r\nOrigin: " + BYTE,
        "switch, Sec-Fetch-Site ²": b"GET /language/de?next=/ HTTP/1.1\r\nHost: x"
        + b"\r\nSec-Fetch-Site: "
        + BYTE,
        "switch, next http://[": b"GET /language/de?next=http://%5B HTTP/1.1\r\nHost: x",
        "static, Range ²": b"GET /sw.js HTTP/1.1\r\nHost: x\r\nRange: bytes=" + BYTE + b"-",
        "favicon, If-None-Match ²": b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\nIf-None-Match: "
        + BYTE,
        "favicon, If-Modified-Since ²": b"GET /favicon.ico HTTP/1.1\r\nHost: x"
        + b"\r\nIf-Modified-Since: "
        + BYTE,
    }
    for what, head in heads.items():
        for _ in range(2):  # the second: a repeat the speed layer may answer in front of Flask
            answered_by_the_app(raw_request(server, head), what)
    form = b"game=blackout&player_1=Ann&player_2=Ben"
    posts = {
        "new table, Referer http://[": b"Referer: http://[",
        "new table, Referer ²": b"Referer: http://" + BYTE + b"[",
        "new table, Content-Type ²": b"Content-Type: multipart/form-data; boundary=" + BYTE,
        "new table, Content-Type charset ²": b"Content-Type: application/x-www-form-urlencoded;"
        + b" charset="
        + BYTE,
    }
    for what, header in posts.items():
        head = b"POST /new HTTP/1.1\r\nHost: x\r\n" + header
        if b"Content-Type" not in header:
            head += b"\r\nContent-Type: application/x-www-form-urlencoded"
        head += f"\r\nContent-Length: {len(form)}".encode()
        answer = raw_request(server, head, form)
        answered_by_the_app(answer, what)
        assert re.search(rb'class="(error-box|flash|field-error)', answer.body), what
