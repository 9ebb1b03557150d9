"""Keep a table in a group, from the table (``/t/<id>/group``): a new group whose roster is the
table's players, the table kept in it with its seats; or a group this browser keeps, each of the
table's players seated as the roster player of that name (a guest when there is none).

Only the table's scorekeeper may (this browser holds the table's keeper link), and only into a
group this browser holds a keeper link of: a group link never reaches a table the browser does
not keep the score of, and a table's link never opens a group.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.groups import DEFAULT_TIME_ZONE, LONGEST_GROUP_NAME, Group, GroupRefused
from referee.rules.names import same_name_key
from referee.store.groups import (
    Attached,
    TooManyGroups,
    attach_table,
    create_group,
    get_group,
    group_of_table,
    may_create_group,
)
from referee.store.links import NoAccess
from referee.web.errors import on_stale
from referee.web.groups.group import NamedGroupForm
from referee.web.groups.new import open_new_group, too_many_groups
from referee.web.groups.words import not_kept_text, refusal_text
from referee.web.i18n import gettext
from referee.web.loading import load
from referee.web.sharing.access import GROUPS, TABLES, creator
from referee.web.words import names_text


@dataclass(frozen=True)
class Choice:
    """A group this browser keeps, and how the table would sit in it: each player's name at the
    table with the roster player's name (None: a guest)."""

    group: Group
    seats: tuple[tuple[str, str | None], ...]


def seats_in(group: Group, players: tuple[str, ...]) -> dict[str, str | None]:
    """Each player seated as the roster player of that name (not retired), else a guest."""
    roster = {same_name_key(p.name): p.id for p in group.players if not p.retired}
    return {name: roster.get(same_name_key(name)) for name in players}


def kept_groups(players: tuple[str, ...]) -> list[Choice]:
    """The groups this browser keeps, with the table's seats in each."""
    found = []
    for group_id in GROUPS.held_ids():
        opened = GROUPS.held(group_id)
        group = get_group(group_id) if opened is not None and opened.keeps else None
        if group is not None:
            seats = seats_in(group, players)
            shown = {name: group.player(seats[name]) for name in players}
            names = tuple((n, None if p is None else p.name) for n, p in shown.items())
            found.append(Choice(group, names))
    return found


def render_keep(
    table_id: str, form: NamedGroupForm | None = None, status: int = 200, error: str | None = None
) -> tuple[str, int]:
    record, state = load(table_id)
    kept_by = group_of_table(table_id)
    holds = kept_by is not None and GROUPS.held(kept_by) is not None
    page = render_template(
        "groups/keep.html",
        record=record,
        players=state.setup.players,
        kept_by=get_group(kept_by) if kept_by is not None and holds else None,
        kept_elsewhere=kept_by is not None and not holds,
        choices=[] if kept_by is not None else kept_groups(state.setup.players),
        form=form or NamedGroupForm(formdata=None, name=default_name(state.setup.players)),
        error=error,
    )
    return page, status


def default_name(players: tuple[str, ...]) -> str:
    return gettext("%(names)s's group", names=names_text(players))[:LONGEST_GROUP_NAME]


def keep_page(table_id: str) -> ResponseReturnValue:
    TABLES.require(table_id, "keeper")
    return render_keep(table_id)


def keep(table_id: str) -> ResponseReturnValue:
    """Keep the table in a new group, or in one this browser keeps."""
    TABLES.require(table_id, "keeper")
    form = NamedGroupForm()
    if not form.validate():
        return render_keep(table_id, form, 400, gettext("This page was stale; please try again."))
    record, _state = load(table_id)
    players = record.setup.players
    if request.form.get("action") == "new":
        who = creator()
        if not may_create_group(who):
            return render_keep(table_id, form, 429, too_many_groups())
        places = {name: place for place, name in enumerate(players)}
        try:
            group_id = create_group(
                form.name.data or "",
                form.time_zone.data or DEFAULT_TIME_ZONE,
                players,
                who,
                Attached(table_id, places),
            )
        except GroupRefused as refusal:
            return render_keep(table_id, form, 422, refusal_text(refusal))
        except TooManyGroups:
            return render_keep(table_id, form, 429, too_many_groups())
        open_new_group(group_id)
        flash(gettext("The group keeps this table; its players are the roster."), "info")
        return redirect(url_for("groups.my_link", group_id=group_id, made=1), 303)
    group_id = request.form.get("group", "")
    token = GROUPS.held_token(group_id)
    group = get_group(group_id) if token is not None else None
    if group is None or token is None:
        abort(403, description=not_kept_text())
    try:
        attach_table(group_id, table_id, seats_in(group, players), by=token)
    except GroupRefused as refusal:
        return render_keep(table_id, form, 422, refusal_text(refusal))
    except NoAccess:
        abort(403, description=not_kept_text())
    flash(gettext("The group keeps this table."), "info")
    return redirect(url_for("groups.kept_table", group_id=group_id, table_id=table_id), 303)


@on_stale("groups.keep")
def stale_keep(message: str) -> ResponseReturnValue:
    table_id = str((request.view_args or {}).get("table_id", ""))
    TABLES.require(table_id, "keeper")
    return render_keep(table_id, NamedGroupForm(), 400, message)
