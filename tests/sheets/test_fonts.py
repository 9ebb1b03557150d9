"""The embedded font: which letters it prints, and what becomes of the others."""

import pytest

from referee.sheets import fonts
from referee.sheets.layout import rich


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


def test_markup_is_escaped():
    assert fonts.markup("<b>Ann & Ben</b>") == "&lt;b&gt;Ann &amp; Ben&lt;/b&gt;"


def test_long_text_is_shortened_to_fit():
    short = fonts.shorten("Bartholomew-Maximilian", 40, 9)
    assert short.endswith("…") and fonts.width(short, 9) <= 40
    assert fonts.shorten("Ann", 40, 9) == "Ann"


def test_the_sheets_own_words_use_only_letters_the_font_has():
    with pytest.raises(ValueError, match="no glyph"):
        rich("bid 3 → 13")
