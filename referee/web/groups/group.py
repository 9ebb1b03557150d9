"""What every page of a group shares: the group as stored, read once per version; the form every
change posts (its CSRF token and the group's version it was shown at); and a change made as this
browser's keeper link, with what to say when it was not made.

Every page opens only with one of the group's links (``GROUPS``, ``referee.web.sharing.access``):
a viewer link reads, a keeper link changes. A change from a page the group has moved on from
changes nothing and shows the page again as the group is now, with what was typed kept
(``GroupChanged``); what the rules of a group refuse is said beside the form, with what was typed
kept (``GroupRefused``).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    abort,
    request,
)
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import StringField

from referee.groups import DEFAULT_TIME_ZONE, LONGEST_GROUP_NAME, Group, GroupRefused
from referee.store.groups import (
    GroupChanged,
    UnknownGroup,
    get_group,
    group_version,
)
from referee.store.links import NoAccess
from referee.web.groups.words import changed_text, not_kept_text, refusal_text
from referee.web.memo import memo
from referee.web.sharing.access import GROUPS


class GroupForm(FlaskForm):
    """A change to a group: its CSRF token, the version it was shown at and what is posted."""


class ZoneForm(FlaskForm):
    """A form that asks the time zone a group's evenings are dated in."""

    time_zone = StringField(
        lazy_gettext("Time zone"), default=DEFAULT_TIME_ZONE, render_kw={"maxlength": 64}
    )


class NamedGroupForm(ZoneForm):
    """A form that makes a group: its name and time zone (a new group's, or the one a table is
    kept in)."""

    name = StringField(lazy_gettext("Group name"), render_kw={"maxlength": LONGEST_GROUP_NAME})


def load_group(group_id: str) -> Group:
    """The group as stored now, read once per version (``referee.web.memo``); a 404 page for
    an unknown group."""
    group = find_group(group_id)
    if group is None:
        abort(404)
    return group


def find_group(group_id: str) -> Group | None:
    """The group as stored now, read once per version; None: no such group."""
    version = group_version(group_id)
    return None if version is None else memo("groups", ("group", group_id, version), read(group_id))


def read(group_id: str) -> Callable[[], Group | None]:
    return lambda: get_group(group_id)


#: What ``posted_version`` gives for a version that is none: no group is ever at it (versions
#: start at 1), so the change is refused as from a page the group has moved on from.
NO_VERSION = 0


def posted_version() -> int | None:
    """The group's version the posted form was shown at (None: it does not say; ``NO_VERSION``
    for one that is no version: a sign, a digit of another script, too many digits)."""
    text = request.form.get("version")
    if text is None:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else NO_VERSION


def change(group_id: str, do: Callable[[str], object]) -> str | None:
    """Make a change as this browser's keeper link (``do(token)``); None when it was made, or
    what to say: the rules refused it, or the group moved on. A link revoked meanwhile gets the
    403 page; an unknown group the 404."""
    token = GROUPS.held_token(group_id)
    if token is None:  # (GROUPS.require let it in: it holds a link)
        abort(403)
    try:
        do(token)
    except GroupRefused as refusal:
        return refusal_text(refusal)
    except GroupChanged:
        return changed_text()
    except NoAccess:
        abort(403, description=not_kept_text())
    except UnknownGroup:
        abort(404)
    return None


def stale_form() -> bool:
    """Whether the posted form fails its CSRF check (then the page is shown again)."""
    return not GroupForm().validate()
