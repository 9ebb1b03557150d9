"""The templates' translation functions (``referee.web.speed.translations``): the request's
catalog is used, the arguments are escaped, and ``ngettext`` counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import Flask, render_template_string

from app import create_app
from tests.web.helpers import new_table

pytestmark = pytest.mark.speed_layer  # what the speed layer keeps and answers itself


@pytest.fixture
def german(tmp_path: Path) -> Flask:
    """The app with a German catalog of a few of its strings, German by default. (Flask-Babel
    keeps one cache of catalogs for every app: every test's German catalog is this one.)"""
    catalog = Catalog(locale="de")
    catalog.add("Table", "Tisch")
    catalog.add(
        (
            "The tricks won add up to %(total)s; round %(round)s has %(tricks)s trick.",
            "The tricks won add up to %(total)s; round %(round)s has %(tricks)s tricks.",
        ),
        (
            "Die Stiche ergeben %(total)s; Runde %(round)s hat %(tricks)s Stich.",
            "Die Stiche ergeben %(total)s; Runde %(round)s hat %(tricks)s Stiche.",
        ),
    )
    catalog.add("Round %(n)s of %(of)s", "Runde %(n)s von %(of)s")
    catalog.add(("%(num)s trick", "%(num)s tricks"), ("%(num)s Stich", "%(num)s Stiche"))
    folder = tmp_path / "translations" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as out:
        write_mo(out, catalog)
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
            "BABEL_DEFAULT_LOCALE": "de",
            "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations"),
        }
    )


def test_a_table_page_speaks_the_requests_language(german: Flask) -> None:
    client = german.test_client()
    table = new_table(german, client, "blackout", ("Ann", "Ben", "Cho"))
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert ">Tisch</a>" in page
    assert "Runde 1 von " in page
    assert "Round 1 of" not in page


def test_arguments_are_escaped_and_the_string_is_markup(german: Flask) -> None:
    with german.test_request_context():
        shown = render_template_string(
            "{{ _('Round %(n)s of %(of)s', n='<b>', of=3) }}|{{ _('Table') | e }}"
        )
    assert shown == "Runde &lt;b&gt; von 3|Tisch"


def test_ngettext_chooses_by_count_and_knows_num(german: Flask) -> None:
    with german.test_request_context():
        shown = render_template_string(
            "{{ ngettext('%(num)s trick', '%(num)s tricks', 1) }}, "
            "{{ ngettext('%(num)s trick', '%(num)s tricks', 4) }}"
        )
    assert shown == "1 Stich, 4 Stiche"
