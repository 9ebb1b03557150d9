"""Sharing a table: the share page with its spectator, scorekeeper and player links, as QR codes
and to copy, and revoking old links; the page that opens a shared link; ``flask link``.

Only the scorekeeper's phone sees the share page. Handing the scorekeeping over is letting the
next phone scan the scorekeeper link; that phone can then revoke all the others.

A token is shown only to the browser that made it (the database keeps its hash): the spectator
link made with the table is kept in its creator's session to show again; a scorekeeper or a
player link is made on request and shown once, so each phone holds a link of its own and the
next scorekeeper can revoke the previous one's.

Every change made here is made only while this phone's own link keeps score at the table, in
the statement that makes it (``referee.store.links``): two scorekeepers revoking each other at
once leave one of them, and a phone being revoked makes no link that outlives it.

A shared link is ``/j#<token>`` (``link_url``): the token is the address's fragment, which a
browser never sends, so it appears in no request line of any server's, proxy's or dev server's
log. The page at ``/j`` hands it over in a POST (``static/app.js`` submits its form with the
fragment at once, so scanning a QR code opens the table in one step); without JavaScript the
link is pasted into that form. Links of the old form, ``/j/<token>``, still open their table or
group.
"""

from __future__ import annotations

import click
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from segno import make as make_qr
from werkzeug.wrappers import Response as WerkzeugResponse

from referee.store.links import NoAccess, access, make_link, revoke
from referee.store.tables import current_seq
from referee.web.errors import on_stale
from referee.web.i18n import gettext, ngettext
from referee.web.loading import load
from referee.web.screens import screens
from referee.web.sharing.access import GROUPS, TABLES, forget_links

bp = Blueprint("sharing", __name__, cli_group=None)


class ShareForm(FlaskForm):
    """A share action: only its CSRF token and the button pressed (``action``)."""


def qr_svg(url: str, title: str) -> Markup:
    """``url`` as a QR code: inline SVG markup, made here (no external service)."""
    code = make_qr(url, error="m")
    svg = code.svg_inline(border=2, dark="#000", light="#fff", title=title, omitsize=True)
    return Markup(svg)  # segno's own markup; it escapes the title


def shown_link(token: str, title: str) -> dict[str, object]:
    url = link_url(token)
    return {"url": url, "qr": qr_svg(url, title)}


def link_page(page: str, status: int = 200) -> Response:
    """A page that shows a link's token (or takes one): kept by no cache, the browser's nor the
    phone's offline copies (``static/sw.js``), since the link may be revoked a moment later."""
    response = Response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def render_share(
    table_id: str, keeper: str | None = None, player_link: tuple[str, str] | None = None
) -> Response:
    """The share page; ``keeper`` and ``player_link`` are links just made, shown this once."""
    record, state = load(table_id)
    viewer = TABLES.shown_token(table_id, "viewer")
    if viewer is not None and access(viewer, table_id) is None:
        viewer = None  # revoked since
    return link_page(
        render_template(
            "sharing/page.html",
            record=record,
            state=state,
            viewer=None if viewer is None else shown_link(viewer, gettext("Spectator link")),
            keeper=None if keeper is None else shown_link(keeper, gettext("Scorekeeper link")),
            player_link=None
            if player_link is None
            else {"player": player_link[0], **shown_link(player_link[1], player_link[0])},
            secret_bids=screens(state.setup.game).player_links,
        )
    )


@bp.get("/t/<table_id>/share")
def page(table_id: str) -> ResponseReturnValue:
    TABLES.require(table_id, "keeper")
    return render_share(table_id)


@bp.post("/t/<table_id>/share")
def act(table_id: str) -> ResponseReturnValue:
    TABLES.require(table_id, "keeper")
    form = ShareForm()
    if not form.validate():
        flash(gettext("This page was stale; nothing was changed. Please try again."), "error")
        return redirect(url_for("sharing.page", table_id=table_id), 303)
    mine = TABLES.held_token(table_id)
    try:
        if mine is None:  # (require let it in: it holds a link)
            raise NoAccess(table_id)
        return change(table_id, request.form.get("action", ""), mine)
    except NoAccess:  # this phone's link was revoked a moment ago
        forget_links(table_id)
        TABLES.refuse_revoked()


