"""A new group, with its roster: its page and form, and the links its maker's browser gets (a
keeper link, and a viewer link to share), as for a group made from a table or a file."""

from __future__ import annotations

from flask import (
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from wtforms import TextAreaField

from referee.groups import (
    DEFAULT_TIME_ZONE,
    LONGEST_ROSTER,
    GroupRefused,
)
from referee.rules.names import LONGEST_NAME
from referee.store.groups import (
    GroupAccess,
    TooManyGroups,
    create_group,
    make_group_link,
    may_create_group,
)
from referee.web.errors import on_stale
from referee.web.groups.group import NamedGroupForm
from referee.web.groups.words import refusal_text
from referee.web.i18n import gettext
from referee.web.sharing.access import GROUPS, creator


class NewGroupForm(NamedGroupForm):
    players = TextAreaField(
        lazy_gettext("Players, one name per line"),
        render_kw={"maxlength": (LONGEST_NAME + 2) * LONGEST_ROSTER, "rows": 7},
    )


# --- a new group -------------------------------------------------------------------------------


def names_in(text: str) -> list[str]:
    """The names of a "one per line" field, trimmed, blank lines left out."""
    return [name.strip() for name in text.splitlines() if name.strip()]


def render_new(form: NewGroupForm, status: int = 200, error: str | None = None) -> tuple[str, int]:
    return render_template("groups/new.html", form=form, error=error), status


def new() -> ResponseReturnValue:
    """A new group, with its roster: this browser keeps it (a keeper link) and may show its
    viewer link."""
    form = NewGroupForm()
    if request.method == "GET":
        return render_new(form)
    if not form.validate():
        return render_new(form, 400, gettext("This page was stale; please try again."))
    names = names_in(form.players.data or "")
    if len(names) > LONGEST_ROSTER:
        too_many = gettext("A roster holds at most %(n)d players.", n=LONGEST_ROSTER)
        return render_new(form, 422, too_many)
    who = creator()
    if not may_create_group(who):
        return render_new(form, 429, too_many_groups())
    try:
        group_id = create_group(
            form.name.data or "", form.time_zone.data or DEFAULT_TIME_ZONE, names, who
        )
    except GroupRefused as refusal:
        return render_new(form, 422, refusal_text(refusal))
    except TooManyGroups:
        return render_new(form, 429, too_many_groups())
    open_new_group(group_id)
    return redirect(url_for("groups.my_link", group_id=group_id, made=1), 303)


@on_stale("groups.new")
def stale_new(message: str) -> ResponseReturnValue:
    return render_new(NewGroupForm(), 400, message)


def too_many_groups() -> str:
    return gettext(
        "Too many new groups from this network in a short time. Wait a few minutes and try "
        "again; nothing you entered is lost."
    )


def open_new_group(group_id: str) -> None:
    """Make the new group's keeper link (this browser's) and a viewer link to share."""
    keeper = make_group_link(group_id, "keeper", commit=False)
    viewer = make_group_link(group_id, "viewer")
    GROUPS.grant(keeper, GroupAccess(group_id, "keeper"))
    GROUPS.keep_shown(group_id, "viewer", viewer)
