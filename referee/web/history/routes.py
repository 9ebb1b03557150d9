"""The table's history and corrections: every entry of the log, newest first, a round at a time
(or a round's alone, to correct it from the score sheet), and the form that corrects one (an
entry of its own, never an erasure), with the same rule checks as an entry made at the table;
a correction made goes back to the score sheet at its round.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from referee.records.log import clock_went_back
from referee.rules import Breach, State, apply, replay
from referee.rules import events as ev
from referee.rules.engine import Run
from referee.rules.events import event_from_dict
from referee.rules.seating import START_CHOICES
from referee.rules.wording import START_WORDS, number_text
from referee.store.paper import paper_mark
from referee.store.tables import StaleTable, in_force
from referee.web.history.lines import (
    CORRECTABLE,
    Fate,
    fates,
    form_values,
    iso_utc,
    target_event,
)
from referee.web.i18n import gettext as _
from referee.web.i18n import ngettext
from referee.web.live import follow
from referee.web.loading import load
from referee.web.round.entries import EntryError, EntryForm, build_event
from referee.web.round.screen import count_fields
from referee.web.screens import screens
from referee.web.sealed import rounds_over, shown_early, shown_notes
from referee.web.sharing.access import TABLES, write
from referee.web.sheet.rows import sheet as sheet_rows
from referee.web.words import breach_text, colour_label, describe_event

bp = Blueprint("history", __name__, url_prefix="/t")


@bp.get("/<table_id>/history")
def page(table_id: str) -> str | Response:
    """Every entry of the log, newest first, each marked with what became of it (and where the
    clock went back, and which came from a paper card); ``?round=n``: only the entries about
    round n (where the score sheet's round number leads, to correct it)."""
    TABLES.require(table_id)
    if (same := follow(table_id)) is not None:  # its stream, or its poll: nothing new
        return same
    record, state = load(table_id)
    over = rounds_over(state)
    by_seq = {entry.seq: entry for entry in record.entries}
    fate = fates(record.entries)
    clock_back = set(clock_went_back(record.entries))
    only = request.args.get("round", type=int)
    card = paper_mark(table_id)

    def described(payload: dict[str, Any]) -> str:
        event = event_from_dict(payload)
        return describe_event(event, turned_up=event.round in over)

    sealed = {rnd.number: state.game.sealed(rnd) for rnd in state.rounds}
    lines = []
    for entry in reversed(record.entries):
        about = target_event(by_seq, entry.seq)
        event = None if about is None else event_from_dict(about.payload)
        if only is not None and (event is None or event.round != only):
            continue
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
                "when": iso_utc(entry.created_at),
                "fate": fate.get(entry.seq, Fate()),
                "clock_back": entry.seq in clock_back,
                "paper": card is not None and card.marks(entry.seq),
                "round": None if event is None else event.round,
                "correctable": event is not None
                and event.type in CORRECTABLE
                and not (
                    isinstance(event, ev.Declare) and event.player in sealed.get(event.round, ())
                ),
            }
        )
    return render_template(
        "history/page.html",
        record=record,
        state=state,
        lines=lines,
        rounds=None if only is not None else by_round(state, lines),
        part=screens(state.setup.game),
        only=only,
        shown_early=shown_early(record.setup, record.entries),
        title=state.game.title,
    )


@dataclass
class RoundEntries:
    """A round on the history page: its number (None: entries about no event the log has),
    who dealt or started it, its result in short (None while it is not scored) and its lines,
    newest first."""

    number: int | None
    who: str | None
    result: str | None
    lines: list[dict[str, Any]] = field(default_factory=list)
    opened: bool = False


def by_round(state: State, lines: list[dict[str, Any]]) -> list[RoundEntries]:
    """The history's ``lines`` (newest first) grouped by the round they are about, the newest
    round first, each with who dealt (or started) it and each player's score in it, and
    whether it is shown open."""
    rows = {row.number: row for row in sheet_rows(state)}
    groups: dict[int | None, RoundEntries] = {}
    for line in lines:
        number = line["round"]
        if number not in groups:
            row = rows.get(number) if number is not None else None
            result = None
            if row is not None and row.complete:
                # those dealt in, and a dash for who sat it out (not who was not there yet)
                result = ", ".join(
                    _(
                        "%(player)s %(score)s",
                        player=p,
                        score="–" if cell.away else number_text(cell.score or 0),
                    )
                    for p, cell in row.cells.items()
                    if cell.away != "away"
                )
            groups[number] = RoundEntries(number, None if row is None else row.who, result)
        groups[number].lines.append(line)
    ordered = sorted(
        groups.values(), key=lambda g: -1 if g.number is None else g.number, reverse=True
    )
    # Open: the newest round, and the newest with an entry still in force (where the newest
    # has only entries undone, as after undoing a round's first entry).
    standing = [g for g in ordered if any(line_in_force(line) for line in g.lines)]
    for group in ordered[:1] + standing[:1]:
        group.opened = True
    return ordered


def line_in_force(line: dict[str, Any]) -> bool:
    """The history line's entry is the version of its event in force."""
    return line["fate"].current is not None


