"""Every word a person reads comes through the catalog (issue 17, item 4).

The app runs under a test-only catalog made from what ``pybabel extract`` finds, in which every
translation is its English text between « and » (each plural form too). Then every page is
rendered — each game's round screen at every step of a whole game, with its sheet, TV mode,
history, corrections, share, seal and join pages; the front page, new table, scorecards,
records, rules, the trick tool, messages and refusals, the error pages — and every PDF and
spreadsheet (``.xlsx``: its sheet's name and its text cells), and
whatever visible text is left once the marked parts are taken out must be only players' names,
game titles, numbers, card symbols and punctuation. Visible text is every text node outside
``script``/``style`` and outside an element marked ``translate="no"`` (codes such as rule ids,
and each language's own name in the switcher), and the ``placeholder``, ``title``,
``aria-label``, ``alt`` and button ``value`` attributes.
"""

from __future__ import annotations

import base64
import io
import json
import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import Flask
from flask.testing import FlaskClient
from openpyxl import load_workbook
from pypdf import PdfReader

from app import create_app
from referee.catalogs import extract
from referee.rules import GAMES, Setup, start
from referee.store import db
from referee.store.tables import append_entry, create_table
from referee.web.downloads import XLSX
from referee.web.paper import seal
from tests.durability.legal import next_entry
from tests.groups.test_stats_by_hand import FRIDAY
from tests.links import join, new_link
from tests.web.group_helpers import group_id_at, loading_here

#: The test catalog's language: one the app has no catalog of (Esperanto, two plural forms).
MARKED = "eo"
#: The marks around each translation: letters the PDF's built-in font has, which the app's
#: English never uses.
OPEN, CLOSE = "«", "»"

NAMES = ("Ann", "Ben", "Cho")
#: Names the test types that are not words of the app's: the players, and the games' titles.
OWN_NAMES = (*NAMES, *(game.title for game in GAMES.values()))
#: Options that keep each game short enough to render at every step.
SHORT = {
    "blackout": {"max_cards": 2},
    "alles-oder-nichts": {},
    "ebbes": {},
}


