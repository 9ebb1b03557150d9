"""Game records in the ``table-referee/1`` format (``record-format.md``): read, check shape, write.

``parse_record`` turns a JSON document into a ``Record`` (a ``Setup`` and the events its rounds
stand for) or raises ``RecordError`` naming the field that cannot be read — the referee's exit 2.
``export_record`` turns a table's state back into a document; export → import → export gives the
same document. The reference copy of the format is ``referee/record.schema.json``.

Extensions beyond record-format.md (documented in the README): a secret Alles oder Nichts bid not
yet turned up is ``{"open": false}`` without ``bid``; the last trick of the last round may be short
(a trick under way).

>>> record = parse_record({"format": "table-referee/1", "game": "blackout",
...     "players": ["Ann", "Ben"], "rounds": [{"trump": "H", "bids": {"Ann": 1, "Ben": 1}}]})
>>> [e.type for e in record.events]
['begin-round', 'trump', 'bid', 'bid']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.rules import GAMES, OptionError, Setup, State, replay
from referee.rules import events as ev
from referee.rules.alles import AllesRound
from referee.rules.blackout import BlackoutRound
from referee.rules.ebbes import EbbesRound

FORMAT = "table-referee/1"

_TOP_FIELDS = {"format", "game", "players", "options", "first_dealer", "first_starter", "rounds"}
_ROUND_FIELDS = {
    "blackout": {"trump", "bids", "tricks", "dealer", "plays"},
    "alles-oder-nichts": {"trump", "bids", "tricks", "dealer", "plays"},
    "ebbes": {
        "number",
        "designators",
        "starter",
        "chosen_by",
        "designations",
        "won",
        "discards",
        "plays",
    },
}


class RecordError(ValueError):
    """A document that cannot be read as a record; ``field`` names where (``rounds[2].bids``)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


@dataclass(frozen=True)
class Record:
    """A readable record: the table's setup and the events its rounds stand for."""

    setup: Setup
    events: tuple[ev.Event, ...]
    round_count: int

    def replay(self) -> State:
        """The record replayed leniently: every breach noted, entries scored where they can be."""
        return replay(self.setup, self.events, lenient=True)


def load_record(text: str | bytes) -> Record:
    """Parse JSON text into a record (``RecordError`` if it is not JSON or not a record)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError("", f"not JSON ({exc})") from None
    return parse_record(data)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise RecordError(field, message)


def _name_map(value: object, field: str, kind: str) -> dict[str, Any]:
    _need(isinstance(value, dict), field, "must be an object keyed by player name")
    assert isinstance(value, dict)
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = key.strip()
        if kind == "int":
            _need(_is_int(item), f"{field}.{key}", "must be a whole number")
        elif kind == "str":
            _need(isinstance(item, str), f"{field}.{key}", "must be a string")
        out[name] = item
    return out


def _str_list(value: object, field: str) -> list[str]:
    _need(isinstance(value, list), field, "must be a list of strings")
    assert isinstance(value, list)
    for i, item in enumerate(value):
        _need(isinstance(item, str), f"{field}[{i}]", "must be a string")
    return value


def parse_record(data: object) -> Record:
    """Check the shape of a decoded document and turn it into a ``Record``."""
    _need(isinstance(data, dict), "", "a record is a JSON object")
    assert isinstance(data, dict)
    for key in data:
        _need(key in _TOP_FIELDS, key, "is not a field of a table-referee/1 record")
    _need(data.get("format") == FORMAT, "format", f'must be "{FORMAT}"')
    game = data.get("game")
    _need(
        isinstance(game, str) and game in GAMES,
        "game",
        f"must be one of {', '.join(sorted(GAMES))}",
    )
    assert isinstance(game, str)
    players = [name.strip() for name in _str_list(data.get("players"), "players")]
    _need(len(players) > 0, "players", "must name at least one player")
    options = data.get("options", {})
    _need(isinstance(options, dict), "options", "must be an object")
    first_key = "first_starter" if game == "ebbes" else "first_dealer"
    other_key = "first_dealer" if game == "ebbes" else "first_starter"
    _need(other_key not in data, other_key, f"is not used in {game}; use {first_key}")
    first = data.get(first_key)
    _need(first is None or isinstance(first, str), first_key, "must be a player's name")
    setup = Setup(game, tuple(players), options, first.strip() if first else None)
    try:
        game_rules = GAMES[game](setup)
    except OptionError as exc:
        raise RecordError(f"options.{exc.option}", str(exc)) from None
    rounds = data.get("rounds", [])
    _need(isinstance(rounds, list), "rounds", "must be a list of rounds")
    events: list[ev.Event] = []
    for index, raw in enumerate(rounds):
        field = f"rounds[{index}]"
        _need(isinstance(raw, dict), field, "a round is an object")
        for key in raw:
            _need(key in _ROUND_FIELDS[game], f"{field}.{key}", f"is not a field of a {game} round")
        last = index == len(rounds) - 1
        number = index + 1
        events.append(ev.BeginRound(number))
        if game == "ebbes":
            events += _ebbes_round(raw, number, field, last, len(players))
        else:
            order = _order_from_dealer(game_rules.players, game_rules, number)
            events += _trick_game_round(game, raw, number, field, order, last)
    return Record(setup, tuple(events), game_rules.round_count)


def _order_from_dealer(players: tuple[str, ...], rules: Any, number: int) -> list[str]:
    """Players from left of the round's dealer to the dealer (the order bids are made in)."""
    dealer = rules.dealer_of(number)
    seat = players.index(dealer)
    return [players[(seat + i) % len(players)] for i in range(1, len(players) + 1)]


