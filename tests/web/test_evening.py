"""The evening at a glance (referee/web/evening/): the summary of the round just scored on the
round screen, the standings page with its score chart, and the tab bar that reaches them."""

from __future__ import annotations

import html
import itertools
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules import GAMES
from tests.links import join
from tests.web.helpers import hidden, new_table, ok, post, undo
from tests.web.test_exports import golden
from tests.web.test_sheets_web import upload

SVG = "{http://www.w3.org/2000/svg}"
#: A complete golden record of each game (``GAMES``: a game without one fails here).
WHOLE = {"blackout": "default-4p", "alles-oder-nichts": "default-4p", "ebbes": "extended-4p"}
GOLDEN = [(game, WHOLE[game]) for game in GAMES]


def text_of(page: str) -> str:
    """A page's main content as the reader sees it: tags out, entities read, spaces collapsed."""
    main = page.split("<main>", 1)[1].split("</main>", 1)[0]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


def section(page: str, title_id: str) -> str:
    """The text of the page's section labelled by ``title_id``."""
    found = re.search(rf'<section[^>]*aria-labelledby="{title_id}".*?</section>', page, re.S)
    assert found, f"no section {title_id}"
    return text_of(f"<main>{found.group(0)}</main>").strip()


def begun(game: str, name: str, rounds: int) -> tuple[bytes, dict[str, Any], dict[str, Any]]:
    """A golden record cut after ``rounds`` rounds, and the referee's verdict on those rounds."""
    _, record, verdict = golden(game, name)
    return json.dumps(record | {"rounds": record["rounds"][:rounds]}).encode(), record, verdict


def number(n: int) -> str:
    """A number as the pages show it: a negative one with a minus sign (U+2212)."""
    return f"−{-n}" if n < 0 else str(n)


def points(n: int) -> str:
    return f"{number(n)} point" if abs(n) == 1 else f"{number(n)} points"


@pytest.mark.parametrize(("game", "name"), GOLDEN)
def test_the_round_screen_says_what_the_round_just_scored(
    client: FlaskClient, game: str, name: str
) -> None:
    text, record, verdict = begun(game, name, 2)
    page = client.get(f"/t/{upload(client, text)}").text
    told = section(page, "summary-title")
    assert told.startswith("Round 2 scored")
    scores = verdict["rounds"][1]["scores"]
    for player in record["players"]:
        said = re.escape(points(scores[player]))
        assert re.search(rf"{player}\b[^.]*: {said}\.|{player}: [^.→]* → {said}\.", told), (
            player,
            told,
        )
        assert "-" not in told, "a hyphen for a minus sign"
    totals = {p: sum(r["scores"][p] for r in verdict["rounds"][:2]) for p in record["players"]}
    best = max(totals.values())
    ahead = [p for p in record["players"] if totals[p] == best]
    best_shown = number(best)
    lead = (
        f"{ahead[0]} leads with {best_shown}."
        if len(ahead) == 1
        else f"share the lead with {best_shown}."
    )
    assert lead in told
    # Told right above the next round's step while that round has nothing in it yet (the page
    # opens at it); lower down, under the totals, once it has.
    assert page.index('id="round-title"') < page.index('id="summary-title"')
    assert page.index('id="summary-title"') < page.index('id="next-title"')
    assert re.search(r'<section class="panel summary" id="summary" [^>]*data-landing>', page)


def test_a_blacked_out_bid_and_a_made_one_are_said_so(app: Flask, client: FlaskClient) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 1})
    assert 'id="summary-title"' not in client.get(f"/t/{table}").text  # nothing scored yet
    for seat in (2, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    told = section(client.get(f"/t/{table}").text, "summary-title")
    assert "Ann bid 0, took 0 and made it: 10 points." in told
    assert "Ben bid 0, took 1 and blacked out: 0 points." in told
    assert "Ann wins with 10." in told  # the only round: the game is over, nobody "leads"
    german = client.get(f"/t/{table}?lang=de").text
    assert "Ann gewinnt mit 10." in section(german, "summary-title")
    assert "führt" not in german
    assert "Gewinner:\n        Ann" in german


def test_a_shared_win_names_the_winners_with_and(app: Flask, client: FlaskClient) -> None:
    """Two on the highest total after the last round: they share the win, "Ann and Cho" ("Ann
    und Cho" in German), not "Ann, Cho"."""
    table = new_table(app, client, "blackout", ("Ann", "Ben", "Cho"), {"max_cards": 1})
    for seat in (2, 3, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1, tricks_3=0))  # Ben blacks out
    told = section(client.get(f"/t/{table}").text, "summary-title")
    assert "Ann and Cho share the win with 10." in told
    german = client.get(f"/t/{table}?lang=de").text
    assert "Ann und Cho gewinnen gemeinsam mit 10." in section(german, "summary-title")
    assert "Geteilter Sieg:\n        Ann und Cho" in german


