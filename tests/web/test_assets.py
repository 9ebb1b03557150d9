"""The static files (``referee.web.assets``): served by WhiteNoise under hashed names, kept a
year, compressed for a browser that takes it, without their comments, with the security headers
every response gets; a missing file is Flask's 404."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import brotli
from flask import Flask, request
from flask.testing import FlaskClient

from referee.web.assets import compact
from referee.web.headers import HEADERS

STATIC = Path(__file__).resolve().parents[2] / "static"


def address(client: FlaskClient, name: str) -> str:
    """The address the home page names the static file ``name`` by."""
    stem, _, suffix = name.rpartition(".")
    pattern = rf'"(/static/{re.escape(stem)}\.[0-9a-f]{{12}}\.{suffix})"'
    return re.search(pattern, client.get("/").text).group(1)


def test_a_static_file_is_served_under_its_hashed_name_before_flask(app: Flask, client):
    calls: list[str] = []
    app.before_request(lambda: calls.append(request.path))
    script = address(client, "app.js")
    calls.clear()
    response = client.get(script, buffered=True)
    assert response.status_code == 200 and b"dataset.poll" in response.data
    assert response.mimetype == "text/javascript"
    assert response.mimetype_params == {"charset": "utf-8"}
    assert "immutable" in response.headers["Cache-Control"]
    assert response.headers["Content-Length"] == str(len(response.data))
    for name, value in HEADERS.items():
        assert response.headers.getlist(name) == [value], name
    again = client.get(script, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    head = client.head(script, buffered=True)
    assert head.status_code == 200 and head.data == b""
    assert calls == []
    assert client.get("/static/nope.js").status_code == 404  # Flask's error page
    assert calls == ["/static/nope.js"]
    assert client.post(script).status_code == 405


def test_a_file_under_its_own_name_is_kept_an_hour(client):
    icon = client.get("/static/icon-192.png", buffered=True)  # as the web app manifest names it
    assert icon.status_code == 200 and icon.data == (STATIC / "icon-192.png").read_bytes()
    assert icon.headers["Cache-Control"] == "max-age=3600, public"


def test_text_files_go_out_compressed_to_a_browser_that_takes_it(client):
    for name in ("style.css", "app.js"):
        plain = client.get(address(client, name), buffered=True).data
        br = client.get(
            address(client, name), headers={"Accept-Encoding": "gzip, br"}, buffered=True
        )
        assert br.headers["Content-Encoding"] == "br" and brotli.decompress(br.data) == plain
        assert len(br.data) < len(plain) / 3, name
        gz = client.get(address(client, name), headers={"Accept-Encoding": "gzip"}, buffered=True)
        assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == plain
        assert "Accept-Encoding" in gz.headers["Vary"]


def test_a_new_file_gets_a_new_name(client):
    hashed = address(client, "style.css")
    served = client.get(hashed, buffered=True).data
    assert hashed.split(".")[-2] == hashlib.sha256(served).hexdigest()[:12]


def test_style_sheet_and_script_go_out_without_their_comments(client):
    assert compact(b"a { x: 1; } /* why */\n\n  b {\n    y: 2;\n  }\n", "s.css") == (
        b"a { x: 1; }\nb {\ny: 2;\n}\n"
    )
    assert compact(b"// why\nconst a = 1; // kept\n  // why\n  go(a);\n", "s.js") == (
        b"const a = 1; // kept\ngo(a);\n"
    )
    assert compact(b"  // not code\n", "s.json") == b"  // not code\n"
    for name in ("style.css", "app.js"):
        sent = client.get(address(client, name), buffered=True).data
        assert len(sent) < len((STATIC / name).read_bytes()), name
        assert b"/*" not in sent and not re.search(rb"^\s*//", sent, re.M), name
