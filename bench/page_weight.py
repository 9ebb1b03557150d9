"""Benchmark: what a phone downloads for the first view of a table page, and from where.

Loads the complete 4-player Blackout (``tests/records/blackout/default-4p.json``, 25 rounds) as a
table, opens its page as a spectator and as the scorekeeper, and its score sheet, in the app (in
process: bytes do not depend on the server), then fetches every resource the page names (style
sheets, scripts, images, icons, fonts, the web app manifest) once, as a browser with an empty
cache would, and the service worker's script its script registers (``data-sw``; issue 19). An
address in the page itself (``data:``) is no request. Every request says what a browser accepts
(``Accept-Encoding: gzip, deflate, br``). Prints the requests, the bytes uncompressed, gzipped
(level 6, as a reverse proxy that compresses would send them) and as the app itself sends them
(on the wire: the static files Brotli-compressed by WhiteNoise, the pages as they are), and the
requests to other hosts, in each language (``LANGUAGES``: a German page must keep the same
budgets); exit 1 when a budget is broken.

    python bench/page_weight.py

Budgets of the whole first view (issue 19, with the manifest and the service worker): at most 5
requests, 60 KB uncompressed (the score sheet: 66), 15 KB gzipped (the score sheet: 16), and no
third-party request. Budget of the table page itself (issue 16): the page, its style sheets and
its scripts (``SHOWN``: what it needs to show itself, without the manifest and the service
worker) at most 3 requests and 13 KB gzipped (bench/README.md argues both changes).
"""

from __future__ import annotations

import gzip
import html
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import brotli

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAME = ROOT / "tests" / "records" / "blackout" / "default-4p.json"
BUDGETS = {"requests": 5, "bytes": 60 * 1024, "gzip": 15 * 1024, "third-party": 0}
#: The score sheet's first view: a 25-round sheet is the page's own weight (bench/README.md,
#: "The score sheet's weight").
SHEET_BUDGETS = {"requests": 5, "bytes": 66 * 1024, "gzip": 16 * 1024, "third-party": 0}
#: Issue 16's budget of the table page: the page, its style sheets and scripts (``SHOWN``),
#: argued from 12 to 13 KB (bench/README.md, "The table page's weight").
PAGE_BUDGETS = {"requests": 3, "gzip": 13 * 1024}


def budgets_of(page: str) -> dict[str, int]:
    """The first view's budgets of ``page`` ("table page" or "score sheet")."""
    return SHEET_BUDGETS if page == "score sheet" else BUDGETS


#: The languages measured: English, and German (the longest words of the catalogs).
LANGUAGES = ("en", "de")

#: Attributes that make a browser fetch something when the page loads.
FETCHED = re.compile(
    r"<(?:link|script|img|source|iframe|video|audio)\b[^>]*?\s(?:href|src|srcset)=\"([^\"]+)\"",
    re.IGNORECASE,
)

#: What a page needs to show itself: its style sheets and scripts.
SHOWN = re.compile(
    r"<(?:link\b[^>]*?\srel=\"stylesheet\"[^>]*?\shref|script\b[^>]*?\ssrc)=\"([^\"]+)\"",
    re.IGNORECASE,
)

#: The service worker's script, which ``static/app.js`` registers from the page's ``data-sw``.
WORKER = re.compile(r'\sdata-sw="([^"]+)"')


#: What a browser says it accepts.
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}

#: What a first view fetched: (address, body, bytes on the wire).
Fetched = list[tuple[str, bytes, int]]


def decoded(response: Any) -> tuple[bytes, int]:
    """A response's body as the browser reads it, and its length as it came."""
    body = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(body), len(body)
    if encoding == "gzip":
        return gzip.decompress(body), len(body)
    return body, len(body)


def first_view(client: FlaskClient, path: str) -> Fetched:
    """The page at ``path`` and every resource it names, each fetched once."""
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 200, page.status_code
    fetched = [(path, *decoded(page))]
    named = [*FETCHED.findall(page.text), *WORKER.findall(page.text)]
    for address in dict.fromkeys(html.unescape(a) for a in named):
        if address.startswith("data:"):
            continue  # in the page already
        if urlsplit(address).netloc:
            fetched.append((address, b"", 0))  # another host: counted, never fetched
            continue
        with client.get(address, headers=BROWSER) as response:
            assert response.status_code == 200, (address, response.status_code)
            fetched.append((address, *decoded(response)))
    return fetched


