"""The navigation bar of a table's pages (a template global, ``table_nav(record)``), rendered once
per game, kind of link, language, address prefix and page for every table alike: rendered for a
stand-in table id, which each table's own id then replaces. A table's first page used to render
its bar anew, a tenth of the work of its first entry."""

from __future__ import annotations

from flask import render_template, request
from markupsafe import Markup, escape

from referee.paper.layout import has_card
from referee.store.tables import TableRecord
from referee.web.language import language
from referee.web.memo import memo
from referee.web.sharing.access import TABLES

#: The table id the bar is rendered with: no table has it (ids are URL-safe base64), and it
#: reads the same in an address and in HTML.
STAND_IN = "~table~"


def table_nav(record: TableRecord) -> Markup:
    """The navigation bar of the table's pages (``templates/_nav.html``). Its scorekeeper is
    offered the paper card while the table has no entry and its game and size have a card."""
    here = request.blueprint  # the room of the page: its tab is marked as the current one
    keeper = TABLES.keeps(record.id)
    setup = record.setup
    paper = (
        keeper and record.last_seq == 0 and has_card(setup.game, len(setup.players), setup.options)
    )
    key = (setup.game, keeper, paper, language(), request.script_root, here)
    bar = memo(
        "navs",
        key,
        lambda: Markup(
            render_template(
                "_nav.html",
                table_id=STAND_IN,
                game=setup.game,
                keeper=keeper,
                paper=paper,
                here=here,
            )
        ),
    )
    return Markup(bar.replace(STAND_IN, escape(record.id)))
