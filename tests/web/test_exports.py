"""The score sheet for other apps: its spreadsheets (``/t/<id>/sheet.csv``, read back with
Python's csv module as a spreadsheet reads it, and ``/t/<id>/sheet.xlsx``, read back with
openpyxl), a group's standings as a spreadsheet (``/g/<id>/standings.xlsx``), both opened in
LibreOffice, and the link that logs a finished game in BG Stats, decoded and checked against the
format BG Stats documents.

The games' golden records are the yardstick of the spreadsheet: every round's entries as the
record has them, every score as the referee's verdict (``*.expect.json``) has it.
"""

from __future__ import annotations

import csv
import html
import io
import json
import random
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet
from sqlalchemy import update

from referee.rules import GAMES, Setup, State, start
from referee.rules.cards import EBBES_COLOURS
from referee.store import db
from referee.store.models import Entry
from referee.store.tables import append_entry, create_table
from referee.web.sheet.exports import FORMULA_STARTS, cell_text
from tests.durability.legal import next_entry
from tests.groups.test_stats_by_hand import FRIDAY
from tests.links import join
from tests.tools import tool
from tests.web.group_helpers import imported, join_group
from tests.web.helpers import hidden, new_table, ok, post
from tests.web.test_sealed import round_two, seal
from tests.web.test_sheets_web import upload

RECORDS = Path(__file__).resolve().parents[1] / "records"
BOM = b"\xef\xbb\xbf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def golden(game: str, name: str) -> tuple[bytes, dict[str, Any], dict[str, Any]]:
    """A golden record as bytes and as JSON, and the referee's verdict on it."""
    text = (RECORDS / game / f"{name}.json").read_bytes()
    verdict = json.loads((RECORDS / game / f"{name}.expect.json").read_text(encoding="utf-8"))
    return text, json.loads(text), verdict


def download(client: FlaskClient, table: str) -> bytes:
    response = client.get(f"/t/{table}/sheet.csv")
    assert response.status_code == 200, response.text[-800:]
    assert response.mimetype == "text/csv"
    assert response.headers["Cache-Control"] == "no-store"
    return response.data


def read(data: bytes) -> list[list[str]]:
    """The spreadsheet's rows as a spreadsheet reads them: UTF-8 after its byte order mark."""
    assert data.startswith(BOM)
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def sheet_of(client: FlaskClient, table: str) -> list[list[str]]:
    return read(download(client, table))


def running(scores: list[dict[str, int]], players: list[str]) -> list[dict[str, int]]:
    """The running totals after each round of ``scores``."""
    out, sums = [], dict.fromkeys(players, 0)
    for round_scores in scores:
        sums = {p: sums[p] + round_scores[p] for p in players}
        out.append(sums)
    return out


# --- the spreadsheet, game by game ------------------------------------------------------------


def test_a_blackout_spreadsheet_has_each_round_with_its_one_in_front_scores(
    client: FlaskClient,
) -> None:
    text, record, verdict = golden("blackout", "default-4p")
    table = upload(client, text)
    response = client.get(f"/t/{table}/sheet.csv")
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(
        r"attachment; filename=blackout-\d{4}-\d{2}-\d{2}-[A-Za-z0-9_-]{8}-sheet\.csv",
        disposition,
    ), disposition
    header, *rounds, total = read(download(client, table))
    players = record["players"]
    assert header == ["Round", "Cards", "Deals", "Trump"] + [
        f"{p}: {column}" for p in players for column in ("Bid", "Tricks won", "Points", "Total")
    ]
    scores = [r["scores"] for r in verdict["rounds"]]
    sums = running(scores, players)
    assert len(rounds) == len(verdict["rounds"]) == len(record["rounds"]) == 25
    for row, told, entered, sum_after in zip(
        rounds, verdict["rounds"], record["rounds"], sums, strict=True
    ):
        assert row[:2] == [str(told["number"]), str(told["hand_size"])]
        if entered.get("dealer"):
            assert row[2] == entered["dealer"]
        trump = entered.get("trump")
        assert row[3] == (SUITS[trump[-1]] if trump else "—")  # the whole deck: no trump
        for seat, player in enumerate(players):
            bid, took, score, after = row[4 + 4 * seat : 8 + 4 * seat]
            assert (int(bid), int(took)) == (entered["bids"][player], entered["tricks"][player])
            # docs/rules.md: an exact bid scores the bid with a 1 in front, a missed one nothing.
            exact = entered["bids"][player] == entered["tricks"][player]
            assert int(score) == (int("1" + bid) if exact else 0) == told["scores"][player]
            assert int(after) == sum_after[player]
    assert any(row[4 + 4 * s + 2] == "13" for row in rounds for s in range(4))  # bid 3, made
    assert total == ["Total", "", "", ""] + [
        cell for p in players for cell in ("", "", "", str(verdict["totals"][p]))
    ]


