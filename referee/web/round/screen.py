"""What the round screen shows, computed from a table's state: the round header, what comes
next and what its step shows, what a card just settled, the cards still possible, the seats;
and the whole screen as one object (``RoundScreen``, built by ``round_screen``), which its
template and the step template it includes read as ``screen``.

Plain data for the templates, so the templates stay free of rules logic (they read it and call
nothing in the engine; ``tests/web/test_templates.py`` checks that). Everything comes from
the engine's state (``referee.rules``); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.paper.layout import has_card
from referee.rules import RoundState, State, Step
from referee.rules.seating import START_CHOICES, start_points
from referee.rules.wording import number_text
from referee.store.tables import TableRecord
from referee.web.evening.story import RoundSummary, last_summary
from referee.web.i18n import gettext as _
from referee.web.round.looks import (
    ColourChip,
    PickerRow,
    colour_chips,
    colour_class,
    picker_rows,
)
from referee.web.screens import Bids, ScreensGame, screens
from referee.web.sheet.exports import finished_play
from referee.web.standings import leaders
from referee.web.words import WHY, Notes, card_label, ended_text, notes


@dataclass
class RoundHeader:
    """Round n of N, its hand size and tricks, who leads, the trump, and the game's own facts
    (label, value) in the order the header lists them."""

    number: int
    of: int
    hand_size: int
    tricks: int
    leader: str | None
    trump: str
    facts: list[tuple[str, str]]


def not_dealt(state: State, rnd: RoundState) -> list[tuple[str, str]]:
    """Who sits out the round (docs/rules.md, "Joining, leaving, sitting out"), as a fact of
    its header; nothing when everyone at the table is dealt in."""
    out = [p for p in state.game.players if p not in rnd.seats]
    return [(_("Sits out"), ", ".join(out))] if out else []


def round_header(state: State, rnd: RoundState) -> RoundHeader:
    part = screens(state.setup.game)
    return RoundHeader(
        rnd.number,
        state.game.round_count,
        rnd.hand_size,
        rnd.tricks_total,
        rnd.leader,
        part.trump(state, rnd),
        part.facts(state, rnd) + not_dealt(state, rnd),
    )


def seats(state: State) -> dict[str, int]:
    """Each player's seat number, as the entry forms post it (1 is the first player)."""
    return {player: seat for seat, player in enumerate(state.players, start=1)}


def count_fields(state: State, number: int, prefix: str, suffix: str = "") -> list[tuple[str, str]]:
    """Each player dealt in round ``number`` with the field their count is posted in:
    ``<prefix>-<seat><suffix>``."""
    dealt = state.seats_in(number)
    return [
        (player, f"{prefix}-{seat}{suffix}")
        for player, seat in seats(state).items()
        if player in dealt
    ]


@dataclass
class TricksStep:
    """The shared play step: a row of trick counts to tap per player, (player, field)."""

    rows: list[tuple[str, str]]


@dataclass
class TrumpStep:
    """The trump step: the colours (or suits) to tap."""

    colours: list[ColourChip]


def step_view(state: State, rnd: RoundState, step: Step) -> object | None:
    """What the round screen of ``step`` shows beyond the round, the step and the players: a
    dataclass of that step (None: nothing more). A game's own steps are its screens part's
    (``ScreensGame.step_view``); the shared play step shows the round and the cards mode."""
    part = screens(state.setup.game)
    if step.action in part.own_steps:
        return part.step_view(state, rnd, step)
    if step.action == "trump":
        return TrumpStep(colour_chips(state.game.deck.colours))
    if step.action == "play":
        return TricksStep(count_fields(state, rnd.number, "tricks"))
    return None


def describe_step(step: Step | None, game: str, cards: bool = False) -> str:
    """One line saying what the table enters next (``cards``: the round is entered card by
    card)."""
    if step is None:
        return _("The game is over.")
    own = screens(game).step_text(step, cards)
    if own is not None:
        return own
    what = {  # translated when chosen: a page shows one of them
        "trump": lambda: _("Turn up the trump"),
        "bid": lambda: _("%(player)s bids", player=step.player),
        "declare": lambda: _("%(player)s declares open or secret", player=step.player),
        "play": lambda: _("Play the round, then enter the tricks won"),
        "reveal": lambda: _("Turn up %(player)s's secret bid", player=step.player),
        "starter": lambda: _("Who starts this round?"),
        "number": lambda: _("Reveal the number card"),
        "designators": lambda: _("Place the designators"),
    }
    return what[step.action]()


