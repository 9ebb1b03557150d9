"""Servers wake each other: an entry written through any server wakes the streams every other
server holds for its table, a moment after its commit, through the database they share.

On PostgreSQL each write that moves a table's position tells it on a channel when it commits
(``referee.store.moves``). A worker process that holds streams (``referee.web.speed.streams``)
keeps one connection listening there, read by a green thread of its own (``Listener``), and notes
each move it hears as a sweep would (``Positions.heard``), which wakes the streams held for that
table at once. While it listens, the streams' sweeper only sweeps every
``SAFETY_SWEEP_SECONDS`` (a safety net for a move somehow not heard); when the connection
breaks, the fast sweep (``streams.SWEEP_EVERY``) is back until it listens again, retried with a
growing pause, and both are logged.

Only on PostgreSQL and with the ``PG_NOTIFY`` setting on (``REFEREE_PG_NOTIFY=false``: sweeping
only, as on SQLite, where nothing is told).

Cooperating with gevent: the listening connection is only ever waited on through
``selectors``, which gevent's monkey patching makes a green wait, and read once readable
without waiting (``heard(connection, 0)``). psycopg itself would wait in C here
(``gunicorn.conf.py`` sets ``PSYCOPG_WAIT_FUNC=wait_c``), holding the whole worker.
"""

from __future__ import annotations

import logging
import os
import selectors
import threading
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import make_url

from referee.store import db
from referee.store.moves import heard, listen

if TYPE_CHECKING:
    import psycopg
    from flask import Flask

    from referee.web.speed.kept import Positions

#: The pause before listening again after a failure (seconds), doubled after each failure in a
#: row up to ``LONGEST_PAUSE``.
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 30.0

#: The listening connection's ``application_name``, followed by the worker process's id.
LISTENER_NAME = "referee-listener-"

log = logging.getLogger(__name__)


def can_listen(app: Flask) -> bool:
    """Whether ``app``'s servers tell each other their moves: PostgreSQL and ``PG_NOTIFY`` on."""
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    return bool(app.config["PG_NOTIFY"]) and url.get_backend_name() == "postgresql"


class Listener:
    """One process's listening connection and the green thread that reads it (see the
    module). ``listening``: whether every move is heard now."""

    def __init__(self, app: Flask, positions: Positions) -> None:
        self.app = app
        self.positions = positions
        self.listening = False

    def start(self) -> None:
        threading.Thread(target=self.listen_always, name="streams-listener", daemon=True).start()

    def listen_always(self) -> None:
        """Listen; after a failure, pause (longer after each failure in a row) and again."""
        pause = FIRST_PAUSE
        while True:
            try:
                with self.app.app_context():
                    connection = listen(db.engine, f"{LISTENER_NAME}{os.getpid()}")
            except Exception:
                log.warning("could not listen for entries (again in %g s)", pause, exc_info=True)
            else:
                pause = FIRST_PAUSE
                try:
                    self.hear(connection)
                except Exception:
                    log.warning("listening for entries broke; sweeping until back", exc_info=True)
                finally:
                    self.listening = False
                    connection.close()
            time.sleep(pause)
            pause = min(2 * pause, LONGEST_PAUSE)

    def hear(self, connection: psycopg.Connection[Any]) -> None:
        """Note every move told to ``connection`` until it breaks (raising)."""
        self.listening = True
        log.info("listening for entries made through other processes and servers")
        # A move made before the LISTEN, since the last sweep, was told to no one: one sweep.
        with self.app.app_context():
            self.positions.sweep(0)
        with selectors.DefaultSelector() as selector:
            selector.register(connection.fileno(), selectors.EVENT_READ)
            while True:
                selector.select()  # a green wait under gevent
                for table_id, seq in heard(connection):
                    self.positions.heard(table_id, seq)
