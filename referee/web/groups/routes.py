"""The group's pages: a new group, the group page (tonight's tables, earlier evenings, the roster,
seasons), the roster, a table the group keeps, and the share page with the group's links.

Every page opens only with one of the group's links (``GROUPS``, ``referee.web.sharing.access``); a
viewer link reads, a keeper link changes. Every form carries its CSRF token and the group's version
it was shown at; a change from a page the group has moved on from changes nothing and shows the page
again as the group is now, with what was typed kept (``GroupChanged``); what the rules of a group
refuse is said beside the form, with what was typed kept (``GroupRefused``).

The group page renders its tables part once per group version, table positions, language, kind
of link and the tables this browser holds links of (``referee.web.memo``); what it shows of
each table is kept by table and log position (``glance.py``). It never grants a table: a table
is linked only for a browser that holds that table's own link, and anyone else sees its
standings there and nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from math import ceil
from typing import Any

import click
from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_date, lazy_gettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import StringField, TextAreaField

from referee.groups import (
    DEFAULT_TIME_ZONE,
    LONGEST_GROUP_NAME,
    LONGEST_ROSTER,
    Group,
    GroupRefused,
    KeptTable,
)
from referee.rules import GAMES
from referee.rules.names import LONGEST_NAME
from referee.store.groups import (
    GroupAccess,
    GroupChanged,
    TooManyGroups,
    UnknownGroup,
    add_player,
    add_season,
    create_group,
    detach_table,
    get_group,
    group_access,
    group_version,
    make_group_link,
    may_create_group,
    rename_group,
    rename_player,
    retire_player,
    revoke_group_links,
    seat_new_player,
    set_counts,
    set_seat,
)
from referee.store.links import NoAccess
from referee.web.errors import on_stale
from referee.web.forms import SEATS
from referee.web.groups.glance import evening, line, positions, shown_evenings
from referee.web.groups.numbers import facts_of
from referee.web.groups.words import changed_text, not_kept_text, refusal_text
from referee.web.i18n import gettext, ngettext
from referee.web.language import language
from referee.web.memo import memo
from referee.web.sharing.access import GROUPS, TABLES, creator
from referee.web.sharing.routes import link_page, link_url, shown_link

bp = Blueprint("groups", __name__, cli_group=None)

#: Earlier evenings the group page shows; the rest are on the evenings page.
EARLIER = 8
#: Tables of one evening the group page and TV mode show, the last played; the evenings page
#: shows them all. A real evening has a few; a loaded file of records without dates, thousands.
MOST_SHOWN = 12


class GroupForm(FlaskForm):
    """A change to a group: its CSRF token, the version it was shown at and what is posted."""


class NewGroupForm(FlaskForm):
    name = StringField(lazy_gettext("Group name"), render_kw={"maxlength": LONGEST_GROUP_NAME})
    players = TextAreaField(
        lazy_gettext("Players, one name per line"),
        render_kw={"maxlength": (LONGEST_NAME + 2) * LONGEST_ROSTER, "rows": 7},
    )
    time_zone = StringField(
        lazy_gettext("Time zone"), default=DEFAULT_TIME_ZONE, render_kw={"maxlength": 64}
    )


def load_group(group_id: str) -> Group:
    """The group as stored now, read once per version (``referee.web.memo``); a 404 page for
    an unknown group."""
    version = group_version(group_id)
    key = ("group", group_id, version)
    group = None if version is None else memo("groups", key, read(group_id))
    if group is None:
        abort(404)
    return group


def read(group_id: str) -> Callable[[], Group | None]:
    return lambda: get_group(group_id)


#: What ``posted_version`` gives for a version that is none: no group is ever at it (versions
#: start at 1), so the change is refused as from a page the group has moved on from.
NO_VERSION = 0


def posted_version() -> int | None:
    """The group's version the posted form was shown at (None: it does not say; ``NO_VERSION``
    for one that is no version: a sign, a digit of another script, too many digits)."""
    text = request.form.get("version")
    if text is None:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else NO_VERSION


def change(group_id: str, do: Callable[[str], object]) -> str | None:
    """Make a change as this browser's keeper link (``do(token)``); None when it was made, or
    what to say: the rules refused it, or the group moved on. A link revoked meanwhile gets the
    403 page; an unknown group the 404."""
    token = GROUPS.held_token(group_id)
    if token is None:  # (GROUPS.require let it in: it holds a link)
        abort(403)
    try:
        do(token)
    except GroupRefused as refusal:
        return refusal_text(refusal)
    except GroupChanged:
        return changed_text()
    except NoAccess:
        abort(403, description=not_kept_text())
    except UnknownGroup:
        abort(404)
    return None


def stale_form() -> bool:
    """Whether the posted form fails its CSRF check (then the page is shown again)."""
    return not GroupForm().validate()


# --- a new group -------------------------------------------------------------------------------


def names_in(text: str) -> list[str]:
    """The names of a "one per line" field, trimmed, blank lines left out."""
    return [name.strip() for name in text.splitlines() if name.strip()]


def render_new(form: NewGroupForm, status: int = 200, error: str | None = None) -> tuple[str, int]:
    return render_template("groups/new.html", form=form, error=error), status


@bp.route("/groups/new", methods=["GET", "POST"])
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
    return redirect(url_for("groups.page", group_id=group_id), 303)


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
        *("evenings", group.id, group.version, positions(group, tables), language(), keeper),
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
        **shown,
    )
    return page, status


@bp.get("/g/<group_id>")
def page(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    return render_page(load_group(group_id))


#: How TV mode fits tonight's tables on one 16:9 screen (1280×720 and larger), in print that
#: people across a room can read: at most six tables to a screen, three across and two down,
#: while no table tonight seats more than ``TV_TALL`` players; with a larger table, three to a
#: screen in one row. The type is as large as the tallest table on the screen lets it be
#: (``static/style.css``, "TV mode of a group's evening"): at 1280×720 a name is never smaller
#: than 24 px, the rest 21 px. More tables than a screen holds are paged through, the next
#: screen at each of the page's reloads (every 15 seconds), so the TV still needs no script.
TV_SCREEN = 6
TV_ROW = 3
TV_TALL = 6


@dataclass(frozen=True)
class TvScreen:
    """One screen of TV mode: its tables, which screen it is (from 1) of how many, and how its
    tables are laid out: columns, rows, and the most players at one of them (the type's size
    follows from the rows and the players)."""

    tables: tuple[KeptTable, ...]
    number: int
    count: int
    columns: int
    rows: int
    players: int

    @property
    def next(self) -> int | None:
        """The screen the page's next reload shows (None: there is only this one)."""
        return None if self.count == 1 else self.number % self.count + 1


