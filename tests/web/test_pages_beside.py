"""Shared pages kept in files for every worker process of a server (``speed/beside.py``): a page
rendered by one process is read, not rendered, by another; a page is only ever replaced by a later
position's; a new version of the app or of its settings never reads an older one's page; stale
files go."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import pytest
from flask import Flask

from referee.web.speed.beside import STALE_SECONDS, PageFiles, made_by
from tests.conftest import make_app
from tests.links import join
from tests.web.helpers import new_table, ok, post

pytestmark = pytest.mark.speed_layer


def counted(pages: list[bytes], page: bytes):
    """A render that notes each time it is called."""

    def make() -> bytes:
        pages.append(page)
        return page

    return make


def test_a_page_made_once_is_read_by_another_process(tmp_path: Path) -> None:
    one, other = PageFiles(str(tmp_path), "v1"), PageFiles(str(tmp_path), "v1")
    made: list[bytes] = []
    key = ("sheet", "T", "v", "en", 3)
    assert one.get_or_make(key, counted(made, b"<p>3\n\nlines</p>")) == b"<p>3\n\nlines</p>"
    assert other.get_or_make(key, counted(made, b"never")) == b"<p>3\n\nlines</p>"
    assert made == [b"<p>3\n\nlines</p>"]
    # Another page, language or variant of the same table is a file of its own.
    for other_key in (("show", "T", "v", "en", 3), ("sheet", "T", "v", "de", 3)):
        assert other.get_or_make(other_key, counted(made, b"own")) == b"own"
    assert len(made) == 3


def test_a_page_is_only_replaced_by_a_later_positions(tmp_path: Path) -> None:
    files = PageFiles(str(tmp_path), "v1")
    made: list[bytes] = []
    files.get_or_make(("sheet", "T", 5), counted(made, b"five"))
    # A request still at position 4 (a page that had not heard of 5) renders its own ...
    assert files.get_or_make(("sheet", "T", 4), counted(made, b"four")) == b"four"
    # ... and leaves 5 in place for everyone else.
    assert files.get_or_make(("sheet", "T", 5), counted(made, b"again")) == b"five"
    assert files.get_or_make(("sheet", "T", 6), counted(made, b"six")) == b"six"
    assert files.get_or_make(("sheet", "T", 6), counted(made, b"again")) == b"six"
    assert made == [b"five", b"four", b"six"]


@pytest.mark.parametrize("content", [b"", b"junk\n<p>", b"\xff\xfe", b"7"])
def test_a_damaged_file_is_made_again(tmp_path: Path, content: bytes) -> None:
    files = PageFiles(str(tmp_path), "v1")
    key = ("sheet", "T", 7)
    files.folder.mkdir()
    files.path(key[:-1]).write_bytes(content)
    assert files.get_or_make(key, lambda: b"page") == b"page"
    assert files.get_or_make(key, lambda: b"never") == b"page"


def test_a_new_version_or_setting_reads_nothing_an_older_one_made() -> None:
    config = {"SECRET_KEY": "a", "PUBLIC_URL": "", "SPEED": True}
    assert made_by(config) == made_by(dict(config))
    assert made_by(config) != made_by({**config, "PUBLIC_URL": "https://cards.example"})
    assert made_by(config) != made_by({**config, "SECRET_KEY": "b"})
    assert "a" not in made_by(config).split("-")[1]  # a digest, not the settings


def test_stale_files_and_older_versions_are_removed(tmp_path: Path) -> None:
    old = PageFiles(str(tmp_path), "old")
    old.get_or_make(("sheet", "T", 1), lambda: b"old")
    files = PageFiles(str(tmp_path), "new")
    files.get_or_make(("sheet", "T", 1), lambda: b"new")
    files.get_or_make(("sheet", "U", 1), lambda: b"fresh")
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(files.path(("sheet", "T")), (long_ago, long_ago))
    for path in (old.path(("sheet", "T")), old.folder):
        os.utime(path, (long_ago, long_ago))
    files.prune()
    assert not old.folder.exists()
    assert not files.path(("sheet", "T")).exists()
    assert files.path(("sheet", "U")).read_bytes() == b"1\nfresh"


def test_two_worker_processes_of_a_server_share_a_spectators_page(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two apps on one database and one pages folder, as a server's two workers: the page the
    first rendered at a position is the page the second sends, read from the file (here marked,
    to tell it was read, not rendered); the next change is rendered anew."""
    folder = str(tmp_path / "pages")
    first = make_app(request, tmp_path, PAGES_FOLDER=folder)
    second = make_app(request, tmp_path, PAGES_FOLDER=folder)
    keeper = first.test_client()
    table = new_table(first, keeper, "blackout", ("Ann", "Ben", "Cho"))
    ok(post(keeper, table, "trump", trump="H"))
    one, two = first.test_client(), second.test_client()
    join(first, one, table, "viewer")
    join(second, two, table, "viewer")
    page = one.get(f"/t/{table}/sheet").data
    files = (p for p in Path(folder).rglob("*") if p.is_file())
    [path] = [p for p in files if p.read_bytes().partition(b"\n")[2] == page]
    path.write_bytes(path.read_bytes().replace(b"</body>", b"<!-- from the file --></body>"))
    assert b"<!-- from the file -->" in two.get(f"/t/{table}/sheet").data
    ok(post(keeper, table, "bid", player=2, bid=1))
    second.extensions["referee.speed"].positions.swept = -math.inf  # its sweep finds the bid
    moved = two.get(f"/t/{table}/sheet")
    assert b"<!-- from the file -->" not in moved.data and b'data-seq="2"' in moved.data
    assert one.get(f"/t/{table}/sheet").data == moved.data


def test_no_app_of_the_tests_writes_in_the_repositorys_instance_folder(app: Flask) -> None:
    assert app.config["PAGES_FOLDER"] == os.environ["REFEREE_PAGES_FOLDER"]


def test_a_server_that_starts_makes_no_folder_until_it_keeps_a_page(tmp_path: Path) -> None:
    files = PageFiles(str(tmp_path / "pages"), "v1")
    assert not (tmp_path / "pages").exists()
    files.get_or_make(("sheet", "T", 1), lambda: b"page")
    assert files.path(("sheet", "T")).read_bytes() == b"1\npage"
