"""A group's "add a paper game": a game kept on a blank readable card, photographed, becomes
a new table of the group.

The card is a blank one from the scorecards page (any game, size and rules that have one; its
QR code names them), so the photo alone says what was played. The keeper uploads it here; the
confirmation page is the table's (``referee.web.paper``: the same questions, disputes and
sealed photo) with who sat in each seat and who dealt first asked above the rounds: a name of
the roster is that player, any other a guest. Confirmed, the table is made with its entries,
kept by the group and given the card's photo, all in one transaction
(``referee.store.paper.add_paper_game``); this phone gets the table's scorekeeper link. A
photo refused, or a card not confirmed, stores nothing.

A card printed for a table is read on that table's own paper page, not here: it names the
table, whose players and seats are set already.
"""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.groups import Group, GroupRefused
from referee.paper.layout import card_code, read_code
from referee.rules import Breach, OptionError, Setup, start
from referee.rules.names import same_name_key
from referee.store.groups import UnknownGroup
from referee.store.links import NoAccess
from referee.store.paper import add_paper_game
from referee.store.refusals import note_refusal
from referee.store.tables import TooManyTables
from referee.web import csrf
from referee.web.groups.group import load_group
from referee.web.groups.words import not_kept_text, refusal_text
from referee.web.i18n import gettext
from referee.web.paper import (
    MISMATCH_REASONS,
    PHOTO_LIMIT,
    PHOTO_REASONS,
    Card,
    PhotoForm,
    Target,
    allow_card_body,
    confirmed_events,
    entered,
    from_reading,
    nothing_written,
    posted_card,
    posted_photo,
    render_confirm,
)
from referee.web.records import window_start
from referee.web.sharing.access import GROUPS, creator, open_new_table, too_many_tables
from referee.web.text import is_unicode
from referee.web.words import breach_text