def test_an_alles_oder_nichts_spreadsheet_says_open_or_secret_and_every_bid_once_played(
    client: FlaskClient,
) -> None:
    text, record, verdict = golden("alles-oder-nichts", "default-4p")
    header, *rounds, total = sheet_of(client, upload(client, text))
    players = record["players"]
    columns = ("Bid", "Open or secret", "Tricks won", "Points", "Total")
    assert header == ["Round", "Cards", "Deals", "Trump"] + [
        f"{p}: {column}" for p in players for column in columns
    ]
    sums = running([r["scores"] for r in verdict["rounds"]], players)
    for row, told, entered, sum_after in zip(
        rounds, verdict["rounds"], record["rounds"], sums, strict=True
    ):
        assert row[3] == entered["trump"].split("-")[0]  # a card's colour, or the colour
        for seat, player in enumerate(players):
            bid, shown, took, score, after = row[4 + 5 * seat : 9 + 5 * seat]
            declared = entered["bids"][player]
            assert int(bid) == declared["bid"]  # a secret bid too: its round is over
            assert shown == ("open" if declared["open"] else "secret")
            assert int(took) == entered["tricks"][player]
            assert (int(score), int(after)) == (told["scores"][player], sum_after[player])
    assert total[-1] == str(verdict["totals"][players[-1]])


def test_a_sealed_bid_is_not_in_the_spreadsheet_before_its_round_is_over(app: Flask) -> None:
    sheets = []
    for bid in (6, 0):  # two tables alike but for Cho's sealed bid
        keeper = app.test_client()
        table = round_two(app, keeper)
        ok(seal(keeper, table, 3, bid))
        sheets.append(download(keeper, table))
    assert sheets[0] == sheets[1]
    header, first, second, _ = read(sheets[1])
    cho = header.index("Cho: Bid")
    assert first[cho : cho + 5] == ["2", "open", "2", "7", "7"]  # docs/rules.md: 2 × 2 + 3
    assert second[cho : cho + 5] == ["", "secret", "", "", ""]  # sealed, and nothing scored yet
    for seat in (1, 2):
        ok(post(keeper, table, "declare", player=seat, choice="open-2"))
    ok(post(keeper, table, "tricks", tricks_1=2, tricks_2=2, tricks_3=1))
    _, _, second, _ = sheet_of(keeper, table)
    assert second[cho : cho + 3] == ["0", "secret", "1"]  # over: turned up


def test_an_ebbes_spreadsheet_has_a_column_per_role_and_scores_below_zero_as_numbers(
    client: FlaskClient,
) -> None:
    text, record, verdict = golden("ebbes", "default-3p")
    header, *rounds, total = sheet_of(client, upload(client, text))
    players = record["players"]
    roles = ["trump", "plus", "ebbes", "minus", "nix"]
    assert header == ["Round", "Cards", "Starts", *roles] + [
        f"{p}: {column}" for p in players for column in ("Points", "Total")
    ]
    sums = running([r["scores"] for r in verdict["rounds"]], players)
    for row, told, entered, sum_after in zip(
        rounds, verdict["rounds"], record["rounds"], sums, strict=True
    ):
        nix = [c for c in EBBES_COLOURS if c not in entered["designations"]]
        assert row[:8] == [
            str(told["number"]),
            str(told["hand_size"]),
            entered["starter"],
            *entered["designations"],
            *nix,
        ]
        assert row[8:] == [str(n) for p in players for n in (told["scores"][p], sum_after[p])]
    assert "-3" in rounds[0]  # Ben's minus: a number, not text behind a quote
    assert total == ["Total", *[""] * 7] + [
        cell for p in players for cell in ("", str(verdict["totals"][p]))
    ]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_negative_score_is_shown_with_a_minus_sign_and_kept_a_number_in_the_spreadsheet(
    client: FlaskClient, lang: str
) -> None:
    """People read "−3" (U+2212) on the sheet, its explanation, the standings, TV and the round
    screen, in either language; the spreadsheet keeps "-3", a number it can add up."""
    text, record, verdict = golden("ebbes", "default-3p")
    table = upload(client, text)
    players = record["players"]
    below = [p for p in players if verdict["totals"][p] < 0]
    assert below  # the golden game ends with a total below zero
    assert "-3" in sheet_of(client, table)[1]
    client.set_cookie("lang", lang)
    pages = {path: client.get(f"/t/{table}{path}").text for path in ("", "/sheet", "/tv")}
    pages["/standings"] = client.get(f"/t/{table}/standings").text
    for path, page in pages.items():
        shown = re.sub(r"<[^>]*>", " ", page)  # the text, without tags and their attributes
        assert re.findall(r"(?<![\w-])-\d", shown) == [], path  # no hyphen for a minus
        for player in below:
            assert f"\u2212{-verdict['totals'][player]}" in shown, (path, player)
    each = "−1 each → −3" if lang == "en" else "−1 je Karte → −3"
    assert each in html.unescape(pages["/sheet"])  # round 1's minus, explained


