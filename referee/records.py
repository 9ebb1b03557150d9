"""Game records in the ``table-referee/1`` format (``record-format.md``): read, check shape, write.

``parse_record`` turns a JSON document into a ``Record`` (a ``Setup`` and the events its rounds
stand for) or raises ``RecordError`` naming the field that cannot be read — the referee's exit 2.
``export_record`` turns a table's state back into a document; export → import → export gives the
same document. The reference copy of the format is ``referee/record.schema.json``.

Extensions beyond record-format.md (documented in the README): a secret Alles oder Nichts bid not
yet turned up is ``{"open": false}`` without ``bid``; the last trick of the last round may be short
(a trick under way).

Reading stops at the first thing no game can hold (``docs/rulings.md``): text that is not valid
Unicode, more players than any game seats, a round with more tricks or cards than it deals, a map
naming more players or colours than there are. So a refused record costs little however it was
made, and what a message quotes of the record is its start (``names.quote``).

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

from referee.rules import GAMES, Game, OptionError, Setup, State, replay
from referee.rules import events as ev
from referee.rules.alles import AllesRound
from referee.rules.blackout import BlackoutRound
from referee.rules.ebbes import EbbesRound
from referee.rules.names import printable, quote

FORMAT = "table-referee/1"

#: The most players a record may name: as many as the game that seats the most.
LARGEST_TABLE = max(game.max_players for game in GAMES.values())

#: The longest text an option may hold (a sequence's name, a colour).
OPTION_TEXT = 40

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
    """Parse JSON text into a record (``RecordError`` if it is not JSON or not a record).

    Bytes are decoded strictly (a surrogate written as UTF-8 bytes is not text), so only a
    ``\\u`` escape can make a lone surrogate: text without one skips ``_check_text``.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode(json.detect_encoding(text))
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError("", f"not JSON ({exc})") from None
    return _parse(data, check_text="\\u" in text)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise RecordError(field, message)


def _key(field: str, key: str) -> str:
    """The field of ``key`` inside ``field``, with the key quoted safely (its start, escaped)."""
    return f"{field}.{printable(quote(key))}" if field else printable(quote(key))


