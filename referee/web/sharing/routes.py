"""Sharing a table: its spectator, scorekeeper and player links, as QR codes and to copy, and
revoking old links. Only the scorekeeper's phone sees this page. Handing the scorekeeping over is
letting the next phone scan the scorekeeper link; that phone can then revoke all the others.

A token is shown only to the browser that made it (the database keeps its hash): the spectator
link made with the table is kept in its creator's session to show again; a scorekeeper or a
player link is made on request and shown once, so each phone holds a link of its own and the
next scorekeeper can revoke the previous one's.

Every change made here is made only while this phone's own link keeps score at the table, in
the statement that makes it (``referee.store.links``): two scorekeepers revoking each other at
once leave one of them, and a phone being revoked makes no link that outlives it.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from segno import make as make_qr

from referee.store.links import NoAccess, access, make_link, revoke
from referee.web.screens import screens
from referee.web.sharing.access import (
    forget_links,
    held_token,
    keep_shown,
    link_url,
    refuse_revoked,
    require,
    shown_token,
)
from referee.web.speed import load

bp = Blueprint("share", __name__, url_prefix="/t")


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


def render_share(
    table_id: str, keeper: str | None = None, player_link: tuple[str, str] | None = None
) -> str:
    """The share page; ``keeper`` and ``player_link`` are links just made, shown this once."""
    record, state = load(table_id)
    viewer = shown_token(table_id, "viewer")
    if viewer is not None and access(viewer, table_id) is None:
        viewer = None  # revoked since
    return render_template(
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


@bp.get("/<table_id>/share")
def share(table_id: str) -> ResponseReturnValue:
    require(table_id, "keeper")
    return render_share(table_id)


@bp.post("/<table_id>/share")
def act(table_id: str) -> ResponseReturnValue:
    require(table_id, "keeper")
    form = ShareForm()
    if not form.validate():
        flash(gettext("This page was stale; nothing was changed. Please try again."), "error")
        return redirect(url_for("share.share", table_id=table_id), 303)
    mine = held_token(table_id)
    try:
        if mine is None:  # (require let it in: it holds a link)
            raise NoAccess(table_id)
        return change(table_id, request.form.get("action", ""), mine)
    except NoAccess:  # this phone's link was revoked a moment ago
        forget_links(table_id)
        refuse_revoked()


def change(table_id: str, action: str, mine: str) -> ResponseReturnValue:
    """Do the share page's ``action`` as the holder of the scorekeeper link ``mine``."""
    _record, state = load(table_id)
    if action == "viewer":
        keep_shown(table_id, "viewer", make_link(table_id, "viewer", by=mine))
        flash(gettext("A new spectator link is ready."), "info")
    elif action == "revoke-viewers":
        revoke(table_id, "viewer", by=mine, commit=False)
        forget_links(table_id)
        keep_shown(table_id, "viewer", make_link(table_id, "viewer", by=mine))
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
    elif action.startswith("player:") and action[7:] in state.setup.players:
        player = action[7:]
        link = make_link(table_id, "player", player, by=mine)
        return render_share(table_id, player_link=(player, link))
    else:
        flash(gettext("That is not something this page can do."), "error")
    return redirect(url_for("share.share", table_id=table_id), 303)
