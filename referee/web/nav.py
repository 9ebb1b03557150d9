"""The navigation bar of a table's pages, rendered once per table, kind of link, language and
address prefix (a template global, ``table_nav(record)``)."""

from __future__ import annotations

from flask import render_template, request
from flask_babel import get_locale
from markupsafe import Markup

from referee.store.tables import TableRecord
from referee.web.sharing.access import keeps_score
from referee.web.speed.kept import LRU

#: Each table's navigation bar, rendered once per table, kind of holder, language and address
#: prefix: eight links whose addresses and words never change, a tenth of the round screen's
#: rendering when it was rendered with every page.
_navs: LRU[Markup] = LRU(1024)


def table_nav(record: TableRecord) -> Markup:
    """The navigation bar of the table's pages (``templates/_nav.html``)."""
    key = (record.id, keeps_score(record.id), str(get_locale()), request.script_root)
    return _navs.get_or_make(key, lambda: Markup(render_template("_nav.html", record=record)))
