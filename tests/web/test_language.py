"""Which language a page speaks (``referee.web.language``): the phone's own by default, the
switcher's choice remembered per phone, ``?lang=`` for one page; and every cache, ETag and
``Vary`` kept apart by language, so a German and an English phone at one table each get theirs."""

from __future__ import annotations

import io
import re
from urllib.parse import quote

import pytest
from babel.support import Translations
from pypdf import PdfReader

from referee.catalogs import FOLDER
from tests.links import join
from tests.web.helpers import new_table

GERMAN = Translations.load(str(FOLDER), ["de"])
TABLE_DE = f">{GERMAN.gettext('Table')}</a>"  # the table's navigation bar, in German
TABLE_EN = ">Table</a>"


def test_the_german_catalog_says_table_in_german() -> None:
    assert GERMAN.gettext("Table") != "Table"  # else the tests below could not fail


def page_language(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", "de"),
        ("de-AT", "de"),
        ("fr-FR,en-GB;q=0.8", "en"),
        ("fr-FR", "en"),
        ("", "en"),
    ],
)
def test_a_page_speaks_the_phones_language(app, client, accept: str, expected: str) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    page = client.get(f"/t/{table}", headers={"Accept-Language": accept}).text
    assert page_language(page) == expected
    assert (TABLE_DE if expected == "de" else TABLE_EN) in page


def test_lang_in_the_address_is_for_that_page_only(app, client) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    german = client.get(f"/t/{table}?lang=de", headers={"Accept-Language": "en"})
    assert page_language(german.text) == "de" and TABLE_DE in german.text
    assert "Set-Cookie" not in german.headers
    assert page_language(client.get(f"/t/{table}").text) == "en"
    assert page_language(client.get(f"/t/{table}?lang=xx").text) == "en"


def switcher_link(code: str, name: str, back: str) -> str:
    address = f"/language/{code}?next={quote(back)}"
    return f'<a href="{address}" hreflang="{code}" lang="{code}" translate="no">{name}</a>'


def test_the_switcher_is_a_link_on_every_page_and_is_remembered(app, client) -> None:
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    for path in ("/", f"/t/{table}", f"/t/{table}/sheet", f"/t/{table}/history", "/nowhere"):
        assert switcher_link("de", "Deutsch", path) in client.get(path).text, path
    switched = client.get(f"/language/de?next=/t/{table}/sheet")
    assert switched.status_code == 303
    assert switched.headers["Location"] == f"/t/{table}/sheet"
    assert "lang=de" in switched.headers["Set-Cookie"]
    page = client.get(f"/t/{table}", headers={"Accept-Language": "en"}).text
    assert page_language(page) == "de" and TABLE_DE in page
    assert switcher_link("en", "English", f"/t/{table}") in page
    client.get("/language/en?next=/")
    assert page_language(client.get(f"/t/{table}").text) == "en"


def test_a_switch_comes_back_only_to_this_site(app, client) -> None:
    for next_ in (
        *("https://evil.example/x", "//evil.example/x", "/\\evil.example", "x", ""),
        *("http://[", "//[x", "http://\xb2]/"),  # no address at all (urlsplit raises)
    ):
        switched = client.get("/language/de", query_string={"next": next_})
        assert switched.headers["Location"] == "/", next_
    assert client.get("/language/xx?next=/").status_code == 404


@pytest.mark.parametrize(
    "headers",
    [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "https://e.x"}],
)
def test_another_site_cannot_switch_a_phones_language(app, client, headers) -> None:
    refused = client.get("/language/de?next=/", headers=headers)
    assert refused.status_code == 403
    assert "Set-Cookie" not in refused.headers
    assert page_language(client.get("/").text) == "en"


def test_this_sites_own_form_may_switch(app, client) -> None:
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Origin": "http://localhost"}):
        switched = client.get("/language/de?next=/", headers=headers)
        assert switched.status_code == 303, headers


