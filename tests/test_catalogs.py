"""The translation catalogs keep up with the code (``referee.catalogs``): every string the code
marks is in every catalog, translated, not fuzzy, and the committed .mo is the .po compiled; a
new language is nothing but a new catalog; and the web app and the ``referee`` command read the
same catalogs, the package's."""

from __future__ import annotations

import inspect
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask_babel import get_babel

import referee
from app import create_app
from referee.__main__ import main
from referee.catalogs import FOLDER, check, extract, po_files


def test_there_is_a_german_catalog() -> None:
    assert [po.parts[-3] for po in po_files()] == ["de"]


def test_every_catalog_is_complete_and_compiled() -> None:
    problems = check()
    assert not problems, "\n".join(
        f"{p.po}: missing {p.missing}, untranslated {p.untranslated}, fuzzy {p.fuzzy}, "
        f"stale .mo: {p.stale_mo}"
        for p in problems
    )


def test_the_extract_finds_the_strings_of_python_templates_and_the_sheets(tmp_path: Path) -> None:
    found = {message.id for message in extract(tmp_path / "messages.pot")}
    assert "Table" in found  # a template
    assert "Not a valid choice." in found  # Python, lazy_gettext
    assert ("%(num)s player", "%(num)s players") in found  # the sheets' ngettext
    assert "Deals round 1: %(player)s" in found  # the sheets' N_


def test_a_new_language_is_a_new_catalog(tmp_path: Path) -> None:
    """Nothing in the code lists the languages: a French catalog makes the app speak French."""
    catalog = Catalog(locale="fr")
    catalog.add("Table", "Table de jeu")
    folder = tmp_path / "translations" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as out:
        write_mo(out, catalog)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations"),
        }
    )
    assert app.extensions["referee.languages"] == ["en", "fr"]
    page = app.test_client().get("/", headers={"Accept-Language": "fr-CH, de;q=0.5"}).text
    assert '<html lang="fr">' in page
    assert 'hreflang="en" lang="en" translate="no">English</a>' in page


def test_the_app_and_the_referee_command_read_the_package_s_catalogs(tmp_path: Path) -> None:
    """One folder of catalogs, in the package, whose .mo files the wheel ships
    (``tests/test_packaging.py``): the web app finds its languages there, the ``referee``
    command reads it by default, and the catalogs' commands keep it."""
    folder = Path(referee.__file__).parent / "translations"
    assert Path(referee.TRANSLATIONS) == FOLDER == folder
    assert po_files() == [folder / "de" / "LC_MESSAGES" / "messages.po"]
    assert inspect.signature(main).parameters["translations"].default == referee.TRANSLATIONS
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        }
    )
    assert get_babel(app).translation_directories == [referee.TRANSLATIONS]
    assert app.extensions["referee.languages"] == ["en", "de"]
