"""Friendly error pages: an unknown page or table (404), a table this browser has no link to or
may not change (403), a stale page (CSRF, 400), too much (413), and our own failure (500).

Never a stack trace. A stale form is the common case at a card table (a phone left on the page
all evening, the server restarted): the page a form came from can register a renderer with
``on_stale(endpoint)`` that shows the form again with the user's input kept and a fresh token;
any other stale POST gets a short page with a way back. A page that refuses the phone (no link
to it, no such group or table: its view aborts) is refused as the page itself would be.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import (
    Forbidden,
    HTTPException,
    InternalServerError,
    NotFound,
    RequestEntityTooLarge,
)

from referee.store.tables import TooManyTables
from referee.web.i18n import gettext

bp = Blueprint("errors", __name__)

#: A page shown for a stale POST; it gets the sentence to show.
StaleView = Callable[[str], ResponseReturnValue]

#: Endpoint → what to show when a POST to it fails the CSRF check (see ``on_stale``).
STALE_VIEWS: dict[str, StaleView] = {}


def on_stale(endpoint: str) -> Callable[[StaleView], StaleView]:
    """Register what a stale POST to ``endpoint`` shows; it gets the sentence to show."""

    def register(view: StaleView) -> StaleView:
        STALE_VIEWS[endpoint] = view
        return view

    return register


def stale_message() -> str:
    return gettext(
        "This page was stale: it was opened too long ago or before the app restarted, "
        "so nothing was saved. Please try again."
    )


def back_url() -> str:
    """Where "go back" leads: the page the request came from if it is ours, else home.

    Only a path of this app: one that a browser could read as another host's (``//evil``,
    ``/\\evil``), or no address at all (``http://[``: ``urlsplit`` raises), leads home.
    """
    referrer = request.referrer
    if referrer:
        try:
            parts = urlsplit(referrer)
        except ValueError:
            return url_for("home.index")
        path = parts.path
        ours = path.startswith(request.script_root + "/") and path[1:2] not in ("/", "\\")
        if ours and parts.netloc == request.host and parts.scheme in ("http", "https"):
            return path + (f"?{parts.query}" if parts.query else "")
    return url_for("home.index")


@bp.app_errorhandler(404)
def not_found(error: NotFound) -> ResponseReturnValue:
    message = error.description if error.description != NotFound.description else None
    if message is None and request.path.startswith("/t/"):
        message = gettext(
            "There is no table at this address. If someone shared its link with you, "
            "check that it was copied whole."
        )
    return render_template("errors/404.html", message=message), 404


@bp.app_errorhandler(403)
def forbidden(error: Forbidden) -> ResponseReturnValue:
    """Not with this link: what would let them in; for a phone without a link to a table or a
    group (``LinkNeeded``), what to do and a field to paste a link kept."""
    needed = getattr(error, "thing", None)
    args = request.view_args or {}
    thing_id = args.get("group_id" if needed == "group" else "table_id")
    page = render_template(
        "errors/403.html", message=error.description, needed=needed, thing_id=thing_id
    )
    return page, 403


@bp.app_errorhandler(CSRFError)
def stale(error: CSRFError) -> ResponseReturnValue:
    message = stale_message()
    view = STALE_VIEWS.get(request.endpoint or "")
    if view is not None:
        try:
            return view(message)
        except HTTPException as refused:
            # Raised in an error handler, it would reach no handler of its own: a bare 500.
            return current_app.handle_http_exception(refused)
    return render_template("errors/stale.html", message=message, back=back_url()), 400


@bp.app_errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
    return render_template("errors/413.html", back=back_url()), 413


@bp.app_errorhandler(InternalServerError)
def server_error(error: InternalServerError) -> ResponseReturnValue:
    """Something broke on our side: a plain sentence in the app's style, never a trace. The page
    needs neither the database nor the session, either of which may be what broke: it reads no
    table and takes none of the browser's messages (``cached``: rendered as for anyone)."""
    return render_template("errors/500.html", back=back_url(), cached=True), 500


@bp.app_errorhandler(TooManyTables)
def refuse_creation(error: TooManyTables) -> ResponseReturnValue:
    """A creation refused by ``create_table`` itself (``may_create`` let it through a moment
    before, while others from the same address took the last places)."""
    message = gettext(
        "Too many new tables from this network in a short time, so this one was not created. "
        "Wait a few minutes, then go back with your browser's Back button and send it again."
    )
    return render_template("errors/429.html", message=message, back=back_url()), 429