def _by_order(entries: Mapping[str, Any], order: list[str]) -> list[str]:
    return [p for p in order if p in entries] + [p for p in entries if p not in order]


def _plays(raw: dict[str, Any], number: int, field: str, last: bool, seats: int) -> list[ev.Event]:
    if "plays" not in raw:
        return []
    plays = raw["plays"]
    _need(isinstance(plays, list), f"{field}.plays", "must be a list of tricks")
    out: list[ev.Event] = []
    for t, trick in enumerate(plays):
        where = f"{field}.plays[{t}]"
        _need(
            isinstance(trick, dict) and set(trick) == {"leader", "cards"},
            where,
            'a trick is {"leader": name, "cards": [card, ...]}',
        )
        _need(isinstance(trick["leader"], str), f"{where}.leader", "must be a player's name")
        cards = _str_list(trick["cards"], f"{where}.cards")
        leader = trick["leader"].strip()
        out.append(ev.Trick(number, leader, tuple(cards)))
    final = out[-1] if out else None
    if last and isinstance(final, ev.Trick) and 0 < len(final.cards) < seats:
        # A trick under way: its cards one by one, the first by the leader.
        out[-1:] = [ev.Play(number, final.cards[0], final.leader)]
        out += [ev.Play(number, card) for card in final.cards[1:]]
    return out


def _trick_game_round(
    game: str, raw: dict[str, Any], number: int, field: str, order: list[str], last: bool
) -> list[ev.Event]:
    seats = len(order)
    out: list[ev.Event] = []
    if "dealer" in raw:
        _need(isinstance(raw["dealer"], str), f"{field}.dealer", "must be a player's name")
        out.append(ev.Dealer(number, raw["dealer"].strip()))
    trump = raw.get("trump")
    _need(
        trump is None or isinstance(trump, str),
        f"{field}.trump",
        "must be a card, a colour or null",
    )
    if trump is not None:
        out.append(ev.Trump(number, trump))
    if "bids" in raw:
        if game == "blackout":
            bids = _name_map(raw["bids"], f"{field}.bids", "int")
            out += [ev.Bid(number, p, bids[p]) for p in _by_order(bids, order)]
        else:
            bids = _name_map(raw["bids"], f"{field}.bids", "any")
            for p in _by_order(bids, order):
                where = f"{field}.bids.{p}"
                entry = bids[p]
                _need(
                    isinstance(entry, dict)
                    and isinstance(entry.get("open"), bool)
                    and set(entry) <= {"bid", "open"},
                    where,
                    'must be {"bid": 0-6, "open": true or false}',
                )
                _need(
                    _is_int(entry.get("bid")) or ("bid" not in entry and not entry["open"]),
                    f"{where}.bid",
                    "must be a whole number",
                )
                out.append(ev.Declare(number, p, entry["open"], entry.get("bid")))
    out += _plays(raw, number, field, last, seats)
    if "tricks" in raw:
        out.append(ev.Tricks(number, _name_map(raw["tricks"], f"{field}.tricks", "int")))
    return out


