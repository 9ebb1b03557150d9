"""The app as the web benchmarks serve it: the real app plus a bare route to compare against."""

from flask import Flask

from app import create_app


def make() -> Flask:
    """``create_app()`` with ``GET /bare`` returning a short string, in the same server setup."""
    app = create_app()

    @app.get("/bare")
    def bare() -> str:
        return "ok"

    return app
