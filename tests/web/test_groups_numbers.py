"""The group's standings and profiles through the web: every number a value of the statistics
document (``/g/<id>/stats.json``, exactly ``python -m referee stats --json`` of the group's file),
for the current season, an earlier one or all time; each number saying what it counts; guests
without a profile, retired players with theirs; tables not counting, in play or breaking a rule
named beside the numbers; and nothing added up again while the group does not change.

The group is the hand-checked Friday club (``tests/groups/friday-club.json``, its numbers worked
out in ``tests/groups/test_stats_by_hand.py``), loaded from its file."""

from __future__ import annotations

import html
import json
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from flask import Flask

from referee.groups.report import stats_text
from referee.rules import GAMES
from tests.groups.test_rating_shown import cli_ratings, duels_bytes
from tests.groups.test_stats_by_hand import FRIDAY
from tests.web.group_helpers import imported, join_group, main_text, stored
from tests.web.helpers import ok


def cli(data: bytes, season: str | None = None) -> dict:
    status, output = stats_text(data, season, as_json=True)
    assert status in (0, 1), output
    return json.loads(output)


def web(client, group_id: str, season: str = "all") -> dict:
    response = client.get(f"/g/{group_id}/stats.json?season={season}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return json.loads(response.data)


def rows(page: str) -> list[list[str]]:
    """The rows of a page's standings tables, each cell's words."""
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", page, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        found.append([" ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells])
    return found


def numbers_of(page: str) -> dict[str, str]:
    """A profile's numbers: each ``<details class="number">``'s label → value."""
    found = re.findall(
        r'<summary><span class="label">(.*?)</span> <span class="value">(.*?)</span>', page
    )
    return {html.unescape(label): " ".join(html.unescape(value).split()) for label, value in found}


def test_the_pages_are_rendered_from_the_groups_statistics(app: Flask, client) -> None:
    data = FRIDAY.read_bytes()
    group = imported(client, data)
    assert web(client, group) == cli(data)  # tables in the file's order: the same numbers
    assert web(client, group, "2025-01-01") == cli(data, "2025")
    assert web(client, group, "2026-01-01") == cli(data, "2026")
    assert web(client, group, "") == cli(data, "2026")  # the current season (it is 2026 on)
    page = client.get(f"/g/{group}/standings?season=all").text
    blackout = rows(page.split('id="game-blackout"')[1].split("</table>")[0])
    assert blackout[1:] == [
        ["1", "Ben", "27.9 ± 8.2", "1/1 100%", "1.00"],  # level with Cho in all the order
        ["1", "Cho", "27.9 ± 8.2", "1/1 100%", "1.00"],  # goes by: they share the place
        ["3", "Dee", "25.8 ± 8.1", "0/1 0%", "2.00"],
        ["4", "Ann", "22.2 ± 7.8", "0/2 0%", "2.50"],
    ]
    doc = cli(data)
    for game, figures in doc["games"].items():
        section = page.split(f'id="game-{game}"')[1].split("</table>")[0]
        for (_pid, p), row in zip(
            sorted(figures["players"].items(), key=lambda item: standing(item[1])),
            rows(section)[1:],
            strict=True,
        ):
            assert row[1] == p["name"] and row[3].startswith(f"{p['wins']}/{p['complete']}")


