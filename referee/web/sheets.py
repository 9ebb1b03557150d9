"""Printable sheets on the web: a table's score sheet as PDF, and blank scorecards to print.

The PDFs themselves are made by ``referee.sheets`` from the replayed state; this blueprint
reads the table and its log (for the corrections to footnote), picks the paper, and sends the
bytes as a download. The scorecard page is a Flask-WTF form; whether its players and options
are allowed is the rules engine's decision, so its sentence is what the page shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import Field, RadioField, SelectChoice, SelectField, StringField

from referee.rules import GAMES, Breach, OptionError, start
from referee.rules.events import event_from_dict
from referee.sheets import BlankCard, Correction, Page, SheetInfo, blank_card, table_sheet
from referee.store.tables import LogEntry, TableRecord
from referee.web.access import require
from referee.web.cache import LRU, load
from referee.web.errors import breach_text, on_stale
from referee.web.newtable import GAME_ORDER, SEQUENCE_LABELS, choices, game_label, whole_number
from referee.web.view import describe_event

bp = Blueprint("sheets", __name__)

#: Name rows on the form; no game seats more (Blackout: 8).
SEATS = 8

PAPER_LABELS = {"a4": lazy_gettext("A4"), "letter": lazy_gettext("US Letter")}
ORIENTATION_LABELS = {
    "auto": lazy_gettext("Automatic"),
    "portrait": lazy_gettext("Portrait"),
    "landscape": lazy_gettext("Landscape"),
}

#: Rendered sheets by (table id, log sequence number, page): a table's PDF changes only with it.
_pdfs: LRU[bytes] = LRU(32)


def safe_file_name(*parts: str) -> str:
    """A file name of safe characters only (player names never go in it)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", "-".join(parts))


def pdf_response(body: bytes, name: str) -> Response:
    """``body`` as a PDF download called ``name``."""
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response


def page_from(args: Mapping[str, str]) -> Page:
    """The paper and orientation asked for in the query string; the defaults for anything else."""
    paper = args.get("paper", "a4")
    orientation = args.get("orientation", "auto")
    return Page(
        paper if paper in PAPER_LABELS else "a4",
        orientation if orientation in ORIENTATION_LABELS else "auto",
    )


# --- a table's sheet --------------------------------------------------------------------------


def corrections(entries: Sequence[LogEntry]) -> list[Correction]:
    """Every undo and amendment in the log, with the round of the event it changed."""
    by_seq = {entry.seq: entry for entry in entries}

    def event_entry(seq: int) -> LogEntry | None:
        """The event an entry is about, following undos and amendments back to it."""
        entry = by_seq.get(seq)
        while entry is not None and entry.kind != "event":
            entry = by_seq.get(entry.payload["target"])
        return entry

    def said(payload: Mapping[str, Any]) -> str:
        return describe_event(event_from_dict(payload)).split(": ", 1)[-1]

    out: list[Correction] = []
    for entry in entries:
        if entry.kind == "event":
            continue
        target = by_seq.get(entry.payload["target"])
        event = event_entry(entry.payload["target"])
        if target is None or event is None:
            continue
        when = entry.created_at.strftime("%H:%M UTC")
        if entry.kind == "amend":
            text = gettext(
                "entry %(n)d “%(old)s” was corrected to “%(new)s” (%(when)s).",
                n=event.seq,
                old=said(event.payload),
                new=said(entry.payload["event"]),
                when=when,
            )
        elif target.kind == "event":
            text = gettext(
                "entry %(n)d “%(old)s” was undone (%(when)s).",
                n=event.seq,
                old=said(event.payload),
                when=when,
            )
        else:
            text = gettext(
                "entry %(n)d, a correction of “%(old)s”, was undone (%(when)s).",
                n=target.seq,
                old=said(event.payload),
                when=when,
            )
        out.append(Correction(event_from_dict(event.payload).round, text))
    return out


def sheet_info(record: TableRecord) -> SheetInfo:
    return SheetInfo(date=record.created_at.date(), corrections=tuple(corrections(record.entries)))


@bp.get("/t/<table_id>/sheet.pdf")
def table_pdf(table_id: str) -> ResponseReturnValue:
    """The table's score sheet as a PDF download (``?paper=letter&orientation=landscape``)."""
    require(table_id)
    record, state = load(table_id)
    page = page_from(request.args)
    body = _pdfs.get_or_make(
        (table_id, record.last_seq, page),
        lambda: table_sheet(state, sheet_info(record), page),
    )
    day = record.created_at.strftime("%Y-%m-%d")
    return pdf_response(body, safe_file_name(state.setup.game, day, table_id[:8], "sheet.pdf"))


# --- blank scorecards -------------------------------------------------------------------------


