"""Players' names: what the engine's player check refuses, and what counts as the same name.

The app, the records and the command-line referee all seat players through ``start`` /
``check_players``, so one table of cases covers all three.
"""

import pytest

from referee.rules import Breach, IllegalEntry, Setup, start
from referee.rules.engine import GAMES, check_players


def refusal(*names: str) -> Breach:
    with pytest.raises(Breach) as caught:
        start(Setup("blackout", names))
    return caught.value


@pytest.mark.parametrize(
    "name",
    [
        "\u200b",  # a zero-width space alone
        "Be\u200bn",  # beside a Ben, it looks like one
        "Ann\u202egnp.exe",  # a right-to-left override: shows as "Annexe.png"
        "\x1b[31mAnn",  # an ANSI escape: recolours a terminal
        "Ann\nBen",  # a newline
        "Ann\u2028Ben",  # a line separator
        "Ann\x00",  # a NUL (no PostgreSQL text holds one)
        "Ann\ue000",  # private use
        "Ann\u0378",  # unassigned
        "Ann\ud800",  # a lone surrogate
    ],
)
def test_a_name_with_a_character_that_does_not_show_is_refused(name: str) -> None:
    breach = refusal(name, "Cho")
    assert (breach.rule, breach.code) == ("players", "unprintable-name")
    assert "holds a character that does not show" in breach.message
    assert repr(name) in breach.message  # shown escaped: the reader sees what is there


@pytest.mark.parametrize(
    "name",
    [
        " ",
        "\u00a0\u3000",
        "\t",
        "\u3164",  # a Hangul filler: a letter to Unicode, nothing to the eye
        "\uffa0",  # its half-width form
        "\u115f\u1160",  # the leading and vowel fillers
        "\u2800",  # a blank braille pattern
        "\u034f",  # a combining grapheme joiner alone
        "\ufe0f",  # a variation selector alone
        " \u3164\u2800 ",
    ],
)
def test_a_name_of_spaces_only_is_no_name(name: str) -> None:
    breach = refusal("Ann", name)
    assert (breach.rule, breach.code, breach.message) == (
        "players",
        "empty-name",
        "Player 2 has no name.",
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ben", "ben"),
        ("Ben", "BEN"),
        ("Ben", "Ｂｅｎ"),  # full-width letters: the same name after NFKC
        ("Zoë", "Zoe\u0308"),  # a precomposed ë and e with a combining diaeresis
        ("Straße", "STRASSE"),  # case folding beyond lower()
        ("ﬁona", "Fiona"),  # a ligature
        ("Ann Lee", "Ann\u3000Lee"),  # an ideographic space is a space
        ("Ann", "Ann\u034f"),  # a combining grapheme joiner shows as nothing
        ("Ann", "A\u034fnn"),
        ("Ann", "Ann\u3164"),  # a Hangul filler
        ("Ann", "\u115fAnn"),
        ("Ann", "Ann\u2800"),  # a blank braille pattern, a space to the eye
        ("Ann Lee", "Ann\u2800Lee"),
        ("Ann", "Ann\ufe00"),  # a variation selector that selects nothing here
        ("Ann", "Ann\U000e0100"),
    ],
)
def test_names_that_differ_only_by_case_or_normalisation_are_the_same(
    first: str, second: str
) -> None:
    breach = refusal(first, second)
    assert (breach.rule, breach.code) == ("players", "duplicate-name")


@pytest.mark.parametrize(
    "names",
    [
        ("Zoë", "Zoe"),
        ("李", "季"),
        ("🂡", "🃏"),
        ("Ann", "Anne"),
        ("Ann Lee", "Ann\u3000Li"),
        ("\u2764\ufe0f", "\U0001f499"),  # an emoji with its variation selector is a name
        ("Ann", "An\u0144"),  # a combining accent that shows: another name
    ],
)
def test_names_that_differ_are_accepted(names: tuple[str, ...]) -> None:
    assert check_players(Setup("blackout", names), GAMES["blackout"]) == []


def test_a_long_name_is_refused_quoting_only_its_start() -> None:
    breach = refusal("A" * 600_000, "Ben")
    assert breach.code == "long-name"
    assert breach.message == f"The name '{'A' * 60}…' is longer than 40 characters."


def test_no_sentence_repeats_a_huge_value() -> None:
    breach = IllegalEntry(
        "card", "card-unreadable", round=1, player="x" * 10_000, text="y" * 10_000
    )
    assert len(breach.message) < 100
    assert breach.player == "x" * 60 + "…"
