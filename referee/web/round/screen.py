"""What the pages show, computed from a table's state: the round header, the sheet, totals.

Plain data for the templates, so the templates stay free of rules logic. Everything comes from
the engine's state (``referee.rules``); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from flask_babel import gettext as _

from referee.rules import Breach, RoundState, Setup, State, Step, extend, replay
from referee.rules import events as ev
from referee.rules.alles import AllesRound
from referee.rules.blackout import Blackout, BlackoutRound
from referee.rules.cards import SUIT_NAMES, SUIT_SYMBOLS
from referee.rules.ebbes import Ebbes, EbbesRound
from referee.rules.events import event_from_dict
from referee.store.tables import LogEntry, in_force

GAME_TITLES = {"blackout": "Blackout", "alles-oder-nichts": "Alles oder Nichts", "ebbes": "ebbes"}


def colour_label(colour: str | None) -> str:
    """A suit as ♥ hearts, a colour as its name; '—' for none."""
    if colour is None:
        return "—"
    if colour in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[colour]} {SUIT_NAMES[colour]}"
    return colour


def colour_short(colour: str | None) -> str:
    """A suit as its symbol (♥), a colour as its name; '—' for none (for narrow sheet cells)."""
    if colour is None:
        return "—"
    return SUIT_SYMBOLS.get(colour, colour)


@dataclass
class RoundHeader:
    """Round n of N and who does what in it."""

    number: int
    of: int
    hand_size: int
    tricks: int
    dealer: str | None
    first_bidder: str | None
    leader: str | None
    trump: str
    roles: dict[str, str | None] = field(default_factory=dict)
    number_card: int | None = None


def round_header(state: State, rnd: RoundState) -> RoundHeader:
    game = state.game
    trump = _("no trump")
    if isinstance(rnd, EbbesRound):
        roles = rnd.role_map()
        trump = colour_label(roles["trump"]) if roles["trump"] else _("not fixed yet")
        return RoundHeader(
            rnd.number,
            game.round_count,
            rnd.hand_size,
            rnd.tricks_total,
            None,
            None,
            rnd.leader,
            trump,
            roles,
            rnd.number_card,
        )
    whole_deck = isinstance(game, Blackout) and game.whole_deck(rnd.number)
    if rnd.trump_colour is not None:
        trump = colour_label(rnd.trump_colour)
        if rnd.trump_card is not None:
            trump += f" ({rnd.trump_card.label()})"
    elif not whole_deck:
        trump = _("to be turned up")
    return RoundHeader(
        rnd.number,
        game.round_count,
        rnd.hand_size,
        rnd.tricks_total,
        rnd.dealer,
        rnd.leader,
        rnd.leader,
        trump,
    )


@dataclass
class Cell:
    """One player's cell in one round of the sheet."""

    bid: int | None = None
    open: bool | None = None
    tricks: int | None = None
    score: int | None = None
    missed: bool = False
    explain: str = ""
    won: dict[str, int] = field(default_factory=dict)


@dataclass
class SheetRow:
    number: int
    hand_size: int
    who: str | None
    trump: str
    cells: dict[str, Cell]
    running: dict[str, int]
    complete: bool
    roles: dict[str, str | None] = field(default_factory=dict)


def sheet(state: State) -> list[SheetRow]:
    """One row per round begun: entries, scores with their explanations, running totals."""
    rows: list[SheetRow] = []
    running = dict.fromkeys(state.setup.players, 0)
    for rnd in state.rounds:
        scores = state.game.score_round(state, rnd)
        tricks = rnd.tricks_won()
        cells: dict[str, Cell] = {}
        for player in state.setup.players:
            cell = Cell()
            if isinstance(rnd, (BlackoutRound, AllesRound)):
                cell.bid = rnd.bids.get(player)
                if isinstance(rnd, AllesRound):
                    cell.open = rnd.open.get(player)
                    if cell.open is False and not state.game.results_in(rnd):
                        cell.bid = None  # a secret bid stays hidden until the round is over
                cell.tricks = None if tricks is None else tricks.get(player)
            if isinstance(rnd, EbbesRound):
                won = state.game.won_of(rnd) if isinstance(state.game, Ebbes) else None
                cell.won = dict((won or {}).get(player, {}))
            if scores is not None and player in scores:
                cell.score = scores[player].points
                cell.explain = scores[player].explain()
                running[player] += cell.score
                cell.missed = (
                    cell.bid is not None and cell.tricks is not None and (cell.bid != cell.tricks)
                )
            cells[player] = cell
        header = round_header(state, rnd)
        who = rnd.leader if isinstance(rnd, EbbesRound) else rnd.dealer
        trump = "" if isinstance(rnd, EbbesRound) else colour_short(rnd.trump_colour)
        rows.append(
            SheetRow(
                rnd.number,
                rnd.tricks_total,
                who,
                trump,
                cells,
                dict(running),
                scores is not None,
                header.roles,
            )
        )
    return rows


