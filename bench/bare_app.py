"""The true bare reference of the web benchmarks: a Flask app with one route and nothing else.

No hooks, no sessions, no extensions, no database: ``GET /bare`` returns ``"ok"``. ``bench/run.py``
serves it with the same gunicorn settings as the real app (``bench/server.py``'s ``Server``) and
divides every web figure by its rate; the real app's own ``GET /bare`` (``bench/bench_app.py``)
is measured against it too, to show what our hooks cost a request that does nothing.
"""

from flask import Flask


def make() -> Flask:
    """A Flask app whose only route is ``GET /bare``, answering ``"ok"``."""
    app = Flask(__name__)

    @app.get("/bare")
    def bare() -> str:
        return "ok"

    return app
