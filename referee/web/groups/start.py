"""Tonight in a few taps: a group's keeper starts a table from the group page.

Choose the game (the group page's game buttons preselect it), tap who is here — the roster's
chips in the order they sat at the group's last table, then the rest of the roster, then the
guests who played tonight — and type a guest once; each game's options are the ones it was last
played with in the group. The phone that starts the table gets its scorekeeper link, as on the
new-table page, and the group keeps the table with its seats.

**Seated as they sit**: the seats list below the chips is the table's seat order, clockwise, as
the rules use it (the deal and the bidding go round in it), with whoever deals first (ebbes:
leads) marked. With the page's script (``static/groups.js``) a tapped chip takes the next seat,
so tapping people in the order they sit seats them; ↑ and ↓ move a seat, by touch or by
keyboard, and a seat's "deals first" chooses the dealer. Without it the same buttons post the
form (``move``) and the page comes back with the seats moved; seats the list does not name yet
follow in the chips' order. The first dealer is offered as the group's rotation has it.

One way to start a table: the form is the new-table page's ``NewTableForm`` (and the page draws
its game and options with the same template, ``newtable/_form.html``), the setup is checked by
``referee.web.newtable.checked_setup`` (the rules engine's ``start``) and the table made by
``start_table``.

**The rotation**: the deal passes left from table to table as it does from round to round. The
first dealer of the group's last table (of any game) hands on to the player who sat on their
left; if that player is not here, to the next one round that table who is; if nobody of that
table is here, or the group has no table yet, the first player of the new table deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from wtforms import StringField

from referee.groups import Group, GroupRefused, check_seats
from referee.rules import GAMES, Breach, OptionError, Setup, start
from referee.rules.names import LONGEST_NAME, same_name_key
from referee.store.groups import attach_table
from referee.store.links import NoAccess
from referee.web.errors import on_stale
from referee.web.forms import SEATS, every_error
from referee.web.groups.group import load_group
from referee.web.groups.words import refusal_text
from referee.web.i18n import gettext
from referee.web.newtable import NewTableForm, checked_setup, start_table
from referee.web.screens import first_game, screens
from referee.web.sharing.access import GROUPS, may_create, too_many_tables

#: The value of the dealer choice that follows the group's rotation.
NEXT = "next"
#: What a seat's ↑ and ↓ post (and "show the seats", without the script): ``up-`` or ``down-``
#: and the chip's value, or ``seat``.
UP, DOWN, SHOW = "up-", "down-", "seat"
#: What a guest chip's value starts with (a roster player's is their id).
GUEST = "guest:"


@dataclass(frozen=True)
class Chip:
    """Someone who may be here: ``value`` is what the form posts (a roster id, or ``guest:``
    and the guest's name), ``name`` the name they play under, ``player_id`` None for a guest."""

    value: str
    name: str
    player_id: str | None


class StartForm(NewTableForm):
    """A table of the group: the new-table page's form (its game and options; its name rows
    and first dealer stay blank, the chips stand for them) and the guests typed; who is here
    (``here``) and who deals first (``dealer``) are the page's chips, read from the form as
    posted."""

    guests = StringField(
        lazy_gettext("Guests"), render_kw={"maxlength": (LONGEST_NAME + 2) * SEATS}
    )


def identity(kept_seats: dict[str, str | None], name: str) -> str:
    player_id = kept_seats.get(name)
    return player_id if player_id is not None else GUEST + name


def chips(group: Group) -> list[Chip]:
    """Who may be here, in the order they sat at the group's last table, then the rest of the
    roster (retired players left out), then tonight's guests."""
    today = group.today()
    found: dict[str, Chip] = {}
    roster_keys = {same_name_key(p.name) for p in group.players if not p.retired}

    def add_guest(name: str) -> None:
        if same_name_key(name) not in roster_keys:
            found.setdefault(GUEST + name, Chip(GUEST + name, name, None))

    if group.tables:
        last = group.tables[-1]
        for name in last.players:
            player = group.player(last.seats.get(name))
            if player is not None and not player.retired:
                found.setdefault(player.id, Chip(player.id, player.name, player.id))
            elif player is None and last.evening == today:
                add_guest(name)
    for player in group.players:
        if not player.retired:
            found.setdefault(player.id, Chip(player.id, player.name, player.id))
    for kept in group.tables:
        if kept.evening == today:
            for name in kept.players:
                if kept.seats.get(name) is None:
                    add_guest(name)
    return list(found.values())


def next_in_turn(group: Group) -> list[str]:
    """Who would deal first next, in turn (chip values): the players of the group's last table
    from the one left of its first dealer round to that dealer (empty: no table yet)."""
    if not group.tables:
        return []
    last = group.tables[-1]
    seats = dict(last.seats)
    order = [identity(seats, name) for name in last.players]
    dealer = last.first if last.first in last.players else last.players[0]
    at = last.players.index(dealer)
    return [order[(at + step) % len(order)] for step in range(1, len(order) + 1)]


def rotation(group: Group, here: list[str]) -> str | None:
    """Who deals first (as a chip's value) among ``here`` (chip values in seat order), as the
    group's rotation has it (see the module); None when nobody is here."""
    if not here:
        return None
    return next((value for value in next_in_turn(group) if value in here), here[0])


def seated(offered: list[Chip], here: list[str], order: list[str]) -> list[Chip]:
    """Who is here, in seat order: as the seats list posted them (``order``, chip values),
    then anyone else tapped, in the chips' order."""
    by_value = {chip.value: chip for chip in offered}
    chosen = set(here)
    out = [by_value[v] for v in dict.fromkeys(order) if v in chosen and v in by_value]
    return out + [chip for chip in offered if chip.value in chosen and chip not in out]


def moved(order: list[str], move: str) -> list[str]:
    """``order`` with the seat a move button names one place up or down (as it was when that
    is no seat, or the first seat up, the last down)."""
    out = list(order)
    for prefix, step in ((UP, -1), (DOWN, 1)):
        value = move.removeprefix(prefix)
        if move.startswith(prefix) and value in out:
            at = out.index(value)
            if 0 <= at + step < len(out):
                out[at], out[at + step] = out[at + step], out[at]
    return out


def last_dealer(group: Group) -> str | None:
    """The name (as shown now) of whoever dealt first at the group's last table."""
    if not group.tables:
        return None
    last = group.tables[-1]
    dealer = last.first if last.first in last.players else last.players[0]
    player = group.player(last.seats.get(dealer))
    return player.name if player is not None else dealer


def shown_option(value: object) -> object:
    """An option's stored value as its form field holds it."""
    if isinstance(value, bool) or value is None:
        return value if value is not None else ""
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)