def leaders(totals: dict[str, int]) -> list[str]:
    """The players with the highest total so far, in seat order (nobody before any score)."""
    best = max(totals.values())
    return [p for p, total in totals.items() if total == best] if any(totals.values()) else []


def describe_step(step: Step | None, game: str = "") -> str:
    """One line saying what the table enters next."""
    if step is None:
        return _("The game is over.")
    if step.action == "play" and game == "ebbes":
        return _("Play the round: tap each colour as it gets its role, then count the cards won")
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


def shown_notes(state: State, notes: Sequence[Breach]) -> list[Breach]:
    """The breaches and warnings a page may show: not one about a sealed bid (a warning that a
    bid is above the hand size would tell the bid) before its round is over."""
    sealed = {rnd.number: state.game.sealed(rnd) for rnd in state.rounds}
    return [n for n in notes if n.player is None or n.player not in sealed.get(n.round or 0, ())]


def sealed_bid(event: ev.Event) -> TypeGuard[ev.Declare]:
    """Whether ``event`` is a secret declaration with its bid given (sealed) at once."""
    return isinstance(event, ev.Declare) and not event.open and event.bid is not None


def public(event: ev.Event) -> object:
    """What anyone at the table may know of an entry, to compare a posted entry with the ones
    recorded: a sealed bid only by its round, its player and that it is sealed, so every guess at
    its number is answered alike."""
    if sealed_bid(event):
        return ("sealed", event.round, event.player)
    return event


def shown_early(setup: Setup, entries: Sequence[LogEntry]) -> list[int]:
    """The rounds whose sealed bids were shown before the round was over: the round's results
    turned them up (every page shows a round's bids once its results are in), then an undo or a
    correction took the results back, with the bids sealed again. So a scorekeeper who enters
    made-up tricks, reads the sheet and undoes them leaves a mark every phone sees.

    Walks the log entry by entry, keeping the state after each event in force: an undo of the
    newest one goes back a step, any other undo or a correction replays only what follows the
    first event it changes. Only a log with an undo or a correction and a sealed bid can hold
    such a round; any other is answered at once."""
    amended = [entry.payload["event"] for entry in entries if entry.kind == "amend"]
    events = [entry.payload for entry in entries if entry.kind == "event"]
    if len(events) == len(entries) or not any(
        sealed_bid(event_from_dict(payload)) for payload in (*events, *amended)
    ):
        return []
    #: Per event in force: its entry's seq, its payload, the state after it and the rounds with
    #: a sealed bid so far.
    steps: list[tuple[int, Mapping[str, Any], State, frozenset[int]]] = []
    first = replay(setup, [], lenient=True)

    def step(seq: int, payload: Mapping[str, Any]) -> None:
        state, sealed = (steps[-1][2], steps[-1][3]) if steps else (first, frozenset())
        event = event_from_dict(payload)
        if sealed_bid(event):
            sealed |= {event.round}
        steps.append((seq, payload, extend(state, event), sealed))

    shown: set[int] = set()  # the rounds whose sealed bids have been shown
    early: set[int] = set()
    for index, entry in enumerate(entries):
        if entry.kind == "event":
            step(entry.seq, entry.payload)
        else:
            force = list(in_force(entries[: index + 1]).items())
            kept = 0
            while kept < min(len(steps), len(force)) and steps[kept][:2] == force[kept]:
                kept += 1
            del steps[kept:]
            for seq, payload in force[kept:]:
                step(seq, payload)
        state, sealed = (steps[-1][2], steps[-1][3]) if steps else (first, frozenset())
        rounds = {rnd.number: rnd for rnd in state.rounds} if sealed else {}
        for number in sealed & rounds.keys():
            if state.game.results_in(rounds[number]):
                shown.add(number)
            elif number in shown:
                early.add(number)
    return sorted(early)


def rounds_over(state: State) -> set[int]:
    """The rounds whose results are in: their bids, sealed ones too, are anyone's to see."""
    return {rnd.number for rnd in state.rounds if state.game.results_in(rnd)}


