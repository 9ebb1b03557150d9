"""Browser fixtures: the real app on a live server, and Debian's Chromium as a phone.

The app runs as in production (CSRF on, its own SQLite file) under werkzeug's threaded server on
a free port. Chromium is the system one (``/usr/bin/chromium``, or ``$CHROMIUM``), driven by
Playwright; Playwright's own browser downloads are never used. Without Chromium (or Playwright)
the browser tests are skipped, unless ``REQUIRE_BROWSER=1`` (``.ci/run``): then they fail.

``phone()`` opens a new browser context — a separate phone with its own cookies — at 360×740
CSS pixels with touch; ``phone(zoom=2)`` shows the same phone with its text zoomed to 200 %
(half the CSS pixels across, twice the device pixels per CSS pixel).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from app import create_app
from referee.store import db

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}

#: How long (ms) Playwright waits for what a page should show before the test fails.
TIMEOUT_MS = 10_000


def unavailable(reason: str) -> None:
    """Skip, or fail when the browser tests are required (``REQUIRE_BROWSER=1``)."""
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        unavailable(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install -r requirements-dev.txt)")
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class LiveServer:
    """The app served over HTTP on 127.0.0.1; ``url("/new")`` is an address on it."""

    def __init__(self, instance: Path) -> None:
        self.app = create_app(
            {
                "SECRET_KEY": "e2e",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'e2e.sqlite3'}",
            }
        )
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
        with self.app.app_context():
            db.engine.dispose()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path) as server:
        yield server


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """Open a page on a new phone: ``phone(color_scheme="dark", zoom=2, javascript=False)``."""
    contexts: list[Any] = []

    def open_phone(color_scheme: str = "light", zoom: int = 1, javascript: bool = True) -> Any:
        context = browser.new_context(
            java_script_enabled=javascript,
            viewport={"width": PHONE["width"] // zoom, "height": PHONE["height"] // zoom},
            device_scale_factor=2 * zoom,
            has_touch=True,
            is_mobile=True,
            color_scheme=color_scheme,
            accept_downloads=True,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def shoot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """Save a full-page screenshot as ``artifacts/e2e/<test>--<name>.png``."""
    test = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)

    def screenshot(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        target = ARTIFACTS / f"{test}--{name}.png"
        page.screenshot(path=str(target), full_page=True)
        return target

    return screenshot
