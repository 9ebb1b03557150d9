"""The translation binding: the templates' ``_``, ``gettext`` and ``ngettext`` bound to the
request's translations once per page, and Python's translations (``referee.web.i18n``) found
once per request.

Flask-Babel's template functions find the locale, the domain and the translations again for every
string: about 30 µs each on this project's machines, and a table page has about 30 strings —
more than a whole bare request (profiled for ``bench/run``). A context processor hands each
render functions bound to the translations Flask-Babel chose for this request. They behave like
Jinja's i18n extension in its "newstyle" (how Flask-Babel installs it): the translated string is
markup-safe, its ``%(name)s`` arguments are escaped, and ``ngettext`` knows ``num``.

Flask-Babel's domain is replaced by ``OncePerRequest``, which keeps what it found in ``flask.g``
(``i18n.KEPT``) for the rest of the request; ``i18n.translations`` then finds it with one look,
and Flask-Babel's own functions (``lazy_gettext``, ``format_time``) use the same domain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel.support import NullTranslations
from flask import Flask, g, has_request_context
from flask_babel import Domain
from markupsafe import Markup

from referee.web.i18n import KEPT, translations


class OncePerRequest(Domain):
    """Flask-Babel's domain of the app's catalogs, finding a request's translations once (the
    request's language does not change while it is served)."""

    def get_translations(self) -> NullTranslations:
        if not has_request_context():
            return super().get_translations()
        found: NullTranslations | None = g.get(KEPT)
        if found is None:
            found = super().get_translations()
            setattr(g, KEPT, found)
        return found


def install(app: Flask) -> None:
    """Give every template rendered by ``app`` the request's translation functions, and its
    Python code a domain that finds them once per request."""
    babel = app.extensions["babel"]
    babel.instance.domain_instance = OncePerRequest(domain=babel.default_domain)

    @app.context_processor
    def translation_functions() -> dict[str, Callable[..., Markup]]:
        found = translations()

        def gettext(string: str, **variables: Any) -> Markup:
            text = found.ugettext(string)
            if not variables and "%" not in text:
                return Markup(text)  # nothing to fill in: the same, without formatting it
            return Markup(text) % variables

        def ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
            variables.setdefault("num", num)
            return Markup(found.ungettext(singular, plural, num)) % variables

        return {"_": gettext, "gettext": gettext, "ngettext": ngettext}
