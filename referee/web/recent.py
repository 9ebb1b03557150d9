"""The tables this browser created or opened, kept in its session cookie for the home page."""

from __future__ import annotations

from flask import session

#: How many tables the home page remembers.
KEEP = 12


def remember(table_id: str) -> None:
    """Put ``table_id`` first in this browser's list of tables.

    The session is made permanent (Flask's 31 days), so the list and the CSRF token tied to it
    outlive a phone closing its browser in the middle of a card evening.
    """
    ids = [t for t in session.get("tables", []) if isinstance(t, str) and t != table_id]
    if session.get("tables") != [table_id, *ids][:KEEP]:
        session["tables"] = [table_id, *ids][:KEEP]
    if not session.permanent:  # setting it marks the session changed: a new cookie each time
        session.permanent = True


def remembered() -> list[str]:
    """Table ids this browser created or opened, most recent first."""
    return [t for t in session.get("tables", []) if isinstance(t, str)][:KEEP]
