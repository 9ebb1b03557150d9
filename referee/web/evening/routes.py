"""The standings page (``/t/<id>/standings``): who is where, the bids made, and the score chart.

Rendered once per change of the table and kind of viewer, then served from memory with an
ETag, as the score sheet is.
"""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.wrappers import Response

from referee.web.chart import score_chart
from referee.web.evening.story import evening
from referee.web.live import follow
from referee.web.loading import load_since
from referee.web.pages import kind_of_viewer, shared_page
from referee.web.sharing.access import TABLES

bp = Blueprint("evening", __name__, url_prefix="/t")


@bp.get("/<table_id>/standings")
def standings(table_id: str) -> Response:
    """The standings and the score chart."""
    TABLES.require(table_id)
    if (same := follow(table_id, shared=True)) is not None:  # its poll: nothing new
        return same

    def render(at: int) -> str:
        record, state = load_since(table_id, at)
        story = evening(state)
        return render_template(
            "evening/standings.html",
            record=record,
            story=story,
            chart=score_chart(story.rows, state.players) if story.rows else None,
            title=state.game.title,
            cached=True,
        )

    return shared_page("standings", table_id, render, kind_of_viewer(table_id))