def change(table_id: str, action: str, mine: str) -> ResponseReturnValue:
    """Do the share page's ``action`` as the holder of the scorekeeper link ``mine``."""
    _record, state = load(table_id)
    if action == "viewer":
        TABLES.keep_shown(table_id, "viewer", make_link(table_id, "viewer", by=mine))
        flash(gettext("A new spectator link is ready."), "info")
    elif action == "revoke-viewers":
        revoke(table_id, "viewer", by=mine, commit=False)
        forget_links(table_id)
        TABLES.keep_shown(table_id, "viewer", make_link(table_id, "viewer", by=mine))
        flash(
            gettext("Every spectator link so far is revoked; here is a new one to share."), "info"
        )
    elif action == "keeper":
        return render_share(table_id, keeper=make_link(table_id, "keeper", by=mine))
    elif action == "revoke-keepers":
        count = revoke(table_id, "keeper", by=mine)
        forget_links(table_id)
        flash(
            ngettext(
                "%(num)d other scorekeeper link revoked: only this phone keeps score now.",
                "%(num)d other scorekeeper links revoked: only this phone keeps score now.",
                count,
            ),
            "info",
        )
    elif action.startswith("player:") and action[7:] in state.players:
        player = action[7:]
        link = make_link(table_id, "player", player, by=mine)
        return render_share(table_id, player_link=(player, link))
    else:
        flash(gettext("That is not something this page can do."), "error")
    return redirect(url_for("sharing.page", table_id=table_id), 303)


#: The path of the page that opens a shared link (``/j#<token>``).
JOIN_PATH = "/j"


def link_url(token: str) -> str:
    """A link as it is shared, copied and put in a QR code: the app's public address
    (``PUBLIC_URL``, else the one this request came to; nothing outside a request), ``/j``, and
    the token as the fragment."""
    root = str(current_app.config["PUBLIC_URL"])
    if not root and has_request_context():
        root = request.url_root
    return f"{root.rstrip('/')}{JOIN_PATH}#{token}"


def token_in(text: str) -> str:
    """The token in what was pasted: a whole link (``…/j#<token>``, or the old ``…/j/<token>``)
    or the token alone.

    >>> token_in(" https://scores.example/j#abc-_123 ")
    'abc-_123'
    """
    return text.strip().rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def join_page(link: str = "", error: str | None = None, status: int = 200) -> Response:
    """The ``/j`` page: its form (``link`` filled in), and why a link did not open."""
    return link_page(render_template("sharing/join.html", link=link, error=error), status)


def open_link(token: str) -> WerkzeugResponse | None:
    """Keep the link in this browser's session (``Things.opens``) and send it to the table or
    the group it opens; None for a token that opens nothing."""
    table = TABLES.opens(token)
    group = None if table is not None else GROUPS.opens(token)
    if table is not None:
        response = redirect(url_for("round.show", table_id=table.table_id), 303)
    elif group is not None:
        response = redirect(url_for("groups.page", group_id=group.group_id), 303)
    else:
        return None
    response.headers["Cache-Control"] = "no-store"
    return response


def unknown_link() -> str:
    return gettext(
        "This link opens no table and no group: it was copied wrong or it has been revoked. "
        "Ask whoever shared it for a new one."
    )


@bp.get(JOIN_PATH)
def join_start() -> ResponseReturnValue:
    """The page a shared link opens; its script sends the link's token on by itself."""
    return join_page()


@bp.post(JOIN_PATH)
def join_posted() -> ResponseReturnValue:
    """Open the link sent by the ``/j`` page's form (which carries a CSRF token, like every
    form: a stale one gets ``stale_join``)."""
    link = request.form.get("link", "")
    opened = open_link(token_in(link))
    if opened is None:
        return join_page(link, unknown_link(), 404)
    return opened


@on_stale("sharing.join_posted")
def stale_join(message: str) -> ResponseReturnValue:
    """A stale ``/j`` form: shown again with its link kept and a fresh token."""
    return join_page(request.form.get("link", ""), message, 400)


@bp.get("/j/<token>")
def join(token: str) -> ResponseReturnValue:
    """Open a link of the old form, ``/j/<token>`` (its token reaches request logs): a table's or
    a group's, as ``/j#<token>`` does."""
    opened = open_link(token)
    if opened is None:
        abort(404, description=unknown_link())
    return opened


@bp.cli.command("link")
@click.argument("table_id")
@click.option("--kind", type=click.Choice(["keeper", "viewer"]), default="keeper")
def link_command(table_id: str, kind: str) -> None:
    """Print a new link to TABLE_ID (for a table whose scorekeeper lost every link). An id
    that starts with "-" (tables made before 2026-12) goes after "--": link -- -AbC…"""
    if current_seq(table_id) is None:
        raise click.ClickException(f"there is no table {table_id!r}")
    click.echo(link_url(make_link(table_id, kind)))