def preset(form: StartForm, group: Group) -> None:
    """Each game's options as it was last played in the group: those of its last table that
    differ from what that table would have had by default."""
    for game in GAMES:
        last = next((kept for kept in reversed(group.tables) if kept.game == game), None)
        if last is None:
            continue
        try:
            defaults = start(Setup(game, last.players)).game.options
        except (Breach, OptionError):
            continue
        fieldset = form.options(game)
        for name, value in last.options.items():
            if name in fieldset._fields and defaults.get(name) != value:
                fieldset[name].data = shown_option(value)


def guest_names(text: str) -> list[str]:
    """The guests typed: separated by commas, trimmed, blanks left out."""
    return [name.strip() for name in text.split(",") if name.strip()]


def render_start(
    group: Group,
    form: StartForm,
    status: int = 200,
    here: list[str] | None = None,
    dealer: str = NEXT,
    notice: str | None = None,
    errors: list[str] | None = None,
    order: list[str] | None = None,
) -> tuple[str, int]:
    offered = chips(group)
    seats = seated(offered, here or [], order or [])
    values = [chip.value for chip in seats]
    first = dealer if dealer in values else rotation(group, values)
    page = render_template(
        "groups/start.html",
        group=group,
        form=form,
        chips=offered,
        here=set(here or ()),
        seats=seats,
        first=first,
        picked=dealer in values,
        turn=" ".join(next_in_turn(group)),
        last_dealer=last_dealer(group),
        games=[(name, game.title, screens(name)) for name, game in GAMES.items()],
        errors=[*(errors or []), *every_error(form)],
        notice=notice,
    )
    return page, status


