"""Session cookies: Flask's signed cookies, moved to the newest secret key.

After a rotation of the secret key, a cookie signed with one of the ``SECRET_KEY_FALLBACKS`` is
still accepted (Flask does that) and sent back signed with the new key, so every phone that comes
back moves to it before the old key is dropped.
"""

from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface


class Sessions(SecureCookieSessionInterface):
    """Flask's cookie sessions; one signed with an older key is signed again with the newest."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        session = super().open_session(app, request)
        value = request.cookies.get(self.get_cookie_name(app))
        if session is not None and value and self.signed_with_fallback(app, value):
            session.modified = True  # sent back signed with the newest key
        return session

    def signed_with_fallback(self, app: Flask, value: str) -> bool:
        """Whether the cookie ``value`` (which some key of the app signed) was signed with one
        of the ``SECRET_KEY_FALLBACKS`` rather than the newest key."""
        if not app.config.get("SECRET_KEY_FALLBACKS"):
            return False
        serializer = self.get_signing_serializer(app)
        assert serializer is not None  # there is a secret key
        return not serializer.make_signer(serializer.secret_key).validate(value)
