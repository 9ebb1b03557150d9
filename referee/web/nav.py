"""The navigation bar of a table's pages, rendered once per table, kind of link, language and
address prefix (a template global, ``table_nav(record)``)."""

from __future__ import annotations

from flask import render_template, request
from markupsafe import Markup

from referee.store.tables import TableRecord
from referee.web.language import language
from referee.web.sharing.access import keeps_score
from referee.web.speed import speed


def table_nav(record: TableRecord) -> Markup:
    """The navigation bar of the table's pages (``templates/_nav.html``)."""
    key = (record.id, keeps_score(record.id), language(), request.script_root)
    return speed().navs.get_or_make(
        key, lambda: Markup(render_template("_nav.html", record=record))
    )
