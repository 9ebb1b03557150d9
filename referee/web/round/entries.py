"""The entry forms, and turning a posted one into an engine event, refusing malformed input with
a sentence.

The form says which ``action`` it is (the step the page showed) and carries that action's
fields. Players are posted by seat number and colours by name, so nothing the browser sends is
trusted: a seat that does not exist, a number that is not one, or a missing field gives an
``EntryError`` naming what is wrong. Whether the entry keeps the rules is the engine's call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask_babel import lazy_gettext
from wtforms import Field, Form, HiddenField, IntegerField
from wtforms.validators import InputRequired, ValidationError

from referee.rules import State
from referee.rules import events as ev
from referee.rules.cards import EBBES_COLOURS
from referee.rules.ebbes import EbbesRound
from referee.rules.names import quote
from referee.rules.wording import COLOUR_NAMES
from referee.web.i18n import gettext as _

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


def colour_named(colour: str) -> str:
    """An ebbes colour's name in the reader's language ("rot"), for a field's label: looked up
    only when the label is (``lazy_gettext``)."""
    return lazy_gettext(COLOUR_NAMES[colour])


def seat(state: State, form: Mapping[str, str], name: str = "player") -> str:
    """The player whose seat number (1-based) was posted in ``name``."""
    players = state.setup.players
    text = (form.get(name) or "").strip()
    if (
        not (text.isascii() and text.isdigit())
        or len(text) > 2
        or not 1 <= int(text) <= len(players)
    ):
        raise EntryError(_("Choose a player."))
    return players[int(text) - 1]


def build_event(state: State, action: str, number: int, form: Mapping[str, str]) -> ev.Event:
    """The event the ``action`` form posted for round ``number``."""
    builder = BUILDERS.get(action)
    if builder is None:
        raise EntryError(_("This page is out of date; here is the table as it is now."))
    return builder(state, number, form)


def trump(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("trump") or "").strip()
    if not card:
        raise EntryError(_("Choose the trump."))
    return ev.Trump(number, card[:20])


def bid(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = seat(state, form)
    return ev.Bid(number, player, whole_number(form, "bid", lazy_gettext("%(p)s's bid", p=player)))


def declare(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = seat(state, form)
    choice = form.get("choice", "")
    if choice == "secret":  # the bid is turned up and entered after the round
        return ev.Declare(number, player, False, None)
    for prefix, shown in (("open-", True), ("sealed-", False)):  # sealed: secret, bid given now
        if choice.startswith(prefix):
            bid = whole_number(
                {"b": choice[len(prefix) :]}, "b", lazy_gettext("%(p)s's bid", p=player)
            )
            return ev.Declare(number, player, shown, bid)
    raise EntryError(_("Choose open with a bid, or secret."))


def reveal(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = seat(state, form)
    return ev.Reveal(
        number, player, whole_number(form, "bid", lazy_gettext("%(p)s's secret bid", p=player))
    )


def tricks(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    counts = {
        player: whole_number(form, f"tricks-{i}", lazy_gettext("%(p)s's tricks", p=player))
        for i, player in enumerate(state.setup.players, start=1)
    }
    return ev.Tricks(number, counts)


def starter(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = seat(state, form)
    chooser = seat(state, form, "chosen_by") if form.get("chosen_by") else None
    return ev.Starter(number, player, chooser)


def number_card(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    return ev.Number(number, whole_number(form, "number", lazy_gettext("the number card")))


def designators(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    numbers = {
        colour: whole_number(
            form, f"designator-{colour}", lazy_gettext("the %(c)s number", c=colour_named(colour))
        )
        for colour in EBBES_COLOURS
    }
    cards = tuple(f"{colour}-{n}" for colour, n in numbers.items())
    return ev.Designators(number, cards)


def designate(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    colour = (form.get("colour") or "").strip()
    if colour not in EBBES_COLOURS:
        raise EntryError(_("Choose a colour."))
    return ev.Designate(number, colour)


def won(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """The cards won per player and colour. The trump colour's are read only where posted: its
    cards score nothing, so the round screen does not ask for them (the engine takes a count
    without them)."""
    rnd = state.game.upcoming(state)
    trump = rnd.role_map()["trump"] if isinstance(rnd, EbbesRound) else None
    counts = {}
    for i, player in enumerate(state.setup.players, start=1):
        fields = {colour: f"won-{i}-{colour}" for colour in EBBES_COLOURS}
        counts[player] = {
            colour: whole_number(
                form, field, lazy_gettext("%(p)s's %(c)s cards", p=player, c=colour_named(colour))
            )
            for colour, field in fields.items()
            if colour != trump or (form.get(field) or "").strip()
        }
    return ev.Won(number, counts)


def play(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("card") or "").strip()
    if not card:
        raise EntryError(_("Choose the card that was played."))
    return ev.Play(number, card[:20], seat(state, form))


def discard(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("card") or "").strip()
    if not card:
        raise EntryError(_("Choose the card that was laid aside."))
    return ev.Discard(number, seat(state, form), card[:20])


BUILDERS = {
    "trump": trump,
    "bid": bid,
    "declare": declare,
    "reveal": reveal,
    "tricks": tricks,
    "starter": starter,
    "number": number_card,
    "designators": designators,
    "designate": designate,
    "won": won,
    "play": play,
    "discard": discard,
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
