"""What a game adds to the web pages: the base class of each game's ``screens.py``.

The pages are shared: the new-table form, the blank scorecard form, the round screen and the
score sheet. A game says what is its own by subclassing ``ScreensGame`` in
``referee/games/<package>/screens.py`` (``PART``): its options on the forms (a WTForms form and
a fieldset template, ``templates/games/<package>/options.html``) and how its options are read.
"""

from __future__ import annotations

from typing import Any

from wtforms import Form

from referee.parts import ORDER, PACKAGES, part
from referee.rules import GAMES, Deck


class ScreensGame:
    """One game's part of the web pages."""

    #: The prefix of its option fields on the forms (``blackout`` → ``blackout_sequence``).
    prefix = ""
    #: Its options on the new-table form (field names without the prefix).
    options_form: type[Form] = Form
    #: The options the blank scorecard asks for too (they change what the card prints).
    card_options: tuple[str, ...] = ()
    #: The deck the trick tool reads this game's cards against (the largest it can have).
    trick_deck: Deck

    def read_options(self, form: Form) -> dict[str, Any] | None:
        """The options posted in ``form`` (an ``options_form``), or None after noting a field
        error on it. Only what the page must parse (a number, a list) is checked here; whether
        a value is allowed is the engine's call."""
        return {name: field.data for name, field in form._fields.items()}

    def options_template(self, game: str) -> str:
        """The template of its options fieldset."""
        return f"games/{PACKAGES[game]}/options.html"

    def rules_template(self, game: str) -> str:
        """The template of its rules page (an anchor per rule id the referee checks)."""
        return f"games/{PACKAGES[game]}/rules.html"


def game_titles() -> list[tuple[str, str]]:
    """Every game's record name and title, in the order the pages offer them."""
    return [(name, GAMES[name].title) for name in ORDER]


def screens(game: str) -> ScreensGame:
    """The web part of ``game`` (by its record name)."""
    return part(game, "screens", ScreensGame)
