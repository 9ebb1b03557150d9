"""The score sheet: its page, TV mode, and its PDF and spreadsheet (CSV and ``.xlsx``) downloads.

The page and TV mode are rendered once per change of the table and kind of viewer, then served
from memory with an ETag; the PDF is made by ``referee.sheets`` from the replayed state, with the
corrections of the log as footnotes, and kept per change and paper. The spreadsheets
(``exports.py``) are made on each download. A finished game's pages link to BG Stats through
``/t/<id>/bgstats``, which sends the browser on to the play's own (long) BG Stats link.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from referee.rules import State
from referee.sheets import table_sheet
from referee.store.tables import TableRecord
from referee.web.chart import score_chart
from referee.web.downloads import XLSX, attachment, page_from, safe_file_name
from referee.web.evening.story import evening
from referee.web.i18n import translations
from referee.web.language import language
from referee.web.live import follow
from referee.web.loading import load, load_since
from referee.web.memo import memo
from referee.web.pages import kind_of_viewer, shared_page
from referee.web.round.screen import (
    describe_step,
    round_header,
)
from referee.web.screens import ScreensGame, SheetRow, screens
from referee.web.sealed import shown_early
from referee.web.sharing.access import TABLES
from referee.web.sheet.exports import (
    bgstats_link,
    finished_play,
    separator,
    sheet_csv,
    sheet_xlsx,
)
from referee.web.sheet.footnotes import sheet_info
from referee.web.sheet.rows import sheet as sheet_rows
from referee.web.sheet.rows import short_names
from referee.web.standings import leaders
from referee.web.words import coming_changes, ended_text, notes

bp = Blueprint("sheet", __name__, url_prefix="/t")


def tv_board(state: State, rows: list[SheetRow], part: ScreensGame) -> dict[str, Any]:
    """What TV mode shows above its sheet (the page has none of it): the standings, the round
    being played (its header, the bids so far, what comes next) or the last round's summary, and
    the score chart."""
    upcoming = state.game.upcoming(state)
    story = evening(state, rows)
    return {
        "story": story,
        "chart": score_chart(story.rows, state.players) if story.rows else None,
        "bids": None if upcoming is None else part.bids(state, upcoming),
        "header": None if upcoming is None else round_header(state, upcoming),
        "what_next": describe_step(state.next_step(), state.setup.game),
    }


def sheet_html(record: TableRecord, state: State, template: str, cached: bool = True) -> str:
    """The score sheet (``template``: the page or TV mode) of ``record`` at ``state``;
    ``cached``: for every viewer of its kind alike (no one's flashed messages)."""
    totals = state.totals()
    rows = sheet_rows(state)
    part = screens(state.setup.game)
    return render_template(
        f"sheet/{template}.html",
        record=record,
        state=state,
        part=part,
        rows=rows,
        names=short_names(state.players),
        totals=totals,
        leaders=leaders(totals),
        winners=state.winners(),
        ended=ended_text(state),
        coming=coming_changes(state),
        title=state.game.title,
        notes=notes(state),
        shown_early=shown_early(record.setup, record.entries),
        bgstats=finished_play(record, state),
        cached=cached,
        **(tv_board(state, rows, part) if template == "tv" else {}),
    )


def cached_sheet(table_id: str, template: str) -> Response:
    """The score sheet (``template``: the page or TV mode), rendered once per change of the
    table, kind of viewer (a scorekeeper's page has more links) and language (``shared_page``)."""

    def render(at: int) -> str:
        return sheet_html(*load_since(table_id, at), template)

    return shared_page(template, table_id, render, kind_of_viewer(table_id))


@bp.get("/<table_id>/sheet")
def page(table_id: str) -> Response:
    """The score sheet. Right after a correction, which comes back here at its round, the page
    is this phone's own, once: it says what was corrected (a flashed message)."""
    TABLES.require(table_id)
    if (same := follow(table_id, shared=not session.get("_flashes"))) is not None:
        return same  # its stream, or its poll: nothing new
    if session.get("_flashes"):
        return Response(sheet_html(*load(table_id), "page", cached=False), mimetype="text/html")
    return cached_sheet(table_id, "page")


@bp.get("/<table_id>/tv")
def tv(table_id: str) -> Response:
    """TV mode: the score sheet in large print for a shared screen, dark, without controls."""
    TABLES.require(table_id)
    if (same := follow(table_id, shared=True)) is not None:  # its poll: nothing new
        return same
    return cached_sheet(table_id, "tv")


def sheet_file(record: TableRecord, ending: str) -> str:
    """The name of a download of the table's sheet: its game, the day it began, its id's start
    and ``ending`` (``sheet.pdf`` …)."""
    day = record.created_at.strftime("%Y-%m-%d")
    return safe_file_name(record.setup.game, day, record.id[:8], ending)


@bp.get("/<table_id>/sheet.pdf")
def pdf(table_id: str) -> ResponseReturnValue:
    """The table's score sheet as a PDF download (``?paper=letter&orientation=landscape``)."""
    TABLES.require(table_id)
    record, state = load(table_id)
    page = page_from(request.args)
    body = memo(
        "pdfs",
        (table_id, record.last_seq, page, language()),
        lambda: table_sheet(state, sheet_info(record), page, words=translations()),
    )
    return attachment(body, "application/pdf", sheet_file(record, "sheet.pdf"))


@bp.get("/<table_id>/sheet.csv")
def spreadsheet(table_id: str) -> ResponseReturnValue:
    """The table's score sheet as a spreadsheet (CSV) download."""
    TABLES.require(table_id)
    record, state = load(table_id)
    return attachment(sheet_csv(state, separator()), "text/csv", sheet_file(record, "sheet.csv"))


@bp.get("/<table_id>/sheet.xlsx")
def workbook(table_id: str) -> ResponseReturnValue:
    """The table's score sheet as a spreadsheet (``.xlsx``) download: the CSV's rows."""
    TABLES.require(table_id)
    record, state = load(table_id)
    return attachment(sheet_xlsx(state), XLSX, sheet_file(record, "sheet.xlsx"))


@bp.get("/<table_id>/bgstats")
def bgstats(table_id: str) -> ResponseReturnValue:
    """A finished game's play, sent on to BG Stats (its ``createPlay`` link); 404 while the game
    goes on."""
    TABLES.require(table_id)
    record, state = load(table_id)
    link = bgstats_link(record, state)
    if link is None:
        abort(404)
    return redirect(link, 303)
