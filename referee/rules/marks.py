"""No-op markers for the sentences the engine holds in English, so ``pybabel extract`` finds them.

The engine never translates: it keeps codes and parameters, and ``referee.rules.wording`` looks a
sentence up in the catalog it is given. ``N_`` marks one sentence (a default keyword of
``pybabel extract``); ``Nn_`` marks a sentence with a plural form, the parameter that counts named
third (extract with ``-k Nn_:1,2``).

>>> N_("a bid"), Nn_("%(count)s trick", "%(count)s tricks", "count")
('a bid', ('%(count)s trick', '%(count)s tricks', 'count'))
"""

from __future__ import annotations

#: A sentence with a plural form: (singular, plural, the parameter that counts).
Plural = tuple[str, str, str]


def N_(message: str) -> str:
    """``message`` itself: marks it for the catalog."""
    return message


def Nn_(singular: str, plural: str, counted: str) -> Plural:
    """The two forms and the parameter that chooses between them: marks them for the catalog."""
    return (singular, plural, counted)
