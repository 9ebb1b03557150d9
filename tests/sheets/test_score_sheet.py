"""A table's score sheet as PDF, read back: names, scores, totals, winners, pages, footnotes."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from referee.games.blackout.printed import BLACKED
from referee.records import load_record
from referee.rules import Setup, State, apply, replay, start
from referee.rules import events as ev
from referee.rules.wording import ENGLISH, names_list, number_text
from referee.sheets import Correction, Page, SheetInfo, fonts, table_sheet
from referee.sheets.grid import LABEL_SIZE
from tests.sheets.reading import line_of, page_sizes, page_texts, round_numbers, rows, words

RECORDS = Path(__file__).resolve().parents[1] / "records"
WORLD = ("Zoë", "Jörg", "Łukasz", "Даша", "Ελένη", "李伟")


def golden(path: str) -> State:
    return load_record((RECORDS / path).read_bytes()).replay()


def blackout(players: tuple[str, ...], **options) -> State:
    """A complete Blackout game: everybody bids 0 and one player, in turn, takes every trick."""
    state = start(Setup("blackout", players, options))
    game = state.game
    for number, size in enumerate(game.schedule, start=1):
        if not game.whole_deck(number):
            state = apply(state, ev.Trump(round=number, card="H"))
        for player in game.bidding_order(game.new_round(state, number)):
            state = apply(state, ev.Bid(round=number, player=player, bid=0))
        taker = players[number % len(players)]
        tricks = {p: size if p == taker else 0 for p in players}
        state = apply(state, ev.Tricks(round=number, tricks=tricks))
    assert state.complete
    return state


def test_the_golden_blackout_game_prints_its_scores_totals_and_winner():
    state = golden("blackout/default-4p.json")
    pdf = table_sheet(state, SheetInfo(date=date(2026, 3, 1)))
    text = "\n".join(page_texts(pdf))
    assert "Blackout — score sheet" in text and "2026-03-01" in text
    assert "1 Ann · 2 Ben · 3 Cho · 4 Dee" in text
    assert "Winner: Dee with 103 points" in text
    totals = line_of(pdf, "Total")
    assert (
        totals
        == [str(state.totals()[p]) for p in state.setup.players]
        == [
            "87",
            "38",
            "81",
            "103",
        ]
    )
    assert round_numbers(pdf) == list(range(1, 26))
    # Round 9: Ann bid 1 took 0 (blacked out), Ben bid 3 took 3 → 13, Cho blacked, Dee 12.
    assert line_of(pdf, "9") == [
        *["9", "Dee", "clubs"],
        *["1", "0", BLACKED, "41"],
        *["3", "3", "13", "13"],
        *["2", "4", BLACKED, "10"],
        *["2", "2", "12", "34"],
    ]
    # The max round deals the whole deck: no trump, in words.
    assert line_of(pdf, "13")[:4] == ["13", "Dee", "no", "trump"]


def test_every_missed_bid_is_blacked_out_and_the_legend_says_so():
    state = golden("blackout/default-4p.json")
    pdf = table_sheet(state)
    missed = sum(
        1
        for rnd in state.rounds
        for p, s in state.game.score_round(state, rnd).items()
        if rnd.bids[p] != rnd.tricks_won()[p]
    )
    assert sum(1 for w in words(pdf) if w.text == BLACKED) == missed + 1  # + the legend's
    assert "blacked out: the bid was missed and scores 0" in page_texts(pdf)[-1]


def test_the_rules_in_force_are_in_the_footer_of_every_page():
    state = blackout(("Ann", "Ben"))
    pdf = table_sheet(state)
    texts = page_texts(pdf)
    for number, text in enumerate(texts, start=1):
        assert (
            "Blackout · rules in force: sequence: up-down · hook: yes · scoring: prefix-one · "
            "max_cards: 26"
        ) in text
        assert f"page {number} of {len(texts)}" in text


def test_a_long_game_flows_onto_more_pages_with_the_header_on_each():
    state = blackout(("Ann", "Ben"))
    assert state.game.round_count == 51
    pdf = table_sheet(state)
    texts = page_texts(pdf)
    assert len(texts) > 1
    for number in range(1, len(texts) + 1):
        on_page = [w.text for w in words(pdf) if w.page == number]
        for label in ("Rd", "Cards", "Dealer", "Trump", "Ann", "Ben", "bid", "took", "pts"):
            assert label in on_page, (number, label)
    assert round_numbers(pdf) == list(range(1, 52))
    assert line_of(pdf, "Total") == [str(v) for v in state.totals().values()]


def test_names_in_other_scripts_print_and_letters_without_a_glyph_are_noted():
    state = blackout(WORLD, max_cards=2)
    pdf = table_sheet(state)
    text = "\n".join(page_texts(pdf))
    for name in WORLD[:5]:
        assert name in text
    assert not fonts.has_glyph("李")  # no small package has a CJK TrueType font (fonts.py)
    assert "6 ??" in text  # printed as "?" …
    assert "U+674E U+4F1F" in text  # … and said so, never an empty box
    assert "\x00" not in text


def test_a_secret_bid_is_not_printed_while_its_round_is_being_played():
    players = ("Ann", "Ben", "Cho")
    state = start(Setup("alles-oder-nichts", players))
    state = apply(state, ev.Trump(round=1, card="red"))
    state = apply(state, ev.Declare(round=1, player="Ben", open=True, bid=2))
    state = apply(state, ev.Declare(round=1, player="Cho", open=False, bid=5))  # sealed
    state = apply(state, ev.Declare(round=1, player="Ann", open=True, bid=1))
    assert state.current.bids["Cho"] == 5
    during = line_of(table_sheet(state), "1")
    assert during == ["6", "Ann", "red", "1", "o", "2", "o", "s"]
    state = apply(state, ev.Tricks(round=1, tricks={"Ann": 1, "Ben": 2, "Cho": 3}))
    after = line_of(table_sheet(state), "1")
    # Ann open 1 took 1: 2 + 3; Ben open 2 took 2: 4 + 3; Cho secret 5 took 3: 3.
    assert after == [
        *["6", "Ann", "red"],
        *["1", "o", "1", "5", "5"],
        *["2", "o", "2", "7", "7"],
        *["5", "s", "3", "3", "3"],
    ]


def test_the_golden_alles_game_prints_its_totals_and_open_secret_marks():
    state = golden("alles-oder-nichts/default-4p.json")
    pdf = table_sheet(state)
    totals = [number_text(state.totals()[p]) for p in state.setup.players]
    assert line_of(pdf, "Total") == totals
    texts = [w.text for w in words(pdf)]
    assert texts.count("o") + texts.count("s") == 7 * 4 + 2  # + the legend's
    assert "o = open bid, s = secret bid" in page_texts(pdf)[-1]


def test_ebbes_prints_the_number_and_every_colour_role_as_words():
    state = golden("ebbes/default-3p.json")
    pdf = table_sheet(state)
    texts = [w.text for w in words(pdf) if w.size <= LABEL_SIZE]  # the labels: small print
    for label in ("number", "trump", "starts"):  # in the strip of each of the 5 rounds
        assert texts.count(label) == 5, label
    for label in ("plus", "ebbes", "minus", "nix"):  # and a column of each of the 3 players
        assert texts.count(label) == 5 + 3, label
    first = state.rounds[0]
    lines = [[w.text for w in line] for line in rows(pdf)]
    labels = lines.index(["number", "trump", "plus", "ebbes", "minus", "nix", "starts"])
    values = lines[labels + 1]  # round 1's strip: the labels, and the values under them
    roles = first.role_map()
    assert values == [str(first.number_card), *roles.values(), first.leader]
    totals = [number_text(state.totals()[p]) for p in state.setup.players]
    assert line_of(pdf, "Total") == totals and "−3" in totals  # a minus sign, not a hyphen
    assert round_numbers(pdf) == [1, 2, 3, 4, 5]


def test_corrected_rounds_are_marked_and_footnoted():
    state = golden("blackout/default-4p.json")
    info = SheetInfo(corrections=(Correction(3, "entry 12 “Ben bid 2” was corrected."),))
    pdf = table_sheet(state, info)
    assert line_of(pdf, "3*")[:2] == ["3", "Ben"]
    assert round_numbers(pdf) == list(range(1, 26))
    text = page_texts(pdf)[-1]
    assert "Corrections (* on a round number)" in text
    assert "* Round 3: entry 12 “Ben bid 2” was corrected." in text


def test_breaches_noted_are_listed():
    state = golden("blackout/breach-hook.json")
    assert state.violations
    text = "\n".join(page_texts(table_sheet(state)))
    assert "Breaches noted" in text
    for breach in state.violations:
        assert f"Round {breach.round}: {breach.message}" in text.replace("\n", " ")


def test_a_game_in_progress_says_how_far_it_is_and_names_no_winner():
    state = golden("blackout/in-progress.json")
    text = page_texts(table_sheet(state))[0]
    assert "to play" in text and "Winner" not in text


def test_a_game_with_an_earlier_round_not_complete_is_not_called_complete():
    state = golden("blackout/breach-missing-middle-round.json")  # round 2 without its tricks
    assert not state.complete
    text = page_texts(table_sheet(state))[0]
    assert "round 2 of 3 to play" in text and "complete" not in text and "Winner" not in text


def test_a_shared_win():
    state = golden("blackout/shared-win-3p-max1.json")
    assert len(state.winners()) > 1
    said = "Shared win: " + names_list(state.winners(), ENGLISH)  # "Ann and Cho"
    assert said in page_texts(table_sheet(state))[0]


@pytest.mark.parametrize(
    ("paper", "orientation", "size"),
    [
        ("a4", "portrait", (595.3, 841.9)),
        ("a4", "landscape", (841.9, 595.3)),
        ("letter", "portrait", (612.0, 792.0)),
        ("letter", "landscape", (792.0, 612.0)),
    ],
)
def test_paper_and_orientation(paper, orientation, size):
    pdf = table_sheet(golden("blackout/default-4p.json"), page=Page(paper, orientation))
    assert set(page_sizes(pdf)) == {size}


def test_automatic_orientation_turns_the_page_for_many_players():
    assert page_sizes(table_sheet(blackout(("Ann", "Ben", "Cho"), max_cards=2)))[0] == (
        595.3,
        841.9,
    )
    eight = tuple("ABCDEFGH")
    assert page_sizes(table_sheet(blackout(eight, max_cards=2)))[0] == (841.9, 595.3)


def test_the_same_table_gives_the_same_bytes():
    state = golden("ebbes/default-3p.json")
    info = SheetInfo("Friday", date(2026, 1, 2), (Correction(2, "undone"),))
    assert table_sheet(state, info) == table_sheet(state, info)
    again = replay(
        state.setup, load_record((RECORDS / "ebbes/default-3p.json").read_bytes()).events
    )
    assert table_sheet(again, info) == table_sheet(state, info)
