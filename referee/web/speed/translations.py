"""The templates' ``_``, ``gettext`` and ``ngettext``, bound to the request's translations once
per page.

Flask-Babel's template functions find the locale, the domain and the translations again for every
string: about 30 µs each on this project's machines, and a table page has about 30 strings —
more than a whole bare request (profiled for ``bench/run``). A context processor hands each
render functions bound to the translations Flask-Babel chose for this request. They behave like
Jinja's i18n extension in its "newstyle" (how Flask-Babel installs it): the translated string is
markup-safe, its ``%(name)s`` arguments are escaped, and ``ngettext`` knows ``num``. Python code
keeps calling ``flask_babel.gettext``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_babel import get_translations
from markupsafe import Markup


def install(app: Flask) -> None:
    """Give every template rendered by ``app`` the request's translation functions."""

    @app.context_processor
    def translation_functions() -> dict[str, Callable[..., Markup]]:
        translations = get_translations()

        def gettext(string: str, **variables: Any) -> Markup:
            return Markup(translations.ugettext(string)) % variables

        def ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
            variables.setdefault("num", num)
            return Markup(translations.ungettext(singular, plural, num)) % variables

        return {"_": gettext, "gettext": gettext, "ngettext": ngettext}
