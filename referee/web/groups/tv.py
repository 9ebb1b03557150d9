"""TV mode of a group's evening: tonight's tables in large print on a screen across the room."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from math import ceil

from flask import (
    render_template,
    request,
)
from flask.typing import ResponseReturnValue

from referee.groups import (
    Group,
    KeptTable,
)
from referee.web.forms import SEATS
from referee.web.groups.glance import Day, evening, page_at, shown_evenings
from referee.web.groups.group import find_group, load_group
from referee.web.groups.pages import MOST_SHOWN
from referee.web.language import language
from referee.web.live import Followed, group_stream, wants_stream
from referee.web.memo import memo
from referee.web.sharing.access import GROUPS

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


def tv(group_id: str) -> ResponseReturnValue:
    """TV mode of tonight: each of tonight's tables in large print, its players by total and
    who won or leads; dark, without controls, following the group by its stream (read again
    every 15 seconds without a script), fitted to one screen and paged through when more than a
    screen holds (``TV_SCREEN``: the page reads the next screen every 15 seconds). Rendered once
    per group version, screen and its tables' positions, like the group page's tables."""
    GROUPS.require(group_id)
    asked = request.args.get("page", type=int)
    if wants_stream():
        return group_stream(group_id, lambda: tv_now(group_id, asked))
    group = load_group(group_id)
    today, tonight, screen, follow = tv_at(group, asked)
    key = (*("tv", group.id, follow.token), *(language(), request.script_root))

    def render() -> str:
        shown = None if tonight is None else evening(group, (today, screen.tables, 0))
        return render_template(
            "groups/tv.html",
            group=group,
            tonight=shown,
            today=today,
            screen=screen,
            follow=follow,
        )

    return memo("groups", key, render)


def tv_at(group: Group, asked: int | None) -> tuple[date, Day | None, TvScreen, Followed]:
    """Tonight's screen ``asked`` of the group: the day, tonight's tables, the screen and where
    it stands (``page_at``)."""
    today = group.today()
    tonight = shown_evenings(group, today, 0, MOST_SHOWN).tonight
    screen = tv_screen(() if tonight is None else tonight[1], asked)
    return today, tonight, screen, page_at(group, screen.tables, today, screen.number, screen.count)


def tv_now(group_id: str, asked: int | None) -> Followed | None:
    """Where the TV screen ``asked`` stands now (None: the group is gone)."""
    group = find_group(group_id)
    return None if group is None else tv_at(group, asked)[3]
