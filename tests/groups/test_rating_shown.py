"""One rating number (issue 41, item 6): the rating people read is ``mu`` as shown, to one decimal
("27.6 ± 8.1"), and the standings rank by exactly the figures shown: the higher rating first,
then the smaller ±, then the more finished games; players equal in all three share a place
(docs/group-format.md, "The rating"). The command line's table shows the same figures as the
web's pages and the season report (``tests/web/test_groups_numbers.py``,
``tests/sheets/test_season_report.py``).

``DUELS`` is a group where the figures and the hidden cautious rating (mu − 3 sigma) disagree:
Ann lost to a guest, then beat one twice (27.5 ± 7.6, cautious 4.7); Ben beat a guest once
(27.6 ± 8.1, cautious 3.4). Ben's rating shown is the higher: he is first."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.groups.rating import placed, shown, shown_rating, standing_key
from referee.groups.report import ranked, stats_text
from referee.rules import GAMES
from tests.groups.figures import rated, statistics_of


def duel(played: str, first: str, second: str, seats: dict[str, str | None]) -> dict[str, Any]:
    """A blackout table of two players and one card that ``first`` wins: both bid the trick,
    ``first`` takes it."""
    return {
        "played": played,
        "seats": seats,
        "record": {
            "format": "table-referee/1",
            "game": "blackout",
            "players": list(seats),
            "options": {"max_cards": 1, "sequence": "up"},
            "rounds": [{"bids": {first: 1, second: 1}, "tricks": {first: 1, second: 0}}],
        },
    }


ANN: dict[str, str | None] = {"Ann": "p1", "Gus": None}
DUELS: dict[str, Any] = {
    "format": "table-referee-group/1",
    "name": "Duels",
    "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}],
    "tables": [
        duel("2026-03-06T20:00:00+01:00", "Gus", "Ann", ANN),
        duel("2026-03-13T20:00:00+01:00", "Ann", "Gus", ANN),
        duel("2026-03-20T20:00:00+01:00", "Ann", "Gus", ANN),
        duel("2026-03-27T20:00:00+01:00", "Ben", "Hal", {"Ben": "p2", "Hal": None}),
    ],
}


def duels_bytes() -> bytes:
    return json.dumps(DUELS).encode()


def document(data: bytes) -> dict[str, Any]:
    status, output = stats_text(data, as_json=True)
    assert status == 0, output
    doc: dict[str, Any] = json.loads(output)
    return doc


def cli_ratings(data: bytes, game: str) -> list[tuple[str, str]]:
    """The command line's table of results for ``game``: each row's name and its Rating column
    (the last three words: "27.6 ± 8.1", or "-")."""
    text = stats_text(data)[1]
    part = text.split(f"\n{game}: ", 1)[1].split("\n\n", 2)[1]
    out = []
    for line in part.splitlines()[1:]:
        words = line.split()
        rating = " ".join(words[-3:]) if words[-2] == "±" else words[-1]
        out.append((words[0], rating))
    return out


def test_the_standings_rank_by_the_rating_shown_not_a_hidden_figure() -> None:
    players = statistics_of(duels_bytes()).games["blackout"].players
    ann, ben = players["p1"].rating, players["p2"].rating
    assert shown_rating(ann) == (27.5, 7.6) and shown_rating(ben) == (27.6, 8.1)
    assert (
        ann is not None and ben is not None and ann.ordinal > ben.ordinal
    )  # what the standings ranked by before: Ann first
    assert [pid for pid, _p in ranked(players)] == ["p2", "p1"]
    assert [(place, pid) for place, pid, _p in placed(ranked(players))] == [(1, "p2"), (2, "p1")]
    assert cli_ratings(duels_bytes(), "Blackout") == [("Ben", "27.6 ± 8.1"), ("Ann", "27.5 ± 7.6")]


def test_the_command_lines_rating_column_is_the_rating_shown() -> None:
    """Not the cautious figure (the column said "4.7" for Ann's 27.5 ± 7.6)."""
    from tests.groups.test_stats_by_hand import FRIDAY

    data = FRIDAY.read_bytes()
    doc = statistics_of(data)
    for game, figures in doc.games.items():
        title = GAMES[game].title
        expected = []
        for _pid, p in ranked(figures.players):
            pair = shown_rating(p.rating)
            expected.append((p.name, "-" if pair is None else f"{pair[0]:.1f} ± {pair[1]:.1f}"))
        assert cli_ratings(data, title) == expected


def test_ties_are_broken_by_the_figures_shown_then_share_a_place() -> None:
    players = {
        "a": rated(26.54, 3.0, 4),  # 26.5 ± 3.0: a rating shown below the others'
        "b": rated(26.55, 3.04, 2),  # 26.6 ± 3.0, 2 finished
        "c": rated(26.6, 2.96, 5),  # 26.6 ± 3.0, 5 finished: ahead of b
        "d": rated(26.649, 2.95, 2),  # 26.6 ± 3.0 (2.95 shown as 3.0), 2 finished: b's place
        "e": rated(26.56, 2.94, 1),  # 26.6 ± 2.9: the smallest ± of the 26.6s, first
        "f": rated(None),  # no rating: last
        "g": rated(19.0, 8.0, 1),
    }
    order = [(place, pid) for place, pid, _p in placed(ranked(players))]
    assert order == [(1, "e"), (2, "c"), (3, "b"), (3, "d"), (5, "a"), (6, "g"), (7, "f")]
    assert standing_key(players["b"]) == standing_key(players["d"])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (26.55, "26.6"),
        (26.549, "26.5"),
        (26.45, "26.5"),
        (8.05, "8.1"),
        (0.0, "0.0"),
        (-0.05, "-0.1"),
    ],
)
def test_a_figure_is_shown_to_one_decimal_a_half_rounded_up(value: float, text: str) -> None:
    """From the document's own figure (3 decimals), as people would round it; Python's own
    ``round`` or ``format`` would give 26.4 for 26.45 (it is 26.4499… as a float)."""
    assert f"{shown(value):.1f}" == text
