"""The table's history and corrections: every entry of the log in order, and the form that
corrects one (an entry of its own, never an erasure).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from referee.rules import Breach, apply, replay
from referee.rules import events as ev
from referee.rules.events import event_from_dict
from referee.store.tables import StaleTable, in_force
from referee.web.history.lines import form_values
from referee.web.round.entries import EntryError, EntryForm, build_event
from referee.web.screens import screens
from referee.web.sealed import rounds_over, shown_early
from referee.web.sharing.access import require, write
from referee.web.speed import load
from referee.web.words import breach_text, describe_event

bp = Blueprint("history", __name__, url_prefix="/t")


@bp.get("/<table_id>/history")
def page(table_id: str) -> str:
    require(table_id)
    record, state = load(table_id)
    force = in_force(record.entries)
    over = rounds_over(state)

    def described(payload: dict[str, Any]) -> str:
        event = event_from_dict(payload)
        return describe_event(event, turned_up=event.round in over)

    lines = []
    for entry in record.entries:
        if entry.kind == "event":
            what = described(entry.payload)
        elif entry.kind == "undo":
            what = _("Undo of entry %(n)s", n=entry.payload["target"])
        else:
            what = _(
                "Correction of entry %(n)s: %(what)s",
                n=entry.payload["target"],
                what=described(entry.payload["event"]),
            )
        lines.append(
            {
                "entry": entry,
                "what": what,
                "in_force": entry.seq in force,
                "correctable": entry.kind == "event" and entry.seq in force,
            }
        )
    return render_template(
        "history/page.html",
        record=record,
        state=state,
        lines=lines,
        shown_early=shown_early(record.setup, record.entries),
        title=state.game.title,
    )


@bp.route("/<table_id>/amend/<int:target>", methods=["GET", "POST"])
def amend(table_id: str, target: int) -> Response | tuple[str, int]:
    require(table_id, "keeper")  # a POST asks the database: its refusals show the table
    record, state = load(table_id)
    events = in_force(record.entries)
    if target not in events:
        abort(404)
    old = event_from_dict(events[target])
    over = rounds_over(state)
    form = EntryForm(request.form)
    error = None
    kept: dict[str, Any] = form_values(state, old)
    sealed = isinstance(old, ev.Declare) and any(
        old.player in state.game.sealed(rnd) for rnd in state.rounds if rnd.number == old.round
    )
    if sealed and isinstance(old, ev.Declare):  # correcting it would show or erase it
        error = _(
            "%(p)s's bid is sealed until the round is over; it can be corrected after that.",
            p=old.player,
        )
    elif request.method == "POST":
        kept = request.form.to_dict()
        if not form.validate() or form.seq.data != record.last_seq:
            error = _(
                "The table changed since this page was shown. Check the entry and correct it again."
            )
        else:
            try:
                new = build_event(state, old.type, old.round, request.form)
                before = [event_from_dict(p) for seq, p in events.items() if seq < target]
                apply(replay(record.setup, before, lenient=True), new)
                write(
                    table_id, record.last_seq, "amend", {"target": target, "event": new.to_dict()}
                )
                what = describe_event(new, turned_up=new.round in over)
                flash(_("Corrected: %(what)s", what=what), "info")
                return redirect(url_for("round.show", table_id=table_id), 303)
            except EntryError as exc:
                error = str(exc)
            except Breach as breach:
                error = breach_text(breach)
            except StaleTable:
                error = _(
                    "The table changed since this page was shown. Check the entry and "
                    "correct it again."
                )
    return render_template(
        "history/amend.html",
        record=record,
        state=state,
        part=screens(state.setup.game),
        old=old,
        target=target,
        what=describe_event(old, turned_up=old.round in over),
        kept=kept,
        error=error,
        sealed=sealed,
        seq=record.last_seq,
        title=state.game.title,
        colours=state.game.deck.colours,  # ebbes: designators, a designation, the cards won
        tricks=state.game.tricks_in(old.round),  # what the tricks entered add up to
    ), (422 if error else 200)