def start_page(group_id: str) -> ResponseReturnValue:
    """The page that starts a table of the group, and what it posts."""
    GROUPS.require(group_id, "keeper")
    group = load_group(group_id)
    if request.method == "GET":
        game = request.args.get("game")
        if game not in GAMES:
            game = group.tables[-1].game if group.tables else first_game()
        form = StartForm(formdata=None, game=game)
        preset(form, group)
        return render_start(group, form)
    form = StartForm()
    here = request.form.getlist("here")
    order = request.form.getlist("seat")
    dealer = request.form.get("dealer", NEXT)
    move = request.form.get("move")
    if move is not None:  # a seat moved (or the seats shown) without the page's script
        form.validate()  # its fields as posted, its errors not yet said
        form.errors.clear()
        order = [chip.value for chip in seated(chips(group), here, order)]
        return render_start(group, form, 200, here, dealer, order=moved(order, move))
    if not form.validate():
        return render_start(group, form, 422, here, dealer, order=order)
    return start_posted(group, form, here, dealer, order)


def start_posted(
    group: Group, form: StartForm, here: list[str], dealer: str, order: list[str]
) -> ResponseReturnValue:
    """Start the table the posted form describes, or show the form again saying why not."""
    offered = chips(group)
    values = {chip.value for chip in offered}
    errors: list[str] = []
    if any(value not in values for value in here):
        errors.append(
            gettext(
                "Someone you tapped is no longer on the roster (another phone changed it). "
                "Tap who is here again."
            )
        )
    chosen = seated(offered, here, order)
    roster = {same_name_key(p.name): p for p in group.players if not p.retired}
    seats: dict[str, str | None] = {chip.name: chip.player_id for chip in chosen}
    names = [chip.name for chip in chosen]
    for guest in guest_names(form.guests.data or ""):
        player = roster.get(same_name_key(guest))
        seats[guest] = player.id if player is not None else None
        names.append(guest)
    if len(names) > SEATS:
        errors.append(gettext("At most %(n)d players sit at a table.", n=SEATS))
    first: str | None = None
    if dealer == NEXT:
        value = rotation(group, [chip.value for chip in chosen])
        first = next((chip.name for chip in chosen if chip.value == value), None)
        if first is None and names:
            first = names[0]
    else:
        first = next((chip.name for chip in chosen if chip.value == dealer), None)
        if first is None:
            errors.append(
                gettext("Who deals first must be at the table: tap them as here, or choose again.")
            )

    def again(
        status: int, notice: str | None = None, said: list[str] | None = None
    ) -> tuple[str, int]:
        """The form again, as posted, with what is wrong."""
        return render_start(group, form, status, here, dealer, notice, said, order)

    if errors:
        return again(422, said=errors)
    setup = checked_setup(form, tuple(names), first)
    if setup is None:
        return again(422)
    try:
        check_seats(setup.players, seats, group.by_id)
    except GroupRefused as refusal:
        return again(422, said=[refusal_text(refusal)])
    if not may_create():
        return again(429, notice=too_many_tables())
    table_id = start_table(setup)
    token = GROUPS.held_token(group.id)
    try:
        attach_table(group.id, table_id, seats, by=token)
    except (GroupRefused, NoAccess) as problem:
        reason = refusal_text(problem) if isinstance(problem, GroupRefused) else ""
        flash(
            gettext(
                "The table is started, but the group could not keep it. %(reason)s",
                reason=reason,
            ).strip(),
            "warning",
        )
    return redirect(url_for("round.show", table_id=table_id), 303)


@on_stale("groups.start_page")
def stale_start(message: str) -> ResponseReturnValue:
    """A stale start form: shown again with everything tapped and typed kept."""
    group_id = str((request.view_args or {}).get("group_id", ""))
    GROUPS.require(group_id, "keeper")
    group = load_group(group_id)
    here = request.form.getlist("here")
    dealer, order = request.form.get("dealer", NEXT), request.form.getlist("seat")
    return render_start(group, StartForm(), 400, here, dealer, message, order=order)