def announcements(before: State, after: State) -> list[str]:
    """What an entry just settled, in words: a trick's winner and why, and what the game says
    of its own entries (ebbes: a colour's role)."""
    said: list[str] = []
    old, new = before.game.upcoming(before), after.current
    if old is None or new is None or old.number != new.number:
        return said
    if (
        len(new.plays)
        and new.trick_complete(-1)
        and (len(new.plays) > len(old.plays) or not old.trick_complete(-1))
    ):
        trick = new.plays[-1]
        card = next(c for p, c in trick.cards if p == trick.winner)
        said.append(
            _(
                "%(p)s wins trick %(n)s: %(why)s, %(card)s",
                p=trick.winner,
                n=len(new.plays),
                why=_(WHY[trick.why or "highest-led"]),
                card=card_label(card),
            )
        )
    said += screens(after.setup.game).settled(old, new)
    return said


def may_end(state: State, upcoming: RoundState | None) -> int | None:
    """The round the scorekeeper may end the game after now: the last round, complete, before
    the game's last, while the next one (``upcoming``) has no entry yet; None otherwise."""
    last = state.current
    if state.complete or last is None or upcoming is None or upcoming is last:
        return None
    return last.number if state.game.round_complete(last) else None


@dataclass
class SeatChanges:
    """Between rounds, who may join, leave or sit out (docs/rules.md, "Joining, leaving,
    sitting out"): the round the change takes effect in, the players seated and those dealt in
    that round (each with the seat number the forms post), and how a newcomer may start (the
    choice and its words with the points it gives now); an empty list where the game's count
    allows no such change."""

    round: int
    seated: list[tuple[str, int]]
    leavers: list[tuple[str, int]]
    sitters: list[tuple[str, int]]
    starts: list[tuple[str, str]]


def seat_changes(state: State, upcoming: RoundState | None) -> SeatChanges | None:
    """The seat changes the table may make now: before a round not begun yet, in a game that
    allows them; None otherwise."""
    game = state.game
    if not game.seats_change or upcoming is None or upcoming is state.current:
        return None
    number = upcoming.number
    seat_of = seats(state)
    seated = [(p, seat_of[p]) for p in game.players]
    dealt = state.seats_in(number)
    totals = state.totals()
    now = [totals[p] for p in game.players]
    words = {
        "lowest": _("the lowest total: %(n)s", n=number_text(start_points("lowest", now))),
        "zero": _("zero"),
        "average": _("the average: %(n)s", n=number_text(start_points("average", now))),
    }
    return SeatChanges(
        round=number,
        seated=seated if len(seated) < game.max_players else [],
        leavers=seated if len(seated) > game.min_players else [],
        sitters=[(p, n) for p, n in seated if p in dealt] if len(dealt) > game.min_players else [],
        starts=[(choice, words[choice]) for choice in START_CHOICES],
    )


def card_rows(state: State, rnd: RoundState) -> list[PickerRow]:
    """The cards still possible, on the picker: a row per colour."""
    return picker_rows(state.game.deck, state.game.cards_left(rnd))


@dataclass
class CardTurn:
    """Where a round recorded card by card stands: whose card is next in which trick, the cards
    of the trick so far (player, label, style), and the tricks each player has won."""

    player: str | None
    trick: int
    leads: bool
    so_far: list[tuple[str, str, str]]
    won: list[tuple[str, int]]


def card_turn(state: State, rnd: RoundState) -> CardTurn:
    """The round screen's card-by-card status line and prompt."""
    open_trick = bool(rnd.plays) and not rnd.trick_complete(-1)
    winners = [trick.winner for trick in rnd.plays if trick.winner]
    return CardTurn(
        player=state.game.next_to_play(rnd),
        trick=len(rnd.plays) + (0 if open_trick else 1),
        leads=not open_trick,
        so_far=[(p, card_label(card), colour_class(card.colour)) for p, card in rnd.plays[-1].cards]
        if open_trick
        else [],
        won=[(p, winners.count(p)) for p in rnd.seats],
    )


def landing(fresh_summary: bool, rnd: RoundState | None, cards: bool) -> str:
    """Where the round screen opens after an entry, the id of its part (the fragment of the
    address an entry is redirected to): the summary of the round the entry scored, with the next
    step right below it; a round recorded card by card, at its step (the card picker needs the
    screen); else at the round's fact box, with the step right below it."""
    if fresh_summary:
        return "summary"
    if rnd is None or cards or rnd.plays:
        return "next"
    return "round"


def landing_of(state: State, cards: bool) -> str:
    """``landing`` for the table at ``state``, the round asked for card by card or not. The
    page shows a fresh summary when the last round is scored (``last_summary`` tells that
    round's); whether it is, the game's scoring says without the summary being built."""
    last = state.rounds[-1] if state.rounds else None
    fresh = (
        last is not None
        and last.number == len(state.rounds)
        and state.game.score_round(state, last) is not None
    )
    return landing(fresh, state.game.upcoming(state), cards)


