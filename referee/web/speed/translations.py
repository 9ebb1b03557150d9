"""The templates' ``_``, ``gettext`` and ``ngettext``, bound to the request's translations once
per page; and Python's ``flask_babel.gettext`` finding them once per request.

Flask-Babel's template functions find the locale, the domain and the translations again for every
string: about 30 µs each on this project's machines, and a table page has about 30 strings —
more than a whole bare request (profiled for ``bench/run``). A context processor hands each
render functions bound to the translations Flask-Babel chose for this request. They behave like
Jinja's i18n extension in its "newstyle" (how Flask-Babel installs it): the translated string is
markup-safe, its ``%(name)s`` arguments are escaped, and ``ngettext`` knows ``num``.

Python code keeps calling ``flask_babel.gettext``, which also looked the locale and the
translations up again for every string (a round screen has about twenty such sentences): its
domain (``OncePerRequest``) keeps what it found for the rest of the request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel.support import NullTranslations
from flask import Flask, g, has_request_context
from flask_babel import Domain, get_translations
from markupsafe import Markup


class OncePerRequest(Domain):
    """Flask-Babel's domain of the app's catalogs, finding a request's translations once (the
    request's language does not change while it is served)."""

    def get_translations(self) -> NullTranslations:
        if not has_request_context():
            return super().get_translations()
        found: NullTranslations | None = g.get("referee_translations")
        if found is None:
            found = g.referee_translations = super().get_translations()
        return found


def install(app: Flask) -> None:
    """Give every template rendered by ``app`` the request's translation functions, and its
    Python code a domain that finds them once per request."""
    babel = app.extensions["babel"]
    babel.instance.domain_instance = OncePerRequest(domain=babel.default_domain)

    @app.context_processor
    def translation_functions() -> dict[str, Callable[..., Markup]]:
        translations = get_translations()

        def gettext(string: str, **variables: Any) -> Markup:
            return Markup(translations.ugettext(string)) % variables

        def ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
            variables.setdefault("num", num)
            return Markup(translations.ungettext(singular, plural, num)) % variables

        return {"_": gettext, "gettext": gettext, "ngettext": ngettext}