def shown(value: float) -> float:
    """A figure as the pages show it, to one decimal, a half rounded up."""
    return float(Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def standing(p: dict) -> tuple:
    """The standings' order as docs/group-format.md states it: the rating shown, the higher
    first; then the smaller ± shown; then more finished games; no rating last."""
    if p["rating"] is None:
        return (1, 0.0, 0.0, -p["complete"])
    return (0, -shown(p["rating"]["mu"]), shown(p["rating"]["sigma"]), -p["complete"])


def test_the_standings_rank_by_the_rating_they_show(app, client) -> None:
    """Ben's 27.6 ± 8.1 above Ann's 27.5 ± 7.6, though Ann's hidden cautious figure (mu − 3
    sigma) is the higher: what is ranked is what is shown."""
    group = imported(client, duels_bytes())
    page = client.get(f"/g/{group}/standings?season=all").text
    blackout = rows(page.split('id="game-blackout"')[1].split("</table>")[0])
    assert blackout[1:] == [
        ["1", "Ben", "27.6 ± 8.1", "1/1 100%", "1.00"],
        ["2", "Ann", "27.5 ± 7.6", "2/3 67%", "1.33"],
    ]
    assert "Players are listed by their rating as shown here, the highest first." in page
    assert "cautious" not in page
    ann = client.get(f"/g/{group}/p/p1?game=blackout&season=all")
    assert glance(ann.text) == {
        "Place": "2 of 2",
        "Rating": "27.5 ± 7.6",
        "Win rate": "67% 2/3",
        "Points": "22",
    }


def glance(page: str) -> dict[str, str]:
    """A profile's numbers at a glance, at its top: each label → its value's words."""
    found = re.findall(r"<div><dt>(.*?)</dt><dd>(.*?)</dd></div>", page.split("<dl class")[1])
    return {
        html.unescape(label): " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())
        for label, value in found
    }


@pytest.mark.parametrize("which", ["friday", "duels"])
def test_the_command_line_shows_the_rating_the_pages_show(app, client, which) -> None:
    """Each player's Rating column of ``python -m referee stats`` is the rating and ± of the
    standings, the profile and its glance, in the same order."""
    data = FRIDAY.read_bytes() if which == "friday" else duels_bytes()
    group = imported(client, data)
    page = client.get(f"/g/{group}/standings?season=all").text
    doc = cli(data)
    for game, figures in doc["games"].items():
        section = page.split(f'id="game-{game}"')[1].split("</table>")[0]
        on_page = [(row[1], row[2]) for row in rows(section)[1:]]
        printed = [
            (name, rating.replace("-", "–"))
            for name, rating in cli_ratings(data, GAMES[game].title)
        ]
        assert printed == on_page
        by_name = {p["name"]: pid for pid, p in figures["players"].items()}
        for name, rating in on_page:
            profile = client.get(f"/g/{group}/p/{by_name[name]}?game={game}&season=all").text
            assert glance(profile)["Rating"] == rating
            if rating != "–":
                assert numbers_of(profile)["Rating"] == rating


def test_a_profile_shows_every_number_of_its_game_each_saying_what_it_counts(app, client):
    data = FRIDAY.read_bytes()
    group = imported(client, data)
    ann = cli(data)["games"]["blackout"]["players"]["p1"]
    page = client.get(f"/g/{group}/p/p1?game=blackout&season=all")
    assert page.status_code == 200
    shown = numbers_of(page.text)
    assert shown == {
        "Rating": "22.2 ± 7.8",
        "Tables": "3",
        "Finished games": "2",
        "Wins": "0",
        "Win rate": "0%",
        "Average place": "2.50",
        "Best game": "22",
        "Longest winning streak": "0",
        "Current streak": "0",
        "Rounds": str(ann["rounds"]),
        "Points": str(ann["points"]),
        "Bids made": str(ann["bids_made"]),
        "Over the bid": str(ann["over"]),
        "Under the bid": str(ann["under"]),
        "Zero bids": str(ann["zero_bids"]),
        "Zero bids made": str(ann["zero_made"]),
        "Rounds dealt": str(ann["dealer_rounds"]),
        "Dealt and made": str(ann["dealer_made"]),
    }
    details = re.findall(r'<details class="number"[^>]*>.*?<p>(.*?)</p>', page.text, re.S)
    assert len(details) == len(shown) and all(len(sentence) > 20 for sentence in details)
    text = main_text(page)
    assert "Finishes behind Ben, Cho and Dee most often: 1 time." in text
    assert "Has finished ahead of nobody yet." in text
    assert "<svg" in page.text and "The chart in words" in text  # the rating chart, and in words
    alles = numbers_of(client.get(f"/g/{group}/p/p1?game=alles-oder-nichts&season=all").text)
    assert {"Declared open", "Open and made", "Declared secret", "Secret and made"} <= set(alles)
    ebbes = numbers_of(client.get(f"/g/{group}/p/p1?game=ebbes&season=all").text)
    assert (ebbes["Plus points"], ebbes["Minus points"], ebbes["Ebbes bonus"]) == ("12", "−3", "1")
    assert ebbes["In the nix majority"] == "2"


def test_guests_have_no_profile_and_retired_players_keep_theirs(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    ben = client.get(f"/g/{group}/p/p2?game=blackout&season=all")  # retired
    assert ben.status_code == 200 and "retired" in main_text(ben)
    assert numbers_of(ben.text)["Wins"] == "1"
    for nobody in ("Gus", "p9", "p1 ", ""):
        assert client.get(f"/g/{group}/p/{nobody}?season=all").status_code == 404
    assert client.get(f"/g/{group}/p/p1?game=whist").status_code == 404
    assert client.get(f"/g/{group}/standings?season=2024-01-01").status_code == 404
    eve = client.get(f"/g/{group}/p/p5?season=all")  # only a table that does not count
    assert eve.status_code == 200 and "sat at no counted table" in main_text(eve)


def test_the_season_picker_and_the_default_season(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    page = client.get(f"/g/{group}/standings")
    assert "Season 2026, from" in main_text(page)
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', page.text)
    assert options == [
        ("2026-01-01", " selected", "2026"),
        ("2025-01-01", "", "2025"),
        ("all", "", "All time"),
    ]
    earlier = main_text(client.get(f"/g/{group}/standings?season=2025-01-01"))
    assert "Season 2025" in earlier and "Alles oder Nichts" not in earlier
    assert f'href="/g/{group}/standings"' in client.get(f"/g/{group}").text  # from the group page


def test_tables_in_play_not_counting_or_breaking_a_rule_are_named(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    text = main_text(client.get(f"/g/{group}/standings?season=all"))
    assert "in play Its complete rounds count, but no win and no rating" in text
    assert "Feb 6, 2026 · table 3" in text and "Mar 13, 2026 · table 6" in text
    assert "doesn't count Kept by the group, counted nowhere: Feb 13, 2026 · table 4" in text
    assert "breaks a rule" not in text
    fourth = stored(app, group).tables[3].table_id  # in the order played, as in the file
    page = client.get(f"/g/{group}/t/{fourth}").text
    assert "doesn't count" in page
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    ok(client.post(f"/g/{group}/t/{fourth}", data={"action": "counts", "version": version}))
    text = main_text(client.get(f"/g/{group}/standings?season=all"))
    assert "breaks a rule Counted as the table kept it: Feb 13, 2026 · table 4" in text
    assert web(client, group)["breaking"] == [4]


def test_a_viewer_reads_the_numbers_and_the_file(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    viewer = app.test_client()
    join_group(app, viewer, group, "viewer")
    for path in ("/standings", "/p/p1", "/stats.json", "/group.json"):
        assert viewer.get(f"/g/{group}{path}").status_code == 200, path
    stranger = app.test_client()
    for path in ("/standings", "/p/p1", "/stats.json", "/group.json"):
        assert stranger.get(f"/g/{group}{path}").status_code == 403, path


@pytest.mark.speed_layer
def test_the_numbers_are_added_up_once_per_change(app, client, monkeypatch) -> None:
    from referee.web.groups import numbers

    group = imported(client, FRIDAY.read_bytes())
    made: list[object] = []
    real = numbers.table_facts

    def counted(state):
        made.append(state)
        return real(state)

    summed: list[object] = []
    real_statistics = numbers.statistics

    def adding(*args):
        summed.append(args)
        return real_statistics(*args)

    monkeypatch.setattr(numbers, "table_facts", counted)
    monkeypatch.setattr(numbers, "statistics", adding)
    client.get(f"/g/{group}/standings?season=all")
    assert len(made) == 6 and len(summed) == 1  # every table that counts, once
    made.clear()
    summed.clear()
    for path in ("/standings?season=all", "/p/p1?season=all", "/p/p3?season=all", "/stats.json"):
        assert client.get(f"/g/{group}{path}").status_code == 200
    assert made == [] and len(summed) == 1  # the 2026 season's document, from kept facts


def test_the_standings_offer_the_season_report(app, client) -> None:
    from tests.sheets.reading import page_texts

    group = imported(client, FRIDAY.read_bytes())
    page = client.get(f"/g/{group}/standings?season=2025-01-01").text
    link = re.search(r'href="(/g/[^"]+/report\.pdf\?season=2025-01-01)"', page).group(1)
    viewer = app.test_client()
    join_group(app, viewer, group, "viewer")
    response = viewer.get(link)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    text = " ".join(" ".join(page_texts(response.data)).split())
    assert "Friday club — season report Season 2025" in text
    assert "1 Ben 27.9 ± 8.2 1 1 1 100% 1.00 31 1 1" in text and "2 Ann" in text
    german = client.get(f"/g/{group}/report.pdf", headers={"Accept-Language": "de"})
    text = " ".join(" ".join(page_texts(german.data)).split())
    assert "Saisonbericht Saison 2026" in text and "Spielstärke" in text
    assert app.test_client().get(link).status_code == 403


@pytest.mark.parametrize("which", ["friday", "duels"])
def test_the_season_report_prints_the_rating_the_pages_and_the_command_line_show(
    app, client, which
) -> None:
    """The PDF's standings, read back, have the page's places, names and ratings in the page's
    order, each rating the command line's too, and the chart's line ends the same ratings."""
    from tests.sheets.reading import page_texts

    data = FRIDAY.read_bytes() if which == "friday" else duels_bytes()
    group = imported(client, data)
    page = client.get(f"/g/{group}/standings?season=all").text
    pdf = client.get(f"/g/{group}/report.pdf?season=all")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = " ".join(" ".join(page_texts(pdf.data)).split())
    for game, _figures in cli(data)["games"].items():
        section = page.split(f'id="game-{game}"')[1].split("</table>")[0]
        on_page = rows(section)[1:]
        printed = dict(cli_ratings(data, GAMES[game].title))
        at = text.index(f"{GAMES[game].title} ")
        for place, name, rating, *_rest in on_page:  # in the page's order
            at = text.index(f" {place} {name} {rating} ", at) + 1
            assert printed[name].replace("-", "–") == rating
            if rating != "–":
                assert f"{name} {rating.split()[0]}" in text  # the chart's line ends
    if which == "duels":
        assert "1 Ben 27.6 ± 8.1 1 1 1 100% 1.00 11 1 1 2 Ann 27.5 ± 7.6 3 3 2 67% 1.33" in text
    assert "players are listed by the rating as printed, the highest first" in text


def test_a_table_breaking_a_rule_says_so_on_its_page(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    tables = stored(app, group).tables
    fourth = main_text(client.get(f"/g/{group}/t/{tables[3].table_id}"))  # the hook rule
    assert "breaks a rule The table holds a breach of its game's rules" in fourth
    assert "breaks a rule" not in main_text(client.get(f"/g/{group}/t/{tables[0].table_id}"))


def test_the_standings_name_the_roster_players_without_a_counted_table(app, client) -> None:
    group = imported(client, FRIDAY.read_bytes())
    text = main_text(client.get(f"/g/{group}/standings?season=2025-01-01")).replace(" ,", ",")
    assert "On the roster, without a counted table in this season: Cho, Dee, Eve" in text
    text = main_text(client.get(f"/g/{group}/standings?season=all"))
    assert "without a counted table in this season: Eve" in text  # hers does not count
