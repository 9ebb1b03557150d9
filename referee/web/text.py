"""Text at the door: a request whose query or form is not valid Unicode is refused with a sentence
before any view reads it.

Werkzeug decodes both as UTF-8, and forgives what is not: a query string that is not UTF-8
raises ``UnicodeDecodeError`` wherever ``request.args`` is read (a 500 behind a server that passes
such bytes on; gunicorn refuses them itself), a form body that is not UTF-8 silently reads as an
empty form, a percent-escape of bytes that are no UTF-8 (``name=%ff%fe``) reads as the escape's
own characters (``%FF%FE``, a name stored as typed by nobody), and a multipart part that is not
UTF-8 as replacement characters (U+FFFD). So the bytes themselves are read here, escapes decoded,
as UTF-8 (``utf8``). No value may hold a lone surrogate either (no page, database or terminal can
write one): strict UTF-8 holds none, and Werkzeug never makes one today, so that part guards
against a change there. The uploads are left to their own
views, which read their bodies under their own size limits and check every text in the record
(``referee.records``) or group file (``referee.groups``) and every other value they take.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from referee.web.i18n import gettext

bp = Blueprint("text", __name__)

#: The views that read their bodies themselves, under their own size limits: the uploads (and
#: a paper card's confirmation, which carries its photo).
UPLOADS = frozenset(
    {
        "records.upload",
        "groups.import_file",
        "groups.add_record_post",
        "paper.upload",
        "paper.confirm",
        "groups.paper_upload",
        "groups.paper_confirm",
    }
)

#: The bodies Werkzeug reads as a form (``request.form``).
FORMS = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def utf8(raw: bytes, escaped: bool = True) -> bool:
    """Whether ``raw`` is UTF-8 text, its percent-escapes (and ``+`` for a space) decoded first
    when ``escaped`` (a query string, a form as ``application/x-www-form-urlencoded``). The
    characters that join names and values (``&``, ``=``) are ASCII, so the whole is UTF-8 only
    if each name and value is."""
    try:
        (unquote_to_bytes(raw.replace(b"+", b" ")) if escaped else raw).decode()
    except UnicodeDecodeError:
        return False
    return True


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@bp.before_app_request
def readable_text() -> ResponseReturnValue | None:
    """Refuse a request whose query or form is not valid Unicode (None: let it through)."""
    if request.endpoint in UPLOADS:
        return None
    if not request.query_string and request.mimetype not in FORMS:
        return None  # nothing to read: most requests (pages, polls through Flask)
    readable = utf8(request.query_string)
    if readable and request.mimetype in FORMS:
        body = request.get_data(cache=True)  # the form reads the same bytes again
        readable = utf8(body, escaped=request.mimetype != "multipart/form-data")
    if readable:
        values = [*request.args.items(multi=True), *request.form.items(multi=True)]
        readable = all(is_unicode(key) and is_unicode(value) for key, value in values)
    if readable:
        return None
    message = gettext(
        "What was sent holds text that is not valid Unicode (UTF-8), so nothing was read or "
        "saved. Type it again, or copy it from somewhere else."
    )
    return render_template("text/unreadable.html", message=message), 400
