"""Parts of every page that depend on nothing but the language, rendered once per language and
address prefix (a template global, ``once(template)``): the links of the page's head, the
sentences the page's script shows. They were a fifth of the work of rendering a round screen.
"""

from __future__ import annotations

from flask import render_template, request
from markupsafe import Markup

from referee.web.language import language
from referee.web.memo import memo


def once(template: str) -> Markup:
    """``template`` rendered without the page's variables, kept per language and address prefix
    (a template that needs anything else does not belong here)."""
    key = (template, language(), request.script_root)
    return memo("fragments", key, lambda: Markup(render_template(template)))