def test_an_ebbes_summary_says_what_each_player_scored_with(
    app: Flask, client: FlaskClient
) -> None:
    """ebbes: each player's plus cards, minus cards and ebbes bonus, then the points, with a
    minus sign and the singular where the number asks for them."""
    table = new_table(app, client, "ebbes", ("Ann", "Ben", "Cho", "Dee"))
    ok(post(client, table, "number", number=3))
    for colour in ("red", "yellow", "green", "blue"):  # trump, plus, ebbes, minus
        ok(post(client, table, "designate", colour=colour))
    won = {  # purple, nix: 2 each
        "yellow": (3, 5, 0, 0),
        "green": (2, 4, 0, 2),  # Ann's and Dee's 2: neither the most (4) nor the fewest (0)
        "blue": (1, 3, 0, 4),
        "purple": (2, 2, 2, 2),
    }
    fields = {f"won_{seat}_{c}": n[seat - 1] for c, n in won.items() for seat in range(1, 5)}
    ok(post(client, table, "won", **fields))
    told = section(client.get(f"/t/{table}").text, "summary-title")
    assert "Ann: 3 plus cards +3, ebbes bonus +3, 1 minus card −1 → 5 points." in told
    assert "Ben: 5 plus cards +5, 3 minus cards −3 → 2 points." in told
    assert "Cho: no card that scores → 0 points." in told
    assert "Dee: ebbes bonus +3, 4 minus cards −4 → −1 point." in told
    assert "Ann leads with 5." in told
    german = section(client.get(f"/t/{table}?lang=de").text, "summary-title")
    assert "Dee: ebbes-Bonus +3, 4 Minuskarten −4 → −1 Punkt." in german
    standings = section(client.get(f"/t/{table}/standings").text, "summary-title")
    assert "Ann: 3 plus cards +3, ebbes bonus +3, 1 minus card −1 → 5 points." in standings


def test_tv_mode_tells_the_last_ebbes_round_part_by_part(client: FlaskClient) -> None:
    """TV mode, once the game is over, sums up its last round as the round screen does: each
    player's parts and points, read off the sheet."""
    text, record, verdict = golden("ebbes", WHOLE["ebbes"])
    table = upload(client, text)
    told = section(client.get(f"/t/{table}/tv").text, "summary-title")
    scores = verdict["rounds"][-1]["scores"]
    for player in record["players"]:
        assert re.search(rf"{player}: [^.→]+ → {re.escape(points(scores[player]))}\.", told), told


def second_round_begun(app: Flask, client: FlaskClient) -> str:
    """Ann and Ben, round 1 scored (both bid 1, Ann took the trick), round 2's first bid in."""
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 2})
    ok(post(client, table, "trump", trump="H"))
    for seat in (2, 1):
        ok(post(client, table, "bid", player=seat, bid=1))
    ok(post(client, table, "tricks", tricks_1=1, tricks_2=0))
    ok(post(client, table, "bid", player=1, bid=0))  # round 2 begins
    return table


def test_the_summary_stays_below_the_totals_once_the_next_round_begins(
    app: Flask, client: FlaskClient
) -> None:
    table = second_round_begun(app, client)
    page = client.get(f"/t/{table}").text
    assert section(page, "summary-title").startswith("Round 1 scored")
    assert page.index('id="totals-title"') < page.index('id="summary-title"')


def test_the_summary_of_the_round_before_follows_the_language_and_an_undo(
    app: Flask, client: FlaskClient
) -> None:
    # While a round is in play, the summary of the round before is told once per language and
    # kept: a German reader after an English one reads German, and the round told again after
    # an undo is the round as it now is.
    table = second_round_begun(app, client)
    told = section(client.get(f"/t/{table}?lang=en").text, "summary-title")
    assert "Ann bid 1, took 1 and made it: 11 points." in told
    german = section(client.get(f"/t/{table}?lang=de").text, "summary-title")
    assert "Ann" in german and "made it" not in german and german != told
    assert section(client.get(f"/t/{table}?lang=en").text, "summary-title") == told
    undo(client, table)  # round 2's bid
    undo(client, table)  # round 1's tricks
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    ok(post(client, table, "bid", player=1, bid=0))
    told = section(client.get(f"/t/{table}?lang=en").text, "summary-title")
    assert "Ann bid 1, took 0 and blacked out: 0 points." in told
    assert "Ben bid 1, took 1 and made it" in told


