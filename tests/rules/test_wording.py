"""Breaches and score terms are translatable by construction: codes and language-free parameters
only, every sentence one catalog entry, said in the language of the catalog given (a test-only
catalog compiled here), cards named as the table sees them."""

from __future__ import annotations

import ast
import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from referee.records import load_record
from referee.rules import Breach, Miscount, Missing, State
from referee.rules.breaches import MESSAGES
from referee.rules.cards import SUIT_SYMBOLS
from referee.rules.names import quote
from referee.rules.scores import TERM_TEXT, Score, Term
from referee.rules.wording import (
    CARDS,
    CODES,
    COLOURS,
    ENGLISH,
    NAME_LISTS,
    NUMBERS,
    PLAYERS,
    TYPED,
    card_name,
)

RULES = Path(__file__).resolve().parents[2] / "referee" / "rules"
RECORDS = Path(__file__).resolve().parents[1] / "records"
BREACHES = {"Breach", "IllegalEntry", "OutOfTurn", "Missing", "Miscount", "Revoke", "Caution"}
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def sentences():
    for table in (MESSAGES, TERM_TEXT):
        for code, text in table.items():
            yield code, (text,) if isinstance(text, str) else text[:2]


def holds_text(node: ast.expr) -> bool:
    """Whether an expression is a string written in the code: a constant, an f-string, or one
    joined or chosen from such (``"a" + b``, ``"a" if c else "b"``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return holds_text(node.left) or holds_text(node.right)
    if isinstance(node, ast.IfExp):
        return holds_text(node.body) or holds_text(node.orelse)
    return False


def test_no_breach_or_term_in_the_engine_passes_text_as_a_parameter():
    found = []
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in BREACHES:
                found += [
                    (path.name, node.lineno, k.arg)
                    for k in node.keywords
                    if k.arg is not None and holds_text(k.value)
                ]
            if node.func.id == "Term" and len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                found += [
                    (path.name, node.lineno, "params")
                    for value in node.args[1].values
                    if holds_text(value)
                ]
    assert found == []


def test_every_placeholder_has_a_known_kind_and_every_sentence_fits_its_plural():
    kinds = PLAYERS | CARDS | COLOURS | TYPED | CODES | NAME_LISTS | NUMBERS
    for code, forms in sentences():
        names = [set(PLACEHOLDER.findall(form)) for form in forms]
        assert names[0] <= kinds, code
        assert all(n == names[0] for n in names), code  # both forms fill the same parameters
    for table in (MESSAGES, TERM_TEXT):
        for code, text in table.items():
            if isinstance(text, tuple):
                assert text[2] in PLACEHOLDER.findall(text[0]), code


def record_breaches() -> list[tuple[State, Breach]]:
    out = []
    for path in sorted(RECORDS.rglob("*.json")):
        if path.name.endswith(".expect.json") or path.parent.name == "unreadable":
            continue
        state = load_record(path.read_bytes()).replay()
        out += [(state, b) for b in (*state.violations, *state.warnings)]
    return out


def test_every_parameter_of_a_golden_records_breach_is_a_name_a_number_or_a_code():
    seen = record_breaches()
    assert len(seen) > 20
    for state, breach in seen:
        deck = state.game.deck
        players = {quote(p) for p in state.setup.players}
        for name, value in breach.params.items():
            if name in PLAYERS:
                assert value in players, (breach.code, name, value)
            elif name in COLOURS:
                assert value in deck.colours, (breach.code, name, value)
            elif name in CARDS:
                assert deck.parse_card(str(value)) is not None, (breach.code, value)
            elif name in NAME_LISTS:
                assert set(value) <= players, (breach.code, value)
            elif name in NUMBERS:
                assert isinstance(value, int), (breach.code, name, value)
            else:  # as the record typed it (a name that is no player's, a misspelt card)
                assert name in TYPED | CODES, (breach.code, name)


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("8S", "♠8"),
        ("10H", "♥10"),
        ("th", "♥10"),
        ("QS", "♠Q"),
        ("AC", "♣A"),
        ("blue-5", "blue 5"),
        ("1S", "'1S'"),
        ("red", "'red'"),
    ],
)
def test_a_card_is_named_as_the_table_sees_it(code, named):
    assert card_name(code, ENGLISH) == named


def test_on_paper_a_suit_is_a_word():
    assert card_name("QH", ENGLISH, symbols=False) == "Q of hearts"
    breach = Miscount("colour-total", "colour-total", round=1, colour="H", total=3, in_play=4)
    assert breach.sentence(ENGLISH, symbols=False).startswith("3 hearts cards")
    assert breach.message.startswith("3 ♥ cards")


def german() -> Translations:
    """A test-only catalog: a few of the engine's sentences, marked so a test sees them used."""
    catalog = Catalog(locale="de")
    catalog.add(
        (
            "Round %(round)s has only %(tricks)s trick.",
            "Round %(round)s has only %(tricks)s tricks.",
        ),
        ("Runde %(round)s hat nur %(tricks)s Stich.", "Runde %(round)s hat nur %(tricks)s Stiche."),
    )
    catalog.add(
        "%(player)s showed out of %(colour)s in trick %(trick)s but played %(card)s in trick "
        "%(later)s: a revoke.",
        "%(player)s hat in Stich %(trick)s %(colour)s nicht bedient, aber in Stich %(later)s "
        "%(card)s gespielt: nicht bedient.",
    )
    catalog.add("Q", "D")
    catalog.add("blue", "blau")
    catalog.add("%(colour)s %(value)s", "%(colour)s %(value)s")
    catalog.add("%(card)s was already played in round %(round)s.", "%(player)s hat %(karte)s")
    catalog.add(
        (
            "%(count)s %(colour)s card, the plus colour: +1 each → +%(points)s",
            "%(count)s %(colour)s cards, the plus colour: +1 each → +%(points)s",
        ),
        (
            "%(count)s %(colour)s-Karte, die Plus-Farbe: je +1 → +%(points)s",
            "%(count)s %(colour)s-Karten, die Plus-Farbe: je +1 → +%(points)s",
        ),
    )
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)