def test_a_table_without_rounds_has_the_header_and_zero_totals(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Zoë", "Даша"), {"max_cards": 2})
    header, total = sheet_of(client, table)
    assert header[4:6] == ["Zoë: Bid", "Zoë: Tricks won"] and header[8] == "Даша: Bid"
    assert total == ["Total", "", "", "", "", "", "", "0", "", "", "", "0"]


# --- what a spreadsheet must not run, and who may download ------------------------------------


@pytest.mark.parametrize("text", ["=1+2", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx", "=", "-"])
def test_text_that_a_spreadsheet_would_run_as_a_formula_starts_with_a_quote(text: str) -> None:
    assert cell_text(text) == "'" + text


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("x;=1+1;", "x;'=1+1;"),
        ('b,"=2', "b,'\"=2"),
        ("=a;+b,-c", "'=a;'+b,'-c"),
        ("a;b, -c", "a;b, -c"),
    ],
)
def test_a_formula_after_a_separator_inside_a_text_gets_a_quote_there(text: str, cell: str) -> None:
    assert cell_text(text) == cell


@pytest.mark.parametrize("value", ["Ann", "Zoë", "a=b", "1+2", "—", "'quoted", " =x", 0, -3, 110])
def test_other_cells_are_kept_as_they_are(value: str | int) -> None:
    assert cell_text(value) == value
    assert cell_text(None) == ""


def test_names_and_colours_that_look_like_formulas_stay_text(
    app: Flask, client: FlaskClient
) -> None:
    names = ("=1+2", "+Ben", "-Cho", "@Dee")
    table = new_table(app, client, "blackout", names, {"max_cards": 2})
    ok(post(client, table, "trump", trump="H"))
    header, first, _ = sheet_of(client, table)
    assert header[4:] == [
        f"'{name}: {column}"
        for name in names
        for column in ("Bid", "Tricks won", "Points", "Total")
    ]
    assert first[:4] == ["1", "1", "'=1+2", "♥"]  # the dealer's name too
    colours = ["=red", "+yellow", "@green", "blue"]
    other = app.test_client()
    table = new_table(app, other, "alles-oder-nichts", ("Ann", "Ben", "Cho"), {"colours": colours})
    ok(post(other, table, "trump", trump="=red"))
    _, first, _ = sheet_of(other, table)
    assert first[3] == "'=red"


#: Names that start a formula where a spreadsheet splits a row at ``;`` or ``,`` inside them.
SPLIT = {"Ann": "x;=1+1;", "Ben": 'b,"=2+2', "Cho": "c;-3,@SUM(A1)"}


def split_cells(data: bytes, separator: str) -> list[list[str]]:
    """The rows as a spreadsheet that splits them at ``separator`` reads them."""
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=separator))


@pytest.mark.parametrize(("lang", "separator"), [("en", ","), ("de", ";")])
def test_no_cell_is_a_formula_whichever_separator_a_spreadsheet_splits_at(
    client: FlaskClient, lang: str, separator: str
) -> None:
    text, _, verdict = golden("ebbes", "default-3p")
    for old, new in SPLIT.items():
        text = text.replace(json.dumps(old).encode(), json.dumps(new).encode())
    data = client.get(f"/t/{upload(client, text)}/sheet.csv?lang={lang}").data
    for splits_at in ",;":
        for row in split_cells(data, splits_at):
            for cell in row:
                # A number below zero is a number: nothing else may start as a formula does.
                assert not cell.startswith(FORMULA_STARTS) or re.fullmatch(r"-\d+", cell), cell
    header, *rounds, total = split_cells(data, separator)  # as the reader's spreadsheet splits
    assert all(len(row) == len(header) for row in [*rounds, total])
    assert header[:3] == (
        ["Round", "Cards", "Starts"] if lang == "en" else ["Runde", "Karten", "Beginnt"]
    )
    assert header[8] == "x;'=1+1;: " + ("Points" if lang == "en" else "Punkte")
    starters = {row[2] for row in rounds}
    assert starters <= {"x;'=1+1;", "b,'\"=2+2", "c;'-3,'@SUM(A1)"} and len(starters) == 3
    ben = [row[10] for row in rounds]  # Ben's scores: numbers, below zero too
    assert ben == [str(r["scores"]["Ben"]) for r in verdict["rounds"]] and "-3" in ben
    assert total[-1] == str(verdict["totals"]["Cho"])