def standings_rows(page: str) -> list[list[str]]:
    body = page.split('<table class="standings">', 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S)
    cell = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
    return [[text_of(f"<main>{c}</main>").strip() for c in cell.findall(row)] for row in rows]


@pytest.mark.parametrize(("game", "name"), GOLDEN)
def test_the_standings_rank_the_referees_totals(client: FlaskClient, game: str, name: str) -> None:
    text, record, verdict = golden(game, name)
    rows = standings_rows(client.get(f"/t/{upload(client, text)}/standings").text)
    totals = verdict["totals"]
    best = max(totals.values())
    assert [int(r[2]) for r in rows] == sorted(totals.values(), reverse=True)
    assert {r[1] for r in rows} == set(record["players"])
    for rank, player, total, behind, *bids in rows:
        assert int(total) == totals[player]
        assert int(rank) == 1 + sum(t > totals[player] for t in totals.values())
        assert behind == ("—" if totals[player] == best else f"−{best - totals[player]}")
        if game == "ebbes":
            assert bids == []  # no bids in ebbes
            continue
        made = 0
        for rnd in record["rounds"]:
            bid = rnd["bids"][player]
            made += (bid["bid"] if isinstance(bid, dict) else bid) == rnd["tricks"][player]
        rounds = len(record["rounds"])
        assert bids == [f"{made} of {rounds} ({round(100 * made / rounds)} %)"]


def chart_of(page: str) -> ET.Element:
    found = re.search(r"<svg.*?</svg>", page, re.S)
    assert found, "no chart"
    return ET.fromstring(found.group(0))  # well-formed XML, or this raises


@pytest.mark.parametrize(("game", "name"), GOLDEN)
def test_the_chart_draws_and_labels_every_players_running_total(
    client: FlaskClient, game: str, name: str
) -> None:
    text, record, verdict = golden(game, name)
    svg = chart_of(client.get(f"/t/{upload(client, text)}/standings").text)
    assert svg.get("role") == "img"
    assert svg.findtext(f"{SVG}title") == "Running totals after each round"
    series = svg.findall(f"{SVG}g[@class]")
    series = [g for g in series if g.get("class", "").startswith("series")]
    assert len(series) == len(record["players"])
    ends = {}
    for group, player in zip(series, record["players"], strict=True):
        line = group.find(f"{SVG}polyline")
        assert line is not None and line.get("stroke") == "currentColor"  # the page's colours
        points = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
        assert len(points) == len(record["rounds"]) + 1  # from 0 before round 1
        label = group.findtext(f"{SVG}text")
        assert label == f"{player[:8]} {verdict['totals'][player]}"
        ends[player] = points[-1][1]
    # Higher totals end higher up (a smaller y), equal totals at the same height.
    by_total = sorted(record["players"], key=lambda p: verdict["totals"][p])
    for low, high in itertools.pairwise(by_total):
        assert (ends[low] > ends[high]) == (verdict["totals"][low] < verdict["totals"][high])
    # Told apart by more than colour: every line ends in a marker of its own.
    ends_in = {(g[1].tag, g[1].get("fill"), g[1].get("transform") is None) for g in series}
    assert len(ends_in) == len(series)


def test_standings_before_any_round_is_scored(app: Flask, client: FlaskClient) -> None:
    table = new_table(app, client, "alles-oder-nichts", ("Ann", "Ben", "Cho"))
    page = client.get(f"/t/{table}/standings").text
    assert "No round has been scored yet." in text_of(page)
    assert "<svg" not in page
    assert standings_rows(page) == [["1", p, "0", "—", "—"] for p in ("Ann", "Ben", "Cho")]


def test_a_long_name_is_shortened_on_the_chart_only(app: Flask, client: FlaskClient) -> None:
    table = new_table(app, client, "blackout", ("Maximiliane", "Ben"), {"max_cards": 1})
    for seat in (2, 1):
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", tricks_1=0, tricks_2=1))
    page = client.get(f"/t/{table}/standings").text
    labels = [t.text for t in chart_of(page).iter(f"{SVG}text") if t.text and "Ben" in t.text]
    assert labels == ["Ben 0"]
    assert "Maximil… 10" in page and '<th scope="row">Maximiliane</th>' in page