def _name_map(value: object, field: str, kind: str, seats: int) -> dict[str, Any]:
    _need(isinstance(value, dict), field, "must be an object keyed by player name")
    assert isinstance(value, dict)
    _need(len(value) <= seats, field, f"names {len(value)} players; the table has {seats}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = key.strip()
        if kind == "int":
            _need(_is_int(item), _key(field, key), "must be a whole number")
        elif kind == "str":
            _need(isinstance(item, str), _key(field, key), "must be a string")
        out[name] = item
    return out


def _str_list(value: object, field: str) -> list[str]:
    _need(isinstance(value, list), field, "must be a list of strings")
    assert isinstance(value, list)
    for i, item in enumerate(value):
        _need(isinstance(item, str), f"{field}[{i}]", "must be a string")
    return value


#: Where a value sits in a document: None for the whole, else (where its parent sits, its key
#: or index). A chain, so noting where costs the same at any depth.
_Where = tuple[Any, str | int] | None


def _field(where: _Where) -> str:
    parts: list[str | int] = []
    while where is not None:
        where, part = where
        parts.append(part)
    field = ""
    for part in reversed(parts):
        field = f"{field}[{part}]" if isinstance(part, int) else _key(field, part)
    return field


def _is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: JSON's ``\\ud800`` escapes can make a lone surrogate,
    which no page, database or terminal can write."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(data: object) -> None:
    """``RecordError`` naming a string or key that is not valid Unicode.

    The whole document is checked at once first (in C: a tenth of the time of a look at each
    string); only a document that fails is searched for the field to name.
    """
    try:
        if _is_unicode(json.dumps(data, ensure_ascii=False)):
            return
    except (TypeError, ValueError, RecursionError):
        pass  # not what JSON decodes to (a test's Python value): search it
    if not isinstance(data, dict | list):
        return
    stack: list[tuple[dict[Any, Any] | list[Any], _Where]] = [(data, None)]
    while stack:
        value, where = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            inside = (where, key)
            if isinstance(key, str):
                _need(_is_unicode(key), _field(inside), "is not valid Unicode text")
            if isinstance(item, str):
                _need(_is_unicode(item), _field(inside), "is not valid Unicode text")
            elif isinstance(item, dict | list):
                stack.append((item, inside))


def _check_options(options: dict[str, Any]) -> None:
    """Every text in the options is short (a sequence's name, a colour)."""
    too_long = f"is longer than {OPTION_TEXT} characters"
    for key, value in options.items():
        field = _key("options", key)
        _need(len(key) <= OPTION_TEXT, field, too_long)
        _need(not isinstance(value, str) or len(value) <= OPTION_TEXT, field, too_long)
        for i, item in enumerate(value if isinstance(value, list) else []):
            _need(not isinstance(item, str) or len(item) <= OPTION_TEXT, f"{field}[{i}]", too_long)


def parse_record(data: object) -> Record:
    """Check the shape of a decoded document and turn it into a ``Record``."""
    return _parse(data, check_text=True)


def _parse(data: object, check_text: bool) -> Record:
    _need(isinstance(data, dict), "", "a record is a JSON object")
    assert isinstance(data, dict)
    if check_text:
        _check_text(data)
    for key in data:
        _need(key in _TOP_FIELDS, _key("", key), "is not a field of a table-referee/1 record")
    _need(data.get("format") == FORMAT, "format", f'must be "{FORMAT}"')
    game = data.get("game")
    _need(
        isinstance(game, str) and game in GAMES,
        "game",
        f"must be one of {', '.join(sorted(GAMES))}",
    )
    assert isinstance(game, str)
    listed = data.get("players")
    _need(
        not isinstance(listed, list) or len(listed) <= LARGEST_TABLE,
        "players",
        f"no game seats more than {LARGEST_TABLE} players",
    )
    players = [name.strip() for name in _str_list(listed, "players")]
    _need(len(players) > 0, "players", "must name at least one player")
    options = data.get("options", {})
    _need(isinstance(options, dict), "options", "must be an object")
    _check_options(options)
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
        number = index + 1
        events.append(ev.BeginRound(number))
        if number > game_rules.round_count:
            break  # one round too many is a round-count breach; the rest is not read
        field = f"rounds[{index}]"
        _need(isinstance(raw, dict), field, "a round is an object")
        for key in raw:
            _need(key in _ROUND_FIELDS[game], _key(field, key), f"is not a field of a {game} round")
        last = index == len(rounds) - 1
        if game == "ebbes":
            events += _ebbes_round(raw, number, field, last, game_rules)
        else:
            order = _order_from_dealer(game_rules.players, game_rules, number)
            events += _trick_game_round(game, raw, number, field, order, last, game_rules)
    return Record(setup, tuple(events), game_rules.round_count)


def _order_from_dealer(players: tuple[str, ...], rules: Any, number: int) -> list[str]:
    """Players from left of the round's dealer to the dealer (the order bids are made in)."""
    dealer = rules.dealer_of(number)
    seat = players.index(dealer)
    return [players[(seat + i) % len(players)] for i in range(1, len(players) + 1)]


def _by_order(entries: Mapping[str, Any], order: list[str]) -> list[str]:
    return [p for p in order if p in entries] + [p for p in entries if p not in order]


def _plays(
    raw: dict[str, Any], number: int, field: str, last: bool, rules: Game[Any]
) -> list[ev.Event]:
    """The round's tricks; ``RecordError`` as soon as they hold more tricks or cards than the
    round deals."""
    if "plays" not in raw:
        return []
    plays = raw["plays"]
    _need(isinstance(plays, list), f"{field}.plays", "must be a list of tricks")
    tricks, seats = rules.tricks_in(number), len(rules.players)
    _need(
        len(plays) <= tricks,
        f"{field}.plays",
        f"lists {len(plays)} tricks; round {number} has {tricks}",
    )
    out: list[ev.Event] = []
    played = 0
    for t, trick in enumerate(plays):
        where = f"{field}.plays[{t}]"
        _need(
            isinstance(trick, dict) and set(trick) == {"leader", "cards"},
            where,
            'a trick is {"leader": name, "cards": [card, ...]}',
        )
        _need(isinstance(trick["leader"], str), f"{where}.leader", "must be a player's name")
        played += len(trick["cards"]) if isinstance(trick["cards"], list) else 0
        _need(
            played <= tricks * seats,
            f"{where}.cards",
            f"more cards than round {number} deals ({tricks * seats})",
        )
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
    game: str,
    raw: dict[str, Any],
    number: int,
    field: str,
    order: list[str],
    last: bool,
    rules: Game[Any],
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
            bids = _name_map(raw["bids"], f"{field}.bids", "int", seats)
            out += [ev.Bid(number, p, bids[p]) for p in _by_order(bids, order)]
        else:
            bids = _name_map(raw["bids"], f"{field}.bids", "any", seats)
            for p in _by_order(bids, order):
                where = _key(f"{field}.bids", p)
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
    out += _plays(raw, number, field, last, rules)
    if "tricks" in raw:
        out.append(ev.Tricks(number, _name_map(raw["tricks"], f"{field}.tricks", "int", seats)))
    return out


def _colour_list(value: object, field: str, colours: int) -> list[str]:
    """Designations or designators: a list of at most one entry per colour of the deck."""
    _need(
        not isinstance(value, list) or len(value) <= colours,
        field,
        f"lists more than the deck's {colours} colours",
    )
    return _str_list(value, field)


def _ebbes_round(
    raw: dict[str, Any], number: int, field: str, last: bool, rules: Game[Any]
) -> list[ev.Event]:
    seats, colours = len(rules.players), len(rules.deck.colours)
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
        designators = _colour_list(raw["designators"], f"{field}.designators", colours)
        out.append(ev.Designators(number, tuple(designators)))
    if "discards" in raw:
        discards = _name_map(raw["discards"], f"{field}.discards", "str", seats)
        out += [ev.Discard(number, p, card) for p, card in discards.items()]
    out += _plays(raw, number, field, last, rules)
    for colour in _colour_list(raw.get("designations", []), f"{field}.designations", colours):
        out.append(ev.Designate(number, colour))
    if "won" in raw:
        won = _name_map(raw["won"], f"{field}.won", "any", seats)
        for p, counts in won.items():
            where = _key(f"{field}.won", p)
            _need(isinstance(counts, dict), where, "must be an object of colour → cards")
            _need(len(counts) <= colours, where, f"names more than the deck's {colours} colours")
            for colour, count in counts.items():
                _need(_is_int(count), _key(where, colour), "must be a whole number")
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
