"""The front page: the games, start a table of each, find the tables this browser knows, load a
record (the upload form is this page's; ``referee.web.records`` takes what it posts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask import Blueprint, current_app, render_template, url_for
from flask_babel import get_locale

from referee.rules import GAMES
from referee.store.groups import get_group
from referee.web.forms import UPLOAD_LIMIT, UploadForm
from referee.web.i18n import gettext
from referee.web.loading import table
from referee.web.recent import remembered
from referee.web.sharing.access import GROUPS
from referee.web.words import names_text

bp = Blueprint("home", __name__)


@dataclass(frozen=True)
class GroupSummary:
    """One line of the home page's list of groups."""

    url: str
    name: str
    players: int
    tables: int


def group_summary(group_id: str) -> GroupSummary | None:
    """What the home page shows of a group this browser holds a link of (None: revoked, gone)."""
    group = get_group(group_id) if GROUPS.held(group_id) is not None else None
    if group is None:
        return None
    return GroupSummary(
        url=url_for("groups.page", group_id=group_id),
        name=group.name,
        players=sum(1 for player in group.players if not player.retired),
        tables=len(group.tables),
    )


@dataclass(frozen=True)
class TableSummary:
    """One line of the home page's list of tables."""

    url: str
    record_url: str
    game: str
    players: tuple[str, ...]
    progress: str


def summary(table_id: str) -> TableSummary | None:
    """What the home page shows of a table, or None when it no longer exists."""
    try:
        found = table(table_id)
    except (ValueError, KeyError, TypeError):  # a stored log this version cannot replay
        current_app.logger.exception("table %s cannot be replayed", table_id)
        return None
    if found is None:
        return None
    state = found[1]
    game = state.game
    number = state.round_to_play
    if number is None:
        winners = state.winners()
        progress = (
            gettext("Finished · won by %(names)s", names=names_text(winners))
            if winners
            else gettext("Finished")
        )
    else:
        progress = gettext("Round %(number)d of %(rounds)d", number=number, rounds=game.round_count)
    return TableSummary(
        url=url_for("round.show", table_id=table_id),
        record_url=url_for("records.download", table_id=table_id),
        game=game.title,
        players=state.players,
        progress=progress,
    )


def render_home(
    upload_form: Any = None, upload_errors: Sequence[str] = (), status: int = 200
) -> tuple[str, int]:
    """The home page; after a refused upload, with why by the upload form."""
    tables = [s for s in (summary(t) for t in remembered()) if s is not None]
    return (
        render_template(
            "home/index.html",
            games=list(GAMES.items()),
            games_named=format_list([game.title for game in GAMES.values()], locale=get_locale()),
            tables=tables,
            groups=[s for s in (group_summary(g) for g in GROUPS.held_ids()) if s is not None],
            upload_form=upload_form if upload_form is not None else UploadForm(formdata=None),
            upload_errors=upload_errors,
            upload_limit_mb=UPLOAD_LIMIT // (1024 * 1024),
        ),
        status,
    )


@bp.get("/")
def index() -> tuple[str, int]:
    return render_home()
