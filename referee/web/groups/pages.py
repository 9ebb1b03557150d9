"""The group's pages that show it: the group page (tonight's tables, earlier evenings, seasons),
every evening, and the share page with the group's links (and ``flask group-link``).

The group page renders its tables part once per group version, table positions, language, kind
of link and the tables this browser holds links of (``referee.web.memo``); what it shows of
each table is kept by table and log position (``glance.py``). It never grants a table: a table
is linked only for a browser that holds that table's own link, and anyone else sees its
standings there and nothing more.
"""

from __future__ import annotations

from typing import Any

import click
from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.cli import with_appcontext
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from referee.groups import (
    Group,
)
from referee.rules import GAMES
from referee.store.groups import (
    group_access,
    group_version,
    make_group_link,
    revoke_group_links,
)
from referee.store.links import NoAccess
from referee.web.groups.glance import evening, page_at, positions, shown_evenings
from referee.web.groups.group import GroupForm, find_group, load_group, stale_form
from referee.web.groups.words import not_kept_text
from referee.web.i18n import gettext, ngettext
from referee.web.language import language
from referee.web.live import Followed, group_stream, wants_stream
from referee.web.memo import memo
from referee.web.sharing.access import GROUPS, TABLES
from referee.web.sharing.routes import link_page, link_url, shown_link

#: Earlier evenings the group page shows; the rest are on the evenings page.
EARLIER = 8
#: Tables of one evening the group page and TV mode show, the last played; the evenings page
#: shows them all. A real evening has a few; a loaded file of records without dates, thousands.
MOST_SHOWN = 12


# --- the group page ----------------------------------------------------------------------------


def tables_part(group: Group, keeper: bool, limit: int | None, most: int | None = None) -> Markup:
    """Tonight's tables and the earlier evenings (at most ``limit``, each with its last ``most``
    tables), rendered once for the group's version, the shown tables' positions, the language,
    the kind of link and the shown tables this browser holds a link of. Only the tables shown
    are read: a group's page costs the same after twenty years of evenings as after one, and
    after an evening of ten thousand tables (a loaded file of records without dates)."""
    today = group.today()
    shown = shown_evenings(group, today, limit, most)
    tables = shown.tables
    held = tuple(kept.table_id for kept in tables if TABLES.held_token(kept.table_id) is not None)
    key = (
        *("evenings", group.id, group.version, positions(group, tables, True), language(), keeper),
        *(held, today, limit, most, request.script_root),
    )

    def render() -> Markup:
        return Markup(
            render_template(
                "groups/_evenings.html",
                group=group,
                tonight=None if shown.tonight is None else evening(group, shown.tonight),
                today=today,
                earlier=[evening(group, day) for day in shown.earlier],
                more=shown.more,
                held=set(held),
                keeper=keeper,
            )
        )

    return memo("groups", key, render)


def render_page(group: Group, status: int = 200, **shown: Any) -> tuple[str, int]:
    keeper = GROUPS.keeps(group.id)
    today = group.today()
    page = render_template(
        "groups/page.html",
        group=group,
        keeper=keeper,
        tables=tables_part(group, keeper, EARLIER, MOST_SHOWN),
        games=list(GAMES.items()),
        season=group.season_of(today),
        today=today,
        form=GroupForm(formdata=None),
        follow=page_standing(group),
        **shown,
    )
    return page, status


def page(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    if wants_stream():
        return group_stream(group_id, lambda: page_now(group_id))
    return render_page(load_group(group_id))


def page_now(group_id: str) -> Followed | None:
    """Where the group page stands now (None: the group is gone)."""
    group = find_group(group_id)
    return None if group is None else page_standing(group)


def page_standing(group: Group) -> Followed:
    """Where the group page stands: the tables it shows, and its day."""
    today = group.today()
    return page_at(group, shown_evenings(group, today, EARLIER, MOST_SHOWN).tables, today)


def all_evenings(group_id: str) -> ResponseReturnValue:
    """Every evening of the group."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    return render_template(
        "groups/evenings.html", group=group, tables=tables_part(group, GROUPS.keeps(group_id), None)
    )


# --- sharing -----------------------------------------------------------------------------------


def render_share(group: Group, keeper: str | None = None) -> ResponseReturnValue:
    """The group's share page; ``keeper``: a keeper link just made, shown this once."""
    viewer = GROUPS.shown_token(group.id)
    if viewer is not None and group_access(viewer, group.id) is None:
        viewer = None  # revoked since
    page = render_template(
        "groups/share.html",
        group=group,
        viewer=None if viewer is None else shown_link(viewer, gettext("Group link")),
        keeper=None if keeper is None else shown_link(keeper, gettext("Group keeper link")),
        form=GroupForm(formdata=None),
    )
    return link_page(page)


def share(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id, "keeper")
    return render_share(load_group(group_id))


def my_link(group_id: str) -> ResponseReturnValue:
    """This phone's own keeper link, to keep somewhere safe: shown as the group is made
    (``?made=1``) and whenever the group page's keeper asks. A phone that forgets the group (a
    new phone, a cleared browser) gets it back by opening the link again."""
    GROUPS.require(group_id, "keeper")
    token = GROUPS.held_token(group_id)
    assert token is not None  # (it keeps the group)
    page = render_template(
        "groups/my_link.html",
        group=load_group(group_id),
        link=shown_link(token, gettext("Group keeper link")),
        made=request.args.get("made") == "1",
        form=GroupForm(formdata=None),
    )
    return link_page(page)


def share_change(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id, "keeper")
    here = url_for("groups.share", group_id=group_id)
    if stale_form():
        flash(gettext("This page was stale; nothing was changed. Please try again."), "error")
        return redirect(here, 303)
    mine = GROUPS.held_token(group_id)
    action = request.form.get("action", "")
    try:
        if mine is None:
            raise NoAccess(group_id)
        if action == "viewer":
            GROUPS.keep_shown(group_id, "viewer", make_group_link(group_id, "viewer", by=mine))
            flash(gettext("A new group link is ready."), "info")
        elif action == "revoke-viewers":
            revoke_group_links(group_id, "viewer", by=mine, commit=False)
            GROUPS.keep_shown(group_id, "viewer", make_group_link(group_id, "viewer", by=mine))
            flash(
                gettext("Every group link so far is revoked; here is a new one to share."),
                "info",
            )
        elif action == "keeper":
            return render_share(load_group(group_id), make_group_link(group_id, "keeper", by=mine))
        elif action == "revoke-keepers":
            count = revoke_group_links(group_id, "keeper", by=mine)
            flash(
                ngettext(
                    "%(num)d other keeper link revoked: only this phone keeps the group now.",
                    "%(num)d other keeper links revoked: only this phone keeps the group now.",
                    count,
                ),
                "info",
            )
        else:
            flash(gettext("That is not something this page can do."), "error")
    except NoAccess:
        abort(403, description=not_kept_text())
    return redirect(here, 303)


@click.command("group-link")
@with_appcontext
@click.argument("group_id")
@click.option("--kind", type=click.Choice(["keeper", "viewer"]), default="keeper")
def group_link_command(group_id: str, kind: str) -> None:
    """Print a new link to GROUP_ID (for a group whose keepers lost every link). An id that
    starts with "-" goes after "--": group-link -- -AbC…"""
    if group_version(group_id) is None:
        raise click.ClickException(f"there is no group {group_id!r}")
    click.echo(link_url(make_group_link(group_id, kind)))