def test_pages_vary_by_language_and_their_etags_differ(app, client) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    english = client.get(f"/t/{table}/sheet", headers={"Accept-Language": "en"})
    german = client.get(f"/t/{table}/sheet", headers={"Accept-Language": "de"})
    for response in (english, german, client.get(f"/t/{table}"), client.get("/")):
        assert {"Accept-Language", "Cookie"} <= set(response.vary)
    assert english.headers["ETag"] != german.headers["ETag"]
    standings = [
        client.get(f"/t/{table}/standings", headers={"Accept-Language": lang})
        for lang in ["de", "en"]
    ]
    assert page_language(standings[1].text) == "en"
    assert standings[0].headers["ETag"] != standings[1].headers["ETag"]
    again = client.get(
        f"/t/{table}/sheet",
        headers={"Accept-Language": "de", "If-None-Match": english.headers["ETag"]},
    )
    assert again.status_code == 200 and page_language(again.text) == "de"


@pytest.mark.speed_layer
def test_a_german_and_an_english_spectator_each_get_their_own_cached_page(app) -> None:
    table = new_table(app, None, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    german, english = app.test_client(), app.test_client()
    join(app, german, table, "viewer")
    join(app, english, table, "viewer")
    pages = app.extensions["referee.speed"].memo["pages"]
    for _ in range(2):
        for path in (f"/t/{table}", f"/t/{table}/sheet", f"/t/{table}/tv", f"/t/{table}/standings"):
            de = german.get(path, headers={"Accept-Language": "de-DE"}).text
            en = english.get(path, headers={"Accept-Language": "en-US"}).text
            assert page_language(de) == "de" and page_language(en) == "en", path
            assert TABLE_DE in de or path.endswith(("/tv", "/standings")), path
    kept = [key for key in pages.items if table in key]
    assert len(kept) == 8  # four pages, each in both languages, rendered once
    assert {key[-2] for key in kept} == {"de", "en"}  # (…, language, position)


@pytest.mark.speed_layer
def test_the_pdf_is_kept_per_language(app, client) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"))
    client.get(f"/t/{table}/sheet.pdf", headers={"Accept-Language": "de"})
    client.get(f"/t/{table}/sheet.pdf", headers={"Accept-Language": "en"})
    pdfs = app.extensions["referee.speed"].memo["pdfs"]
    assert {key[-1] for key in pdfs.items if table in key} == {"de", "en"}


def pdf_text_and_fonts(body: bytes) -> tuple[str, set[str]]:
    reader = PdfReader(io.BytesIO(body))
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    return "\n".join(page.extract_text() for page in reader.pages), fonts


def test_a_german_pdf_prints_umlauts_in_the_built_in_font(app, client) -> None:
    table = new_table(app, client, "blackout", ("Jörg", "Müßig", "Zoë"), {"max_cards": 2})
    client.set_cookie("lang", "de")
    text, fonts = pdf_text_and_fonts(client.get(f"/t/{table}/sheet.pdf").data)
    assert fonts == {"/Helvetica", "/Helvetica-Bold"}
    for german in ("Punkteblock", "Geber in Runde 1: Jörg", "Müßig", "Seite 1 von 1"):
        assert german in text
    # the black box is explained, and every shortened column head spelled out
    assert "schwarzes Feld: Ansage verfehlt, 0 Punkte" in text
    legend = "Abkürzungen: Nr. = Runde · Ans. = Ansage · Sti. = Gewonnene Stiche · Pkt. = Punkte"
    assert legend + " · ges. = Summe" in " ".join(text.split())
    card = {"game": "alles-oder-nichts", "players": "3", "player_1": "Jörg", "first": "1"}
    text, fonts = pdf_text_and_fonts(client.post("/scorecards", data=card).data)
    assert fonts == {"/Helvetica", "/Helvetica-Bold"}
    assert "„o“ für eine offene Ansage einkreisen" in text and "Summe" in text
    assert "o / v = Offen oder verdeckt" in " ".join(text.split())


def test_a_field_an_entry_lacks_is_named_in_the_readers_language(app) -> None:
    """A colour in a field's name is the colour's name in the page's language, not its code."""
    from referee.games.ebbes.screens import designators
    from referee.web.round.entries import EntryError

    for language, field, said in (
        ("de", "x", "Für die Zahl unter Rot ist eine ganze Zahl von 0 bis 999 nötig, nicht „x“."),
        ("en", "", "Enter the red number."),
    ):
        with app.test_request_context(headers={"Accept-Language": language}):
            with pytest.raises(EntryError) as refused:
                designators(None, 1, {"designator-red": field})  # the state is not read
            assert str(refused.value) == said
