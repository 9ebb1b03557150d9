"""What the new-table and the scorecard forms share: the game, the name rows, every game's options
as fieldsets of the form, the engine's choices and defaults, whole numbers, and the page with
every error in one list; and the one form that uploads a game record (the home page's and a
group's)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from flask import render_template
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, Form, FormField, RadioField, StringField
from wtforms.form import FormMeta

from referee.rules import GAMES, OptionError
from referee.rules.names import LONGEST_NAME
from referee.web.i18n import gettext, ngettext
from referee.web.screens import first_game, screens

if TYPE_CHECKING:
    # The type stubs (types-WTForms 3.2) predate SelectChoice, which WTForms 3.3 wants for the
    # choices of a select or radio field (pairs are deprecated); to the stubs, a choice is a pair.
    def SelectChoice(value: str, label: str) -> tuple[str, str]: ...

else:
    from wtforms import SelectChoice

__all__ = [
    "UPLOAD_LIMIT",
    "SelectChoice",
    "UploadForm",
    "WithGameOptions",
    "add_error",
    "choices",
    "default",
    "every_error",
]

#: The largest record an upload form takes. A whole card-by-card game is far below it.
UPLOAD_LIMIT = 1024 * 1024


class UploadForm(FlaskForm):
    """A game record to load: as a new table (the home page) or as a table of a group."""

    record = FileField(
        lazy_gettext("Game record (.json)"),
        validators=[FileRequired(lazy_gettext("Choose a record file to load."))],
    )


def choices(game: str, option: str, labels: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The engine's allowed values of an option (default first), with the page's labels."""
    return [
        SelectChoice(value, labels.get(value, value))
        for value in GAMES[game].option_choices[option]
    ]


def default(game: str, option: str) -> Any:
    """The engine's default of an option: the first of its allowed values."""
    return GAMES[game].option_choices[option][0]


def whole_number(field: Field, message: str) -> int | None:
    """The field's whole number, None when blank; ``message`` on the field when it is not one."""
    text = (field.data or "").strip()
    if not text:
        return None
    if re.fullmatch(r"[+-]?\d{1,6}", text):
        return int(text)
    add_error(field, message)
    return None


def note_option_error(form: WithGameOptions, game: str, error: OptionError) -> None:
    """Note the engine's refusal of an option on its field, or on the form if none is its."""
    field = form.options(game)._fields.get(error.option)
    if field is None:
        form.form_errors.append(str(error))
    else:
        add_error(field, str(error))


def add_error(field: Field, message: str) -> None:
    """Note ``message`` on the field (its errors are a tuple until the form is validated)."""
    field.errors = [*field.errors, message]


def game_label(name: str) -> str:
    """A game as the forms offer it: its title and how many may play."""
    game = GAMES[name]
    return gettext(
        "%(game)s · %(low)d–%(high)d players",
        game=game.title,
        low=game.min_players,
        high=game.max_players,
    )


#: Name rows on the forms; blank rows are ignored. No game seats more (Blackout: 8).
SEATS = 8


#: The messages of WTForms' own checks these forms can show (a choice that is not offered),
#: marked for the app's catalog: they are translated by it, as every other sentence.
WTFORMS_MESSAGES = (lazy_gettext("Not a valid choice."), lazy_gettext("This field is required."))


class CatalogTranslations:
    """WTForms' messages through the app's catalog (``Meta.get_translations``)."""

    def gettext(self, string: str) -> str:
        return gettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n)


class GameFieldsets(FormMeta):
    """Gives a form class the options fieldset of every game before it makes a form, so that it
    has those of the games registered now (``referee.rules.registry``: a game can be added while
    the program runs, a test's) and no others."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        wanted = {screens(game).prefix: screens(game).options_form for game in GAMES}
        had: dict[str, type[Form]] = cls.__dict__.get("_fieldsets", {})
        if had != wanted:
            for prefix in had.keys() - wanted.keys():
                delattr(cls, prefix)
            for prefix, options in wanted.items():
                if had.get(prefix) is not options:
                    setattr(cls, prefix, FormField(options, separator="_"))
            cls._fieldsets = wanted
        return super().__call__(*args, **kwargs)


class WithGameOptions(FlaskForm, metaclass=GameFieldsets):
    """A form for a table of some game: the game, a name row per seat (``player_1`` …
    ``player_8``), and every game's options, each a fieldset named by the game's prefix
    (``blackout_sequence``); only the chosen game's are read."""

    class Meta:
        def get_translations(self, form: Form) -> CatalogTranslations:
            return CatalogTranslations()

    game = RadioField(lazy_gettext("Game"), default=first_game)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(name, game_label(name)) for name in GAMES]

    def seat(self, number: int) -> Field:
        """The name row of seat ``number`` (1 … SEATS)."""
        return self[f"player_{number}"]

    def options(self, game: str) -> Form:
        """The options fieldset of ``game``."""
        fieldset = self[screens(game).prefix]
        assert isinstance(fieldset, FormField)
        found: Form = fieldset.form
        return found

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for seat in range(1, SEATS + 1):
            name = StringField(
                lazy_gettext("Seat %(seat)d", seat=seat), render_kw={"maxlength": LONGEST_NAME}
            )
            setattr(cls, f"player_{seat}", name)


def render_form(
    template: str, form: WithGameOptions, status: int = 200, notice: str | None = None
) -> tuple[str, int]:
    """A table form's page: ``template`` with the form, its seats, every game's options and every
    error in one list (``notice``: a sentence above it all)."""
    page = render_template(
        template,
        form=form,
        seats=range(1, SEATS + 1),
        games=[(name, game.title, screens(name)) for name, game in GAMES.items()],
        errors=every_error(form),
        notice=notice,
    )
    return page, status


def every_error(form: FlaskForm) -> list[str]:
    """The form's own errors, then each field's with its label, fieldsets included."""
    errors = list(form.form_errors)
    for field in form:
        fields: Iterable[Field] = field.form if isinstance(field, FormField) else [field]
        for one in fields:
            if one.errors and isinstance(one.errors, list):
                errors += [f"{one.label.text}: {error}" for error in one.errors]
    return errors