def test_the_separator_follows_the_readers_language(client: FlaskClient) -> None:
    """``;`` where a comma is the decimal mark, as Excel splits there; every number is whole, so
    no decimal mark is ever written."""
    text, _, _ = golden("blackout", "default-4p")
    table = upload(client, text)
    english, german = (
        client.get(f"/t/{table}/sheet.csv?lang={lang}").data for lang in ("en", "de")
    )
    assert english.decode("utf-8-sig").startswith('"Round","Cards","Deals","Trump",')
    assert german.decode("utf-8-sig").startswith('"Runde";"Karten";"Geber";"Trumpf";')
    assert b"." not in german.split(b"\r\n", 1)[1] and b"." not in english.split(b"\r\n", 1)[1]


def test_anyone_holding_a_link_may_download_the_spreadsheet_and_nobody_else(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho"))
    stranger = app.test_client()
    refused = stranger.get(f"/t/{table}/sheet.csv")
    assert refused.status_code == 403 and refused.mimetype == "text/html"
    refused = stranger.get(f"/t/{table}/sheet.xlsx")
    assert refused.status_code == 403 and refused.mimetype == "text/html"
    join(app, stranger, table, "viewer")
    assert download(stranger, table) == download(client, table)
    assert rows_of(score_sheet(stranger, table)) == rows_of(score_sheet(client, table))
    assert app.test_client().get("/t/nope/sheet.csv").status_code == 404
    assert app.test_client().get("/t/nope/sheet.xlsx").status_code == 404


def test_the_sheet_page_and_the_navigation_bar_link_the_spreadsheet(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 2})
    for path in (f"/t/{table}/sheet", f"/t/{table}", f"/t/{table}/history"):
        page = client.get(path).text
        assert f'href="/t/{table}/sheet.csv" download' in page, path
        assert f'href="/t/{table}/sheet.xlsx" download>Spreadsheet (.xlsx)</a>' in page, path
    page = client.get(f"/t/{table}/sheet").text
    assert "Download the sheet as a spreadsheet (CSV)" in page
    assert "Download the sheet as a spreadsheet (.xlsx)" in page
    german = client.get(f"/t/{table}/sheet?lang=de").text
    assert "Punkteblock als Tabelle herunterladen (.xlsx)" in german
    assert f'href="/t/{table}/sheet.xlsx" download>Tabelle (.xlsx)</a>' in german


