"""The static files (``static/``), served by WhiteNoise under names that carry their content's
hash (``url_for("static", filename="app.js")`` → ``/static/app.1a2b3c4d5e6f.js``), so a browser
keeps each for a year and fetches it again when it changes, and compressed (Brotli or gzip,
whichever the browser takes).

When the app is made, each file is ``compact``ed and written, with its compressed forms, into a
folder of the system's temporary folder named after the files' hashes (``build``): under its
hashed name, and under its own name for the addresses that cannot carry a hash (the icons the web
app manifest names; kept an hour). A version of the app is built once per machine and user, the
instance folder holds nothing of it, and the files are made once per process (``built``).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brotli
from flask import Flask, abort
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import Headers
from whitenoise import WhiteNoise

from referee.web.headers import HEADERS

#: (A file under its hashed name is kept as long as WhiteNoise's ``FOREVER``: its name changes
#: with it.) How long a browser keeps a file under its own name.
PLAIN_MAX_AGE = 3600
#: A hashed name: what ``hashed_name`` puts before the suffix.
HASHED = re.compile(r"\.[0-9a-f]{12}\.[^./]+$")
#: The suffixes of the files worth compressing (the images are compressed already).
COMPRESSIBLE = (".css", ".js", ".webmanifest", ".svg")

# Python knows the manifest's type from 3.12 (and some systems' mime.types) only.
mimetypes.add_type("application/manifest+json", ".webmanifest")

#: What ``compact`` leaves out of a style sheet (comments) and a script (whole-line comments).
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
JS_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)
INDENT = re.compile(r"^[ \t]+|[ \t]+$|\n(?=\n)", re.M)


def compact(body: bytes, filename: str) -> bytes:
    """A style sheet or script without its comments and indentation: what a phone downloads (the
    comments are for the people who read ``static/``, a third of the gzipped first view). The
    scripts keep every line of code as written (no multi-line strings, so indentation is safe to
    drop); other files are left as they are."""
    if filename.endswith(".css"):
        text = CSS_COMMENT.sub("", body.decode())
    elif filename.endswith(".js"):
        text = JS_COMMENT_LINE.sub("", body.decode())
    else:
        return body
    return INDENT.sub("", text).lstrip("\n").encode()


@dataclass(frozen=True)
class Asset:
    """A static file as it is served: ``body`` (``compact``), its type, its content's hash and
    its hashed name, and its compressed forms by suffix (``.br``, ``.gz``; none for images)."""

    name: str
    body: bytes
    mimetype: str
    digest: str
    compressed: tuple[tuple[str, bytes], ...]

    @property
    def hashed_name(self) -> str:
        stem, dot, suffix = self.name.rpartition(".")
        return f"{stem}.{self.digest}.{suffix}" if dot else f"{self.name}.{self.digest}"


@functools.cache
def built(folder: str) -> dict[str, Asset]:
    """Every file of the static ``folder`` (not its subfolders) as it is served, by name."""
    found = {}
    for path in sorted(Path(folder).iterdir()):
        if not path.is_file():
            continue
        body = compact(path.read_bytes(), path.name)
        compressed: tuple[tuple[str, bytes], ...] = ()
        if path.name.endswith(COMPRESSIBLE):
            compressed = (
                (".br", brotli.compress(body, mode=brotli.MODE_TEXT)),
                (".gz", gzip.compress(body, 9, mtime=0)),
            )
        found[path.name] = Asset(
            path.name,
            body,
            mimetypes.guess_type(path.name)[0] or "application/octet-stream",
            hashlib.sha256(body).hexdigest()[:12],
            compressed,
        )
    return found


def asset(app: Flask, name: str) -> Asset | None:
    """The static file ``name`` as it is served; None when there is none."""
    return built(app.static_folder or "").get(name)


def build(assets: dict[str, Asset]) -> Path:
    """The folder WhiteNoise serves ``assets`` from, written unless it is there: made whole
    under another name, then renamed (processes starting together: the first one's stays)."""
    version = hashlib.sha256(" ".join(sorted(a.hashed_name for a in assets.values())).encode())
    user = os.getuid() if hasattr(os, "getuid") else 0
    into = Path(tempfile.gettempdir(), f"table-referee-static-{user}-{version.hexdigest()[:12]}")
    if into.is_dir():
        return into
    part = Path(tempfile.mkdtemp(prefix=".table-referee-static-"))
    for found in assets.values():
        for name in (found.name, found.hashed_name):
            for suffix, body in (("", found.body), *found.compressed):
                (part / (name + suffix)).write_bytes(body)
    try:
        part.rename(into)
    except OSError:  # another process was first
        shutil.rmtree(part)
    return into


def add_headers(headers: Headers, path: str, url: str) -> None:
    """The security headers every response gets (``referee.web.headers``), on a static file."""
    for name, value in HEADERS.items():
        headers[name] = value


def init_app(app: Flask) -> None:
    """Serve ``app``'s static files with WhiteNoise in front of it, and give every static
    file's address its hashed name. Flask's own static route is left for what WhiteNoise does
    not serve: a missing file (404)."""
    assets = built(app.static_folder or "")
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(build(assets)),
        prefix=app.static_url_path,
        max_age=PLAIN_MAX_AGE,
        allow_all_origins=False,
        mimetypes={Path(name).suffix: found.mimetype for name, found in assets.items()},
        add_headers_function=add_headers,
        immutable_file_test=lambda path, url: HASHED.search(url) is not None,
    )

    @app.url_defaults
    def hashed(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            found = assets.get(values["filename"])
            if found is not None:
                values["filename"] = found.hashed_name

    def missing(filename: str) -> ResponseReturnValue:
        abort(404)

    app.view_functions["static"] = missing
