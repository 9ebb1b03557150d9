"""gunicorn's settings for Table Referee, read by gunicorn from the folder it starts in (the
README's `gunicorn 'app:create_app()'`, the Docker image, the benchmarks and the durability
tests all start it here). The command line and ``GUNICORN_CMD_ARGS`` override any of them.

- gevent workers: each request on a green thread, so a page's stream can wait for its table to
  change (``referee/web/live.py``, ``referee/web/speed/streams.py``) at the cost of a little
  memory instead of a worker, and a phone sees a change as soon as the server knows of it.
- ``worker_connections``: the connections each worker serves at once, streams included (one
  per open page), 8,192 each: 2,000 tables of 5 phones on 2 workers, with room. The process's
  open-file limit (``ulimit -n``) must allow as many.
- The app is loaded in each worker, after gevent has patched it (never ``--preload``: the
  database drivers and the app's locks must be made patched).
- PostgreSQL's driver waits for each answer in C (``PSYCOPG_WAIT_FUNC=wait_c``, where psycopg
  would wait through gevent in Python): a round trip of the app's statements is a fraction of a
  millisecond, and waiting in Python made a PostgreSQL entry a quarter slower (``bench/run.py``);
  the worker's other requests wait that long, as they do for SQLite.
- Python's garbage collector runs less often in a worker (``post_worker_init``): a worker keeps
  thousands of replayed tables and held streams, and each full collection walked all of them,
  stalling every request of that worker for a tenth of a second (the capacity benchmark's p99).
- A phone dropped for not reading its stream is one line of the log, not a traceback
  (``ReaderDropped``).
"""

import gc
import importlib.util
import logging
import os
from typing import Any

worker_class = "gevent"
workers = 2
worker_connections = 8192
preload_app = False

if importlib.util.find_spec("psycopg_binary") or importlib.util.find_spec("psycopg_c"):
    os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_c")  # psycopg reads it when imported


class ReaderDropped(logging.Filter):
    """A phone whose stream's socket stayed full for ``REFEREE_STREAM_WRITE_SECONDS`` is
    dropped (``referee/web/live.py``): gunicorn logs the write's timeout as a socket error with
    its traceback, as if something broke. One line at info level says what happened instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg = "dropped a phone that stopped reading its stream (its write timed out)"
            record.args, record.exc_info, record.exc_text = (), None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def post_worker_init(worker: Any) -> None:
    """What the worker made while starting (the app, its templates, the modules) is never
    garbage: left out of every collection (``gc.freeze``). A young generation of 50,000 objects
    instead of 700, and older generations collected a fifth as often: the requests' own cycles
    are still collected, in far fewer passes over the tables kept. And a dropped reader is one
    line of its log (``ReaderDropped``)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    worker.log.error_log.addFilter(ReaderDropped())