def test_a_breach_is_said_in_the_catalogs_language_with_its_plural_form():
    t = german()
    one = Breach("turn", "too-many-tricks", round=1, tricks=1)
    two = Breach("turn", "too-many-tricks", round=2, tricks=2)
    assert (one.sentence(t), two.sentence(t)) == (
        "Runde 1 hat nur 1 Stich.",
        "Runde 2 hat nur 2 Stiche.",
    )
    assert (one.message, two.message) == (
        "Round 1 has only 1 trick.",
        "Round 2 has only 2 tricks.",
    )


def test_a_revoke_names_its_cards_in_the_catalogs_language():
    breach = Breach(
        "follow-suit", "follow-suit", round=1, trick=1, player="Ann", colour="S", card="QS", later=2
    )
    assert breach.sentence(german()) == (
        "Ann hat in Stich 1 ♠ nicht bedient, aber in Stich 2 ♠D gespielt: nicht bedient."
    )
    assert breach.message == "Ann showed out of ♠ in trick 1 but played ♠Q in trick 2: a revoke."


def test_a_translation_that_does_not_fit_its_placeholders_falls_back_to_english():
    breach = Breach("card", "card-twice", round=3, card="blue-5")
    assert breach.sentence(german()) == "blue 5 was already played in round 3."


def test_a_score_is_explained_in_the_catalogs_language():
    score = Score(2, (Term("plus", {"count": 2, "colour": "blue"}, 2),))
    assert score.explain(german()) == "2 blau-Karten, die Plus-Farbe: je +1 → +2"
    one = Score(1, (Term("plus", {"count": 1, "colour": "blue"}, 1),))
    assert one.explain() == "1 blue card, the plus colour: +1 each → +1"


def test_without_a_catalog_english_comes_out():
    breach = Missing("missing", "missing-won-colour", round=1, player="Ann", colour="green")
    assert breach.sentence(Translations()) == breach.message
    assert breach.message == "Ann's green cards won in round 1 are missing."


def test_suits_stay_symbols_in_every_language():
    assert all(card_name("10" + s, german()) == SUIT_SYMBOLS[s] + "10" for s in SUIT_SYMBOLS)


def test_a_list_of_names_ends_with_and_in_the_catalogs_language():
    """Names in a sentence join the last with "and" ("und" in the shipped German catalog), never
    a bare comma: "Ben, Jörg und Zoë haben …", not "Ben, Jörg, Zoë"."""
    from referee import TRANSLATIONS
    from referee.rules.wording import names_list

    german = Translations.load(TRANSLATIONS, ["de"])
    assert names_list([], ENGLISH) == ""
    assert names_list(["Ann"], ENGLISH) == "Ann"
    assert names_list(["Ann", "Ben"], ENGLISH) == "Ann and Ben"
    assert names_list(("Ann", "Ben", "Cho"), ENGLISH) == "Ann, Ben and Cho"
    assert names_list(["Ann", "Ben", "Cho"], german) == "Ann, Ben und Cho"
    breach = Breach("starter", "starter-chooser", chosen_by="Ann", majority=("Ben", "Cho"))
    assert "Ben und Cho" in breach.sentence(german)
