"""Legal entries for any table, chosen at random, and the form a phone would post for each.

The durability and hostile suites drive tables through many rounds; this picks, for a table's
state, the next entry a real table could make (a trump, a bid the hook allows, tricks that add
up, ebbes' designations and cards won in whole tricks) and checks it with the strict engine
before handing it out, so a test never blames the app for an entry of its own making.
"""

from __future__ import annotations

import random

from referee.rules import Breach, Missing, Setup, State, apply, replay
from referee.rules import events as ev
from referee.rules.cards import EBBES_COLOURS
from referee.store.tables import LogEntry, effective_events
from referee.web.history.lines import form_values


def split(total: int, players: tuple[str, ...], rng: random.Random) -> dict[str, int]:
    """``total`` tricks shared out at random among the players."""
    counts = dict.fromkeys(players, 0)
    for _ in range(total):
        counts[rng.choice(players)] += 1
    return counts


def cards_won(state: State, rng: random.Random) -> dict[str, dict[str, int]]:
    """ebbes: every card of the deck won by someone, in whole tricks (one card per player)."""
    players = state.setup.players
    deck = state.game.deck
    cards = [colour for colour in EBBES_COLOURS for _ in range(deck.count(colour))]
    rng.shuffle(cards)
    won = {p: dict.fromkeys(EBBES_COLOURS, 0) for p in players}
    size = len(players)
    for start in range(0, len(cards), size):
        winner = rng.choice(players)
        for colour in cards[start : start + size]:
            won[winner][colour] += 1
    return won


def candidate(state: State, rng: random.Random) -> ev.Event | None:
    """A plausible next entry for the table (None when the game is over)."""
    step = state.next_step()
    if step is None:
        return None
    game = state.game
    rnd = game.upcoming(state)
    assert rnd is not None
    number, players = step.round, state.setup.players
    if step.action == "trump":
        return ev.Trump(number, rng.choice(game.deck.colours))
    if step.action == "bid":
        assert step.player is not None
        bids = [b for b, breach in game.allowed_bids(state, step.player) if breach is None]
        return ev.Bid(number, step.player, rng.choice(bids))
    if step.action == "declare":
        assert step.player is not None
        if rng.random() < 0.3:
            return ev.Declare(number, step.player, False, None)
        return ev.Declare(number, step.player, True, rng.randint(0, min(6, rnd.hand_size)))
    if step.action == "reveal":
        assert step.player is not None
        return ev.Reveal(number, step.player, rng.randint(0, min(6, rnd.hand_size)))
    if step.action == "starter":
        previous = state.rounds[number - 2]
        majority = game.nix_majority(state, previous)
        chooser = rng.choice(majority) if majority else None
        return ev.Starter(number, rng.choice(players), chooser)
    if step.action == "number":
        return ev.Number(number, rng.choice(game.open_numbers(state)))
    if step.action == "designators":
        return ev.Designators(number, tuple(f"{c}-{rng.randint(1, 5)}" for c in EBBES_COLOURS))
    if step.action == "play" and state.setup.game == "ebbes":
        roles = rnd.roles()
        if len(roles) < 4:
            return ev.Designate(number, rng.choice([c for c in EBBES_COLOURS if c not in roles]))
        return ev.Won(number, cards_won(state, rng))
    assert step.action == "play", step
    return ev.Tricks(number, split(rnd.tricks_total, rnd.seats, rng))


def next_entry(state: State, rng: random.Random) -> tuple[ev.Event, State] | None:
    """A legal next entry and the state after it, or None when the game is over."""
    for _ in range(50):
        event = candidate(state, rng)
        if event is None:
            return None
        try:
            return event, apply(state, event)
        except ValueError:
            continue  # a random choice the rules refuse (rare): choose again
    raise AssertionError(f"no legal entry found for {state.next_step()}")


def entry_form(state: State, event: ev.Event, seq: int) -> dict[str, str]:
    """The fields the table page posts for ``event`` when it shows entry ``seq`` (no CSRF)."""
    return {
        "seq": str(seq),
        "round": str(event.round),
        "action": event.type,
        **{k: str(v) for k, v in form_values(state, event).items()},
    }


def breaches(lenient: State) -> list[Breach]:
    """What a lenient replay noted, less what the round still being entered has yet to get (a
    secret bid not turned up yet is no breach while the round goes on)."""
    last = lenient.current
    under_way = last is not None and not lenient.game.round_complete(last)
    return [
        b
        for b in lenient.violations
        if not (under_way and isinstance(b, Missing) and last and b.round == last.number)
    ]


def check_log(setup: Setup, entries: tuple[LogEntry, ...] | list[LogEntry]) -> State:
    """The table's log is whole and keeps the rules: sequence numbers 1…n without gaps or
    repeats, the strict replay of its effective events succeeds, and the lenient one notes no
    breach (see ``breaches``). Returns the replayed state."""
    seqs = [e.seq for e in entries]
    assert seqs == list(range(1, len(seqs) + 1)), f"sequence numbers with gaps: {seqs}"
    events = effective_events(entries)
    state = replay(setup, events)  # strict: raises a Breach on the first broken rule
    assert breaches(replay(setup, events, lenient=True)) == []
    return state