def render_page(
    group: Group, form: PhotoForm | None = None, errors: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    page = render_template(
        "groups/paper.html",
        group=group,
        form=form or PhotoForm(),
        errors=errors or [],
        photo_limit_mb=PHOTO_LIMIT // (1024 * 1024),
    )
    return page, status


def paper_page(group_id: str) -> ResponseReturnValue:
    """Where a group's keeper prints a blank readable card and brings back its photo."""
    GROUPS.require(group_id, "keeper")
    return render_page(load_group(group_id))


def refused(
    group: Group, form: PhotoForm | None, reason: str, status: int = 422
) -> ResponseReturnValue:
    """The page with why the photo was refused; it counts toward the address's limit."""
    if status != 429:
        note_refusal(creator(), window_start())
    return render_page(group, form, [reason], status)


def place(group_id: str, code: str) -> str:
    """What a group's card photo is sealed for: the group, and the card its code names."""
    return f"{group_id} {code}"


def seat_label(seat: int) -> str:
    return gettext("Seat %(seat)d", seat=seat)


def target(group: Group, code: str, names: list[str], dealer: int) -> Target:
    """The group's confirmation: it posts the card's code back, and asks who sat where."""
    context: dict[str, Any] = {
        "names": names,
        "dealer": dealer,
        "roster": [p.name for p in group.players if not p.retired],
    }
    return Target(
        url_for("groups.paper_confirm", group_id=group.id),
        {"code": code},
        group=group,
        template="groups/paper_confirm.html",
        context=context,
    )


def shown_setup(setup: Setup, names: list[str]) -> Setup:
    """The card's setup with the names typed so far (a seat's number where none is)."""
    shown = tuple(name or seat_label(n) for n, name in enumerate(names, start=1))
    return Setup(setup.game, shown, setup.options, None)


@csrf.exempt  # checked in ``posted_photo``, once the size limit is set
def paper_upload(group_id: str) -> ResponseReturnValue:
    """Read a photo of a blank readable card: the confirmation page, or why it cannot be read."""
    from referee.paper.photo import PhotoError
    from referee.paper.reader import CardMismatch, read_blank

    GROUPS.require(group_id, "keeper")
    group = load_group(group_id)
    form, problem = posted_photo()
    if problem is not None:
        return refused(group, form, *problem)
    assert form is not None
    data = form.photo.data.read(PHOTO_LIMIT + 1)
    try:
        code, reading = read_blank(data)
    except PhotoError as error:
        return refused(group, form, str(PHOTO_REASONS[error.reason]))
    except CardMismatch as error:
        text = table_card() if error.reason == "table" else str(MISMATCH_REASONS["game"])
        return refused(group, form, text)
    if reading.rounds == 0:
        return refused(group, form, nothing_written())
    text = code_text(code.game, code.players, code.options)
    names = [""] * code.players
    card = from_reading(reading, place(group.id, text))
    seats = tuple(seat_label(n) for n in range(1, code.players + 1))
    setup = Setup(code.game, seats, dict(reading.layout.options), None)
    return render_confirm(setup, card, target(group, text, names, 1))


def code_text(game: str, players: int, options: dict[str, Any]) -> str:
    """The code of a blank card of ``game`` for ``players`` with ``options``."""
    return card_code(game, players, options)


def table_card() -> str:
    return gettext(
        "This card was printed for a table: photograph it on that table's paper page. Here, "
        "use a blank card from the scorecards page."
    )


def posted_seats(players: int) -> tuple[list[str], int]:
    """The names typed for each seat (trimmed) and the seat that dealt first (1 when none)."""
    typed = [request.form.get(f"seat-{n}", "")[:80] for n in range(1, players + 1)]
    names = [" ".join(name.split()) if is_unicode(name) else "" for name in typed]
    dealer = request.form.get("dealer", "1")
    first = int(dealer) if dealer.isascii() and dealer.isdigit() else 1
    return names, first if 1 <= first <= players else 1


@csrf.exempt  # checked in ``posted_card``, once the size limit is set (the form carries the photo)
def paper_confirm(group_id: str) -> ResponseReturnValue:
    """Make the confirmed card a table of the group: the seats checked as the group's start
    page checks them, the card's entries by the rules; or the page again saying why."""
    GROUPS.require(group_id, "keeper")
    allow_card_body()
    group = load_group(group_id)
    code = read_code(request.form.get("code", "")[:200])
    posted = posted_card(place(group.id, request.form.get("code", "")[:200]))
    if code is None or posted is None:
        flash(gettext("This page is out of date: photograph the card again."), "error")
        return redirect(url_for("groups.paper_page", group_id=group.id), 303)
    card, kept = posted
    text = code_text(code.game, code.players, code.options)
    names, dealer = posted_seats(code.players)
    here = target(group, text, names, dealer)
    blank = Setup(code.game, tuple(f"seat {n}" for n in range(1, code.players + 1)), code.options)
    shown = shown_setup(blank, names)
    if not all(names):
        return render_confirm(shown, card, here, gettext("Write who sat in each seat."), 422)
    setup = Setup(code.game, tuple(names), code.options, names[dealer - 1])
    try:
        start(setup)
    except (Breach, OptionError) as problem:
        text_of = breach_text(problem) if isinstance(problem, Breach) else str(problem)
        return render_confirm(shown, card, here, text_of, 422)
    events = confirmed_events(setup, card, here)
    if not isinstance(events, list):
        return events
    return made(group, setup, card, kept, [e.to_dict() for e in events], here)


def made(
    group: Group,
    setup: Setup,
    card: Card,
    kept: bytes,
    payloads: list[dict[str, Any]],
    here: Target,
) -> ResponseReturnValue:
    """Make the table with its entries, the group's seats and the card's photo, and give this
    phone its scorekeeper link; or the page again saying why not."""
    roster = {same_name_key(p.name): p for p in group.players if not p.retired}
    seats = {
        name: (player.id if (player := roster.get(same_name_key(name))) else None)
        for name in setup.players
    }
    token = GROUPS.held_token(group.id)
    if token is None:
        abort(403)
    try:
        table_id = add_paper_game(group.id, setup, payloads, seats, kept, token, creator())
    except TooManyTables:
        return render_confirm(setup, card, here, too_many_tables(), 429)
    except GroupRefused as refusal:
        return render_confirm(setup, card, here, refusal_text(refusal), 422)
    except NoAccess:
        abort(403, description=not_kept_text())
    except UnknownGroup:
        abort(404)
    open_new_table(table_id)
    flash(entered(card.rounds), "info")
    return redirect(url_for("round.show", table_id=table_id), 303)
