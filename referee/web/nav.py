"""The navigation bar of a table's pages, rendered once per table, kind of link, language,
address prefix and page (a template global, ``table_nav(record)``)."""

from __future__ import annotations

from flask import render_template, request
from markupsafe import Markup

from referee.store.tables import TableRecord
from referee.web.language import language
from referee.web.sharing.access import keeps_score
from referee.web.speed import speed


def table_nav(record: TableRecord) -> Markup:
    """The navigation bar of the table's pages (``templates/_nav.html``)."""
    here = request.blueprint  # the room of the page: its tab is marked as the current one
    key = (record.id, keeps_score(record.id), language(), request.script_root, here)
    return speed().navs.get_or_make(
        key, lambda: Markup(render_template("_nav.html", record=record, here=here))
    )
