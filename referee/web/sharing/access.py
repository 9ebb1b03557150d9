"""Who may do what at a table: the links a browser holds, checked on every request.

A table opens only through one of its links (``referee.store.links``): a *keeper* link records
and corrects, a *viewer* link only looks, a *player* link looks and lets one player seal their
own secret bid. Opening a link keeps its token, with what it opens, in the browser's session (a
signed cookie) under the table's id and sends the browser on to the table, so the table's own
addresses carry no power: ``/t/<id>`` in a Referer, a log or over someone's shoulder opens
nothing. Every view of a table calls ``require``; a write needs the keeper link *and* the form's
CSRF token, and checks in its own statement that the link still opens the table.

How a shared link is opened (``/j#<token>``) is the sharing pages' (``referee.web.sharing.routes``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, NoReturn

from flask import (
    abort,
    current_app,
    g,
    request,
    session,
)

from referee.store.links import Access, NoAccess, make_link
from referee.store.models import utcnow
from referee.store.tables import (
    LogEntry,
    add_entry,
    created_since,
    current_seq,
)
from referee.web.i18n import gettext
from referee.web.loading import tables
from referee.web.polls import poll_key
from referee.web.recent import KEEP, remember

#: How much each kind of link allows, for "is this link at least that".
RANK = {"viewer": 0, "player": 1, "keeper": 2}


def held_link(table_id: str) -> tuple[str, Access | None] | None:
    """The link this browser holds for the table: its token, and what it opened when the
    browser opened it (``grant``; None in a session from before sessions said so)."""
    links = session.get("links")
    value = links.get(table_id) if isinstance(links, dict) else None
    if isinstance(value, str):
        return value, None
    if (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and value[1] in RANK
        and (value[2] is None or isinstance(value[2], str))
    ):
        return value[0], Access(table_id, value[1], value[2])
    return None


def held_token(table_id: str) -> str | None:
    """The token of the link this browser holds for the table, if any."""
    found = held_link(table_id)
    return None if found is None else found[0]


def held(table_id: str, fresh: bool = False, writes: bool = False) -> Access | None:
    """What this browser's link opens at the table (None: no link, or a revoked one), looked up
    once per request: from what the app's tables know of its links (``referee.web.loading``:
    kept ones forget a link revoked in another process within a sweep) unless ``fresh``, which
    asks the database. ``writes``: the request writes with the link (``write``), and the write
    checks that the link still opens the table; so, unless the app knows the link, what the
    session says the link opened is enough to decide what it may write (a link's kind and
    player never change, and the session is signed), without reading the link first."""
    cache = g.setdefault("access", {})
    if table_id not in cache or (fresh and not cache[table_id][1]):
        link = held_link(table_id)
        if link is None:
            cache[table_id] = (None, fresh)
        else:
            token, opened = link
            cache[table_id] = (lookup(token, table_id, fresh, opened if writes else None), fresh)
    found: Access | None = cache[table_id][0]
    return found


def lookup(token: str, table_id: str, fresh: bool, opened: Access | None = None) -> Access | None:
    """The link's access to the table (see ``held``); ``opened``, when given, stands in for a
    read of a link the app does not know yet."""
    return tables().link(token, table_id, fresh, opened)


def forget_links(table_id: str) -> None:
    """Forget the table's links this process knows (after revoking some)."""
    tables().forget_links(table_id)


def require(table_id: str, need: str = "viewer", write_checks_link: bool = False) -> Access:
    """This browser's access to the table, if it is at least ``need``; else a 404 (no such
    table) or a 403 page that says what would let them in.

    A read trusts the links this process keeps; any other request asks the database, unless
    ``write_checks_link``: its write checks the link itself, in the statement that writes
    (``write``)."""
    found = held(
        table_id, fresh=request.method != "GET" and not write_checks_link, writes=write_checks_link
    )
    if found is not None and RANK[found.kind] >= RANK[need]:
        return found
    if found is None and current_seq(table_id) is None:
        abort(404)
    if found is None and held_token(table_id) is not None:
        refuse_revoked()
    if found is None:
        abort(
            403,
            description=gettext(
                "This table opens only with one of its links. Ask the scorekeeper to show you "
                "the spectator link or its QR code."
            ),
        )
    abort(
        403,
        description=gettext(
            "Only the scorekeeper's phone can change this table; this phone follows it. "
            "To keep score, open the scorekeeper link."
        ),
    )


