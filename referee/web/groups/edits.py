"""A keeper's edits of a group: a new season, the roster (add, rename, retire, bring back a player;
the group's name and time zone) and a table the group keeps (counting or not, a guest merged into
a roster player, let go). Each checks the form's CSRF token and the group's version it was shown
at (``group.py``).
"""

from __future__ import annotations

from datetime import date

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_date

from referee.groups import (
    LONGEST_GROUP_NAME,
    Group,
    GroupRefused,
    Member,
)
from referee.rules.names import LONGEST_NAME, same_name_key
from referee.store.groups import (
    add_player,
    add_season,
    detach_table,
    rename_group,
    rename_player,
    retire_player,
    seat_new_player,
    set_counts,
    set_ended_early_counts,
    set_seat,
)
from referee.web.errors import on_stale
from referee.web.groups.glance import line, table_glance
from referee.web.groups.group import GroupForm, change, load_group, posted_version, stale_form
from referee.web.groups.numbers import facts_of
from referee.web.groups.pages import render_page
from referee.web.groups.words import changed_text
from referee.web.i18n import gettext, ngettext
from referee.web.sharing.access import GROUPS, TABLES

# --- seasons -----------------------------------------------------------------------------------


def parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if len(text) <= 10 else None
    except ValueError:
        return None


def seasons(group_id: str) -> ResponseReturnValue:
    """Start a new season (a keeper's)."""
    GROUPS.require(group_id, "keeper")
    name = request.form.get("name", "")
    starts = request.form.get("starts_on", "")
    typed = {"season_name": name, "season_starts": starts}
    if stale_form():
        return render_page(load_group(group_id), 400, season_error=stale_text(), **typed)
    day = parse_day(starts)
    if day is None:
        message = gettext("Give the day the season starts on, as a date.")
        return render_page(load_group(group_id), 422, season_error=message, **typed)
    version = posted_version()
    error = change(group_id, lambda by: add_season(group_id, name, day, version, by))
    if error is not None:
        status = 409 if error == changed_text() else 422
        return render_page(load_group(group_id), status, season_error=error, **typed)
    shown = format_date(day, "medium")
    flash(gettext("Season “%(name)s” starts on %(day)s.", name=name.strip(), day=shown), "info")
    return redirect(url_for("groups.page", group_id=group_id) + "#seasons", 303)


def ended_early(group_id: str) -> ResponseReturnValue:
    """Count games ended early in the group's numbers, or not (a keeper's choice; shown with
    the standings)."""
    GROUPS.require(group_id, "keeper")
    season = request.form.get("season", "")
    back = url_for("groups.standings_page", group_id=group_id, season=season or None)
    if stale_form():
        flash(stale_text(), "error")
        return redirect(back + "#ended-early", 303)
    counts = request.form.get("counts") == "yes"
    version = posted_version()
    error = change(group_id, lambda by: set_ended_early_counts(group_id, counts, version, by))
    if error is not None:
        flash(error, "error")
    elif counts:
        flash(gettext("Games ended early count again, as finished games."), "info")
    else:
        flash(gettext("Games ended early count for nothing now."), "info")
    return redirect(back + "#ended-early", 303)


@on_stale("groups.ended_early")
def stale_ended_early(message: str) -> ResponseReturnValue:
    """A stale form of the choice: the standings again, saying so; nothing changed."""
    group_id = str((request.view_args or {}).get("group_id", ""))
    GROUPS.require(group_id, "keeper")
    flash(message, "error")
    season = request.form.get("season", "") or None
    back = url_for("groups.standings_page", group_id=group_id, season=season)
    return redirect(back + "#ended-early", 303)


def stale_text() -> str:
    return gettext(
        "This page was stale: it was opened too long ago or before the app restarted, so "
        "nothing was saved. Please try again."
    )


@on_stale("groups.seasons")
def stale_seasons(message: str) -> ResponseReturnValue:
    group_id = str((request.view_args or {}).get("group_id", ""))
    GROUPS.require(group_id, "keeper")
    typed = {
        "season_name": request.form.get("name", ""),
        "season_starts": request.form.get("starts_on", ""),
    }
    return render_page(load_group(group_id), 400, season_error=message, **typed)