def kept_with_breach(state: State, event: ev.Event) -> bool:
    """Whether ``event``, which the rules refuse after ``state``, can still be kept as a breach
    (as a lenient replay keeps it, like a hook bid) rather than being unusable (a card that
    is not one, a player who is not at the table)."""
    probe = state.copy()
    try:
        probe.game.step(Run(probe, lenient=True), event)
    except Breach:
        return False
    return True


def trump_choices(state: State, event: ev.Event) -> list[tuple[str, str]]:
    """The trumps a correction of ``event`` (a trump) may tap, as the trump step offers them:
    each colour of the deck, and the turned card itself where the entry named one."""
    deck = state.game.deck
    choices = [(colour, colour_label(colour)) for colour in deck.colours]
    if isinstance(event, ev.Trump) and event.card not in deck.colours:
        card = deck.parse_card(event.card)
        choices.append((event.card, card.label() if card is not None else event.card))
    return choices


def breaches_made(state: State, after: State) -> list[str]:
    """The breaches noted after a correction (``after``) that were not noted before
    (``state``), in words, as a page may show them (nothing of a sealed bid)."""
    was = Counter(breach_text(b) for b in state.violations)
    now = [breach_text(b) for b in shown_notes(after, after.violations)]
    made = []
    for text in now:
        if was[text]:
            was[text] -= 1
        else:
            made.append(text)
    return made


def stamp(made: list[str]) -> str:
    """What the "keep it as a breach" checkbox posts: these breaches and no others."""
    return hashlib.sha256("\n".join(made).encode()).hexdigest()[:16]


@bp.route("/<table_id>/amend/<int:target>", methods=["GET", "POST"])
def amend(table_id: str, target: int) -> Response | tuple[str, int]:
    """Correct entry ``target`` with the same checks as an entry made at the table: refused
    with the reason and the input kept, or, when it would make a breach it can be kept with
    (its own or of an entry after it), recorded only once the scorekeeper ticks that it is to
    be kept as a breach (the box names the breaches)."""
    TABLES.require(table_id, "keeper")  # a POST asks the database: its refusals show the table
    record, state = load(table_id)
    events = in_force(record.entries)
    if target not in events:
        abort(404)
    old = event_from_dict(events[target])
    if old.type not in CORRECTABLE:
        abort(404)
    over = rounds_over(state)
    form = EntryForm(request.form)
    error = None
    made: list[str] = []
    kept: dict[str, Any] = form_values(state, old)
    sealed = isinstance(old, ev.Declare) and any(
        old.player in state.game.sealed(rnd) for rnd in state.rounds if rnd.number == old.round
    )
    stale = _("The table changed since this page was shown. Check the entry and correct it again.")
    if sealed and isinstance(old, ev.Declare):  # correcting it would show or erase it
        error = _(
            "%(p)s's bid is sealed until the round is over; it can be corrected after that.",
            p=old.player,
        )
    elif request.method == "POST":
        kept = request.form.to_dict()
        if not form.validate() or form.seq.data != record.last_seq:
            error = stale
        else:
            try:
                new = build_event(state, old.type, old.round, request.form)
                before = replay(
                    record.setup,
                    [event_from_dict(p) for seq, p in events.items() if seq < target],
                    lenient=True,
                )
                try:
                    apply(before, new)
                except Breach:
                    if not kept_with_breach(before, new):
                        raise
                fixed = {**events, target: new.to_dict()}
                after = replay(
                    record.setup, [event_from_dict(p) for p in fixed.values()], lenient=True
                )
                made = breaches_made(state, after)
                if made and kept.get("keep_breach") != stamp(made):
                    error = ngettext(
                        "This correction would make a breach of the rules: %(what)s",
                        "This correction would make %(num)d breaches of the rules: %(what)s",
                        len(made),
                        what=" ".join(made),
                    )
                else:
                    write(
                        table_id,
                        record.last_seq,
                        "amend",
                        {"target": target, "event": new.to_dict()},
                    )
                    what = describe_event(new, turned_up=new.round in over)
                    if made:
                        flash(_("Corrected, kept as a breach: %(what)s", what=what), "warning")
                    else:
                        flash(_("Corrected: %(what)s", what=what), "info")
                    back = url_for("sheet.page", table_id=table_id, _anchor=f"round-{new.round}")
                    return redirect(back, 303)
            except EntryError as exc:
                error = str(exc)
            except Breach as breach:
                error = breach_text(breach)
            except StaleTable:
                error = stale
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
        made=made,
        stamp=stamp(made) if made else "",
        sealed=sealed,
        seq=record.last_seq,
        title=state.game.title,
        colours=state.game.deck.colours,  # ebbes: designators, a designation, the cards won
        tricks=state.game.tricks_in(old.round),  # what the tricks entered add up to
        trick_rows=count_fields(state, old.round, "tricks"),  # the chips of a tricks correction
        starts=[(choice, _(START_WORDS[choice])) for choice in START_CHOICES],  # a join's
        trumps=trump_choices(state, old),
        bids=range(state.game.tricks_in(old.round) + 1),  # the bids a correction may tap
    ), (422 if error else 200)