class ScorecardForm(FlaskForm):
    """The blank scorecard form; the name rows ``player_1`` … ``player_8`` are added below."""

    game = RadioField(lazy_gettext("Game"), default="blackout")
    players = SelectField(
        lazy_gettext("Players"),
        choices=[str(n) for n in range(2, SEATS + 1)],
        default="4",
    )
    first = SelectField(lazy_gettext("Deals first"), default="")
    blackout_sequence = SelectField(
        lazy_gettext("Hand sizes"),
        choices=choices("blackout", "sequence", SEQUENCE_LABELS),
        default=GAMES["blackout"].option_choices["sequence"][0],
    )
    blackout_max_cards = StringField(lazy_gettext("Most cards in a hand"))
    paper = RadioField(
        lazy_gettext("Paper"),
        choices=[SelectChoice(key, label) for key, label in PAPER_LABELS.items()],
        default="a4",
    )
    orientation = SelectField(
        lazy_gettext("Orientation"),
        choices=[SelectChoice(key, label) for key, label in ORIENTATION_LABELS.items()],
        default="auto",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(name, game_label(name)) for name in GAME_ORDER]
        self.first.choices = [SelectChoice("", gettext("Leave the dealers blank"))] + [
            SelectChoice(str(n), gettext("Seat %(seat)d", seat=n)) for n in range(1, SEATS + 1)
        ]

    def seat(self, number: int) -> Field:
        """The name row of seat ``number`` (1 … SEATS)."""
        return self[f"player_{number}"]


for _seat in range(1, SEATS + 1):
    setattr(
        ScorecardForm,
        f"player_{_seat}",
        StringField(lazy_gettext("Seat %(seat)d", seat=_seat)),
    )


def card_from(form: ScorecardForm) -> BlankCard | None:
    """The card the form asks for, or None with the reasons noted on the form.

    Only what the page must parse is checked here (names beyond the player count, the first
    dealer's seat, max cards as a number); the rest is the rules engine's to refuse.
    """
    game = form.game.data
    count = int(form.players.data)
    names = [(form.seat(n).data or "").strip() for n in range(1, SEATS + 1)]
    for n in range(count + 1, SEATS + 1):
        if names[n - 1]:
            form.seat(n).errors.append(
                gettext(
                    "Seat %(seat)d has a name, but the card is for %(count)d players.",
                    seat=n,
                    count=count,
                )
            )
    first = int(form.first.data) if form.first.data else None
    if first is not None and first > count:
        form.first.errors.append(
            gettext("There is no seat %(seat)d at a table of %(count)d.", seat=first, count=count)
        )
    options: dict[str, Any] = {}
    if game == "blackout":
        options["sequence"] = form.blackout_sequence.data
        max_cards = whole_number(
            form.blackout_max_cards,
            gettext("Most cards in a hand must be a whole number, or blank for the most."),
        )
        if max_cards is not None:
            options["max_cards"] = max_cards
    if any(field.errors for field in form):
        return None
    card = BlankCard(game, count, tuple(names[:count]), first, options)
    try:
        start(card.setup())
    except Breach as breach:
        form.form_errors.append(breach_text(breach))
        return None
    except OptionError as error:
        name = f"blackout_{error.option}"
        (form[name].errors if name in form else form.form_errors).append(str(error))
        return None
    except ValueError as error:
        form.form_errors.append(str(error))
        return None
    return card


def render_form(form: ScorecardForm, status: int = 200, notice: str | None = None) -> Any:
    errors = list(form.form_errors)
    for field in form:
        if field.errors and isinstance(field.errors, list):
            errors += [f"{field.label.text}: {error}" for error in field.errors]
    return (
        render_template(
            "sheets/blank.html",
            form=form,
            seats=range(1, SEATS + 1),
            errors=errors,
            notice=notice,
        ),
        status,
    )


@bp.route("/scorecards", methods=["GET", "POST"])
def blank() -> ResponseReturnValue:
    """The scorecard page; a valid POST downloads the card."""
    if request.method == "GET":
        game = request.args.get("game")
        return render_form(ScorecardForm(game=game if game in GAMES else "blackout"))
    form = ScorecardForm()
    if not form.validate():
        return render_form(form, 422)
    card = card_from(form)
    if card is None:
        return render_form(form, 422)
    body = blank_card(card, Page(form.paper.data, form.orientation.data))
    name = safe_file_name(card.game, str(card.players), "players", "scorecard.pdf")
    return pdf_response(body, name)


@on_stale("sheets.blank")
def stale(message: str) -> ResponseReturnValue:
    """A stale scorecard form: shown again with everything chosen kept and a fresh token."""
    return render_form(ScorecardForm(), 400, notice=message)