def refuse_revoked() -> NoReturn:
    """The 403 page for a browser whose link to the table has been revoked."""
    abort(
        403,
        description=gettext(
            "The link this phone opened the table with has been revoked. Ask the "
            "scorekeeper for a new one."
        ),
    )


def write(table_id: str, expected_seq: int, kind: str, payload: Mapping[str, Any]) -> LogEntry:
    """Append to the table's log (``add_entry``) with this browser's link, which the write
    checks itself: a link revoked since it was looked up writes nothing and gets the 403 page.
    ``StaleTable`` as ``add_entry``."""
    try:
        return add_entry(table_id, expected_seq, kind, payload, link=held_token(table_id))
    except NoAccess:
        forget_links(table_id)
        refuse_revoked()


def keeps_score(table_id: str) -> bool:
    """Whether this browser holds the table's scorekeeper link."""
    found = held(table_id)
    return found is not None and found.keeps_score


def links_in_templates() -> dict[str, object]:
    """``keeps_score(table_id)`` and ``held(table_id)`` for templates (controls only a
    scorekeeper may use are left out of everybody else's pages), and ``poll_key``."""
    return {"keeps_score": keeps_score, "held": held, "poll_key": poll_key}


def grant(token: str, opened: Access) -> None:
    """Keep ``token`` as this browser's link to the table it opens, with what it opens
    (``held_link``), and the table on the browser's home page."""
    table_id = opened.table_id
    links = session.get("links")
    links = dict(links) if isinstance(links, dict) else {}
    links.pop(table_id, None)
    links[table_id] = [token, opened.kind, opened.player]
    session["links"] = dict(list(links.items())[-2 * KEEP :])  # the newest few
    g.pop("access", None)
    remember(table_id)


def shown_token(table_id: str, kind: str) -> str | None:
    """The token of a ``kind`` link this browser made for the table, to show again."""
    shown = session.get("shown")
    tokens = shown.get(table_id) if isinstance(shown, dict) else None
    token = tokens.get(kind) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else None


def keep_shown(table_id: str, kind: str, token: str) -> None:
    """Keep a link this browser made, so its share page can show it again."""
    shown = session.get("shown")
    shown = dict(shown) if isinstance(shown, dict) else {}
    tokens = shown.pop(table_id, None)
    tokens = dict(tokens) if isinstance(tokens, dict) else {}
    tokens[kind] = token
    shown[table_id] = tokens
    session["shown"] = dict(list(shown.items())[-2 * KEEP :])


def creator() -> str:
    """Who is creating a table, for the rate limit: a keyed hash of the network address (the
    address itself is never stored)."""
    address = (request.remote_addr or "").encode()
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, address, hashlib.sha256).hexdigest()[:32]


def may_create() -> bool:
    """Whether this address may create another table now: at most ``TABLE_LIMIT`` tables in
    ``TABLE_LIMIT_SECONDS`` (config), plenty for a club evening behind one address, too few to
    fill the database from a script. The early, friendly check (the form is shown again with
    everything typed); ``create_table`` enforces the limit exactly, and a creation that loses a
    race for the last place gets the page of ``refuse_creation``."""
    limit = int(current_app.config["TABLE_LIMIT"])
    window = timedelta(seconds=int(current_app.config["TABLE_LIMIT_SECONDS"]))
    return created_since(creator(), utcnow() - window) < limit


def too_many_tables() -> str:
    """What a refused creation says."""
    return gettext(
        "Too many new tables from this network in a short time. Wait a few minutes and try "
        "again; nothing you entered is lost."
    )


def open_new_table(table_id: str) -> None:
    """Make the new table's scorekeeper link (this browser's) and a spectator link to share."""
    keeper = make_link(table_id, "keeper", commit=False)
    viewer = make_link(table_id, "viewer")
    grant(keeper, Access(table_id, "keeper", None))
    keep_shown(table_id, "viewer", viewer)
