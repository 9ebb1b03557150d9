"""Session cookies checked once per process: Flask's signed-cookie sessions, the same cookies on
the wire, with each cookie's signature verified the first time this process sees it.

A phone sends the same cookie with every request of an evening (it changes only when the session
does), and verifying it again each time was a third of Flask's work for a repeat view of the
score sheet (profiled for ``bench/run``: without it, the repeat views fell below their budget).
A cookie is kept with its data and the moment it was signed, so one that has grown older than
the session lifetime since it was checked is refused as Flask would refuse it; every request
gets its own copy of the data, so nothing a view does to its session reaches the next one.

A cookie signed with an older secret key is sent back signed with the newest, as without the
speed layer (``referee.web.sessions``).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession
from itsdangerous import BadSignature

from referee.web.sessions import Sessions
from referee.web.speed.lru import LRU


class CheckedOnce(Sessions):
    """Flask's cookie sessions with a per-process memory of the cookies already verified."""

    def __init__(self, size: int = 4096) -> None:
        #: (secret keys, cookie) → (session data, signed at: seconds since the epoch, signed
        #: with a fallback key)
        self.checked: LRU[tuple[Any, int, bool]] = LRU(size)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        value = request.cookies.get(self.get_cookie_name(app))
        if not app.secret_key:
            return super().open_session(app, request)
        if not value:
            return self.session_class()  # as Flask's, without making a serializer first
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), value)
        found = self.checked.get(key)
        if found is None:
            serializer = self.get_signing_serializer(app)
            assert serializer is not None  # there is a secret key
            try:
                data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            old = self.signed_with_fallback(app, value)
            found = (data, int(signed.timestamp()), old)
            self.checked.put(key, found)
        data, signed, old = found
        if not 0 <= int(time.time()) - signed <= max_age:
            return self.session_class()  # expired since it was checked
        session = self.session_class(copied(data))
        session.modified = old  # signed with a fallback key: send it back signed with the new one
        return session

    def verified(self, app: Flask, value: str) -> Any:
        """The data of the session cookie ``value``, if this process has verified it, it has
        not expired since and it is signed with the newest key (Flask would send it back signed
        anew); else None. Not a copy: to be read only."""
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), value)
        found = self.checked.get(key)
        if found is None:
            return None
        data, signed, old = found
        max_age = int(app.permanent_session_lifetime.total_seconds())
        return data if not old and 0 <= int(time.time()) - signed <= max_age else None


def copied(value: Any) -> Any:
    """A copy of session data that shares nothing a view could change: its dicts and lists are
    new, the rest (strings, numbers, and the other values Flask's session serializer gives back,
    all immutable) is shared. ``copy.deepcopy`` did the same at four times the cost."""
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    if isinstance(value, tuple):
        return tuple(copied(item) for item in value)
    return value