#: The views measured: page, link kind, path after ``/t/<id>``.
VIEWS = [
    ("table page", "viewer", ""),
    ("table page", "keeper", ""),
    ("score sheet", "viewer", "/sheet"),
]


def figures_of(fetched: Fetched) -> dict[str, int]:
    """Requests, bytes, gzipped bytes, bytes on the wire and third-party requests of a first
    view."""
    return {
        "requests": len(fetched),
        "bytes": sum(len(body) for _, body, _ in fetched),
        "gzip": sum(len(gzip.compress(body, 6)) for _, body, _ in fetched),
        "wire": sum(wire for _, _, wire in fetched),
        "third-party": sum(1 for address, _, _ in fetched if urlsplit(address).netloc),
    }


def load_game(app: Flask) -> str:
    """The complete 4-player Blackout (``GAME``) as a table of ``app``: its id."""
    from referee.records import load_record
    from referee.store.tables import append_entry, create_table

    with app.app_context():
        record = load_record(GAME.read_bytes())
        table = create_table(record.setup)
        seq = 0
        for event in record.events:
            if event.type != "begin-round":
                seq = append_entry(table, seq, "event", event.to_dict())
    return table


def measure(language: str = "en") -> list[tuple[str, str, Fetched]]:
    """Each view of ``VIEWS`` in ``language``: page, who (spectator, scorekeeper) and what its
    first view fetched (address with ``<id>`` for the table, body)."""
    from app import create_app
    from tests.links import join

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/w.sqlite3"}
        )
        table = load_game(app)
        result = []
        for page, kind, path in VIEWS:
            client = app.test_client()
            join(app, client, table, kind)
            client.set_cookie("lang", language)  # as the language switcher leaves it
            fetched = first_view(client, f"/t/{table}{path}")
            who = "spectator" if kind == "viewer" else "scorekeeper"
            result.append((page, who, [(a.replace(table, "<id>"), b, w) for a, b, w in fetched]))
    return result


def shown_of(fetched: Fetched) -> Fetched:
    """The page (first) and the style sheets and scripts it names (``SHOWN``) of a first view."""
    first, *rest = fetched
    shown = {html.unescape(a) for a in SHOWN.findall(first[1].decode())}
    return [first, *(one for one in rest if one[0] in shown)]


def described(figures: dict[str, int], budgets: dict[str, int]) -> str:
    """The figures ``budgets`` names, each with its budget: "5 requests (≤ 5), 42.8 KB (≤ 60),
    12.5 KB gzipped (≤ 15), 0 third-party (≤ 0)"."""
    said = []
    for name, budget in budgets.items():
        if name in ("bytes", "gzip"):
            kind = " gzipped" if name == "gzip" else ""
            said.append(f"{figures[name] / 1024:.1f} KB{kind} (≤ {budget // 1024})")
        else:
            said.append(f"{figures[name]} {name} (≤ {budget})")
    if "wire" in figures:
        said.append(f"{figures['wire'] / 1024:.1f} KB on the wire")
    return ", ".join(said)


def verdict(figures: dict[str, int], budgets: dict[str, int]) -> tuple[list[str], str]:
    """The budgets broken, and a line saying so (or ok)."""
    over = [name for name, value in figures.items() if name in budgets and value > budgets[name]]
    return over, "BROKEN: " + ", ".join(over) if over else "ok"


def main() -> int:
    broken = False
    for language, (page, who, fetched) in (
        (lang, view) for lang in LANGUAGES for view in measure(lang)
    ):
        figures = figures_of(fetched)
        budgets = budgets_of(page)
        over, said = verdict(figures, budgets)
        broken |= bool(over)
        print(
            f"first view of a complete 4-player Blackout's {page} ({who}, {language}): "
            f"{described(figures, budgets)} {said}"
        )
        for address, body, wire in fetched:
            print(f"    {len(body):6d} B, {wire:6d} B on the wire  {address}")
        if page == "table page":
            own = figures_of(shown_of(fetched))
            over, said = verdict(own, PAGE_BUDGETS)
            broken |= bool(over)
            print(f"  its page, style sheet and script: {described(own, PAGE_BUDGETS)} {said}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
