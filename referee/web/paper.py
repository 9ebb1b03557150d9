"""Paper in: a table's readable card to print, and a photo of it filled in read back as the
table's entries.

The scorekeeper of a table that has not begun prints its readable card (its players, seats
and first dealer on it), the table plays on paper, and the photo of the card comes back here
(``referee.paper`` reads it). The page that follows shows every round as read, with the boxes
the reader still doubts as the photo's cut-out beside chips to tap; nothing is stored until it
is confirmed. The confirmed card becomes the table's entries one by one through the same
entries are each checked by the rules engine first, then written all at once with the card's
photo (``referee.store.paper.enter_card``: the whole card or nothing). Only a table with no
entries takes a card: the card holds the whole game from its first round.

The photo the table keeps is the card as the reader straightened it (the page alone, grey, no
camera metadata). Between the upload and the confirmation it travels in the confirmation form,
sealed with the app's secret key (``seal``), so nothing is stored before the card is confirmed
and no other image can be slipped in. Only the scorekeeper sees it, on this page, and may
delete it; the history marks the card's entries "from paper" for everyone.

The photo is limited like any upload: ``PHOTO_LIMIT`` bytes, then its header's pixel count,
before a pixel is decoded; an upload refused counts toward the address's limit on new tables
and refused uploads, as a refused record does.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import HiddenField

from referee.paper.layout import CardError, RoundCells, card_layout, has_card
from referee.rules import Breach, Setup, State
from referee.sheets.card import BlankCard
from referee.sheets.readable import readable_card
from referee.store.links import NoAccess
from referee.store.paper import card_photo, delete_photo, enter_card, paper_mark
from referee.store.refusals import note_refusal
from referee.store.tables import StaleTable
from referee.web import csrf
from referee.web.downloads import attachment, safe_file_name
from referee.web.i18n import gettext, ngettext, translations
from referee.web.loading import load, load_since
from referee.web.records import may_upload, too_many_uploads, window_start
from referee.web.sharing.access import TABLES, creator, forget_links
from referee.web.words import breach_text, colour_label, score_text

if TYPE_CHECKING:  # the reader (numpy, OpenCV) is imported when a photo comes, not before
    from referee.paper.reader import Dispute, Reading
    from referee.rules import events as ev

bp = Blueprint("paper", __name__, url_prefix="/t")

#: The largest photo taken, in bytes (a phone's JPEG is a few MB).
PHOTO_LIMIT = 16 * 1024 * 1024
#: The largest card photo kept (``Reading.kept`` makes one of a few hundred KB), and so the
#: largest confirmation posted: the photo in base64 and the card's boxes.
KEPT_LIMIT = 2 * 1024 * 1024
CONFIRM_LIMIT = KEPT_LIMIT * 4 // 3 + 256 * 1024


class PhotoForm(FlaskForm):
    photo = FileField(
        lazy_gettext("Photo of the filled-in card"),
        validators=[FileRequired(lazy_gettext("Choose or take a photo of the card."))],
    )


class ConfirmForm(FlaskForm):
    """The card as read and answered: ``rounds`` and a ``c-<cell>`` field per cell, the card's
    photo (base64) with its ``seal``, a ``w-<round>.<seat>`` field per running total written on
    it, and the disputes the page showed (``disputed``)."""

    rounds = HiddenField()
    photo = HiddenField()
    seal = HiddenField()
    disputed = HiddenField()


class DeletePhotoForm(FlaskForm):
    """Delete the photo of the table's paper card (its CSRF token is all it posts)."""


def seal(place: str, photo: bytes) -> str:
    """The seal of a card photo read for ``place`` (a table or a group): a keyed hash, so that
    the confirmation takes back only a photo this app read there."""
    key = current_app.config["SECRET_KEY"].encode()
    message = b"paper-photo\0" + place.encode() + b"\0" + hashlib.sha256(photo).digest()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def unsealed(place: str, form: ConfirmForm) -> bytes | None:
    """The photo the confirmation posted back, if its seal is this app's (None: not)."""
    try:
        photo = base64.b64decode(form.photo.data or "", validate=True)
    except (binascii.Error, ValueError):
        return None
    if not photo or len(photo) > KEPT_LIMIT:
        return None
    return photo if hmac.compare_digest(seal(place, photo), form.seal.data or "") else None


@dataclass
class Shown:
    """A cell as the confirmation page shows it."""

    key: str
    label: str
    value: str
    text: str
    doubtful: bool
    choices: list[tuple[str, str]] = field(default_factory=list)
    image: str | None = None