@pytest.mark.parametrize("kind", ["keeper", "viewer"])
def test_every_view_is_in_the_tab_bar(app: Flask, kind: str) -> None:
    phone = app.test_client()
    table = new_table(app, None, "ebbes", ("Ann", "Ben", "Cho"))
    join(app, phone, table, kind)
    for path, current in (("", "Table"), ("/sheet", "Sheet"), ("/standings", "Standings"),
                          ("/history", "History")):  # fmt: skip
        page = phone.get(f"/t/{table}{path}").text
        nav = page.split('<nav class="tabs"', 1)[1].split("</nav>", 1)[0]
        links = dict(re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav))
        expected = {
            f"/t/{table}": "Table",
            f"/t/{table}/sheet": "Sheet",
            f"/t/{table}/standings": "Standings",
            f"/t/{table}/history": "History",
            f"/t/{table}/sheet.pdf": "PDF",
            f"/t/{table}/sheet.xlsx": "Spreadsheet (.xlsx)",
            f"/t/{table}/sheet.csv": "CSV",
            f"/t/{table}/record.json": "Record",
            f"/t/{table}/tv": "TV",
            "/rules/ebbes": "Rules",
        }
        if kind == "keeper":
            expected[f"/t/{table}/share"] = "Share"
        assert links == expected, path
        assert re.findall(r'aria-current="page">([^<]+)<', nav) == [current], path


def test_tv_mode_leads_with_the_totals_and_the_round_being_played(client: FlaskClient) -> None:
    _, record, verdict = golden("blackout", "default-4p")
    playing = dict(record["rounds"][20])
    del playing["tricks"]
    playing["bids"] = dict(list(playing["bids"].items())[:2])  # two of four bids so far
    text = json.dumps(record | {"rounds": [*record["rounds"][:20], playing]}).encode()
    page = client.get(f"/t/{upload(client, text)}/tv").text
    assert page.index('id="tv-totals-title"') < page.index('id="tv-now-title"')
    assert page.index('id="tv-now-title"') < page.index('<table class="sheet')
    totals = {p: sum(r["scores"][p] for r in verdict["rounds"][:20]) for p in record["players"]}
    ranks = re.findall(
        r'<span class="tv-name">([^<]+)</span><span class="tv-total">(-?\d+)</span>', page
    )
    assert ranks == sorted(((p, str(t)) for p, t in totals.items()), key=lambda pt: -int(pt[1]))
    now = section(page, "tv-now-title")
    bids = playing["bids"]
    assert now.startswith("Round 21 of 25")
    assert all(f"{p}: {b}" in now for p, b in bids.items())
    assert f"Bids add up to {sum(bids.values())} of" in now
    assert len(chart_of(page).findall(f"{SVG}g[@class]")) == 1 + len(
        record["players"]
    )  # and a chart
    whose = re.search(r"Next: (\w+) bids", now)
    assert whose and whose.group(1) in record["players"] and whose.group(1) not in bids


def test_the_keep_awake_switch_is_on_the_keepers_table_page_and_tv_mode(
    app: Flask, client: FlaskClient
) -> None:
    table = new_table(app, client, "blackout", ("Ann", "Ben"), {"max_cards": 1})
    viewer = app.test_client()
    join(app, viewer, table, "viewer")
    for phone, path, shown in (
        (client, "", True), (client, "/tv", True), (viewer, "/tv", True),
        (viewer, "", False), (client, "/sheet", False),
    ):  # fmt: skip
        page = phone.get(f"/t/{table}{path}").text
        assert ("Keep the screen on" in page) is shown, (path, shown)
        if shown:  # switched on by the page's script only where the browser can
            assert re.search(r"<input type=\"checkbox\" data-awake-switch disabled>", page)
            assert "Keeping the screen on is not available in this browser." in page


def test_eight_lines_end_in_eight_different_markers(app: Flask, client: FlaskClient) -> None:
    players = tuple("ABCDEFGH")
    table = new_table(app, client, "blackout", players, {"max_cards": 1})
    for _ in players:  # everyone bids 0, in the order the page asks
        seat = hidden(client.get(f"/t/{table}").text, "player")
        ok(post(client, table, "bid", player=seat, bid=0))
    ok(post(client, table, "tricks", **{f"tricks_{n}": int(n == 1) for n in range(1, 9)}))
    svg = chart_of(client.get(f"/t/{table}/standings").text)
    series = [g for g in svg.findall(f"{SVG}g[@class]") if "series" in g.get("class", "")]
    assert [g.findtext(f"{SVG}text") for g in series] == ["A 0", *(f"{p} 10" for p in "BCDEFGH")]
    ends_in = {(g[1].tag, g[1].get("fill"), g[1].get("transform") is None) for g in series}
    assert len(ends_in) == 8
    label_ys = sorted(float(g.find(f"{SVG}text").get("y")) for g in series)  # type: ignore[union-attr, arg-type]
    assert all(b - a >= 15.9 for a, b in itertools.pairwise(label_ys))  # no two names overlap
