"""The benchmarks' own machinery (``bench/``), where a mistake would make a figure wrong or a run
fail for the wrong reason: here, a figure whose every request needs a fresh table never sends
one twice however fast the server answers, so a fast machine cannot fail the run."""

from __future__ import annotations

import re
from pathlib import Path

from bench.server import BARE, Request, Server, request_file, wrk
from tests.tools import tool


def test_fresh_lines_are_sent_once_and_the_run_says_it_ran_out(tmp_path: Path):
    tool("wrk")
    lines = [Request(f"/bare?line={n}") for n in range(200)]
    requests = request_file(tmp_path / "fresh.txt", lines)
    with Server(f"sqlite:///{tmp_path / 'unused.sqlite3'}", 2, BARE) as server:
        load = wrk(server.base, requests, 1, {200}, fresh=True)
    # The bare route answers thousands a second: the lines are all sent within the second,
    # each at most once. A thread that stops drops what its connections had in flight, and a
    # connection may get the answer to the harmless request a thread stops with (one each).
    assert load.ran_out, load
    assert len(lines) // 2 <= load.responses <= len(lines) + 8, load
    assert load.failures == {}, load


def test_the_capacity_phones_ask_for_their_stream_as_the_page_does():
    # The capacity sweep is only true of the app if its phones open their streams as
    # static/app.js's pages do: the page's own address, ?stream=<the position it shows>, and
    # every event's id is the position it brings.
    from bench import capacity

    script = (Path(__file__).resolve().parents[1] / "static" / "app.js").read_text()
    assert 'url.searchParams.set("stream", String(shown()));' in script
    assert "new EventSource(url)" in script
    asked = capacity.stream("/t/x", "h", "c").replace(b"{seq}", b"3")
    assert asked.startswith(b"GET /t/x?stream=3 HTTP/1.1\r\n")
    assert b"Accept: text/event-stream\r\n" in asked
    from referee.web.live import event, moved

    for made in (event(b"page", 12, "<p>\n</p>"), moved(12)):
        assert [int(n) for n in capacity.EVENT_ID.findall(b"\n" + made)] == [12]


def test_the_paper_bench_reads_cards_of_digits_the_classifier_never_saw():
    # bench/paper.py's figures are about writers the classifier did not learn from: the digits
    # its corpus writes are the shipped ones left out of training, and a short run prints them.
    import subprocess
    import sys

    from tools.train_digits import TRAINED, held_out

    tool("pdftoppm")
    images, labels = held_out()
    assert len(images) == len(labels) == 1797 - TRAINED > 400
    run = subprocess.run(
        [sys.executable, "bench/paper.py", "--cards", "2"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert "cards: 2 (2 read" in run.stdout
    assert re.search(r"right with the rules, no question: +\d+\.\d\d%", run.stdout)
