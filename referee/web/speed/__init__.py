"""The speed layer: what the app keeps in memory so the requests a card evening repeats cost
little. Every trick of it is here, installed by ``init_app``:

- ``front``: static files and a page's "has anything changed?" poll, answered in front of Flask;
- ``kept``: tables replayed once and caught up entry by entry, pages rendered once per change,
  every table's log position, the links this process looked up;
- ``sessions``: session cookies verified once per process;
- ``translations``: the templates' translation functions bound once per page.
"""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Install the speed layer on ``app``."""
    from referee.web.speed import front, sessions, translations

    app.session_interface = sessions.CheckedOnce()
    translations.install(app)
    front.install(app)