def _ebbes_round(
    raw: dict[str, Any], number: int, field: str, last: bool, seats: int
) -> list[ev.Event]:
    out: list[ev.Event] = []
    if "starter" in raw or "chosen_by" in raw:
        starter, chooser = raw.get("starter"), raw.get("chosen_by")
        _need(isinstance(starter, str), f"{field}.starter", "must be a player's name")
        _need(
            chooser is None or isinstance(chooser, str),
            f"{field}.chosen_by",
            "must be a player's name",
        )
        assert isinstance(starter, str)
        out.append(ev.Starter(number, starter.strip(), chooser.strip() if chooser else None))
    if "number" in raw:
        _need(_is_int(raw["number"]), f"{field}.number", "must be a whole number")
        out.append(ev.Number(number, raw["number"]))
    if "designators" in raw:
        out.append(
            ev.Designators(number, tuple(_str_list(raw["designators"], f"{field}.designators")))
        )
    if "discards" in raw:
        discards = _name_map(raw["discards"], f"{field}.discards", "str")
        out += [ev.Discard(number, p, card) for p, card in discards.items()]
    out += _plays(raw, number, field, last, seats)
    for colour in _str_list(raw.get("designations", []), f"{field}.designations"):
        out.append(ev.Designate(number, colour))
    if "won" in raw:
        won = _name_map(raw["won"], f"{field}.won", "any")
        for p, counts in won.items():
            where = f"{field}.won.{p}"
            _need(isinstance(counts, dict), where, "must be an object of colour → cards")
            for colour, count in counts.items():
                _need(_is_int(count), f"{where}.{colour}", "must be a whole number")
        out.append(ev.Won(number, won))
    return out


# --- export --------------------------------------------------------------------------------


def export_record(state: State) -> dict[str, Any]:
    """The table as a ``table-referee/1`` document (entries as made; options in full). A sealed
    secret bid of a round not over yet is left out, as a bid not yet turned up."""
    game = state.game
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": state.setup.game,
        "players": list(state.setup.players),
        "options": dict(game.options),
        (
            "first_starter" if state.setup.game == "ebbes" else "first_dealer"
        ): state.setup.first_player,
        "rounds": [],
    }
    for rnd in state.rounds:
        out: dict[str, Any] = {}
        if isinstance(rnd, EbbesRound):
            if rnd.leader is not None:
                out["starter"] = rnd.leader
            if rnd.chosen_by is not None:
                out["chosen_by"] = rnd.chosen_by
            if rnd.number_card is not None:
                out["number"] = rnd.number_card
            if rnd.designators is not None:
                out["designators"] = [str(c) for c in rnd.designators]
            if rnd.discards:
                out["discards"] = {p: str(c) for p, c in rnd.discards.items()}
            if rnd.designations:
                out["designations"] = list(rnd.designations)
            if rnd.won is not None:
                out["won"] = {p: dict(counts) for p, counts in rnd.won.items()}
        else:
            if rnd.trump_card is not None or rnd.trump_colour is not None:
                out["trump"] = str(rnd.trump_card) if rnd.trump_card else rnd.trump_colour
            if isinstance(rnd, BlackoutRound) and rnd.bids:
                out["bids"] = dict(rnd.bids)
            if isinstance(rnd, AllesRound) and rnd.open:
                sealed = state.game.sealed(rnd)  # never exported before the round is over
                out["bids"] = {
                    p: (
                        {"bid": rnd.bids[p], "open": o}
                        if p in rnd.bids and p not in sealed
                        else {"open": o}
                    )
                    for p, o in rnd.open.items()
                }
            if rnd.tricks is not None:
                out["tricks"] = dict(rnd.tricks)
        if rnd.plays:
            out["plays"] = [
                {"leader": t.leader, "cards": [str(card) for _, card in t.cards]} for t in rnd.plays
            ]
        doc["rounds"].append(out)
    return doc
