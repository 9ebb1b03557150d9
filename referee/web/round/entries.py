"""The entry forms, and turning a posted one into an engine event, refusing malformed input with
a sentence.

The form says which ``action`` it is (the step the page showed) and carries that action's
fields. Players are posted by seat number and colours by name, so nothing the browser sends is
trusted: a seat that does not exist, a number that is not one, or a missing field gives an
``EntryError`` naming what is wrong. Whether the entry keeps the rules is the engine's call.

The entries every game shares (the trump, the tricks won, a card played) are read here; a game's
own are read by its screens part (``ScreensGame.builders``) with the readers here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask_babel import lazy_gettext
from wtforms import Field, Form, HiddenField, IntegerField
from wtforms.validators import InputRequired, ValidationError

from referee.rules import State
from referee.rules import events as ev
from referee.rules.names import LONGEST_NAME, quote
from referee.rules.seating import START_CHOICES
from referee.web.i18n import gettext as _
from referee.web.screens import Builder, screens

#: Counts and bids above this are refused as input before the rules see them.
LARGEST = 999


class EntryError(ValueError):
    """Input that is not even an entry: a missing field, a word where a number goes."""


def whole_number(form: Mapping[str, str], name: str, label: str) -> int:
    """The field ``name`` as a whole number 0…LARGEST, or an EntryError naming ``label`` (a
    ``lazy_gettext``: translated only for the error, not for every field of every entry)."""
    text = (form.get(name) or "").strip()
    if not text:
        raise EntryError(_("Enter %(label)s.", label=label))
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) > LARGEST:
        raise EntryError(
            _(
                "%(label)s must be a whole number from 0 to %(n)s, not “%(text)s”.",
                label=label,
                n=LARGEST,
                text=quote(text),
            )
        )
    return int(text)


def seat(state: State, form: Mapping[str, str], name: str = "player") -> str:
    """The player whose seat number (1-based) was posted in ``name``."""
    players = state.players
    text = (form.get(name) or "").strip()
    if (
        not (text.isascii() and text.isdigit())
        or len(text) > 2
        or not 1 <= int(text) <= len(players)
    ):
        raise EntryError(_("Choose a player."))
    return players[int(text) - 1]


def build_event(state: State, action: str, number: int, form: Mapping[str, str]) -> ev.Event:
    """The event the ``action`` form posted for round ``number``: an entry every game has, or
    one of the table's game's own."""
    builder = screens(state.setup.game).builders.get(action) or BUILDERS.get(action)
    if builder is None:
        raise EntryError(_("This page is out of date; here is the table as it is now."))
    return builder(state, number, form)


def trump(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("trump") or "").strip()
    if not card:
        raise EntryError(_("Choose the trump."))
    return ev.Trump(number, card[:20])


def tricks(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    dealt = state.seats_in(number)
    counts = {
        player: whole_number(form, f"tricks-{i}", lazy_gettext("%(p)s's tricks", p=player))
        for i, player in enumerate(state.players, start=1)
        if player in dealt
    }
    return ev.Tricks(number, counts)


def play(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("card") or "").strip()
    if not card:
        raise EntryError(_("Choose the card that was played."))
    return ev.Play(number, card[:20], seat(state, form))


def end(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """End the game after round ``number`` (docs/rules.md, "Ending early")."""
    return ev.End(number)


def join(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """A newcomer sits down from round ``number`` (docs/rules.md, "Joining, leaving, sitting
    out"): their name as typed, left of the seat posted in ``after`` (none: the last seat),
    starting with the points ``start`` names. Whether they may is the engine's call."""
    name = " ".join((form.get("name") or "").split())
    if not name:
        raise EntryError(_("Enter the name of the player who joins."))
    if len(name) > LONGEST_NAME:
        raise EntryError(
            _("A name has at most %(n)s characters: “%(text)s”.", n=LONGEST_NAME, text=quote(name))
        )
    after = seat(state, form, "after") if form.get("after") else None
    start = form.get("start") or START_CHOICES[0]
    if start not in START_CHOICES:
        raise EntryError(_("Choose how many points the newcomer starts with."))
    return ev.Join(number, name, after, start)


def leave(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """A player leaves before round ``number``; their total stands."""
    return ev.Leave(number, seat(state, form))


def sit_out(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """A player sits out round ``number``."""
    return ev.SitOut(number, seat(state, form))


#: The entries every game has, by the action that posts them.
BUILDERS: dict[str, Builder] = {
    "trump": trump,
    "tricks": tricks,
    "play": play,
    "end": end,
    "join": join,
    "leave": leave,
    "sit-out": sit_out,
}


def small(low: int, high: int) -> Callable[[Form, Field], None]:
    """A whole number from ``low`` to ``high`` (WTForms' NumberRange overflows on a huge one)."""

    def check(form: Form, field: Field) -> None:
        if not isinstance(field.data, int) or not low <= field.data <= high:
            raise ValidationError(f"must be a whole number from {low} to {high}")

    return check


class EntryForm(Form):
    """What every entry posts besides its own fields: where the page was when it was shown.

    Plain WTForms forms (this one and ``SeqForm``): ``CSRFProtect`` has checked every POST's
    token before a view runs, and the table pages print it with ``csrf_token()``."""

    seq = IntegerField(validators=[InputRequired(), small(0, 10**9)])
    round = IntegerField(validators=[InputRequired(), small(1, 99)])
    action = HiddenField(validators=[InputRequired()])


class SeqForm(Form):
    """Undo: only the sequence number the page showed."""

    seq = IntegerField(validators=[InputRequired(), small(0, 10**9)])
