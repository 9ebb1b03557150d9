"""The round screen and its entries: the page, each entry posted to it, undo, the poll.

Every state change is a POST of an ``EntryForm`` carrying the log's sequence number the page
showed; the entry is checked by the rules engine (strict ``apply``) and appended to the log only
if the table has not moved on meanwhile (optimistic concurrency), then the browser is redirected
(POST/redirect/GET), or, when ``static/app.js`` sent it, answered with the next round screen.
A refused entry re-renders the page with the reason and the input kept.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from referee.rules import Breach, State, apply, extend
from referee.rules import events as ev
from referee.rules.events import event_from_dict
from referee.store.groups import group_of_table, seat_newcomer
from referee.store.tables import StaleTable, TableRecord, in_force
from referee.web.i18n import gettext as _
from referee.web.live import follow
from referee.web.loading import load, load_since, recent_seq, remember_after
from referee.web.pages import shared_page
from referee.web.polls import position_answer, valid_poll_key
from referee.web.recent import remember
from referee.web.round.entries import EntryError, EntryForm, SeqForm, build_event
from referee.web.round.screen import announcements, landing_of, round_screen
from referee.web.screens import screens
from referee.web.sealed import public, sealed_bid, shown_notes
from referee.web.sharing.access import GROUPS, TABLES, write
from referee.web.words import breach_text, describe_event

bp = Blueprint("round", __name__, url_prefix="/t")


#: Sent with an entry by ``static/app.js``, which shows the answer in place of the page: a
#: recorded entry is then answered with the next round screen itself (one request on a weak
#: signal) instead of a redirect to it, which a browser without JavaScript follows.
NEXT_SCREEN_HEADER = "X-Next-Screen"


def render_table(
    record: TableRecord,
    state: State,
    error: str | None = None,
    kept: Mapping[str, str] | None = None,
    status: int = 200,
    rule: str | None = None,
    cached: bool = False,
    group: str | None = None,
) -> tuple[str, int]:
    """The table's page; ``cached``: rendered to be served to every spectator (no messages),
    then ``group`` is the group its game-over screen links (``kept_in_group``, part of the
    page's key); otherwise that is asked here, once the game is over."""
    if not cached and state.next_step() is None:
        group = kept_in_group(record.id)
    screen = round_screen(
        record,
        state,
        cards_asked=request.args.get("mode") == "cards",
        player=own_player(record.id),
        error=error,
        error_rule=rule,
        kept=kept,
        cached=cached,
        group_id=group,
    )
    return render_template("round/screen.html", screen=screen), status


def kept_in_group(table_id: str) -> str | None:
    """The group that keeps the table, when this browser holds a keeper link of that group (the
    game-over screen then leads to the group and its next table); None otherwise. A table's
    link never tells of its group, so whoever holds only the table's link learns no group's id
    here. A browser that holds no group link at all costs no query."""
    if not GROUPS.held_ids():
        return None
    group_id = group_of_table(table_id)
    return group_id if group_id is not None and GROUPS.keeps(group_id) else None


def own_player(table_id: str) -> str | None:
    """The player whose link this browser holds (None: no player's link)."""
    found = TABLES.held(table_id)
    return found.player if found is not None and found.kind == "player" else None


@bp.get("/<table_id>/seal/<int:seat>")
def seal(table_id: str, seat: int) -> tuple[str, int]:
    """Pass the phone: a page where only the player who declares secret taps their bid, which is
    sealed until the round is over (the scorekeeper's phone, or the player's own link)."""
    holder = TABLES.require(table_id, "player")
    record, state = load(table_id)
    players = state.players
    if not 1 <= seat <= len(players):
        abort(404)
    player = players[seat - 1]
    if not holder.keeps_score and holder.player != player:
        abort(403, description=_("A player's link can only declare that player's own bid."))
    step = state.next_step()
    return render_template(
        "round/seal.html",
        record=record,
        state=state,
        part=screens(state.setup.game),
        player=player,
        seat=seat,
        step=step,
        seq=record.last_seq,
        title=state.game.title,
        own_phone=not holder.keeps_score,  # the player's own link: the page speaks to them
    ), 200


@bp.get("/<table_id>")
def show(table_id: str) -> Response | tuple[str, int]:
    holder = TABLES.require(table_id)
    shared = holder.kind == "viewer" and "_flashes" not in session
    if (same := follow(table_id, shared)) is not None:  # its stream, or its poll: nothing new
        return same
    remember(table_id)
    if shared:
        # Every spectator sees the same page: rendered once per change of the table.
        # And alike for every one who keeps the table's group: their game-over screen leads
        # to the group, so the group is in the page's key.
        mode = "cards" if request.args.get("mode") == "cards" else ""
        group = kept_in_group(table_id)

        def render(at: int) -> str:
            return render_table(*load_since(table_id, at), cached=True, group=group)[0]

        return shared_page("show", table_id, render, mode, group or "")
    at = request.args.get("at", type=int)  # where this phone's own entry took the log
    record, state = load(table_id) if at is None else load_since(table_id, at)
    return render_table(record, state)


@bp.post("/<table_id>/entry")
def enter(table_id: str) -> Response | tuple[str, int]:
    """Record an entry: the scorekeeper's phone any, a player link only its own declaration."""
    holder = TABLES.require(table_id, "player", write_checks_link=True)
    form = EntryForm(request.form)
    seen = form.seq.data  # the log position the page showed
    record, state = load(table_id) if seen is None else load_since(table_id, seen)
    kept = request.form.to_dict()
    if not form.validate():
        return refuse(
            record, state, _("This page is out of date; here is the table as it is now."), kept, 400
        )
    assert form.seq.data is not None and form.round.data is not None
    try:
        event = build_event(state, form.action.data or "", form.round.data, request.form)
    except EntryError as exc:
        return refuse(record, state, str(exc), kept, 422)
    if not holder.keeps_score and not (
        isinstance(event, ev.Declare) and event.player == holder.player
    ):
        abort(403, description=_("A player's link can only declare that player's own bid."))
    if form.seq.data != record.last_seq:
        return stale(table_id, event, form.seq.data, kept)
    try:
        after = apply(state, event)
    except Breach as breach:
        return refuse(record, state, breach_text(breach), kept, 422, breach.rule)
    try:
        entry = write(table_id, form.seq.data, "event", event.to_dict())
    except StaleTable:
        return stale(table_id, event, form.seq.data, kept)
    now = remember_after(record, entry, extend(state, event))
    if isinstance(event, ev.Join):  # at a group's table, a roster player of the name counts
        seat_newcomer(table_id, event.player, after.players[len(after.setup.players) :])
    for said in announcements(state, after):
        flash(said, "info")
    if sealed_bid(event) and not holder.keeps_score:  # on the player's own phone
        flash(_("Your bid is sealed: nobody sees it before the round is over."), "info")
    elif sealed_bid(event):
        flash(
            _(
                "%(p)s's bid is sealed: nobody sees it before the round is over. "
                "Pass the phone back.",
                p=event.player,
            ),
            "info",
        )
    new_notes = [
        *after.warnings[len(state.warnings) :],
        *after.violations[len(state.violations) :],
    ]
    for note in shown_notes(after, new_notes):
        flash(breach_text(note), "warning")
    mode = "cards" if kept.get("mode") == "cards" else None
    if request.headers.get(NEXT_SCREEN_HEADER):  # app.js asks for the next screen itself
        return render_table(*now, kept={} if mode is None else {"mode": mode})
    # The fragment opens the page where the entry leaves the table: the summary of the round it
    # scored, or the round's fact box, with the step right below.
    anchor = landing_of(now[1], cards=mode is not None)
    return redirect(
        url_for("round.show", table_id=table_id, at=entry.seq, mode=mode, _anchor=anchor), 303
    )


def refuse(
    record: TableRecord,
    state: State,
    error: str,
    kept: Mapping[str, str],
    status: int,
    rule: str | None = None,
) -> tuple[str, int]:
    """A refused entry: the table with the reason and the input kept. Only for a browser whose
    link still opens the table as the database has it now (``require`` on a POST): the write
    would have checked it, and the per-process memory of links learns of a link revoked by
    another worker only within a second."""
    TABLES.require(record.id, "player")
    return render_table(record, state, error, kept, status, rule)


def stale(
    table_id: str, event: ev.Event, seen: int, kept: Mapping[str, str]
) -> Response | tuple[str, int]:
    """The table moved on since the page was shown: a double tap, or another phone. The entry
    was already recorded if an entry made since is, in force (not undone), the same as far as
    anyone may know (``public``: a sealed bid is never compared by its number).

    Told from the log as the database has it (``load``), not as this process last saw it: an
    undo made a moment ago on another phone may not have reached this process yet. Either
    answer tells of the table, so the link is checked first, as ``refuse`` does."""
    TABLES.require(table_id, "player")
    record, state = load(table_id)
    posted = public(event)
    force = in_force(record.entries)
    if any(seq > seen and public(event_from_dict(p)) == posted for seq, p in force.items()):
        flash(_("That entry was already recorded."), "info")
        return redirect(url_for("round.show", table_id=record.id), 303)
    return refuse(
        record,
        state,
        _(
            "The table changed on another phone since this page was shown. Here it is as it is "
            "now; check your entry and enter it again."
        ),
        kept,
        409,
    )


@bp.get("/<table_id>/entry")
@bp.get("/<table_id>/undo")
def back_to_table(table_id: str) -> Response:
    """A reload of the address a refused entry left in the address bar: show the table."""
    TABLES.require(table_id)
    return redirect(url_for("round.show", table_id=table_id), 303)


@bp.post("/<table_id>/undo")
def undo(table_id: str) -> Response:
    TABLES.require(table_id, "keeper", write_checks_link=True)
    record, _state = load(table_id)
    form = SeqForm(request.form)
    if not form.validate() or form.seq.data != record.last_seq:
        flash(_("The table changed since this page was shown; nothing was undone."), "error")
        return redirect(url_for("round.show", table_id=table_id), 303)
    events = in_force(record.entries)
    if not events:
        flash(_("There is nothing to undo."), "error")
        return redirect(url_for("round.show", table_id=table_id), 303)
    target = max(events)
    try:
        write(table_id, record.last_seq, "undo", {"target": target})
    except StaleTable:
        flash(_("The table changed since this page was shown; nothing was undone."), "error")
        return redirect(url_for("round.show", table_id=table_id), 303)
    flash(_("Undone: %(what)s", what=describe_event(event_from_dict(events[target]))), "info")
    return redirect(url_for("round.show", table_id=table_id), 303)


@bp.get("/<table_id>/seq")
def seq(table_id: str) -> Response:
    """Has anything changed? The table's log position, as text with an ETag: a page that polls
    it gets a 304 until the next entry. A page's own poll carries the table's ``poll_key`` and
    needs no link (no session, no link lookup); the speed layer answers it from memory before it
    gets here. Anything else needs a link."""
    key = request.args.get("k")
    if key is None or not valid_poll_key(table_id, key):
        TABLES.require(table_id)
    last = recent_seq(table_id)
    if last is None:
        abort(404)
    return position_answer(last, request.environ)