@dataclass
class ShownRound:
    """A round as the confirmation page shows it: its trump, a row per player (their cells in
    the order of ``heads``), and the rules' sentence when they refuse it."""

    number: int
    hand: int
    trump: Shown | None
    players: list[tuple[str, list[Shown]]]
    problem: str | None = None

    @property
    def cells(self) -> list[Shown]:
        own = [cell for _name, cells in self.players for cell in cells]
        return [self.trump, *own] if self.trump is not None else own


@dataclass(frozen=True)
class Photo:
    """The card's photo as the confirmation form carries it: base64, and its seal."""

    data: str
    seal: str


def readable(state: State) -> bool:
    """Whether the table's game and size have a readable card."""
    setup = state.setup
    return has_card(setup.game, len(setup.players), setup.options)


def not_begun(record: Any) -> bool:
    return bool(record.last_seq == 0)


def render_page(
    table_id: str, form: PhotoForm | None = None, errors: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    record, state = load(table_id)
    return (
        render_template(
            "paper/page.html",
            record=record,
            table_id=table_id,
            title=state.game.title,
            form=form or PhotoForm(),
            errors=errors or [],
            readable=readable(state),
            open_to_photos=not_begun(record),
            photo_limit_mb=PHOTO_LIMIT // (1024 * 1024),
            mark=paper_mark(table_id),
            delete_form=DeletePhotoForm(),
        ),
        status,
    )


@bp.get("/<table_id>/paper")
def page(table_id: str) -> ResponseReturnValue:
    """The table's readable card to print, and the form that takes its photo."""
    TABLES.require(table_id, "keeper")
    return render_page(table_id)


@bp.get("/<table_id>/paper-card.pdf")
def card(table_id: str) -> ResponseReturnValue:
    """The table's readable card: its players, seats and first dealer printed on it."""
    TABLES.require(table_id)
    _record, state = load(table_id)
    setup = state.setup
    first = setup.players.index(setup.first) + 1 if setup.first in setup.players else None
    blank = BlankCard(setup.game, len(setup.players), setup.players, first, dict(setup.options))
    try:
        body = readable_card(blank, words=translations(), table=table_id)
    except (CardError, ValueError):
        return render_page(table_id, errors=[no_card()], status=404)
    name = safe_file_name(setup.game, str(len(setup.players)), "players", "paper-card.pdf")
    return attachment(body, "application/pdf", name)


def no_card() -> str:
    return gettext(
        "This table's game or size has no card the app can read back: only games with a "
        "trump and bids have one, for as many rounds as one page holds."
    )


PHOTO_REASONS = {
    "format": lazy_gettext("This is not a photo the app can read: choose a JPEG, PNG or WebP."),
    "large": lazy_gettext(
        "This photo has more pixels than a phone camera makes. Take it again with the "
        "phone's own camera."
    ),
    "broken": lazy_gettext("This photo is damaged or cut short: take it again."),
    "markers": lazy_gettext(
        "The card's four corner squares were not found. Lay the card flat in good light and "
        "take the photo from above with all four corners in it. A page of the app, a card on "
        "a screen in dark mode or a mirrored photo has none: photograph the paper card."
    ),
    "code": lazy_gettext(
        "The card's QR code could not be read. Is this the card printed from this page? Take "
        "the photo again, flatter and with more light; photograph the paper card, not a screen."
    ),
    "version": lazy_gettext("This card was printed by another version of the app: print it again."),
}
MISMATCH_REASONS = {
    "game": lazy_gettext("This is a card of another game: print this table's card."),
    "players": lazy_gettext("This card is for another number of players: print this table's card."),
    "options": lazy_gettext("This card is for other rules: print this table's card."),
    "table": lazy_gettext(
        "This card was printed for another table: print this table's card, or a blank one "
        "from the scorecards page."
    ),
}


def refused(
    table_id: str, form: PhotoForm | None, reason: str, status: int = 422
) -> ResponseReturnValue:
    """The paper page with why the photo was refused; it counts toward the address's limit."""
    if status != 429:
        note_refusal(creator(), window_start())
    return render_page(table_id, form, [reason], status)


@bp.post("/<table_id>/paper")
@csrf.exempt  # checked below, once the size limit is set (CSRFProtect would read the body first)
def upload(table_id: str) -> ResponseReturnValue:
    """Read a photo of the card: the confirmation page, or why it cannot be read."""
    from referee.paper.photo import PhotoError
    from referee.paper.reader import CardMismatch, read

    TABLES.require(table_id, "keeper")
    form, problem = posted_photo()
    if problem is not None:
        return refused(table_id, form, *problem)
    assert form is not None
    record, state = load(table_id)
    if not not_begun(record):
        return refused(table_id, form, already_begun(), 409)
    if not readable(state):
        return refused(table_id, form, no_card())
    data = form.photo.data.read(PHOTO_LIMIT + 1)
    try:
        reading = read(data, state.setup, table_id)
    except PhotoError as error:
        return refused(table_id, form, str(PHOTO_REASONS[error.reason]))
    except CardMismatch as error:
        return refused(table_id, form, str(MISMATCH_REASONS[error.reason]))
    if reading.rounds == 0:
        return refused(table_id, form, nothing_written())
    return render_confirm(state.setup, from_reading(reading, table_id), table_target(table_id))


def posted_photo() -> tuple[PhotoForm | None, tuple[str, int] | None]:
    """The photo form as posted, checked with its size limit set first (and the address's
    limit on refused uploads); or why it is refused, and the status."""
    request.max_content_length = PHOTO_LIMIT
    if not may_upload():  # before anything is read
        return None, (too_many_uploads(), 429)
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = PhotoForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        text = gettext("The photo is larger than %(limit)d MB.", limit=PHOTO_LIMIT // 2**20)
        return None, (text, 413)
    if not valid:
        return form, (" ".join(str(e) for e in form.photo.errors), 422)
    return form, None


def nothing_written() -> str:
    return gettext("Nothing is written on this card yet.")


def already_begun() -> str:
    return gettext(
        "This table has entries already: a card is read only into a table that has not begun."
    )


def value_text(field_name: str, value: Any) -> str:
    if value is None:
        return "?"
    if field_name == "trump":
        return colour_label(str(value))
    if field_name == "open":
        return gettext("open") if value else gettext("secret")
    return str(value)


def form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return "" if value is None else str(value)


@dataclass
class Card:
    """A card on its way to being entered, as the confirmation page shows and posts it: the
    rounds read, every cell's value, the sealed photo, the running totals written on it (by
    round and seat: what each may be read as), and what the page asks: the doubtful cells with
    their likeliest values and cut-outs, a round the rules refuse with their sentence, and the
    totals the rules disagree with."""

    rounds: int
    values: dict[str, Any]
    photo: Photo
    written: dict[tuple[int, int], tuple[int, ...]]
    doubtful: set[str] = field(default_factory=set)
    choices: dict[str, list[Any]] = field(default_factory=dict)
    images: dict[str, str] = field(default_factory=dict)
    problems: dict[int, str] = field(default_factory=dict)
    disputes: list[Dispute] = field(default_factory=list)


@dataclass(frozen=True)
class Target:
    """Where a confirmation posts (``action``), the hidden fields that go with it (``extra``),
    the page's navigation (a table's ``record`` or a ``group``), and its template with what
    else that shows (a group's asks who sat where: ``referee.web.groups.paper``)."""

    action: str
    extra: Mapping[str, str] = field(default_factory=dict)
    record: Any = None
    group: Any = None
    template: str = "paper/confirm.html"
    context: Mapping[str, Any] = field(default_factory=dict)


def table_target(table_id: str) -> Target:
    return Target(url_for("paper.confirm", table_id=table_id), record=load(table_id)[0])


def png(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def from_reading(reading: Reading, place: str) -> Card:
    """The card as the reader made it, with its photo sealed for ``place``."""
    kept = reading.kept()
    doubts = reading.doubts()
    images = {cell.key: png(reading.cutout(cell)) for cell in doubts}
    for dispute in reading.disputes:
        box = reading.layout.rounds[dispute.round - 1].players[dispute.seat - 1].total
        images[total_key(dispute.round, dispute.seat)] = png(reading.cutout_box(box))
    return Card(
        reading.rounds,
        reading.values(),
        Photo(base64.b64encode(kept).decode(), seal(place, kept)),
        dict(reading.totals),
        {cell.key for cell in doubts},
        {cell.key: list(cell.choices) for cell in reading.cells},
        images,
        {n: breach_text(b) for n, b in reading.refused.items()},
        list(reading.disputes),
    )


def total_key(number: int, seat: int) -> str:
    """The name of a written total's hidden field: ``w-3.2``, round 3's total of seat 2."""
    return f"w-{number}.{seat}"


@dataclass(frozen=True)
class ShownDispute:
    """A written total the rules disagree with, in words, with the cut-out of its box."""

    text: str
    rule: str
    image: str | None


def disputed(disputes: list[Dispute]) -> str:
    """What the confirmation form says the scorekeeper was shown of the disputes."""
    return ";".join(f"{d.round}.{d.seat}:{d.written}:{d.computed}" for d in disputes)


def render_confirm(
    setup: Setup,
    card: Card,
    target: Target,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
) -> ResponseReturnValue:
    """The card as read, its doubtful boxes as questions and the written totals the rules
    disagree with, to confirm (the photo, sealed, and the written totals go with the form)."""
    layout = card_layout(setup.game, len(setup.players), setup.options)
    labels = {
        "bid": gettext("bid"),
        "took": gettext("tricks won"),
        "open": gettext("open or secret"),
    }
    fields = [name for name in ("open", "bid", "took") if f"1.{name}.1" in card.values]
    shown_rounds = []

    def shown(rnd: RoundCells, key: str, label: str, name: str) -> Shown:
        value = card.values.get(key)
        offered = list(card.choices.get(key) or [])
        if name == "trump":
            offered += [c for c in layout.trump_codes if c not in offered]
        elif name == "open":
            offered += [v for v in (True, False) if v not in offered]
        else:
            high = rnd.bid_high if name == "bid" else rnd.hand
            offered += [v for v in range(high + 1) if v not in offered]
        return Shown(
            key,
            label,
            form_value(value),
            value_text(name, value),
            key in card.doubtful,
            [(form_value(v), value_text(name, v)) for v in offered],
            card.images.get(key),
        )

    for rnd in layout.rounds[: card.rounds]:
        n = rnd.number
        trump = shown(rnd, f"{n}.trump", gettext("Trump"), "trump") if rnd.trump else None
        players = [
            (
                player,
                [
                    shown(rnd, f"{n}.{name}.{seat}", f"{player}: {labels[name]}", name)
                    for name in fields
                ],
            )
            for seat, player in enumerate(setup.players, start=1)
        ]
        shown_rounds.append(ShownRound(n, rnd.hand, trump, players, card.problems.get(n)))
    disputes = [
        ShownDispute(
            gettext(
                "Round %(round)s, %(player)s: the card says %(written)s, the rules %(computed)s.",
                round=d.round,
                player=d.player,
                written=d.written,
                computed=d.computed,
            ),
            gettext("Round %(round)s: %(rule)s", round=d.round, rule=score_text(d.score)),
            card.images.get(total_key(d.round, d.seat)),
        )
        for d in card.disputes
    ]
    form = ConfirmForm(
        formdata=None,
        rounds=str(card.rounds),
        photo=card.photo.data,
        seal=card.photo.seal,
        disputed=disputed(card.disputes),
    )
    written = {
        total_key(*place): " ".join(str(v) for v in readings)
        for place, readings in card.written.items()
    }
    questions = [(r.number, cell) for r in shown_rounds for cell in r.cells if cell.doubtful]
    return (
        render_template(
            target.template,
            **target.context,
            target=target,
            record=target.record,
            group=target.group,
            form=form,
            rounds=shown_rounds,
            heads=[labels[name] for name in fields],
            questions=questions,
            disputes=disputes,
            written={**written, **target.extra},
            error=error,
            notice=notice,
        ),
        status,
    )


def posted_values(form: Mapping[str, str], rounds: int) -> dict[str, Any]:
    """The cells' values as posted (``c-<key>``), read by their kind; the rules check the rest."""
    values: dict[str, Any] = {}
    for name, text in form.items():
        if not (name.startswith("c-") and name.isascii() and text.isascii()):
            continue
        if len(name) > 20 or len(text) > 20:
            continue
        key = name[2:]
        parts = key.split(".")
        if len(parts) < 2 or not parts[0].isdigit() or not 1 <= int(parts[0]) <= rounds:
            continue
        if parts[1] == "trump":
            values[key] = text
        elif parts[1] == "open" and text in ("0", "1"):
            values[key] = text == "1"
        elif parts[1] in ("bid", "took") and text.isdigit():
            values[key] = int(text)
    return values


def posted_written(form: Mapping[str, str], rounds: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """The written totals as posted (``w-<round>.<seat>``: what each may be read as)."""
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    for name, text in form.items():
        if not (name.startswith("w-") and name.isascii() and text.isascii()) or len(text) > 60:
            continue
        number, _, seat = name[2:].partition(".")
        readings = text.split()
        if not (number.isdigit() and seat.isdigit() and len(number) <= 2 and len(seat) <= 2):
            continue
        if 1 <= int(number) <= rounds and all(r.isdigit() and len(r) <= 4 for r in readings):
            out[int(number), int(seat)] = tuple(int(r) for r in readings)
    return out


def allow_card_body() -> None:
    """Let this request's body be as large as a confirmation that carries a card's photo;
    before anything reads the form."""
    request.max_content_length = request.max_form_memory_size = CONFIRM_LIMIT


def posted_card(place: str) -> tuple[Card, bytes] | None:
    """The confirmation form as posted, with its photo, if it is whole and its photo sealed for
    ``place`` (None: out of date, or not this app's). The CSRF token is checked here, after
    the size limit is set (the form carries the photo)."""
    allow_card_body()
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = ConfirmForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return None
    text = form.rounds.data or ""
    if not valid or not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 99:
        return None
    kept = unsealed(place, form)
    if kept is None:
        return None
    rounds = int(text)
    photo = Photo(form.photo.data or "", form.seal.data or "")
    card = Card(
        rounds, posted_values(request.form, rounds), photo, posted_written(request.form, rounds)
    )
    return card, kept


def confirmed_events(
    setup: Setup, card: Card, target: Target
) -> list[ev.Event] | ResponseReturnValue:
    """The confirmed card's entries, each checked by the rules engine; or the confirmation page
    again: with the rules' sentence and the round they refuse to answer again, with the boxes
    left unanswered, or with written totals the rules disagree with that the page did not show
    yet (entered once the scorekeeper has seen them)."""
    from referee.paper.reader import disputes, entries

    try:
        events = entries(setup, card.values, card.rounds)
    except Breach as breach:
        bad = breach.round or 1
        card.doubtful = {key for key in card.values if int(key.split(".")[0]) == bad}
        card.problems = {bad: breach_text(breach)}
        text = gettext("The rules refuse this card as it stands: answer the round marked below.")
        return render_confirm(setup, card, target, text, 422)
    except (KeyError, ValueError):
        card.doubtful = set(card.values)
        text = gettext("Some boxes have no answer: answer every box below.")
        return render_confirm(setup, card, target, text, 422)
    card.disputes = disputes(setup, card.values, card.rounds, card.written)
    if card.disputes and disputed(card.disputes) != request.form.get("disputed", ""):
        notice = gettext(
            "Some totals written on the card are not the rules': check them below. The app "
            "keeps the rules' totals; enter the card when it is right."
        )
        return render_confirm(setup, card, target, notice=notice)
    return events


def entered(rounds: int) -> str:
    return ngettext(
        "The paper card is entered: %(num)d round.",
        "The paper card is entered: %(num)d rounds.",
        rounds,
    )


def out_of_date(table_id: str) -> ResponseReturnValue:
    flash(gettext("This page is out of date; here is the table as it is now."), "error")
    return redirect(url_for("round.show", table_id=table_id), 303)


@bp.post("/<table_id>/paper/confirm")
@csrf.exempt  # checked in ``posted_card``, once the size limit is set (the form carries the photo)
def confirm(table_id: str) -> ResponseReturnValue:
    """Enter the confirmed card: every round's entries, each checked by the rules, written at
    once with the card's photo. A card the rules refuse comes back with the reason and its
    round's boxes to answer again; nothing is stored."""
    TABLES.require(table_id, "keeper", write_checks_link=True)
    posted = posted_card(table_id)
    if posted is None:
        return out_of_date(table_id)
    card, kept = posted
    record, state = load(table_id)
    if not not_begun(record):
        flash(already_begun(), "error")
        return redirect(url_for("round.show", table_id=table_id), 303)
    events = confirmed_events(state.setup, card, table_target(table_id))
    if not isinstance(events, list):
        return events
    try:
        enter_card(table_id, [e.to_dict() for e in events], kept, TABLES.held_token(table_id))
    except NoAccess:
        forget_links(table_id)
        TABLES.refuse_revoked()
    except StaleTable:
        flash(already_begun(), "error")  # another phone's entry came first: nothing written
        return redirect(url_for("round.show", table_id=table_id), 303)
    load_since(table_id, len(events))  # this process's pages know of the card's entries now
    flash(entered(card.rounds), "info")
    return redirect(url_for("round.show", table_id=table_id), 303)


@bp.get("/<table_id>/paper/photo.jpg")
def photo(table_id: str) -> ResponseReturnValue:
    """The kept photo of the table's paper card, to its scorekeeper alone (not cached, so a
    deleted photo is gone from the phone too)."""
    TABLES.require(table_id, "keeper")
    kept = card_photo(table_id)
    if kept is None:
        abort(404)
    response = Response(kept, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.post("/<table_id>/paper/photo/delete")
def delete(table_id: str) -> ResponseReturnValue:
    """Delete the photo of the table's paper card; its entries stay, marked "from paper"."""
    TABLES.require(table_id, "keeper")
    if DeletePhotoForm().validate() and delete_photo(table_id):
        flash(gettext("The card's photo is deleted; its entries stay."), "info")
    return redirect(url_for("paper.page", table_id=table_id), 303)
