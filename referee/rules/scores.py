"""What a score is made of, so every number on the sheet can explain itself.

A ``Score`` is its points plus the terms that add up to them, each term a message code with
language-free parameters, said in a language like the breaches' sentences
(``referee.rules.wording``).

>>> s = Score(13, (Term("prefix-one", {"bid": 3, "tricks": 3}, 13),))
>>> s.explain()
'bid 3, took 3: a 1 written in front of the bid → 13'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from referee.rules.marks import N_, Nn_, Plural
from referee.rules.wording import ENGLISH, Translations, say

#: Each term's sentence in English (the catalog's source), by code.
TERM_TEXT: dict[str, str | Plural] = {
    "prefix-one": N_("bid %(bid)s, took %(tricks)s: a 1 written in front of the bid → %(points)s"),
    "ten-plus-bid": N_("bid %(bid)s, took %(tricks)s: 10 + %(bid)s → %(points)s"),
    "blacked-out": N_("bid %(bid)s, took %(tricks)s: blacked out → 0"),
    "secret-tricks": N_("secret bid %(bid)s, took %(tricks)s: 1 per trick → %(points)s"),
    "open-tricks": N_("open bid %(bid)s, took %(tricks)s: 2 per trick → %(points)s"),
    "open-missed": N_("open bid %(bid)s, took %(tricks)s: missed, all or nothing → 0"),
    "exact-bonus": N_("exact bid: bonus → +3"),
    "plus": Nn_(
        "%(count)s %(colour)s card, the plus colour: +1 each → +%(points)s",
        "%(count)s %(colour)s cards, the plus colour: +1 each → +%(points)s",
        "count",
    ),
    "minus": Nn_(
        "%(count)s %(colour)s card, the minus colour: −1 each → %(points)s",
        "%(count)s %(colour)s cards, the minus colour: −1 each → %(points)s",
        "count",
    ),
    "ebbes-middle": Nn_(
        "%(count)s %(colour)s card, the ebbes colour: neither the most (%(most)s) nor the "
        "fewest (%(fewest)s) → +3",
        "%(count)s %(colour)s cards, the ebbes colour: neither the most (%(most)s) nor the "
        "fewest (%(fewest)s) → +3",
        "count",
    ),
    "ebbes-most": Nn_(
        "%(count)s %(colour)s card, the ebbes colour: the most → 0",
        "%(count)s %(colour)s cards, the ebbes colour: the most → 0",
        "count",
    ),
    "ebbes-fewest": Nn_(
        "%(count)s %(colour)s card, the ebbes colour: the fewest → 0",
        "%(count)s %(colour)s cards, the ebbes colour: the fewest → 0",
        "count",
    ),
    "ebbes-tied": Nn_(
        "%(count)s %(colour)s card, the ebbes colour: tied with everybody → 0",
        "%(count)s %(colour)s cards, the ebbes colour: tied with everybody → 0",
        "count",
    ),
    "nothing": N_("no cards of a scoring colour → 0"),
}


class Term(NamedTuple):
    """One part of a score: what it is (a code and parameters) and its points. (Terms and
    scores are named tuples, made in half the time of frozen dataclasses: a group's statistics
    score every round of every table.)"""

    code: str
    params: Mapping[str, object]
    points: int

    def explain(self, translations: Translations = ENGLISH) -> str:
        """The term in words, in the catalog's language."""
        return say(TERM_TEXT[self.code], {"points": self.points, **self.params}, translations)


class Score(NamedTuple):
    """A player's score in one round and the terms it is made of."""

    points: int
    terms: tuple[Term, ...] = ()

    def explain(self, translations: Translations = ENGLISH) -> str:
        """The terms in words, joined; the sum is the points."""
        return "; ".join(term.explain(translations) for term in self.terms)
