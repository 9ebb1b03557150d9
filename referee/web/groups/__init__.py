"""Groups in the app: the people who play together, their roster, seasons and tables, opened only
through the group's own links (``GROUPS`` in ``referee.web.sharing.access``).

Its views are in files by job, each a set of plain view functions, and ``blueprint`` makes the
``groups`` blueprint of them all (``create_app`` registers it, ``referee.web.blueprints``):

- ``pages.py``: the group page (tonight's tables, earlier evenings, seasons), every evening, the
  share page with the group's links (and ``flask group-link``);
- ``tv.py``: TV mode of tonight;
- ``edits.py``: a keeper's edits: a new season, the roster, a table the group keeps;
- ``new.py``: a new group; ``start.py``: a table started from the group; ``keep.py``: a table
  kept in a group;
- ``standings.py``: the group's numbers — the statistics document of ``referee.groups`` for a
  season or all time (``numbers.py``) — shown as standings (and as .xlsx), profiles, rating
  charts, stats.json and the season report;
- ``transfer.py``: the group's file out and in (loaded by ``import_job.py``, a process of its
  own), and a record added to a group;
- ``paper.py``: "add a paper game", a photographed blank readable card made a table of the
  group.

``group.py`` is what they share: the group loaded once per version, the form every change posts,
a change made as the keeper link. What the group pages show of each table is kept per table and
log position (``glance.py``). The records of a group file and ``python -m referee stats`` are
``referee.groups``'s; these pages read a group from the store (``referee.store.groups``) and its
tables through ``referee.web.loading``.
"""

from __future__ import annotations

from flask import Blueprint


def blueprint() -> Blueprint:
    """The ``groups`` blueprint: every page of a group, each at its address and named by its
    view function (``groups.page``, ``groups.roster``, …), and ``flask group-link``."""
    from referee.web.groups import (
        edits,
        keep,
        new,
        pages,
        paper,
        standings,
        start,
        transfer,
        tv,
    )

    bp = Blueprint("groups", __name__, cli_group=None)
    for rule, view, methods in (
        ("/g/<group_id>", pages.page, ["GET"]),
        ("/g/<group_id>/evenings", pages.all_evenings, ["GET"]),
        ("/g/<group_id>/share", pages.share, ["GET"]),
        ("/g/<group_id>/share", pages.share_change, ["POST"]),
        ("/g/<group_id>/my-link", pages.my_link, ["GET"]),
        ("/g/<group_id>/tv", tv.tv, ["GET"]),
        ("/groups/new", new.new, ["GET", "POST"]),
        ("/g/<group_id>/seasons", edits.seasons, ["POST"]),
        ("/g/<group_id>/ended-early", edits.ended_early, ["POST"]),
        ("/g/<group_id>/roster", edits.roster, ["GET"]),
        ("/g/<group_id>/roster", edits.roster_change, ["POST"]),
        ("/g/<group_id>/t/<table_id>", edits.kept_table, ["GET"]),
        ("/g/<group_id>/t/<table_id>", edits.kept_change, ["POST"]),
        ("/g/<group_id>/new", start.start_page, ["GET", "POST"]),
        ("/t/<table_id>/group", keep.keep_page, ["GET"]),
        ("/t/<table_id>/group", keep.keep, ["POST"]),
        ("/g/<group_id>/standings", standings.standings_page, ["GET"]),
        ("/g/<group_id>/standings.xlsx", standings.standings_xlsx, ["GET"]),
        ("/g/<group_id>/stats.json", standings.stats_json, ["GET"]),
        ("/g/<group_id>/p/<player_id>", standings.profile, ["GET"]),
        ("/g/<group_id>/report.pdf", standings.report_pdf, ["GET"]),
        ("/g/<group_id>/group.json", transfer.export, ["GET"]),
        ("/groups/import", transfer.import_page, ["GET"]),
        ("/groups/import", transfer.import_file, ["POST"]),
        ("/groups/import/<job_id>", transfer.import_status, ["GET"]),
        ("/g/<group_id>/add-record", transfer.add_record_page, ["GET"]),
        ("/g/<group_id>/add-record", transfer.add_record_post, ["POST"]),
        ("/g/<group_id>/paper", paper.paper_page, ["GET"]),
        ("/g/<group_id>/paper", paper.paper_upload, ["POST"]),
        ("/g/<group_id>/paper/confirm", paper.paper_confirm, ["POST"]),
    ):
        bp.add_url_rule(rule, view_func=view, methods=methods)
    bp.cli.add_command(pages.group_link_command)
    return bp
