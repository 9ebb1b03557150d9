"""Who may do what in a group: the group links a browser holds, checked on every request.

A group opens only through one of its links (``referee.store.groups``): a *keeper* link starts
tables, edits the roster, keeps and lets go of tables, starts seasons and marks a table as not
counting; a *viewer* link only looks. As a table's link, opening one keeps its token in the
browser's session (under ``groups``, apart from the tables' ``links``: a table's link never opens
a group, a group's never a table) and sends the browser on to the group, so a group's address
(``/g/<id>``) opens nothing. A change checks in its own statement that the link still keeps the
group (``by``). A shared group link is ``/j#<token>``, like a table's: the same ``/j`` page
opens either (``referee.web.sharing.routes``), and the token reaches no log.
"""

from __future__ import annotations

from flask import abort, g, redirect, session, url_for
from werkzeug.wrappers import Response

from referee.store.groups import GroupAccess, group_access, group_version
from referee.web.i18n import gettext

#: How many groups a browser keeps links of (the session cookie holds them, with its tables').
KEEP = 6

#: How much each kind of group link allows.
RANK = {"viewer": 0, "keeper": 1}


def held_group_token(group_id: str) -> str | None:
    """The token of the group link this browser holds, if any."""
    groups = session.get("groups")
    value = groups.get(group_id) if isinstance(groups, dict) else None
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str):
        return value[0]
    return None


def held_group(group_id: str) -> GroupAccess | None:
    """What this browser's link opens of the group (None: no link, or a revoked one), asked of
    the database once per request."""
    cache = g.setdefault("group_access", {})
    if group_id not in cache:
        token = held_group_token(group_id)
        cache[group_id] = None if token is None else group_access(token, group_id)
    found: GroupAccess | None = cache[group_id]
    return found


def keeps_group(group_id: str) -> bool:
    """Whether this browser holds a keeper link of the group."""
    found = held_group(group_id)
    return found is not None and found.keeps


def require_group(group_id: str, need: str = "viewer") -> GroupAccess:
    """This browser's access to the group, if it is at least ``need``; else a 404 (no such
    group) or a 403 page that says what would let them in."""
    found = held_group(group_id)
    if found is not None and RANK[found.kind] >= RANK[need]:
        return found
    if found is None and group_version(group_id) is None:
        abort(404, description=no_group())
    if found is None and held_group_token(group_id) is not None:
        abort(
            403,
            description=gettext(
                "The link this phone opened the group with has been revoked. Ask someone who "
                "keeps the group for a new one."
            ),
        )
    if found is None:
        abort(
            403,
            description=gettext(
                "This group opens only with one of its links. Ask someone who keeps the group "
                "to show you its link or its QR code."
            ),
        )
    abort(
        403,
        description=gettext(
            "This phone only follows the group: only a keeper's link can change it. Ask "
            "someone who keeps the group for a keeper link."
        ),
    )


def no_group() -> str:
    return gettext(
        "There is no group at this address. If someone shared its link with you, check that "
        "it was copied whole."
    )


def grant_group(token: str, opened: GroupAccess) -> None:
    """Keep ``token`` as this browser's link to the group it opens (a newest few)."""
    groups = session.get("groups")
    groups = dict(groups) if isinstance(groups, dict) else {}
    groups.pop(opened.group_id, None)
    groups[opened.group_id] = [token, opened.kind]
    session["groups"] = dict(list(groups.items())[-KEEP:])
    g.pop("group_access", None)
    if not session.permanent:
        session.permanent = True


def held_groups() -> list[str]:
    """The groups this browser holds a link of, the newest first."""
    groups = session.get("groups")
    return list(reversed(groups)) if isinstance(groups, dict) else []


def open_group_link(token: str) -> Response | None:
    """Keep a group link in this browser's session and send it to the group; None for a token
    that opens no group. A browser holding a keeper link of the group keeps it (a keeper
    scanning the viewer QR code stays a keeper)."""
    found = group_access(token)
    if found is None:
        return None
    mine = held_group(found.group_id)
    if mine is None or RANK[mine.kind] <= RANK[found.kind]:
        grant_group(token, found)
    response = redirect(url_for("groups.page", group_id=found.group_id), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


def shown_group_token(group_id: str) -> str | None:
    """The token of the viewer link this browser made for the group, to show again."""
    shown = session.get("group_shown")
    token = shown.get(group_id) if isinstance(shown, dict) else None
    return token if isinstance(token, str) else None


def keep_shown_group(group_id: str, token: str) -> None:
    """Keep the viewer link this browser made, so the group's share page can show it again."""
    shown = session.get("group_shown")
    shown = dict(shown) if isinstance(shown, dict) else {}
    shown.pop(group_id, None)
    shown[group_id] = token
    session["group_shown"] = dict(list(shown.items())[-KEEP:])


def groups_in_templates() -> dict[str, object]:
    """``keeps_group(group_id)`` for templates."""
    return {"keeps_group": keeps_group}
