"""What the group pages say when the rules of a group refuse something (``GroupRefused``), a
page that the group moved on from, and a change made by a link that no longer keeps the group."""

from __future__ import annotations

from referee.groups import GroupRefused
from referee.rules.names import quote
from referee.web.i18n import gettext
from referee.web.words import hidden_name_text


def refusal_text(refusal: GroupRefused) -> str:
    """The refusal as a sentence in the reader's language (a name quoted at most in part)."""
    params = refusal.params
    name = quote(str(params.get("name", "")))
    kind = params.get("kind")
    code = refusal.code
    if code == "name-empty":
        if kind == "group":
            return gettext("The group needs a name.")
        if kind == "season":
            return gettext("The season needs a name.")
        return gettext("A player needs a name.")
    if code == "name-long":
        return gettext(
            "“%(name)s” is too long: at most %(n)d characters.", name=name, n=params["longest"]
        )
    if code == "name-hidden":
        return hidden_name_text(str(params.get("name", "")))
    if code == "name-taken":
        if kind == "season":
            return gettext("There is a season called “%(name)s” already.", name=name)
        return gettext(
            "There is a player called “%(name)s” on the roster already. Give one of them "
            "another name (a surname's initial, say).",
            name=name,
        )
    if code == "time-zone":
        return gettext(
            "“%(name)s” is not a time zone. Use a name like Europe/Berlin or America/New_York.",
            name=name,
        )
    if code == "roster-full":
        return gettext("A roster holds at most %(n)d players.", n=params["longest"])
    if code == "seasons-full":
        return gettext("A group holds at most %(n)d seasons.", n=params["longest"])
    if code == "season-date-taken":
        return gettext("Another season starts on that day already.")
    if code == "unknown-player":
        return gettext("That player is not on the roster (any more). Reload the page.")
    if code == "same-id-twice":
        return gettext(
            "%(name)s and %(other)s cannot both be %(player)s: one person has one seat.",
            name=quote(str(params["name"])),
            other=quote(str(params["other"])),
            player=quote(str(params["player"])),
        )
    if code == "seats":
        return gettext("The seats do not match the table's players. Reload the page.")
    if code == "not-a-guest":
        return gettext("%(name)s is not a guest at this table (any more).", name=name)
    if code == "table-kept":
        return gettext("A group keeps this table already.")
    if code == "not-kept":
        return gettext("The group does not keep this table (any more).")
    return gettext("There is no such table.")


def changed_text() -> str:
    """A change from a page the group has moved on from."""
    return gettext(
        "The group was changed on another phone since this page was opened, so nothing was "
        "changed. Here it is as it is now; please try again."
    )


def not_kept_text() -> str:
    """A change by a link revoked since this phone opened it."""
    return gettext(
        "The link this phone opened the group with no longer keeps it, so nothing was changed."
    )
