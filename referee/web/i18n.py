"""Translation for Python code: ``gettext`` and ``ngettext`` in the request's language, with
Flask-Babel's behaviour (``%(name)s`` filled in from keyword arguments, ``ngettext`` knows
``num``), and ``translations()``, the request's catalog, for code that hands it on (the PDF).

A request's translations are looked up once and kept in ``flask.g`` under ``KEPT`` when the app
binds them (the speed layer's translation binding); without that, each call asks Flask-Babel, which
finds the same catalog again.
"""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations
from flask import g, has_request_context
from flask_babel import get_translations

from referee.rules.wording import Number

#: Where a request's translations are kept once found (in ``flask.g``).
KEPT = "referee_translations"


def translations() -> NullTranslations:
    """The request's translations as Flask-Babel chose them (the default language's outside a
    request)."""
    if has_request_context():
        found: NullTranslations | None = g.get(KEPT)
        if found is not None:
            return found
    return get_translations()


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the request's language, its ``%(name)s`` filled in from ``variables``."""
    text = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """``singular`` or ``plural`` as ``num`` asks, in the request's language, its ``%(name)s``
    filled in from ``variables`` (``num`` among them, a negative one shown with the minus
    sign)."""
    variables.setdefault("num", Number(num))
    return translations().ungettext(singular, plural, num) % variables