def describe_event(event: ev.Event, turned_up: bool = False) -> str:
    """An entry in a short sentence, for the history and the undo message. A sealed secret bid
    is told only when its round is over (``turned_up``)."""
    at = f"Round {event.round}: "
    if isinstance(event, ev.Trump):
        return at + f"trump {event.card}"
    if isinstance(event, ev.Bid):
        return at + f"{event.player} bid {event.bid}"
    if isinstance(event, ev.Declare):
        if event.open:
            return at + f"{event.player} declared open, bid {event.bid}"
        if event.bid is None:
            return at + f"{event.player} declared secret"
        if turned_up:
            return at + f"{event.player} declared secret, bid sealed before play: {event.bid}"
        return at + f"{event.player} declared secret, bid sealed until the round is over"
    if isinstance(event, ev.Reveal):
        return at + f"{event.player}'s secret bid was {event.bid}"
    if isinstance(event, ev.Tricks):
        return at + "tricks " + ", ".join(f"{p} {n}" for p, n in event.tricks.items())
    if isinstance(event, ev.Starter):
        chosen = f" (chosen by {event.chosen_by})" if event.chosen_by else ""
        return at + f"{event.player} starts{chosen}"
    if isinstance(event, ev.Number):
        return at + f"number card {event.number}"
    if isinstance(event, ev.Designators):
        return at + "designators " + ", ".join(event.cards)
    if isinstance(event, ev.Designate):
        return at + f"next role to {event.colour}"
    if isinstance(event, ev.Won):
        return (
            at
            + "cards won "
            + "; ".join(
                f"{p}: " + " ".join(f"{c} {n}" for c, n in counts.items())
                for p, counts in event.won.items()
            )
        )
    if isinstance(event, ev.Play):
        return at + f"{event.player or 'next player'} played {event.card}"
    return at + event.type


def form_values(state: State, event: ev.Event) -> dict[str, Any]:
    """The form fields that would post ``event`` again (to prefill a correction)."""
    seat = {p: str(i) for i, p in enumerate(state.setup.players, start=1)}
    if isinstance(event, ev.Trump):
        return {"trump": event.card}
    if isinstance(event, (ev.Bid, ev.Reveal)):
        return {"player": seat.get(event.player, ""), "bid": str(event.bid)}
    if isinstance(event, ev.Declare):
        choice = f"open-{event.bid}" if event.open else "secret"
        return {"player": seat.get(event.player, ""), "choice": choice}
    if isinstance(event, ev.Tricks):
        return {f"tricks-{seat[p]}": str(n) for p, n in event.tricks.items() if p in seat}
    if isinstance(event, ev.Starter):
        return {
            "player": seat.get(event.player, ""),
            "chosen_by": seat.get(event.chosen_by or "", ""),
        }
    if isinstance(event, ev.Number):
        return {"number": str(event.number)}
    if isinstance(event, ev.Designators):
        return {f"designator-{c.split('-')[0]}": c.split("-")[-1] for c in event.cards}
    if isinstance(event, ev.Designate):
        return {"colour": event.colour}
    if isinstance(event, ev.Won):
        return {
            f"won-{seat[p]}-{c}": str(n)
            for p, counts in event.won.items()
            if p in seat
            for c, n in counts.items()
        }
    return {}


WHY = {"highest-trump": "highest trump", "highest-led": "highest card of the colour led"}
ORDINALS = ("1st", "2nd", "3rd", "4th")


def announcements(before: State, after: State) -> list[str]:
    """What a card just settled, in words: a trick's winner and why, an ebbes role fixed."""
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
                card=card.label(),
            )
        )
    if isinstance(old, EbbesRound) and isinstance(new, EbbesRound):
        for index in range(len(old.derived), len(new.derived)):
            role = ("trump", "plus", "ebbes", "minus")[index]
            said.append(
                _(
                    "%(colour)s is %(role)s (the %(nth)s designating card).",
                    colour=new.derived[index],
                    role=_(role),
                    nth=ORDINALS[index],
                )
            )
            if index == 3:
                said.append(_("%(colour)s is nix.", colour=new.role_map()["nix"]))
    return said


def card_rows(state: State, rnd: RoundState) -> list[tuple[str, list[tuple[str, str]]]]:
    """The cards still possible, by colour: (colour label, [(card, label)])."""
    left = state.game.cards_left(rnd)
    rows = []
    for colour in state.game.deck.colours:
        cards = [
            (str(c), c.label()) for c in sorted(left, key=lambda c: -c.value) if c.colour == colour
        ]
        if cards:
            rows.append((colour_label(colour), cards))
    return rows


@dataclass
class CardTurn:
    """Where a round recorded card by card stands: whose card is next in which trick, the cards
    of the trick so far (player, label), and the tricks each player has won."""

    player: str | None
    trick: int
    leads: bool
    so_far: list[tuple[str, str]]
    won: list[tuple[str, int]]


def card_turn(state: State, rnd: RoundState) -> CardTurn:
    """The round screen's card-by-card status line and prompt."""
    open_trick = bool(rnd.plays) and not rnd.trick_complete(-1)
    winners = [trick.winner for trick in rnd.plays if trick.winner]
    return CardTurn(
        player=state.game.next_to_play(rnd),
        trick=len(rnd.plays) + (0 if open_trick else 1),
        leads=not open_trick,
        so_far=[(p, card.label()) for p, card in rnd.plays[-1].cards] if open_trick else [],
        won=[(p, winners.count(p)) for p in state.setup.players],
    )


def next_discarder(state: State, rnd: RoundState) -> str | None:
    """ebbes' discard variant, card by card: who still has to lay a card aside."""
    if not isinstance(rnd, EbbesRound) or not state.game.options.get("discard") or rnd.plays:
        return None
    return next((p for p in state.setup.players if p not in rnd.discards), None)