def test_libreoffice_opens_the_spreadsheet_with_its_characters(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    office = tool("libreoffice", "soffice")
    table = new_table(app, client, "blackout", ("Zoë", "Даша", "=1+2"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="H"))
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(download(client, table))
    command = [office, "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "html"]
    subprocess.run([*command, "--outdir", str(tmp_path), str(sheet)], check=True, timeout=300)
    shown = html.unescape((tmp_path / "sheet.html").read_text(encoding="utf-8", errors="replace"))
    assert "Zoë" in shown and "Даша" in shown and "♥" in shown and "=1+2" in shown


# --- the spreadsheet as .xlsx, and both in LibreOffice ----------------------------------------


def workbook(client: FlaskClient, path: str) -> Worksheet:
    """The one sheet of the ``.xlsx`` download at ``path``."""
    response = client.get(path)
    assert response.status_code == 200, response.text[-800:]
    assert response.mimetype == XLSX
    assert response.headers["Cache-Control"] == "no-store"
    book = load_workbook(io.BytesIO(response.data))
    assert len(book.worksheets) == 1
    return book.worksheets[0]


def score_sheet(client: FlaskClient, table: str, lang: str = "en") -> Worksheet:
    return workbook(client, f"/t/{table}/sheet.xlsx?lang={lang}")


def rows_of(sheet: Worksheet) -> list[list[Any]]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def renamed(text: bytes, names: dict[str, str]) -> bytes:
    """A record with its players renamed (every place the record names them)."""
    for old, new in names.items():
        text = text.replace(json.dumps(old).encode(), json.dumps(new, ensure_ascii=False).encode())
    return text


#: Players whose names hold what a spreadsheet can get wrong: letters beyond ASCII, a suit, and
#: the start of a formula.
ODD_NAMES = {"Ann": "Zoë", "Ben": "=1+2", "Cho": "Даша ♦"}


def header_style(sheet: Worksheet) -> None:
    """The header is bold and stays in view, and the others are not bold; each column is at
    least as wide as its heading, and none is wider than a screen."""
    assert all(cell.font.bold for cell in sheet[1])
    assert not any(cell.font.bold for row in sheet.iter_rows(min_row=2) for cell in row)
    assert sheet.freeze_panes == "A2"
    for cell in sheet[1]:
        width = sheet.column_dimensions[cell.column_letter].width
        assert len(str(cell.value)) < width <= 40, (cell.value, width)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("game", "name"), [("blackout", "default-4p"), ("ebbes", "default-3p")])
def test_the_xlsx_holds_the_csvs_values_with_numbers_as_numbers(
    client: FlaskClient, lang: str, game: str, name: str
) -> None:
    text, _, verdict = golden(game, name)
    table = upload(client, renamed(text, ODD_NAMES))
    response = client.get(f"/t/{table}/sheet.xlsx")
    assert re.fullmatch(
        rf"attachment; filename={game}-\d{{4}}-\d{{2}}-\d{{2}}-[A-Za-z0-9_-]{{8}}-sheet\.xlsx",
        response.headers["Content-Disposition"],
    ), response.headers["Content-Disposition"]
    sheet = score_sheet(client, table, lang)
    assert sheet.title == {"en": "Score sheet", "de": "Punkteblock"}[lang]
    header_style(sheet)
    rows = rows_of(sheet)
    csv_rows = split_cells(client.get(f"/t/{table}/sheet.csv?lang={lang}").data, ",;"[lang == "de"])
    assert len(rows) == len(csv_rows) == len(verdict["rounds"]) + 2
    for row, csv_row in zip(rows, csv_rows, strict=True):
        # The CSV's cells, but for the quote that keeps a formula from running: an .xlsx cell of
        # text is never a formula, so it holds the name as typed.
        assert ["" if v is None else str(cell_text(v)) for v in row] == csv_row
    assert any(str(v).startswith("=1+2: ") for v in rows[0])  # as typed, no quote in front
    assert "=1+2" in {row[2] for row in rows[1:-1]}  # who deals or starts: text, not 3
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if cell.value is None:
                continue
            # a score is a number, whatever the text of the CSV (a name is text, even "=1+2")
            assert cell.data_type == ("n" if isinstance(cell.value, int) else "s"), cell.value
    numbers = [v for row in rows[1:-1] for v in row if isinstance(v, int)]
    assert len(numbers) >= 2 * len(verdict["rounds"])  # round and cards, at least
    totals = [v for v in rows[-1] if v is not None][1:]
    assert totals == list(verdict["totals"].values())
    if game == "ebbes":
        assert min(totals + numbers) < 0  # below zero: a number too
    else:
        assert "♦" in {row[3] for row in rows[1:-1]}  # 7D: diamonds are trump


def test_the_csv_starts_with_a_byte_order_mark_in_either_language(
    app: Flask, client: FlaskClient
) -> None:
    """Without it Excel reads the UTF-8 as its own code page, and "Zoë" and "♦" come out as
    "ZoÃ«" and "â™¦"."""
    table = new_table(app, client, "blackout", ("Zoë", "Ben"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="D"))
    for lang in ("en", "de"):
        data = client.get(f"/t/{table}/sheet.csv?lang={lang}").data
        assert data[:3] == BOM and data.count(BOM) == 1
        assert "Zoë" in data[3:].decode("utf-8") and "♦" in data[3:].decode("utf-8")


def friday_renamed(client: FlaskClient) -> str:
    """The Friday club (``tests/groups/friday-club.json``) with Ann renamed "Zoë ♦"."""
    data = FRIDAY.read_bytes().replace(b'"Ann"', '"Zoë ♦"'.encode())
    return imported(client, data)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_standings_download_as_an_xlsx_with_the_pages_numbers(
    app: Flask, client: FlaskClient, lang: str
) -> None:
    group = friday_renamed(client)
    page = client.get(f"/g/{group}/standings?season=all&lang={lang}").text
    link = re.search(r'href="(/g/[^"]+/standings\.xlsx\?season=all)" download>([^<]*)<', page)
    assert link and link.group(2) == {"en": "Spreadsheet (.xlsx)", "de": "Tabelle (.xlsx)"}[lang]
    viewer = app.test_client()
    assert viewer.get(link.group(1)).status_code == 403
    join_group(app, viewer, group, "viewer")
    sheet = workbook(viewer, f"{link.group(1)}&lang={lang}")
    response = viewer.get(link.group(1))
    assert re.fullmatch(
        r"attachment; filename=group-[A-Za-z0-9_-]{8}-all-standings\.xlsx",
        response.headers["Content-Disposition"],
    ), response.headers["Content-Disposition"]
    assert sheet.title == {"en": "Standings", "de": "Rangliste"}[lang]
    header_style(sheet)
    header, *rows = rows_of(sheet)
    assert header == {
        "en": [
            "Game", "Place", "Player", "Rating", "Uncertainty", "Wins", "Finished games",
            "Win rate", "Avg place",
        ],
        "de": [
            "Spiel", "Platz", "Spieler", "Spielstärke", "Unsicherheit", "Siege",
            "Beendete Spiele", "Siegquote", "Ø Platz",
        ],
    }[lang]  # fmt: skip
    doc = json.loads(viewer.get(f"/g/{group}/stats.json?season=all").data)
    titles = {name: game.title for name, game in GAMES.items()}
    expected = []
    for game, figures in doc["games"].items():
        # the page's order, places and ratings: each player's row in the game's table on the
        # standings page, its rating and ± the figures the page shows (and ranks by)
        section = page.split(f'id="game-{game}"')[1].split("</table>")[0]
        shown = re.findall(
            r'<tr><td>(\d+)</td>\s*<th scope="row"><a [^>]*>([^<]*)</a></th>\s*'
            r'<td class="num">(?:([−\d.,]+) <small>± ([\d.,]+)</small>|–)</td>',
            section,
        )
        assert len(shown) == len(figures["players"])

        def number(text: str) -> float | None:
            return float(text.replace(",", ".").replace("−", "-")) if text else None

        by_name = {p["name"]: p for p in figures["players"].values()}
        for place, name, rating, sigma in shown:
            p = by_name[html.unescape(name)]
            expected.append(
                [
                    titles[game], int(place), html.unescape(name), number(rating), number(sigma),
                    p["wins"], p["complete"], p["win_rate"], p["average_place"],
                ]
            )  # fmt: skip
    assert rows == expected
    # Ben and Cho are level in all the standings rank by (27.9 ± 8.2, one finished game each):
    # they share the first place, in roster order
    assert [row[:3] for row in rows[:3]] == [
        ["Blackout", 1, "Ben"],
        ["Blackout", 1, "Cho"],
        ["Blackout", 3, "Dee"],
    ]
    assert "Zoë ♦" in [row[2] for row in rows]
    assert all(isinstance(row[3], float) for row in rows if row[3] is not None)
    formats = [cell.number_format for cell in sheet[2]]
    assert formats[3:5] == ["0.0", "0.0"] and formats[7:] == ["0%", "0.00"]
    assert (rows[0][3], rows[0][4]) == (27.9, 8.2)  # "27.9 ± 8.2", as the page shows it


#: How ``soffice --convert-to`` writes the sheets it opened, so that Python's csv module reads
#: them back exactly: comma-separated, text in double quotes, UTF-8 (76), from row 1.
AS_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1"
#: How LibreOffice's Text Import dialog is filled in when a CSV is double-clicked on a fresh
#: profile (``CSVImport`` in its ``main.xcd``: separated by comma, semicolon and tab, text in
#: double quotes, from row 1), with the file's character set, UTF-8, which the byte order mark
#: names (76). ``soffice --headless`` shows no dialog: without ``--infilter`` it splits at commas
#: only and reads the mark as text in the first cell.
DOUBLE_CLICK = "CSV:44/59/9,34,76,1"


def libreoffice(files: list[Path], out: Path, *infilter: str) -> dict[str, list[list[str]]]:
    """What LibreOffice (a profile of its own: default settings) shows of each of ``files``,
    cell by cell, by file name."""
    office = tool("libreoffice", "soffice")
    profile = f"-env:UserInstallation={(out / 'profile').as_uri()}"
    command = [office, profile, "--headless", *infilter, "--convert-to", AS_CSV]
    subprocess.run(
        [*command, "--outdir", str(out), *map(str, files)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    shown = {}
    for file in files:
        text = (out / f"{file.stem}.csv").read_text(encoding="utf-8")
        shown[file.name] = list(csv.reader(io.StringIO(text, newline="")))
    return shown


def xlsx_cells(rows: list[list[Any]]) -> list[list[str]]:
    """A sheet's values as LibreOffice's CSV writes them: no number format (whole numbers and
    text), an empty cell as nothing."""
    return [["" if value is None else str(value) for value in row] for row in rows]


def test_libreoffice_opens_the_spreadsheets_with_every_value_in_its_own_cell(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """The CSV in English (``,``) and German (``;``) as a double-click opens it, and the .xlsx
    at LibreOffice's default settings: every value in a cell of its own, in its place, with "ö",
    "Даша" and "♦" as they are and "=1+2" as text."""
    table = new_table(app, client, "blackout", ("Zoë", "Даша ♦", "=1+2", "Jörg"), {"max_cards": 3})
    ok(post(client, table, "trump", trump="D"))
    for seat in (2, 3, 4, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=0, tricks_3=0, tricks_4=0))
    files, expected = [], {}
    for lang in ("en", "de"):
        csv_file, xlsx_file = tmp_path / f"sheet-{lang}.csv", tmp_path / f"book-{lang}.xlsx"
        data = client.get(f"/t/{table}/sheet.csv?lang={lang}").data
        csv_file.write_bytes(data)
        xlsx_file.write_bytes(client.get(f"/t/{table}/sheet.xlsx?lang={lang}").data)
        expected[csv_file.name] = split_cells(data, ",;"[lang == "de"])
        expected[xlsx_file.name] = xlsx_cells(rows_of(score_sheet(client, table, lang)))
        files.append((csv_file, xlsx_file))
    csvs = libreoffice([c for c, _ in files], tmp_path / "csv", f"--infilter={DOUBLE_CLICK}")
    books = libreoffice([x for _, x in files], tmp_path / "xlsx")  # no filter: the defaults
    shown = csvs | books
    assert shown == expected
    for name, rows in shown.items():
        cells = {cell for row in rows for cell in row}
        assert {"♦", "10"} <= cells, name  # diamonds trump; a bid of 0 made scores 10
        header = " ".join(rows[0])
        assert "Zoë" in header and "Даша ♦" in header and "Jörg" in header, name
        assert "=1+2" in header, name
        assert len(rows[0]) == 4 + 4 * 4 and all(len(row) == len(rows[0]) for row in rows), name
    assert shown["sheet-de.csv"][0][:4] == ["Runde", "Karten", "Geber", "Trumpf"]
    assert shown["book-de.xlsx"][0][:4] == ["Runde", "Karten", "Geber", "Trumpf"]
    assert shown["book-en.xlsx"][0][4:6] == ["Zoë: Bid", "Zoë: Tricks won"]


def test_libreoffice_opens_the_standings_xlsx_with_its_numbers(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    group = friday_renamed(client)
    files, expected = [], {}
    for lang in ("en", "de"):
        book = tmp_path / f"standings-{lang}.xlsx"
        book.write_bytes(client.get(f"/g/{group}/standings.xlsx?season=all&lang={lang}").data)
        files.append(book)
        expected[book.name] = rows_of(
            workbook(client, f"/g/{group}/standings.xlsx?lang={lang}&season=all")
        )
    shown = libreoffice(files, tmp_path / "out")
    for name, rows in shown.items():
        values = expected[name]
        assert len(rows) == len(values) and rows[0] == values[0], name
        for row, want in zip(rows[1:], values[1:], strict=True):
            assert row[:3] == [want[0], str(want[1]), want[2]] and row[5:7] == [
                str(want[5]),
                str(want[6]),
            ], (name, row)
            # the numbers as the page shows them: one decimal, a percentage, two decimals
            for shown_number, number, places in zip(
                row[3:5] + row[8:], want[3:5] + want[8:], (1, 1, 2), strict=True
            ):
                assert shown_number == ("" if number is None else f"{number:.{places}f}"), row
            assert row[7] == ("" if want[7] is None else f"{round(want[7] * 100)}%"), row
        assert "Zoë ♦" in {row[2] for row in rows}, name
    assert shown["standings-de.xlsx"][0][:4] == ["Spiel", "Platz", "Spieler", "Spielstärke"]


# --- the play for BG Stats --------------------------------------------------------------------

#: The play's fields as "Push plays to BG Stats from other apps or websites" documents them
#: (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/),
#: each with its JSON type; those marked False are optional and left out by this app.
PLAY = {
    "sourceName": (str, True),
    "sourcePlayId": (str, True),
    "playDate": (str, True),
    "durationMin": (int, True),
    "game": (dict, True),
    "players": (list, True),
    "board": (str, False),
    "comments": (str, False),
    "location": (str, False),
}
GAME = {
    "name": (str, True),
    "highestWins": (bool, True),
    "noPoints": (bool, True),
    "sourceGameId": (str, True),
    "bggId": (int, False),
}
PLAYER = {
    "name": (str, True),
    "sourcePlayerId": (str, True),
    "score": ((int, float), True),
    "rank": (int, True),
    "winner": (bool, True),
    "startPlayer": (bool, True),
    "role": (str, True),
}
#: The pages' short link to the play (``/t/<id>/bgstats``), which sends the browser on to BG Stats.
LINK = re.compile(r'href="(/t/[\w-]+/bgstats)"')


def of_format(value: dict[str, Any], fields: dict[str, tuple[Any, bool]]) -> None:
    """``value`` has every field the format asks for and no other, each of its type (a bool is
    not taken for a number, nor a number for a bool)."""
    required = {name for name, (_, needed) in fields.items() if needed}
    assert required <= value.keys() <= fields.keys(), value.keys()
    for name, item in value.items():
        kind = fields[name][0]
        assert isinstance(item, kind) and (kind is bool) == isinstance(item, bool), (name, item)


def decoded(link: str) -> dict[str, Any]:
    """The play a createPlay link carries, checked against the format as it is read."""
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    play: dict[str, Any] = json.loads(query["data"][0])
    of_format(play, PLAY)
    of_format(play["game"], GAME)
    assert play["players"]
    for player in play["players"]:
        of_format(player, PLAYER)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", play["playDate"])
    return play


def links_on(client: FlaskClient, table: str) -> list[str]:
    """The BG Stats links on the table's round screen and its sheet page, each as the address
    the page's short link sends the browser on to; with no link on a page, the short link's
    address is not found."""
    found = []
    for path in (f"/t/{table}", f"/t/{table}/sheet"):
        page = client.get(path).text
        links = LINK.findall(page)
        assert len(links) == ("Log this play in BG Stats" in page), path
        if not links:
            assert client.get(f"/t/{table}/bgstats").status_code == 404
        for link in links:
            assert html.unescape(link) == f"/t/{table}/bgstats"
            sent = client.get(link)
            assert sent.status_code == 303, sent.status_code
            found.append(sent.headers["Location"])
    return found


def played_to_the_end(app: Flask, setup: Setup, minutes: float) -> tuple[str, State]:
    """A table of ``setup`` played to its end with legal entries, the first entered at 19:00 UTC
    on 1 May 2024 and the last ``minutes`` later; and its state."""
    rng = random.Random(11)
    with app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (entry := next_entry(state, rng)) is not None:
            event, state = entry
            seq = append_entry(table, seq, "event", event.to_dict())
        began = datetime(2024, 5, 1, 19, 0, tzinfo=UTC)
        for at in range(1, seq + 1):
            when = began + timedelta(minutes=minutes) * (at - 1) / (seq - 1)
            where = (Entry.table_id == table) & (Entry.seq == at)
            db.session.execute(update(Entry).where(where).values(created_at=when))
        db.session.commit()
    return table, state


#: A short game of each game, its title and who begins it (``GAMES``: a game without one fails
#: here). The player left of round 1's dealer bids first and leads (rules.md).
FINISHED = {
    "blackout": (
        Setup("blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2}, "Ann"),
        "Blackout",
        "Ben",
    ),
    "alles-oder-nichts": (
        Setup("alles-oder-nichts", ("Ann", "Ben", "Zoë"), {}, "Zoë"),
        "Alles oder Nichts",
        "Ann",
    ),
    "ebbes": (Setup("ebbes", ("Ann", "Ben", "Cho"), {}, "Cho"), "ebbes", "Cho"),
}


@pytest.mark.parametrize(
    ("setup", "title", "starts"), [FINISHED[game] for game in GAMES], ids=list(GAMES)
)
def test_a_finished_game_links_its_play_to_bg_stats_in_their_format(
    app: Flask, setup: Setup, title: str, starts: str
) -> None:
    table, state = played_to_the_end(app, setup, minutes=95.4)
    for kind in ("keeper", "viewer"):
        phone = app.test_client()
        join(app, phone, table, kind)
        links = links_on(phone, table)
        assert len(links) == 2 and links[0] == links[1]
        play = decoded(links[0])
        assert play["sourceName"] == "Table Referee" and play["sourcePlayId"] == table
        assert play["playDate"] == "2024-05-01 19:00:00"
        assert play["durationMin"] == 95
        assert play["game"] == {
            "name": title,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": setup.game,
        }
        totals, winners = state.totals(), state.winners()
        assert [p["name"] for p in play["players"]] == list(setup.players)
        for player in play["players"]:
            name = player["name"]
            assert player["sourcePlayerId"] == name and player["role"] == ""
            assert player["score"] == totals[name]
            assert player["rank"] == 1 + sorted(totals.values(), reverse=True).index(totals[name])
            assert player["winner"] == (name in winners)
            assert player["startPlayer"] == (name == starts)


def test_players_on_the_same_total_share_their_place(client: FlaskClient) -> None:
    text, record, verdict = golden("blackout", "shared-win-3p-max1")
    play = decoded(links_on(client, upload(client, text))[0])
    assert len(verdict["winners"]) == 2
    ranks = {p["name"]: p["rank"] for p in play["players"]}
    winners = {p["name"] for p in play["players"] if p["winner"]}
    assert winners == set(verdict["winners"]) and {ranks[w] for w in winners} == {1}
    others = set(record["players"]) - winners
    assert {ranks[p] for p in others} == {3}
    assert play["durationMin"] == 0  # an uploaded record's entries are all stored at once


def test_a_clock_set_back_during_the_game_makes_no_play_of_negative_minutes(app: Flask) -> None:
    setup = Setup("blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2}, "Ann")
    table, _ = played_to_the_end(app, setup, minutes=-30)  # the last entry's time before the first
    phone = app.test_client()
    join(app, phone, table, "viewer")
    play = decoded(links_on(phone, table)[0])
    assert play["playDate"] == "2024-05-01 19:00:00" and play["durationMin"] == 0


def test_only_a_finished_table_links_to_bg_stats(app: Flask, client: FlaskClient) -> None:
    _, record, _ = golden("blackout", "default-4p")
    begun = json.dumps(record | {"rounds": record["rounds"][:3]}).encode()  # 3 rounds of 25
    assert links_on(client, upload(client, begun)) == []
    # One round of one card each: the whole deck, so no trump (docs/rules.md).
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 1})
    assert links_on(client, table) == []
    for seat, bid in ((2, 0), (1, 0)):
        ok(post(client, table, "bid", player=seat, bid=bid))
        assert links_on(client, table) == []
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    assert "The game is over." in client.get(f"/t/{table}").text
    assert len(links_on(client, table)) == 2
    page = client.get(f"/t/{table}").text
    ok(client.post(f"/t/{table}/undo", data={"seq": hidden(page, "seq")}))
    assert links_on(client, table) == []  # the last entry undone: the game goes on
