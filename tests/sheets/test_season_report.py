"""The season report (``referee.sheets.season``) read back: for the hand-checked Friday club
(``tests/groups/friday-club.json``, its numbers worked out in
``tests/groups/test_stats_by_hand.py``), each game's standings in rating order with the
document's numbers, each player's line, the chart's names, in English and German; and through
the web, the standings page's download of the season shown."""

from __future__ import annotations

import re

from babel.support import Translations

from referee import TRANSLATIONS
from referee.groups.facts import stats_part
from referee.groups.figures import Statistics
from referee.groups.report import ranked
from referee.rules import GAMES
from referee.sheets import Page
from referee.sheets.season import GameWords, season_report
from tests.groups.figures import statistics_of
from tests.groups.test_stats_by_hand import FRIDAY
from tests.sheets.reading import page_texts

GERMAN = Translations.load(TRANSLATIONS, ["de"])


def document(season: str | None = None) -> Statistics:
    return statistics_of(FRIDAY.read_bytes(), season)


def words_of(doc: Statistics) -> dict[str, GameWords]:
    return {
        game: GameWords(
            GAMES[game].title,
            [(key, stats_part(game).labels[key]) for key in stats_part(game).keys],
            [pid for pid, _p in ranked(figures.players)],
        )
        for game, figures in doc.games.items()
    }


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(page_texts(pdf)).split())


def test_the_report_prints_the_standings_and_each_players_line() -> None:
    doc = document()
    pdf = season_report(doc, words_of(doc))
    assert pdf.startswith(b"%PDF")
    text = text_of(pdf)
    assert "Friday club — season report" in text and "All time: every counted table" in text
    assert "Blackout 3 counted tables" in text
    standings = [
        "1 Ben 27.9 ± 8.2 2 1 1 100% 1.00 31 1 1",  # level with Cho in all the order
        "1 Cho 27.9 ± 8.2 1 1 1 100% 1.00 33 1 1",  # goes by: they share the place
        "3 Dee 25.8 ± 8.1 2 1 0 0% 2.00 30 0 0",
        "4 Ann 22.2 ± 7.8 3 2 0 0% 2.50 22 0 0",
    ]
    assert " ".join(standings) in text  # in the standings' order, as stats prints them
    assert "Alles oder Nichts 2 counted tables" in text and "ebbes 1 counted table" in text
    ann = doc.games["blackout"].players["p1"]
    line = f"Ann — rounds: {ann.rounds} · points: {ann.points} · Bids made: 3"
    assert line in text
    ebbes = doc.games["ebbes"].players["p1"].counts
    assert f"Plus points: {ebbes['plus_points']} · Minus points: {ebbes['minus_points']}" in text
    assert "Ratings after each finished table, in the order played" in text
    for name in ("Cho 27.9", "Ben 27.9", "Dee 25.8", "Ann 22.2"):
        assert name in text  # each line's end
    assert "breaks a rule" not in text


def test_the_report_of_a_season_in_german() -> None:
    doc = document("2026")
    pdf = season_report(doc, words_of(doc), Page("letter"), words=GERMAN)
    text = text_of(pdf)
    assert "Friday club — Saisonbericht" in text and "Saison 2026" in text
    assert re.search(r"1 Cho 27,9 ± 8,2 1 1 1 100 % 1,00 33 1 1", text)
    assert "Ann — Runden: 4 · Punkte: 11 · Ansagen erfüllt: 1 · Über der Ansage: 1" in text
    assert "Spielstärke nach jedem beendeten Tisch" in text


def test_a_report_of_nothing_says_so() -> None:
    doc = Statistics("Empty", "S1", {}, ())
    text = text_of(season_report(doc, {}))
    assert "No table counts in this season yet." in text