def marked(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A translations folder with the marking catalog, made from the extracted strings."""
    folder = tmp_path_factory.mktemp("marked")
    template = extract(folder / "messages.pot")
    catalog = Catalog(locale=MARKED)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: str | tuple[str, ...] = tuple(marked(form) for form in message.id)
        else:
            string = marked(message.id)
        catalog.add(message.id, string, flags=message.flags)
    out = folder / MARKED / "LC_MESSAGES"
    out.mkdir(parents=True)
    with open(out / "messages.mo", "wb") as mo:
        write_mo(mo, catalog)
    return folder


@pytest.fixture
def app(catalogs: Path, tmp_path: Path, speed: bool) -> Iterator[Flask]:
    """The app with the marking catalog, the speed layer on and then off (its templates'
    translation functions are its own)."""
    app = create_app(
        {
            "SPEED": speed,
            "TESTING": True,
            "PROPAGATE_EXCEPTIONS": False,  # the 500 page, as a visitor gets it
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
            "BABEL_TRANSLATION_DIRECTORIES": str(catalogs),
        }
    )

    def broken() -> str:
        raise RuntimeError("a bug")

    app.add_url_rule("/broken", view_func=broken)
    yield app
    with app.app_context():
        db.engine.dispose()


def phone(app: Flask) -> FlaskClient:
    """A client that chose the marking catalog's language."""
    client = app.test_client()
    client.set_cookie("lang", MARKED)
    return client


# --- what a person reads -----------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
HIDDEN = {"script", "style", "template"}
READ_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")


class Visible(HTMLParser):
    """The text a person reads on a page: the text nodes and the attributes read aloud."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # open elements: tag, whether their text counts
        self.texts: list[str] = []
        self.attributes: list[str] = []

    def counts(self) -> bool:
        return not self.stack or self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        counts = self.counts() and tag not in HIDDEN and found.get("translate") != "no"
        if counts and found.get("type") != "hidden":
            self.attributes += [found[name] or "" for name in READ_ATTRIBUTES if name in found]
            if tag == "input" and found.get("type") in ("submit", "button", "reset"):
                self.attributes.append(found.get("value") or "")
        if tag not in VOID:
            self.stack.append((tag, counts))

    def handle_endtag(self, tag: str) -> None:
        if any(open_tag == tag for open_tag, _counts in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self.counts():
            self.texts.append(data)


def leftover(text: str) -> list[str]:
    """The words of ``text`` that did not come through the catalog."""
    while True:
        shorter = re.sub(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
        if shorter == text:
            break
        text = shorter
    text = re.sub(rf"{OPEN}[^{OPEN}{CLOSE}]*…", " ", text)  # a marked text cut short to fit
    text = re.sub(r"https?://\S+|/j#\S+", " ", text)  # links handed on
    for name in OWN_NAMES:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return re.findall(r"[^\W\d_]{2,}", text)


def page_leftover(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return leftover(" ".join(parser.texts)) + [
        word for value in parser.attributes for word in leftover(value)
    ]


def pdf_leftover(body: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(body))
    return leftover("\n".join(page.extract_text() for page in reader.pages))


def xlsx_leftover(body: bytes) -> list[str]:
    book = load_workbook(io.BytesIO(body))
    texts = [sheet.title for sheet in book.worksheets] + [
        value
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if isinstance(value, str)
    ]
    return leftover("\n".join(texts))


class Reading:
    """Collects what each page and PDF left unmarked, to report them all at once."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.found: dict[str, list[str]] = {}
        self.seen = 0

    def note(self, where: str, words: list[str]) -> None:
        self.seen += 1
        if words:
            self.found.setdefault(where, sorted(set(words)))

    def page(self, path: str, status: int = 200, method: str = "GET", **kwargs: object) -> str:
        response = self.client.open(path, method=method, follow_redirects=True, **kwargs)
        assert response.status_code == status, (path, response.status_code)
        if response.mimetype == "application/pdf":
            self.note(path, pdf_leftover(response.data))
            return ""
        if response.mimetype == XLSX:
            self.note(path, xlsx_leftover(response.data))
            return ""
        self.note(path, page_leftover(response.text))
        return response.text

    def assert_all_marked(self) -> None:
        lines = [f"{where}: {' '.join(words)}" for where, words in self.found.items()]
        assert not lines, "text that did not come through the catalog:\n" + "\n".join(lines)


def test_the_marking_catalog_marks_and_the_check_finds_unmarked_words() -> None:
    assert page_leftover("<p>«Round «1» of 5» Ann ♠ 10 · <b>Hello</b></p>") == ["Hello"]
    assert page_leftover('<input placeholder="Name">') == ["Name"]
    assert page_leftover('<span translate="no">follow-suit</span><script>x()</script>') == []


# --- every page --------------------------------------------------------------------------------


def play_whole_game(app: Flask, reading: Reading, client: FlaskClient, game: str) -> str:
    """A table of ``game`` played legally to its end, its round screen read at every step (the
    scorekeeper's, and at each step a spectator's); its id."""
    setup = Setup(game, NAMES, SHORT[game])
    rng = random.Random(3)
    with app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
    join(app, client, table)
    viewer = phone(app)
    join(app, viewer, table, "viewer")
    steps = 0
    while True:
        reading.page(f"/t/{table}")
        if steps % 7 == 0:
            reading.note(f"/t/{table} (spectator)", page_leftover(viewer.get(f"/t/{table}").text))
            reading.page(f"/t/{table}?mode=cards")
        found = next_entry(state, rng)
        if found is None:
            return table
        event, state = found
        with app.app_context():
            seq = append_entry(table, seq, "event", event.to_dict())
        steps += 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_a_whole_game_comes_through_the_catalog(app: Flask, game: str) -> None:
    client = phone(app)
    reading = Reading(client)
    table = play_whole_game(app, reading, client, game)
    paths = ("sheet", "tv", "history", "share", "sheet.pdf", "sheet.pdf?paper=letter", "sheet.xlsx")
    for path in paths:
        reading.page(f"/t/{table}/{path}")
    reading.page(f"/t/{table}/amend/1")
    reading.page(f"/t/{table}/undo", method="POST", data={"seq": "9999"})  # out of date
    reading.page(f"/t/{table}/undo", method="POST")  # undone, with its message
    reading.page(f"/t/{table}/entry", method="POST", data={"seq": "1", "round": "1"}, status=400)
    if game == "alles-oder-nichts":
        reading.page(f"/t/{table}/seal/1")
    token = new_link(app, table, "viewer")
    reading.page("/j")
    reading.page(f"/j/{token}")
    reading.page(f"/tools/trick?game={game}")
    assert reading.seen > 10
    reading.assert_all_marked()


def test_the_engines_sentences_come_through_the_catalog(app: Flask) -> None:
    reading = Reading(phone(app))
    reading.page("/new", method="POST", data={"game": "blackout", "player_1": "Ann"}, status=422)
    reading.assert_all_marked()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_rules_and_scorecards_come_through_the_catalog(app: Flask, game: str) -> None:
    reading = Reading(phone(app))
    reading.page(f"/rules/{game}")
    reading.page(f"/scorecards?game={game}")
    reading.page("/scorecards", method="POST", data={"game": game, "players": "3"})
    names = {"game": game, "players": "4", "player_1": "Ann", "player_2": "Ben", "first": "2"}
    reading.page("/scorecards", method="POST", data=names)
    reading.page("/scorecards", method="POST", data={"game": game, "players": "99"}, status=422)
    readable = {"game": game, "players": "4", "readable": "y"}
    reading.page(
        "/scorecards", method="POST", data=readable, status=200 if game != "ebbes" else 422
    )
    assert reading.seen == 6
    reading.assert_all_marked()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_tables_paper_card_pages_come_through_the_catalog(app: Flask, game: str) -> None:
    """The paper card page, its PDF, a photo refused and a card the rules refuse."""
    client = phone(app)
    reading = Reading(client)
    with app.app_context():
        table = create_table(Setup(game, NAMES, SHORT[game], NAMES[0]))
    join(app, client, table)
    reading.page(f"/t/{table}/paper")
    if game == "ebbes":  # no readable card: the page says so, the PDF too
        reading.page(f"/t/{table}/paper-card.pdf", status=404)
        assert reading.seen == 2
    else:
        reading.page(f"/t/{table}/paper-card.pdf")
        photo = {"photo": (io.BytesIO(b"not a photo"), "card.jpg")}
        reading.page(f"/t/{table}/paper", method="POST", data=photo, status=422)
        kept = b"\xff\xd8\xff a card's photo"
        with app.app_context():
            sealed = seal(table, kept)
        forged = {"rounds": "1", "c-1.trump": "X", "seal": sealed}
        forged["photo"] = base64.b64encode(kept).decode()
        reading.page(f"/t/{table}/paper/confirm", method="POST", data=forged, status=422)
        assert reading.seen == 4
    reading.assert_all_marked()


def test_a_table_s_pdf_comes_through_the_catalog(app: Flask) -> None:
    """The score sheet of a game played to its end, with a correction and a footnote."""
    client = phone(app)
    reading = Reading(client)
    setup = Setup("blackout", NAMES, SHORT["blackout"])
    rng = random.Random(5)
    with app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (found := next_entry(state, rng)) is not None:
            event, state = found
            seq = append_entry(table, seq, "event", event.to_dict())
        append_entry(table, seq, "undo", {"target": seq})
    join(app, client, table)
    for paper in ("a4", "letter"):
        reading.page(f"/t/{table}/sheet.pdf?paper={paper}")
    reading.assert_all_marked()


def test_the_pages_without_a_table_come_through_the_catalog(app: Flask) -> None:
    client = phone(app)
    reading = Reading(client)
    table = create_in(app, "ebbes")
    join(app, client, table)
    reading.page("/")
    reading.page("/new")
    reading.page("/new", method="POST", data={"game": "blackout", "first": "9"}, status=422)
    reading.page("/records")
    reading.page("/tools/trick?game=blackout&card1=AS&card2=KS&card3=2H&trump=H")
    reading.page("/tools/trick?game=ebbes&card1=red-3&card2=blue-5&card3=red-3", status=422)
    reading.page("/tools/trick?game=ebbes&card1=red-3&card2=blue-5&trump=blue")
    records = {"record": (io.BytesIO(b"not json"), "table.json")}
    reading.page("/records", method="POST", data=records, status=422)
    reading.page("/nowhere", status=404)
    reading.page("/t/nowhere", status=404)
    reading.page("/broken", status=500)
    stranger = phone(app)
    reading.client = stranger
    reading.page(f"/t/{table}", status=403)
    reading.page(f"/t/{table}/share", status=403)
    reading.client = client
    reading.page("/new", method="POST", data={"game": "x" * (1 << 17)}, status=413)
    app.config["WTF_CSRF_ENABLED"] = True
    reading.page(f"/t/{table}/undo", method="POST", status=400)  # the stale page
    app.config["WTF_CSRF_ENABLED"] = False
    app.config["TABLE_LIMIT"] = 0
    seats = {"game": "blackout", "player_1": "Ann", "player_2": "Ben", "first": "1"}
    reading.page("/new", method="POST", data=seats, status=429)
    reading.assert_all_marked()


def create_in(app: Flask, game: str) -> str:
    with app.app_context():
        return create_table(Setup(game, NAMES, SHORT[game]))


def test_the_group_pages_come_through_the_catalog(app: Flask) -> None:
    """A group's pages, its refusals and the pages that keep a table in one: the group is named
    and peopled with the test's own names (a guest too)."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from referee.store.groups import attach_table
    from referee.store.models import GroupTable

    client = phone(app)
    reading = Reading(client)
    reading.page("/groups/new")
    reading.page("/groups/new", method="POST", data={"name": "", "players": "Ann"}, status=422)
    roster = {"name": "Ann", "players": "Ann\nBen", "time_zone": "UTC"}
    group = group_id_at(client.post("/groups/new", data=roster).headers["Location"])
    start = {"game": "blackout", "here": ["p1", "p2"], "guests": "Cho", "dealer": "next"}
    table = client.post(f"/g/{group}/new", data=start).headers["Location"].rsplit("/", 1)[-1]
    earlier = create_in(app, "blackout")  # a whole game, last week
    rng = random.Random(3)
    with app.app_context():
        state, seq = start_state(earlier), 0
        while (found := next_entry(state, rng)) is not None:
            event, state = found
            seq = append_entry(earlier, seq, "event", event.to_dict())
        attach_table(group, earlier, {"Ann": "p1", "Ben": "p2", "Cho": None})
        week = datetime.now(UTC) - timedelta(days=7)
        db.session.execute(
            update(GroupTable).where(GroupTable.table_id == earlier).values(played_at=week)
        )
        db.session.commit()
    for path in ("", "/roster", "/share", "/new", "/evenings", f"/t/{table}", f"/t/{earlier}"):
        reading.page(f"/g/{group}{path}")
    reading.page(f"/g/{group}/share", method="POST", data={"action": "keeper"})
    numbers = ("/standings", "/standings?season=all", "/p/p1?season=all", "/p/p2?game=ebbes")
    downloads = ("/report.pdf?season=all", "/standings.xlsx?season=all")
    for path in (*numbers, "/p/p1?game=blackout", "/add-record", *downloads):
        reading.page(f"/g/{group}{path}")
    reading.page(f"/g/{group}/standings?season=1999-01-01", status=404)
    reading.page(f"/g/{group}/p/Cho", status=404)
    record = client.get(f"/g/{group}/group.json").get_json()["tables"][0]["record"]
    upload = {"record": (io.BytesIO(json.dumps(record).encode()), "r.json")}
    reading.page(f"/g/{group}/add-record", method="POST", data=upload)  # the confirm step
    reading.page("/groups/import")
    bad = {"group": (io.BytesIO(b'{"format": "table-referee-group/1"}'), "g.json")}
    with loading_here():
        reading.page("/groups/import", method="POST", data=bad, status=422)
    with loading_here(start=False):
        club = {"group": (io.BytesIO(FRIDAY.read_bytes()), "g.json")}
        reading.page("/groups/import", method="POST", data=club)  # it waits for its loader
    reading.page(
        f"/g/{group}/seasons", method="POST", data={"name": "Ann", "starts_on": "x"}, status=422
    )
    reading.page(
        f"/g/{group}/roster", method="POST", data={"action": "add", "name": "ben"}, status=422
    )
    stale = {"action": "rename", "player": "p1", "name": "Ann", "version": "1"}
    reading.page(f"/g/{group}/roster", method="POST", data=stale, status=409)
    reading.page(f"/g/{group}/new", method="POST", data=start | {"dealer": "p9"}, status=422)
    reading.page(f"/t/{table}/group")
    other = create_in(app, "ebbes")
    join(app, client, other)
    reading.page(f"/t/{other}/group")
    reading.page("/")
    stranger = phone(app)
    reading.client = stranger
    reading.page(f"/g/{group}", status=403)
    reading.page("/g/nowhere", status=404)
    reading.assert_all_marked()


def start_state(table: str):
    from referee.store.tables import get_table

    record = get_table(table)
    assert record is not None
    return start(record.setup)


# --- no English rule id on a German page (issue 33, item 6) ------------------------------------

RECORDS = Path(__file__).resolve().parents[1] / "records"


class AllText(HTMLParser):
    """Every text node a person sees, those marked ``translate="no"`` too (a code shown as text
    is read all the same); only ``script``, ``style`` and ``template`` are left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not HIDDEN & set(self.stack):
            self.texts.append(data)


def rule_ids_shown(html: str) -> list[str]:
    """The English rule ids (``follow-suit``, ``hook`` …) a page shows as text."""
    from referee.rules.breaches import RULE_IDS

    parser = AllText()
    parser.feed(html)
    text = " ".join(parser.texts)
    ids = "|".join(re.escape(rule) for rule in sorted(RULE_IDS, key=len, reverse=True))
    return sorted(set(re.findall(rf"(?<![\w-])(?:{ids})(?![\w-])", text)))


def test_the_rule_id_check_finds_an_id_shown_as_text_and_not_one_in_an_attribute() -> None:
    assert rule_ids_shown('<h3>Bedienen <span translate="no">follow-suit</span></h3>') == [
        "follow-suit"
    ]
    assert rule_ids_shown('<a href="/rules/blackout#hook">Regel</a> Trumpf Geberfalle') == []
    assert rule_ids_shown('<section id="trick-total"><h3>Gewonnene Stiche</h3></section>') == []


@pytest.fixture
def german(tmp_path: Path) -> Iterator[FlaskClient]:
    """The app with its own catalogs, on a phone that chose German."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    client.set_cookie("lang", "de")
    yield client
    with app.app_context():
        db.engine.dispose()


def test_no_german_page_shows_an_english_rule_id(german: FlaskClient) -> None:
    """The rules pages keep each rule's id as its section's anchor (a breach links there) but
    show only the German heading; a breach's link on the round screen and the sheet says
    "Regel", not "rule: hook". The same pages in English still show the ids."""
    pages: dict[str, str] = {}
    for game in sorted(GAMES):
        pages[f"/rules/{game}"] = german.get(f"/rules/{game}").text
        assert 'id="turn"' in pages[f"/rules/{game}"]  # the anchor a breach links to
    for name in ("breach-hook", "breach-follow-suit"):
        record = (RECORDS / "blackout" / f"{name}.json").read_bytes()
        response = german.post(
            "/records",
            data={"record": (io.BytesIO(record), "game.json")},
            content_type="multipart/form-data",
        )
        table = response.headers["Location"]
        for path in ("", "/sheet"):
            page = german.get(table + path).text
            assert 'href="/rules/blackout#' in page, (name, path)  # the breach links its rule
            pages[f"{name} {table}{path}"] = page
    shown = {where: ids for where, html in pages.items() if (ids := rule_ids_shown(html))}
    assert shown == {}, f"English rule ids on German pages: {shown}"
    german.set_cookie("lang", "en")
    assert "follow-suit" in rule_ids_shown(german.get("/rules/blackout").text)
