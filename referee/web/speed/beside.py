"""Shared pages kept in files beside the app's instance, for every worker process of the server:
a page every viewer of its kind sees alike (``referee.web.pages``) is rendered once per change of
its table by the first process that needs it, and read by the others.

A table's phones each hold a stream in whichever worker took it, so without this each worker
that holds a watcher of the table renders the same page for the same change. A render costs
about as much as the entry that made the change; reading the page back costs a few hundredths of
that (``bench/README.md``, "Once per server").

One file per page, kind of viewer, language and variant (``PageFiles.path``), holding the table's
position it was rendered at on its first line and the page after it. A process that needs the
page at a position reads the file; if it holds that position, that is the page; else it renders
the page and, unless the file is newer already, writes it beside and moves it into place
(``os.replace``: a reader sees the old page or the new one, never a part). Two processes that
render the same change at once both write the same bytes. The folder is named after the code
and settings that make the pages (``made_by``), so a new version of the app never reads a page
an older one made; files and folders untouched for ``STALE_SECONDS`` are removed, at most once
per ``PRUNE_EVERY``.

Behind a proxy that spreads tables over servers by table (``deploy/nginx.conf``) a table's phones
meet on one server, so its pages are rendered once for the whole deployment; a server that takes
a table over renders its page once more.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask

import referee

#: Where the pages are, in the instance folder, unless the ``PAGES_FOLDER`` setting says.
FOLDER = "pages"
#: A page file, or a folder of an older version, untouched this long is removed (seconds).
STALE_SECONDS = 24 * 3600
#: How often a process looks for stale files (seconds).
PRUNE_EVERY = 3600
#: What the pages are made of: the package (its code, templates and translations) and the
#: static files (their hashed names are in every page).
SOURCES = ("static", "templates")


@functools.cache
def code_digest() -> str:
    """A digest of everything a page is made from in this installation (``SOURCES`` and the
    package), read once per process."""
    digest = hashlib.blake2b(digest_size=12)
    package = Path(referee.__file__).parent
    roots = [package, *(package.parent / name for name in SOURCES)]
    for root in roots:
        for folder, folders, files in os.walk(root):
            folders[:] = sorted(name for name in folders if name != "__pycache__")
            for name in sorted(files):
                path = Path(folder, name)
                digest.update(str(path.relative_to(root.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def for_app(app: Flask) -> PageFiles:
    """The pages of ``app``'s server."""
    parent = app.config["PAGES_FOLDER"] or os.path.join(app.instance_path, FOLDER)
    return PageFiles(parent, made_by(app.config))


def made_by(config: Mapping[str, Any]) -> str:
    """The name of the folder for pages made by this code with these settings."""
    settings = sorted(
        (name, repr(value))
        for name, value in config.items()
        if isinstance(value, (str, int, float, bool, type(None), list, tuple))
    )
    digest = hashlib.blake2b(repr(settings).encode(), digest_size=8).hexdigest()
    return f"{code_digest()}-{digest}"


class PageFiles:
    """The pages of one version of the app in one folder (see the module)."""

    def __init__(self, parent: str, version: str) -> None:
        """``parent``: the folder of every version's pages; ``version``: this one's
        (``made_by``)."""
        self.parent = Path(parent)
        self.folder = self.parent / version
        self.made = False  # the folder, made by the first write: starting writes nothing
        self.pruned = time.monotonic()

    def path(self, page: tuple[Hashable, ...]) -> Path:
        """The file of ``page`` (a page's key without its position)."""
        return self.folder / hashlib.blake2b(repr(page).encode(), digest_size=16).hexdigest()

    def get_or_make(self, key: tuple[Hashable, ...], make: Callable[[], bytes]) -> bytes:
        """The page ``key`` (``referee.web.pages.SharedPage.key``: the table's position last)
        from its file, or ``make()`` (then written, unless the file holds a later position)."""
        *page, position = key
        assert isinstance(position, int)
        path = self.path(tuple(page))
        held, found = self.held(path, position)
        if found is not None:
            return found
        made = make()
        if held < position:
            self.write(path, b"%d\n%s" % (position, made))
        return made

    def read(self, key: tuple[Hashable, ...]) -> bytes | None:
        """The page ``key`` from its file, if it is there at that position; None otherwise."""
        *page, position = key
        assert isinstance(position, int)
        return self.held(self.path(tuple(page)), position)[1]

    def held(self, path: Path, position: int) -> tuple[int, bytes | None]:
        """The position ``path`` holds its page at (-1: none, or damaged), and the page if
        that is ``position``."""
        with contextlib.suppress(FileNotFoundError, ValueError), path.open("rb") as file:
            line = file.readline()
            held = int(line) if line.endswith(b"\n") else -1
            return held, file.read() if held == position else None
        return -1, None

    def write(self, path: Path, content: bytes) -> None:
        """Put ``content`` in ``path`` whole (see the module)."""
        if not self.made:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.made = True
        descriptor, name = tempfile.mkstemp(dir=self.folder, prefix=".")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(content)
            os.replace(name, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)
            raise
        if time.monotonic() - self.pruned >= PRUNE_EVERY:
            self.pruned = time.monotonic()
            self.prune()

    def prune(self) -> None:
        """Remove the files, and the folders of other versions, untouched for
        ``STALE_SECONDS``."""
        stale = time.time() - STALE_SECONDS
        for entry in os.scandir(self.parent):
            with contextlib.suppress(FileNotFoundError):
                if entry.path == str(self.folder):
                    for page in os.scandir(entry.path):
                        if page.stat().st_mtime < stale:
                            os.unlink(page.path)
                elif entry.is_dir() and entry.stat().st_mtime < stale:
                    shutil.rmtree(entry.path, ignore_errors=True)
