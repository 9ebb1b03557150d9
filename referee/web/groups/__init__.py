"""Groups in the app: the people who play together, their roster, seasons and tables, opened only
through the group's own links (``GROUPS`` in ``referee.web.sharing.access``), with the group page,
its share page, the roster and the tables it keeps (``routes.py``), starting a table from the group
(``start.py``), what the group pages show of each table, kept per table and log position
(``facts.py``), the group's numbers — the statistics document of ``referee.groups`` for a season or
all time (``numbers.py``) — shown as standings, profiles, rating charts (``chart.py``) and the
season report (``standings.py``), and the group's file out and in, and a record added to a group
(``transfer.py``).

The records of a group file and ``python -m referee stats`` are ``referee.groups``'s; these
pages read a group from the store (``referee.store.groups``) and its tables through
``referee.web.loading``.
"""