@dataclass(frozen=True)
class RoundScreen:
    """Everything the round screen shows (``templates/round/screen.html`` and the step template
    it includes, which read it as ``screen``); built by ``round_screen``."""

    # The table: its record and state, its game's screens part and title, each player's seat
    # number as the entry forms post it, and the log position the page shows (every entry posts
    # it back).
    record: TableRecord
    state: State
    part: ScreensGame
    title: str
    seats: dict[str, int]
    seq: int

    # What comes next: the step (None: the game is over), the template that asks for it, a line
    # saying it, what its screen shows beyond the round (``step_view``), and whether this browser
    # holds the link of the player who declares next.
    step: Step | None
    step_template: str | None
    what_next: str
    view: object | None
    own_turn: bool
    # The round the game may end after now (docs/rules.md, "Ending early"; None: not now),
    # how many rounds the game has, and where the table ended it (None: it did not).
    may_end: int | None
    round_count: int
    ended: str | None
    # Who may join, leave or sit out before the next round (None: not now).
    seat_changes: SeatChanges | None

    # The round under way (None: the game is over), its header and the bids made in it so far.
    rnd: RoundState | None
    header: RoundHeader | None
    bids: Bids | None

    # Card by card (asked for, or the round already has cards played): the cards still possible,
    # whose card is next, and who lays a card aside next (ebbes ``discard``; None: nobody).
    card_mode: bool
    card_rows: list[PickerRow]
    card_turn: CardTurn | None
    discarder: str | None

    # The scores: the totals and who leads them, the winners once the game is over and whether
    # the play can be logged in BG Stats, the last round scored in words (``summary_fresh``: the
    # round just scored, shown at the top), and the breaches, pending entries and warnings.
    totals: dict[str, int]
    leaders: list[str]
    winners: list[str]
    bgstats: bool
    summary: RoundSummary | None
    summary_fresh: bool
    notes: Notes
    # Where the page opens after an entry (``landing``): "summary", "round" or "next".
    landing: str
    # Once the game is over, the group that keeps the table when this browser keeps that group
    # (a keeper link): the screen leads back to it and to the evening's next table. None for a
    # table no group keeps, a browser without the group's keeper link, or a game not over.
    group_id: str | None

    # This request: why an entry was refused and the rule it broke, the input it kept; and
    # ``cached``: rendered once for every spectator, so it takes nobody's messages (base.html).
    error: str | None
    error_rule: str | None
    kept: Mapping[str, str]
    cached: bool
    # Whether the table may still come from paper: nothing entered yet, and its game and size
    # have a readable card (``referee.paper``); the scorekeeper's screen then says so.
    paper: bool = False


def round_screen(
    record: TableRecord,
    state: State,
    *,
    cards_asked: bool = False,
    player: str | None = None,
    error: str | None = None,
    error_rule: str | None = None,
    kept: Mapping[str, str] | None = None,
    cached: bool = False,
    group_id: str | None = None,
) -> RoundScreen:
    """The round screen of the table ``record`` at ``state``. What depends on the request:
    ``cards_asked``, the page was asked for card by card (``?mode=cards``); ``player``, the
    player whose link this browser holds (None: it holds none); a refused entry's ``error``,
    ``error_rule`` and ``kept`` input (a kept ``mode`` of ``cards`` asks for card by card too);
    ``cached``, as ``RoundScreen.cached``; ``group_id``, the group this browser keeps that keeps
    the table (shown once the game is over)."""
    rnd = state.game.upcoming(state)
    step = state.next_step()
    kept = kept or {}
    totals = state.totals()
    cards = rnd is not None and (bool(rnd.plays) or cards_asked or kept.get("mode") == "cards")
    part = screens(state.setup.game)
    told = last_summary(state)
    fresh = told is not None and told.number == len(state.rounds)
    return RoundScreen(
        record=record,
        state=state,
        part=part,
        title=state.game.title,
        seats=seats(state),
        seq=record.last_seq,
        step=step,
        step_template=None if step is None else part.step_template(state.setup.game, step.action),
        what_next=describe_step(step, state.setup.game, cards),
        view=None if step is None or rnd is None else step_view(state, rnd, step),
        own_turn=(
            step is not None
            and step.action == "declare"
            and player is not None
            and player == step.player
        ),
        may_end=may_end(state, rnd),
        seat_changes=seat_changes(state, rnd),
        round_count=state.game.round_count,
        ended=ended_text(state),
        rnd=rnd,
        header=None if rnd is None else round_header(state, rnd),
        bids=None if rnd is None else part.bids(state, rnd),
        card_mode=cards,
        card_rows=card_rows(state, rnd) if cards and rnd is not None else [],
        card_turn=card_turn(state, rnd) if cards and rnd is not None else None,
        discarder=part.discarder(state, rnd) if cards and rnd is not None else None,
        totals=totals,
        leaders=leaders(totals),
        winners=state.winners(),
        bgstats=finished_play(record, state),
        summary=told,
        summary_fresh=fresh,
        notes=notes(state),
        landing=landing(fresh, rnd, cards),
        group_id=group_id if step is None else None,
        error=error,
        error_rule=error_rule,
        kept=kept,
        cached=cached,
        paper=not record.entries
        and has_card(state.setup.game, len(state.players), state.setup.options),
    )
