"""The faces a sheet prints with: built-in when they do, embedded when a letter needs it; which
letters they print, what becomes of the others, and how plain text is broken into lines."""

import pytest

from referee.sheets import BlankCard, blank_card, fonts, table_sheet
from referee.sheets.layout import Text, own
from tests.sheets.reading import font_names, page_texts
from tests.sheets.test_score_sheet import blackout


@pytest.mark.parametrize("name", ["Zoë", "Jörg", "Łukasz", "Даша", "Ελένη", "Ørjan", "Ñandú"])
def test_latin_greek_and_cyrillic_names_print_as_they_are(name):
    assert fonts.printable(name) == name
    assert fonts.missing([name]) == []


def test_a_letter_without_a_glyph_prints_as_a_question_mark_and_is_named():
    assert fonts.printable("李伟 Ann") == "?? Ann"
    assert fonts.missing(["李伟", "Ann", "伟"]) == ["李", "伟"]


def test_control_characters_never_reach_the_page():
    assert fonts.printable("A\r\nB\x00") == "A??B?"
    assert fonts.missing(["A\r\nB"]) == []  # not letters anybody meant to print


def test_long_text_is_shortened_to_fit():
    short = fonts.shorten("Bartholomew-Maximilian", 40, 9)
    assert short.endswith("…") and fonts.width(short, 9) <= 40
    assert fonts.shorten("Ann", 40, 9) == "Ann"


def test_the_sheets_own_words_use_only_letters_the_font_has():
    with pytest.raises(ValueError, match="no glyph"):
        own("bid 3 → 13")


def test_a_sheet_in_western_letters_prints_in_the_built_in_faces_and_embeds_nothing():
    pdf = table_sheet(blackout(("Zoë", "Jörg", "Ørjan", "François")))
    assert font_names(pdf) == {"Helvetica", "Helvetica-Bold"}
    text = "\n".join(page_texts(pdf))
    assert all(name in text for name in ("Zoë", "Jörg", "Ørjan", "François"))


@pytest.mark.parametrize("name", ["Łukasz", "Даша", "Ελένη", "李伟"])
def test_one_letter_outside_them_prints_the_whole_sheet_in_the_embedded_font(name):
    pdf = blank_card(BlankCard("blackout", 3, names=("Ann", name, "Cho")))
    found = font_names(pdf)  # (reportlab names Helvetica on every page, as the canvas' default)
    assert {"OpenSans-Regular (embedded)", "OpenSans-Bold (embedded)"} <= found
    assert "Helvetica-Bold" not in found
    if name != "李伟":
        assert name in "\n".join(page_texts(pdf))


def test_the_faces_in_use_are_the_embedded_ones_outside_a_sheet():
    assert fonts.current() is fonts.EMBEDDED
    table_sheet(blackout(("Ann", "Ben", "Cho")))
    assert fonts.current() is fonts.EMBEDDED


def test_long_plain_text_breaks_into_lines_that_fit_and_splits_between_pages():
    words = [f"word{n}" for n in range(300)] + ["x" * 400]
    text = Text(" ".join(words), 9)
    _, height = text.wrap(200, 10_000)
    assert len(text.lines) > 20 and height == pytest.approx(len(text.lines) * 9 * 1.25)
    assert all(fonts.width(line, 9) <= 200 for line in text.lines)
    assert " ".join(text.lines).replace(" ", "") == "".join(words)  # nothing lost, a cut word too
    first, rest = text.split(200, 100)
    assert first.wrap(200, 100)[1] <= 100
    rest.wrap(200, 10_000)
    assert first.lines + rest.lines == text.lines
    assert text.split(200, 5) == []  # not even one line fits: the whole text moves on
