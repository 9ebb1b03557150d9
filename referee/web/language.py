"""Which language a page speaks, and the switcher that changes it.

The languages are the catalogs in ``referee/translations/`` (each
``<code>/LC_MESSAGES/messages.mo``) and the default, English: a new catalog is a new language,
nothing here lists them. A request's language is, in this order, the one ``?lang=`` names (for
that page only), the one the phone chose with the switcher (the ``lang`` cookie, kept a year),
the best match of the browser's ``Accept-Language``, else the default.

The switcher is a line of links on every page (``templates/base.html``), one per other language,
to ``/language/<code>?next=<this page>``: it needs no script, and no form, so a page served alike
to every spectator (no CSRF token, no form at all) can carry it. It changes nothing but this
phone's own cookie, and only when the browser says the link was followed from this site
(``Sec-Fetch-Site``; a browser too old to send it sends no ``Origin`` either, and is trusted):
another site cannot switch a phone's language.

Every response made by Flask says it varies by ``Accept-Language`` and ``Cookie``, so a browser
or a proxy keeps each language's page apart; the app's own caches key by ``language()``.
"""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from babel import Locale
from flask import Blueprint, Flask, abort, current_app, g, has_request_context, redirect, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

bp = Blueprint("language", __name__)

#: The cookie that remembers the phone's choice, and for how long (seconds).
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

#: What every response says it varies by: the headers the language is chosen from.
VARY = "Accept-Language, Cookie"


def init_app(app: Flask) -> None:
    """Find the app's languages (its catalogs and the default), mark every response as varying
    by language, and give the templates ``language()`` and ``switcher()``. (``create_app`` hands
    ``chosen`` to Flask-Babel as its locale selector.)"""
    with app.app_context():
        found = [str(locale) for locale in app.extensions["babel"].instance.list_translations()]
    default = app.config["BABEL_DEFAULT_LOCALE"]
    app.extensions["referee.languages"] = [default, *sorted(set(found) - {default})]
    app.after_request(vary_by_language)
    app.add_template_global(language)
    app.add_template_global(switcher)


def languages() -> list[str]:
    """The codes of the app's languages, the default first (``["en", "de"]``)."""
    found: list[str] = current_app.extensions["referee.languages"]
    return found


def chosen() -> str:
    """The request's language (see the module): ``?lang=``, the cookie, ``Accept-Language``;
    the default outside a request (a command such as ``flask table``). Worked out once per
    request: Flask-Babel asks for it, and so do the caches' keys and the page."""
    if not has_request_context():
        return languages()[0]
    found: str | None = g.get("referee_language")
    if found is None:
        found = g.referee_language = requested(languages())
    return found


def requested(offered: list[str]) -> str:
    """The one of ``offered`` this request asks for (``chosen``)."""
    try:
        named = request.args.get("lang")
    except UnicodeDecodeError:  # a query that is not UTF-8 (refused by text.py): no ?lang=
        named = None
    return asked_for(
        named, request.cookies.get(COOKIE), request.headers.get("Accept-Language", ""), offered
    )


def asked_for(named: str | None, cookie: str | None, accept: str, offered: list[str]) -> str:
    """The one of ``offered`` a request asks for by its ``?lang=`` (``named``), its language
    ``cookie`` and its ``Accept-Language`` (``accept``), in that order (``requested``)."""
    for asked in (named, cookie):
        if asked in offered:
            return asked
    return best_match(accept, tuple(offered)) or offered[0]


@functools.lru_cache(maxsize=256)
def best_match(accept_language: str, offered: tuple[str, ...]) -> str | None:
    """The best of ``offered`` for an ``Accept-Language`` header, worked out once per header:
    a phone sends the same one all evening, and parsing it was a tenth of a page served from
    memory."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(offered)


def language() -> str:
    """The request's language as a BCP 47 tag, for ``<html lang>`` and for cache keys: the one
    Flask-Babel translates into (``chosen`` is its locale selector)."""
    return chosen().replace("_", "-")


def switcher() -> tuple[str, list[tuple[str, str]]]:
    """What the switcher shows: the page to come back to, and the other languages, each as its
    code and its name in itself ("Deutsch"), so a phone lost in a language it cannot read still
    finds its own. A page that answers a form comes back to the page the form was on."""
    back = request.path if request.method == "GET" else local_path(request.referrer)
    current = chosen()
    return back, [(code, own_name(code)) for code in languages() if code != current]


@functools.cache
def own_name(code: str) -> str:
    """A language's name in itself, as the switcher shows it ("Deutsch"), worked out once: Babel
    reads its locale data for it (a twentieth of a scorekeeper's round screen)."""
    return (Locale.parse(code).get_display_name(code) or code).capitalize()


def vary_by_language(response: Response) -> Response:
    """Tell browsers and proxies that the response depends on the language chosen."""
    if "Vary" in response.headers:
        response.vary.update(("Accept-Language", "Cookie"))
    else:  # most responses: nothing to merge with, so no header to parse and write again
        response.headers["Vary"] = VARY
    return response


def sent_by_another_site() -> bool:
    """Whether the browser says this request came from another site's page."""
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from is not None:
        return fetched_from not in ("same-origin", "none")
    origin = request.headers.get("Origin")
    return origin is not None and origin != request.host_url.rstrip("/")


def local_path(address: str | None) -> str:
    """``address`` as a path of this site to go back to; the front page for anything else (no
    address at all included: ``http://[``, on which ``urlsplit`` raises)."""
    try:
        parts = urlsplit(address or "")
    except ValueError:
        return "/"
    if parts.netloc and parts.netloc != request.host:
        return "/"
    if not parts.path.startswith("/"):
        return "/"
    if parts.path.startswith("//") or "\\" in parts.path:
        return "/"
    return parts.path + (f"?{parts.query}" if parts.query else "")


@bp.get("/language/<code>")
def switch(code: str) -> Response:
    """Remember the language chosen on this phone and go back to the page it was chosen on."""
    if sent_by_another_site():
        abort(403)
    if code not in languages():
        abort(404)
    response = redirect(local_path(request.args.get("next")), 303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
        httponly=True,
        samesite="Lax",
    )
    return response
