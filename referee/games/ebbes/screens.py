"""ebbes on the web pages: its options on the new-table form, its round screens and what each
shows (who starts, the number card or the placed designators, the colours as they get their
roles, the cards won), the roles in the round header, on the sheet and on its spreadsheet (a
column per role), and the discards recorded card by card; the entries only it has, as posted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from flask_babel import lazy_gettext
from wtforms import BooleanField, Form, SelectField

from referee.rules import RoundState, Score, State, Step
from referee.rules import events as ev
from referee.rules.cards import EBBES_COLOURS, coloured_deck
from referee.rules.ebbes import ROLES, Ebbes, EbbesRound
from referee.rules.marks import N_
from referee.rules.wording import COLOUR_NAMES, ROLE_NAMES, signed_text
from referee.web.forms import choices, default
from referee.web.i18n import gettext, ngettext
from referee.web.round import entries
from referee.web.round.looks import ColourChip, colour_chips, colour_class
from referee.web.round.screen import count_fields
from referee.web.screens import Builder, Cell, ScreensGame, SheetRow, Value
from referee.web.words import colour_label, colour_short, name_of

VARIANT_LABELS = {
    "standard": lazy_gettext("Standard: a number card"),
    "placed-designators": lazy_gettext("Placed designators"),
}
TRUMP_FROM_LABELS = {
    "now": lazy_gettext("In the trick that fixes it"),
    "next-trick": lazy_gettext("From the next trick"),
}


class Options(Form):
    extended = BooleanField(lazy_gettext("Extended deck"), default=default("ebbes", "extended"))
    variant = SelectField(
        lazy_gettext("Colour roles"),
        choices=choices("ebbes", "variant", VARIANT_LABELS),
        default=default("ebbes", "variant"),
    )
    discard = BooleanField(lazy_gettext("Discard"), default=default("ebbes", "discard"))
    trump_from = SelectField(
        lazy_gettext("Trump counts"),
        choices=choices("ebbes", "trump_from", TRUMP_FROM_LABELS),
        default=default("ebbes", "trump_from"),
    )


#: What each designating card fixed, in turn: a whole sentence each, so it translates.
FIXED_BY = (
    N_("%(colour)s is %(role)s (the 1st designating card)."),
    N_("%(colour)s is %(role)s (the 2nd designating card)."),
    N_("%(colour)s is %(role)s (the 3rd designating card)."),
    N_("%(colour)s is %(role)s (the 4th designating card)."),
)
#: How many roles the designating cards give; the colour left after them is nix.
DESIGNATED = len(ROLES) - 1


assert tuple(ROLE_NAMES) == ROLES


def role_name(index: int) -> str:
    """The role the ``index``-th designating card gives (from 0), translated; the colour left
    after the fourth is nix."""
    return gettext(ROLE_NAMES[ROLES[index]])


@dataclass
class StarterStep:
    """Who had the most nix cards last round, in seat order, and so chooses who starts (None:
    no colour was nix; the table chooses)."""

    majority: list[str] | None


@dataclass
class NumberStep:
    """The number cards not revealed in an earlier round."""

    numbers: list[int]


@dataclass
class DesignatorsStep:
    """The colours, each lying on a number card, with the field its number is posted in."""

    rows: list[tuple[str, str]]


@dataclass
class CountedColour:
    """A colour on the count of cards won: its roles so far, how many cards of it there are,
    each player with the field their count of it is posted in, and its style."""

    name: str
    roles: list[str]
    cards: int
    rows: list[tuple[str, str]]
    css: str


@dataclass
class PlayStep:
    """Its play step. The role the next designating card gives (None: all four are fixed) and
    whether it is the last one (the colour left is then nix); whether the placed designators
    designate (else the number card's value); the colours without a role. Whether the cards won
    can be counted now (every role fixed, or with discards at any time), whether there are
    discards, and each colour to count: not the trump colour, which scores nothing (``trump``:
    that colour, None while no colour is trump)."""

    next_role: str | None
    last_role: bool
    placed: bool
    unassigned: list[ColourChip]
    count_now: bool
    discard: bool
    colours: list[CountedColour]
    trump: str | None


def counted_order(colours: Sequence[str], role_map: Mapping[str, str | None]) -> list[str]:
    """The colours to count, in the order their roles fell this round (plus, ebbes, minus, then
    nix), then any without a role yet in the deck's order; never the trump colour, whose cards
    score nothing.

    >>> counted_order(["red", "yellow", "green"], {"trump": "green", "plus": "red", "ebbes": None})
    ['red', 'yellow']
    """
    trump = role_map.get("trump")
    ordered = [c for role, c in role_map.items() if c is not None and role != "trump"]
    return ordered + [c for c in colours if c not in ordered and c != trump]


def colour_named(colour: str) -> str:
    """A colour's name in the reader's language ("rot"), for a field's label: looked up only
    when the label is (``lazy_gettext``)."""
    return lazy_gettext(COLOUR_NAMES[colour])


def starter(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    player = entries.seat(state, form)
    chooser = entries.seat(state, form, "chosen_by") if form.get("chosen_by") else None
    return ev.Starter(number, player, chooser)


def number_card(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    return ev.Number(number, entries.whole_number(form, "number", lazy_gettext("the number card")))


def designators(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    numbers = {
        colour: entries.whole_number(
            form, f"designator-{colour}", lazy_gettext("the %(c)s number", c=colour_named(colour))
        )
        for colour in EBBES_COLOURS
    }
    cards = tuple(f"{colour}-{n}" for colour, n in numbers.items())
    return ev.Designators(number, cards)


def designate(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    colour = (form.get("colour") or "").strip()
    if colour not in EBBES_COLOURS:
        raise entries.EntryError(gettext("Choose a colour."))
    return ev.Designate(number, colour)


def won(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    """The cards won per player and colour. The trump colour's are read only where posted: its
    cards score nothing, so the round screen does not ask for them (the engine takes a count
    without them)."""
    game = state.game
    assert isinstance(game, Ebbes)
    rnd = game.upcoming(state)
    trump = None if rnd is None else rnd.role_map()["trump"]
    counts = {}
    for i, player in enumerate(state.setup.players, start=1):
        fields = {colour: f"won-{i}-{colour}" for colour in EBBES_COLOURS}
        counts[player] = {
            colour: entries.whole_number(
                form, field, lazy_gettext("%(p)s's %(c)s cards", p=player, c=colour_named(colour))
            )
            for colour, field in fields.items()
            if colour != trump or (form.get(field) or "").strip()
        }
    return ev.Won(number, counts)


def discard(state: State, number: int, form: Mapping[str, str]) -> ev.Event:
    card = (form.get("card") or "").strip()
    if not card:
        raise entries.EntryError(gettext("Choose the card that was laid aside."))
    return ev.Discard(number, entries.seat(state, form), card[:20])


class EbbesScreens(ScreensGame):
    own_steps = frozenset({"starter", "number", "designators", "play"})
    builders: ClassVar[Mapping[str, Builder]] = {
        "starter": starter,
        "number": number_card,
        "designators": designators,
        "designate": designate,
        "won": won,
        "discard": discard,
    }
    has_bids = False
    who_heading = lazy_gettext("Starts")
    trump_heading = lazy_gettext("Roles")
    cell_note = lazy_gettext("Each cell: the round's score, then the running total.")
    who_note = lazy_gettext("A marked corner shows who started the round.")
    trick_deck = coloured_deck(EBBES_COLOURS, 15)
    prefix = "ebbes"
    options_form = Options

    def read_options(self, form: Form) -> dict[str, Any] | None:
        return {
            "extended": bool(form["extended"].data),
            "variant": form["variant"].data,
            "discard": bool(form["discard"].data),
            "trump_from": form["trump_from"].data,
        }

    def trump(self, state: State, rnd: RoundState) -> str:
        assert isinstance(rnd, EbbesRound)
        trump = rnd.role_map()["trump"]
        return colour_label(trump) if trump else gettext("not fixed yet")

    def facts(self, state: State, rnd: RoundState) -> list[tuple[str, str]]:
        assert isinstance(rnd, EbbesRound)
        facts = [
            (gettext("Leads"), rnd.leader or gettext("chosen by the nix majority")),
            (gettext("Number card"), "—" if rnd.number_card is None else str(rnd.number_card)),
        ]
        facts += [
            (gettext(ROLE_NAMES[role]), colour_short(colour))
            for role, colour in rnd.role_map().items()
        ]
        return facts

    def step_view(
        self, state: State, rnd: RoundState, step: Step
    ) -> StarterStep | NumberStep | DesignatorsStep | PlayStep:
        game = state.game
        assert isinstance(game, Ebbes) and isinstance(rnd, EbbesRound)
        if step.action == "starter":
            return StarterStep(game.nix_majority(state, game.rounds_of(state)[step.round - 2]))
        if step.action == "number":
            return NumberStep(game.open_numbers(state))
        if step.action == "designators":
            return DesignatorsStep([(name_of(c), f"designator-{c}") for c in game.deck.colours])
        roles, role_map = rnd.roles(), rnd.role_map()
        fixed = len(roles)  # the roles given so far
        discard = bool(game.options["discard"])
        return PlayStep(
            next_role=role_name(fixed) if fixed < DESIGNATED else None,
            last_role=fixed == DESIGNATED - 1,
            placed=game.placed,
            unassigned=colour_chips(c for c in game.deck.colours if c not in roles),
            count_now=fixed == DESIGNATED or discard,
            discard=discard,
            colours=[
                CountedColour(
                    colour,
                    [role for role, c in role_map.items() if c == colour],
                    game.deck.count(colour),
                    count_fields(state, rnd.number, "won", f"-{colour}"),
                    colour_class(colour),
                )
                for colour in counted_order(game.deck.colours, role_map)
            ],
            trump=role_map["trump"],
        )

    def step_text(self, step: Step, cards: bool = False) -> str | None:
        """The play step: quick, the colours as they get their roles, then the cards won; card
        by card, each card as it is played (the cards themselves give the roles and the cards
        won)."""
        if step.action == "play" and cards:
            return gettext(
                "Play the round card by card: tap each card as it is played; the cards give "
                "the roles and the cards won"
            )
        if step.action == "play":
            return gettext(
                "Play the round: tap each colour as it gets its role, then count the cards won"
            )
        return None

    def settled(self, before: RoundState, after: RoundState) -> list[str]:
        """A colour's role fixed by a designating card; nix with the fourth."""
        assert isinstance(before, EbbesRound) and isinstance(after, EbbesRound)
        said = []
        for index in range(len(before.derived), len(after.derived)):
            said.append(
                gettext(
                    FIXED_BY[index],
                    colour=colour_short(after.derived[index]),
                    role=role_name(index),
                )
            )
            if index == 3:
                nix = after.role_map()["nix"]
                said.append(gettext("%(colour)s is nix.", colour=colour_short(nix)))
        return said

    def discarder(self, state: State, rnd: RoundState) -> str | None:
        assert isinstance(rnd, EbbesRound)
        if not state.game.options.get("discard") or rnd.plays:
            return None
        return next((p for p in state.setup.players if p not in rnd.discards), None)

    def who(self, rnd: RoundState) -> str | None:
        """Who started the round (ebbes has no dealer on the sheet)."""
        return rnd.leader

    def sheet_trump(self, rnd: RoundState) -> str:
        return ""

    def score_parts(self, score: Score) -> str:
        """What scored, as the rules count it, in the order of the roles: the plus cards, the
        ebbes bonus, the minus cards ("3 plus cards +3, ebbes bonus +3, 1 minus card −1"); the
        colours are the round's, on the sheet."""
        parts = []
        for term in score.terms:
            points = signed_text(term.points)
            count = term.params.get("count")
            if term.code == "plus" and isinstance(count, int):
                parts.append(
                    ngettext(
                        "%(num)s plus card %(points)s",
                        "%(num)s plus cards %(points)s",
                        count,
                        points=points,
                    )
                )
            elif term.code == "minus" and isinstance(count, int):
                parts.append(
                    ngettext(
                        "%(num)s minus card %(points)s",
                        "%(num)s minus cards %(points)s",
                        count,
                        points=points,
                    )
                )
            elif term.code == "ebbes-middle":
                parts.append(gettext("ebbes bonus %(points)s", points=points))
        return ", ".join(parts) if parts else gettext("no card that scores")

    def roles(self, rnd: RoundState) -> dict[str, str | None]:
        assert isinstance(rnd, EbbesRound)
        return rnd.role_map()

    def fill_cell(self, state: State, rnd: RoundState, player: str, cell: Cell) -> None:
        """Only the score: the cards won are counted on the round screen."""

    def round_headings(self) -> list[str]:
        """A column per role, each holding the colour that had it."""
        return [gettext(ROLE_NAMES[role]) for role in ROLES]

    def round_values(self, row: SheetRow) -> list[Value]:
        colours = [row.roles.get(role) for role in ROLES]
        return [colour_short(c) if isinstance(c, str) else c for c in colours]

    def entry_headings(self) -> list[str]:
        """None: a player's score is all the sheet has of them."""
        return []

    def entry_values(self, cell: Cell) -> list[Value]:
        return []


PART = EbbesScreens()