def tv_screen(tables: Sequence[KeptTable], asked: int | None) -> TvScreen:
    """The screen ``asked`` (from 1; any number is taken round the screens there are, so a
    reload after a table left the evening still shows one) of ``tables`` shared out evenly."""
    largest = max((len(kept.players) for kept in tables), default=0)
    most = TV_SCREEN if largest <= TV_TALL else TV_ROW
    count = max(1, ceil(len(tables) / most))
    each = ceil(len(tables) / count) if tables else 0
    number = ((1 if asked is None else asked) - 1) % count + 1
    shown = tuple(tables[(number - 1) * each : number * each])
    columns = max(1, len(shown) if len(shown) <= TV_ROW else ceil(len(shown) / 2))
    return TvScreen(
        shown,
        number,
        count,
        columns,
        max(1, ceil(len(shown) / columns)),
        min(SEATS, max((len(kept.players) for kept in shown), default=1)),
    )


@bp.get("/g/<group_id>/tv")
def tv(group_id: str) -> ResponseReturnValue:
    """TV mode of tonight: each of tonight's tables in large print, its players by total and
    who won or leads; dark, without controls, read again every 15 seconds (no script needed),
    fitted to one screen and paged through when more than a screen holds (``TV_SCREEN``).
    Rendered once per group version, screen and its tables' positions, like the group page's
    tables."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    today = group.today()
    tonight = shown_evenings(group, today, 0, MOST_SHOWN).tonight
    screen = tv_screen(() if tonight is None else tonight[1], request.args.get("page", type=int))
    key = (
        *("tv", group.id, group.version, screen.number, positions(group, screen.tables)),
        *(language(), today),
    )

    def render() -> str:
        shown = None if tonight is None else evening(group, (today, screen.tables, 0))
        return render_template(
            "groups/tv.html", group=group, tonight=shown, today=today, screen=screen
        )

    return memo("groups", (*key, request.script_root), render)


@bp.get("/g/<group_id>/evenings")
def all_evenings(group_id: str) -> ResponseReturnValue:
    """Every evening of the group."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    return render_template(
        "groups/evenings.html", group=group, tables=tables_part(group, GROUPS.keeps(group_id), None)
    )


# --- seasons -----------------------------------------------------------------------------------


def parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if len(text) <= 10 else None
    except ValueError:
        return None


@bp.post("/g/<group_id>/seasons")
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


@bp.get("/g/<group_id>/roster")
def roster(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    return render_roster(load_group(group_id))


@bp.post("/g/<group_id>/roster")
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
    return (
        render_template(
            "groups/table.html",
            group=group,
            line=line(group, kept),
            keeper=GROUPS.keeps(group.id),
            holds=TABLES.held_token(table_id) is not None,
            form=GroupForm(formdata=None),
            error=error,
            free=[player for player in group.players if player.id not in seated],
            breaks=breaks_a_rule(table_id),
        ),
        status,
    )


def breaks_a_rule(table_id: str) -> bool:
    """Whether the table holds a breach of its game's rules (then it counts as it was kept)."""
    facts = facts_of(table_id)
    return facts is not None and facts.breaches > 0


@bp.get("/g/<group_id>/t/<table_id>")
def kept_table(group_id: str, table_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id)
    return render_kept(load_group(group_id), table_id)


@bp.post("/g/<group_id>/t/<table_id>")
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
    if player == "new":
        error = change(group_id, lambda by: seat_new_player(group_id, table_id, seat, version, by))
        return error, gettext("%(name)s is on the roster now, with this table.", name=seat)
    error = change(group_id, lambda by: set_seat(group_id, table_id, seat, player, version, by))
    return error, gettext("The guest's seat is the roster player's now.")


@on_stale("groups.kept_change")
def stale_kept(message: str) -> ResponseReturnValue:
    args = request.view_args or {}
    group_id, table_id = str(args.get("group_id", "")), str(args.get("table_id", ""))
    GROUPS.require(group_id, "keeper")
    return render_kept(load_group(group_id), table_id, 400, message)


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


@bp.get("/g/<group_id>/share")
def share(group_id: str) -> ResponseReturnValue:
    GROUPS.require(group_id, "keeper")
    return render_share(load_group(group_id))


@bp.post("/g/<group_id>/share")
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


@bp.cli.command("group-link")
@click.argument("group_id")
@click.option("--kind", type=click.Choice(["keeper", "viewer"]), default="keeper")
def group_link_command(group_id: str, kind: str) -> None:
    """Print a new link to GROUP_ID (for a group whose keepers lost every link). An id that
    starts with "-" goes after "--": group-link -- -AbC…"""
    if group_version(group_id) is None:
        raise click.ClickException(f"there is no group {group_id!r}")
    click.echo(link_url(make_group_link(group_id, kind)))