# --- the roster --------------------------------------------------------------------------------


def render_roster(
    group: Group,
    status: int = 200,
    error: tuple[str, str] | None = None,
    typed: tuple[str, str] | None = None,
) -> tuple[str, int]:
    """The roster page; ``error``: (where, what) — a player's id, ``add``, ``group`` or
    ``top``; ``typed``: (where, the name typed there), shown again."""
    return (
        render_template(
            "groups/roster.html",
            group=group,
            keeper=GROUPS.keeps(group.id),
            form=GroupForm(formdata=None),
            error=error,
            typed=typed,
            longest=LONGEST_NAME,
            longest_group=LONGEST_GROUP_NAME,
        ),
        status,
    )


def roster(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    return render_roster(load_group(group_id))


def roster_change(group_id: str) -> ResponseReturnValue:
    """Add, rename, retire or bring back a player; or rename the group (a keeper's)."""
    GROUPS.require(group_id, "keeper")
    action = request.form.get("action", "")
    player = request.form.get("player", "")
    name = request.form.get("name", "")
    where = player if action in ("rename", "retire", "return") else action
    typed = (where, name)
    if stale_form():
        return render_roster(load_group(group_id), 400, ("top", stale_text()), typed)
    version = posted_version()
    done: str
    if action == "add":

        def do(by: str) -> None:
            add_player(group_id, name, by)

        done = gettext("%(name)s is on the roster.", name=name.strip())
    elif action == "rename":

        def do(by: str) -> None:
            rename_player(group_id, player, name, version, by)

        done = gettext("Renamed to %(name)s; their tables are still theirs.", name=name.strip())
    elif action in ("retire", "return"):

        def do(by: str) -> None:
            retire_player(group_id, player, action == "retire", version, by)

        done = (
            gettext("Retired: kept in the group's history, no longer offered for new tables.")
            if action == "retire"
            else gettext("Back on the roster.")
        )
    elif action == "group":
        time_zone = request.form.get("time_zone", "")

        def do(by: str) -> None:
            rename_group(group_id, name, time_zone, version, by)

        done = gettext("The group's name and time zone are saved.")
    else:
        return render_roster(
            load_group(group_id),
            422,
            ("top", gettext("That is not something this page can do.")),
        )
    error = change(group_id, do)
    if error is not None:
        status = 409 if error == changed_text() else 422
        group = load_group(group_id)
        shown = where in ("add", "group") or group.player(where) is not None
        return render_roster(group, status, (where if shown else "top", error), typed)
    flash(done, "info")
    return redirect(url_for("groups.roster", group_id=group_id), 303)


@on_stale("groups.roster_change")
def stale_roster(message: str) -> ResponseReturnValue:
    group_id = str((request.view_args or {}).get("group_id", ""))
    GROUPS.require(group_id, "keeper")
    action = request.form.get("action", "")
    where = request.form.get("player", "") if action in ("rename", "retire", "return") else action
    typed = (where, request.form.get("name", ""))
    return render_roster(load_group(group_id), 400, ("top", message), typed)


# --- a table the group keeps -------------------------------------------------------------------


def render_kept(
    group: Group, table_id: str, status: int = 200, error: str | None = None
) -> tuple[str, int]:
    kept = group.kept(table_id)
    if kept is None:
        abort(404)
    seated = {player_id for player_id in kept.seats.values() if player_id is not None}
    free = [player for player in group.players if player.id not in seated]
    shown = line(group, kept)
    # A guest whose name a free roster player has is most likely them: chosen to begin with.
    by_name = {same_name_key(p.name): p.id for p in free if not p.retired}
    likely = {g: by_name[same_name_key(g)] for g in shown.guests if same_name_key(g) in by_name}
    return (
        render_template(
            "groups/table.html",
            group=group,
            line=shown,
            keeper=GROUPS.keeps(group.id),
            holds=TABLES.held_token(table_id) is not None,
            form=GroupForm(formdata=None),
            error=error,
            free=free,
            likely=likely,
            breaks=breaks_a_rule(table_id),
        ),
        status,
    )


def breaks_a_rule(table_id: str) -> bool:
    """Whether the table holds a breach of its game's rules (then it counts as it was kept)."""
    facts = facts_of(table_id)
    return facts is not None and facts.breaches > 0


def kept_table(group_id: str, table_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    return render_kept(load_group(group_id), table_id)


def kept_change(group_id: str, table_id: str) -> ResponseReturnValue:
    """Mark a table as counting or not, merge a guest into a roster player, or let the group
    keep the table no more (a keeper's: none of them writes to the table itself)."""
    GROUPS.require(group_id, "keeper")
    if stale_form():
        return render_kept(load_group(group_id), table_id, 400, stale_text())
    action = request.form.get("action", "")
    version = posted_version()
    here = url_for("groups.kept_table", group_id=group_id, table_id=table_id)
    if action in ("counts", "not-counts"):
        counts = action == "counts"
        error = change(group_id, lambda by: set_counts(group_id, table_id, counts, version, by))
        done = (
            gettext("The table counts again.")
            if counts
            else gettext("The table stays in the group but counts for nothing.")
        )
    elif action == "merge":
        error, done = merge(group_id, table_id, version)
    elif action == "detach":
        error = change(group_id, lambda by: detach_table(group_id, table_id, version, by))
        if error is None:
            flash(gettext("The group keeps this table no more; the table is as it was."), "info")
            return redirect(url_for("groups.page", group_id=group_id), 303)
        done = ""
    else:
        error, done = gettext("That is not something this page can do."), ""
    if error is not None:
        status = 409 if error == changed_text() else 422
        return render_kept(load_group(group_id), table_id, status, error)
    flash(done, "info")
    return redirect(here, 303)


def merge(group_id: str, table_id: str, version: int | None) -> tuple[str | None, str]:
    """Merge the posted guest seat into the posted roster player, or into a new one of the
    guest's name (``new``)."""
    seat = request.form.get("seat", "")
    player = request.form.get("into", "")
    group = load_group(group_id)
    joined = newcomers(group, table_id)
    others = evening_guest_tables(group, table_id, seat, player, joined)
    if player == "new":
        error = change(
            group_id, lambda by: seat_new_player(group_id, table_id, seat, version, by, joined)
        )
        done = ngettext(
            "%(name)s is on the roster now, with this table and %(num)d more table of that "
            "evening.",
            "%(name)s is on the roster now, with this table and %(num)d more tables of that "
            "evening.",
            others,
            name=seat,
        )
        if not others:
            done = gettext("%(name)s is on the roster now, with this table.", name=seat)
        return error, done
    error = change(
        group_id, lambda by: set_seat(group_id, table_id, seat, player, version, by, joined)
    )
    if not others:
        return error, gettext("The guest's seat is the roster player's now.")
    return error, ngettext(
        "The guest's seat is the roster player's now, here and at %(num)d more table of that "
        "evening.",
        "The guest's seat is the roster player's now, here and at %(num)d more tables of that "
        "evening.",
        others,
    )


def newcomers(group: Group, table_id: str) -> tuple[str, ...]:
    """Who joined the kept table after it began (its glance's players beyond its setup's)."""
    kept, glance = group.kept(table_id), table_glance(table_id)
    if kept is None or glance is None:
        return ()
    return tuple(name for name in glance.players if name not in kept.players)


def evening_guest_tables(
    group: Group, table_id: str, seat: str, player: str, joined: tuple[str, ...]
) -> int:
    """How many other tables of the evening a merge of the guest ``seat`` into ``player`` (a
    roster id, or ``new``) also seats (``Group.merged_guest``); 0 when it would be refused."""
    member = Member("", seat) if player == "new" else group.player(player)
    if member is None:
        return 0
    try:
        return len(group.merged_guest(table_id, seat, member, joined)) - 1
    except GroupRefused:
        return 0


@on_stale("groups.kept_change")
def stale_kept(message: str) -> ResponseReturnValue:
    args = request.view_args or {}
    group_id, table_id = str(args.get("group_id", "")), str(args.get("table_id", ""))
    GROUPS.require(group_id, "keeper")
    return render_kept(load_group(group_id), table_id, 400, message)
