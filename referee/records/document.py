"""Game records in the ``table-referee/1`` format (docs/record-format.md): read, check shape, write.

``parse_record`` turns a JSON document into a ``Record`` (a ``Setup`` and the events its rounds
stand for) or raises ``RecordError`` naming the field that cannot be read — the referee's exit 2.
``export_record`` turns a table's state back into a document; export → import → export gives the
same document. The reference copy of the format is ``referee/records/record.schema.json``;
``record_schema`` is that schema for the games registered now (``referee.rules.registry``).

The top fields and the list of rounds are read here, the same for every game; what a game's
rounds hold, and which field names who begins round 1, its record part reads and writes
(``referee/games/<package>/record.py``, a ``referee.records.parts.RecordGame``).

A record of a table in play may stop in the middle of a trick in its last round
(docs/record-format.md): that trick's cards are read one by one, as played (``trick_events``).
Extensions (``docs/record-format.md``): a secret Alles oder Nichts bid not yet
turned up is ``{"open": false}`` without ``bid``; ``history`` holds the table's whole log, undos
and corrections with their times (``referee.records.history``, ``docs/record-history.md``). A
record with a history is scored by its entries in force, which must give its rounds as the app
writes them.

Reading stops at the first thing no game can hold (docs/record-format.md): text that is not valid
Unicode, a number beyond ``LARGEST_NUMBER``, more players than any game seats, a round with more
tricks or cards than it deals, a map naming more players or colours than there are. So a refused
record costs little however it was made, and what a message quotes of the record is its start
(``names.quote``).

>>> record = parse_record({"format": "table-referee/1", "game": "blackout",
...     "players": ["Ann", "Ben"], "rounds": [{"trump": "H", "bids": {"Ann": 1, "Ben": 1}}]})
>>> [e.type for e in record.events]
['begin-round', 'trump', 'bid', 'bid']
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.records.parts import (
    RecordError,
    export_seats,
    is_int,
    need,
    record_part,
    seat_events,
    str_list,
    subfield,
)
from referee.rules import GAMES, IllegalEntry, OptionError, Setup, State, replay
from referee.rules import events as ev
from referee.rules.engine import check_players
from referee.rules.names import hidden_character, same_name_key, shown
from referee.rules.seating import Seating, dealer_after, seat_breach

if TYPE_CHECKING:
    from referee.records.log import LogEntry

__all__ = [
    "FORMAT",
    "LARGEST_TABLE",
    "OPTION_TEXT",
    "Decoded",
    "Record",
    "RecordError",
    "check_values",
    "export_record",
    "load_record",
    "parse_record",
    "read_json",
    "record_schema",
]

FORMAT = "table-referee/1"

#: The most players a record may name: as many as the game that seats the most (a test keeps
#: it so; a constant, so that reading a record loads only its own game's rules).
LARGEST_TABLE = 8

#: The longest text an option may hold (a sequence's name, a colour).
OPTION_TEXT = 40

#: The largest whole number a record may hold, either side of 0: 2**53 - 1, the largest every
#: JSON reader keeps exactly (RFC 7493), far beyond any count, bid or number of a game. JSON
#: allows any: one of thousands of digits would cost every sum and text it comes into (Python
#: writes no more than 4300 digits).
LARGEST_NUMBER = 2**53 - 1
#: A run of digits that may be a number beyond ``LARGEST_NUMBER`` (which has 16): JSON writes
#: numbers in ASCII digits, and UTF-8 writes those as their own bytes, never inside another
#: character's. ``_long_digits`` turns each digit's byte into "0" and every other byte into a
#: space (``_DIGIT_BYTES``), and looks for the run: both in C, a group file of 1,000 tables in
#: half the time a regular expression takes.
_DIGIT_RUN = b"0" * 16
_DIGIT_BYTES = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))


def _long_digits(utf8: bytes) -> bool:
    """Whether JSON text, as UTF-8, holds 16 ASCII digits in a row (``_DIGIT_RUN``)."""
    return _DIGIT_RUN in utf8.translate(_DIGIT_BYTES)


#: The top fields of every record; each game adds the one naming who begins round 1
#: (``RecordGame.first_field``).
_TOP_FIELDS = frozenset(
    {"format", "game", "players", "options", "rounds", "ended_after", "history"}
)


@dataclass(frozen=True)
class Record:
    """A readable record: the table's setup, the events its rounds stand for and its history
    (the table's log; empty when the record has none)."""

    setup: Setup
    events: tuple[ev.Event, ...]
    round_count: int
    log: tuple[LogEntry, ...] = ()

    def replay(self) -> State:
        """The record replayed leniently: every breach noted, entries scored where they can be;
        with a history, its entries in force, as the table replays its log; with a player
        renamed in one place (``renamed_player``), the entries read under the table's name."""
        if not self.log:
            renamed = renamed_player(self.setup, self.events)
            if renamed is None:
                state = replay(self.setup, self.events, lenient=True)
                renamed = renamed_in_what_is_read(state)
                if renamed is None:
                    return state
            return renamed.replay(self.setup, self.events)
        from referee.records.log import effective_events  # only a record with a history needs it

        return replay(self.setup, effective_events(self.log), lenient=True)


#: The fields of an entry that name a player, and those keyed by players, by the kind of entry.
_NAMING_FIELDS = ("player", "chosen_by", "leader")
_KEYED_FIELDS: tuple[tuple[type[ev.Event], str], ...] = ((ev.Tricks, "tricks"), (ev.Won, "won"))


class _Naming(NamedTuple):
    """Where a kind of entry names players: its fields that hold a name, and the one keyed by
    players (None: it has none)."""

    fields: tuple[str, ...]
    keyed: str | None


#: Each kind of entry's ``_Naming``.
_NAMING_OF: dict[type[ev.Event], _Naming] = {}


def _naming(kind: type[ev.Event]) -> _Naming:
    """Where a kind of entry names players (found once per kind: a group file's tables have a
    hundred thousand entries)."""
    found = _NAMING_OF.get(kind)
    if found is None:
        names = {field.name for field in fields(kind)}
        keyed = next((f for cls, f in _KEYED_FIELDS if issubclass(kind, cls)), None)
        found = _NAMING_OF[kind] = _Naming(tuple(f for f in _NAMING_FIELDS if f in names), keyed)
    return found


def _counts(event: ev.Event) -> tuple[str, Mapping[str, Any]] | None:
    """The field of an entry keyed by players, and its map (None: it has none)."""
    keyed = _naming(type(event)).keyed
    if keyed is not None and isinstance(values := getattr(event, keyed), Mapping):
        return keyed, values
    return None


def _named(event: ev.Event) -> list[str]:
    """The names an entry uses."""
    names = [
        name for f in _naming(type(event)).fields if isinstance(name := getattr(event, f), str)
    ]
    counts = _counts(event)
    return names if counts is None else names + list(counts[1])


def _only_players(players: frozenset[str], events: Sequence[ev.Event]) -> bool:
    """Whether every name the entries use (``_named``) is one of ``players``: looked at entry by
    entry without a list of each one's names, as every table's record is."""
    for event in events:
        naming, keyed = _NAMING_OF.get(type(event)) or _naming(type(event))
        for f in naming:
            name = getattr(event, f)
            if isinstance(name, str) and name not in players:
                return False
        if keyed is not None:
            values = getattr(event, keyed)
            if isinstance(values, Mapping) and not players.issuperset(values):
                return False
    return True


class Renamed(NamedTuple):
    """A name the entries use for a player the table names otherwise (``renamed_player``), and
    where it is first used (``round`` None: ``first_dealer`` or ``first_starter``)."""

    name: str
    player: str
    round: int | None
    trick: int | None

    def replay(self, setup: Setup, events: Sequence[ev.Event]) -> State:
        """The record replayed with the entries under ``name`` read as ``player``'s, and one
        ``players`` breach where the name is first used."""
        first = self.player if setup.first == self.name else setup.first
        state = replay(replace(setup, first=first), [self.read(e) for e in events], lenient=True)
        state.violations.append(
            IllegalEntry(
                "players",
                "renamed-player",
                round=self.round,
                trick=self.trick,
                name=self.name,
                seat=setup.players.index(self.player) + 1,
            )
        )
        return state

    def read(self, event: ev.Event) -> ev.Event:
        """``event`` with ``name`` read as ``player``."""
        changes: dict[str, Any] = {
            f: self.player for f in _NAMING_FIELDS if getattr(event, f, None) == self.name
        }
        counts = _counts(event)
        if counts is not None and self.name in counts[1]:
            field, values = counts
            changes[field] = {
                (self.player if key == self.name else key): value for key, value in values.items()
            }
        return replace(event, **changes) if changes else event


#: The entries made under a player's name: bids, declarations, discards, counts won.
_KEYED = (ev.Bid, ev.Declare, ev.Reveal, ev.Discard, ev.Tricks, ev.Won)


def renamed_player(setup: Setup, events: Sequence[ev.Event]) -> Renamed | None:
    """The entries' name for a player the table names otherwise: when the entries use exactly
    one name that is no player's, some of a player's own entries are made under it (a bid, a
    count …), and they name every player but one, that name is that player's
    (``docs/record-format.md``, "One bad entry, one breach"). None when they do not, or when the
    players themselves break a rule (too many, a name empty or twice …)."""
    players = frozenset(setup.players)
    if (setup.first is None or setup.first in players) and _only_players(players, events):
        return None  # no name that is no player's: the common case, looked at first
    used: dict[str, tuple[int | None, int | None]] = {}  # name → where it is first used
    keyed: set[str] = set()  # the names a player's own entries are made under
    if setup.first is not None:
        used[setup.first] = (None, None)
    trick = 0
    for event in events:
        if isinstance(event, ev.BeginRound):
            trick = 0
        elif isinstance(event, ev.Trick) or (isinstance(event, ev.Play) and event.player):
            trick += 1
        where = trick if isinstance(event, ev.Trick | ev.Play) else None
        for name in _named(event):
            used.setdefault(name, (event.round, where))
        if isinstance(event, _KEYED):
            keyed.update(_named(event))
    unknown = [name for name in used if name not in setup.players]
    unnamed = [name for name in setup.players if name not in used]
    if len(unknown) != 1 or len(unnamed) != 1 or unknown[0] not in keyed:
        return None
    named = replace(setup, first=None if setup.first == unknown[0] else setup.first)
    if check_players(named, GAMES[setup.game]):
        return None  # the players themselves break a rule: nothing is read into their names
    return Renamed(unknown[0], unnamed[0], *used[unknown[0]])


def renamed_in_what_is_read(state: State) -> Renamed | None:
    """The renamed player (``renamed_player``) of the entries the table reads, when the entries
    as written show none: a name that is no player's, used only in entries the referee sets
    aside (a count in ``won``, who chose a starter, under a name of nobody at the table), does
    not keep a player renamed elsewhere from being read as that player
    (``docs/record-format.md``). Otherwise the record's export, which writes only what was
    read, would be read differently from the record itself. Only a replay that met a name that
    is no player's is read again."""
    if not any(breach.code == "unknown-player" for breach in state.violations):
        return None
    read = parse_record(export_record(state))
    return renamed_player(read.setup, read.events)


def load_record(text: str | bytes) -> Record:
    """Parse JSON text into a record (``RecordError`` if it is not JSON or not a record), read
    as ``read_json`` reads every document."""
    document = read_json(text)
    return _parse(document.data, check_text=document.text, check_numbers=document.numbers)


class Decoded(NamedTuple):
    """A JSON document decoded (``read_json``): its value, and whether its text may hold a lone
    surrogate (``text``) or a number beyond ``LARGEST_NUMBER`` (``numbers``), which
    ``check_values`` then looks for."""

    data: Any
    text: bool
    numbers: bool


def read_json(text: str | bytes) -> Decoded:
    """JSON text decoded, as the project reads every document (a record, a group file);
    ``RecordError`` if it is not JSON.

    An object that gives a key twice is refused, naming it: JSON readers let the last one win
    without a word. Bytes are decoded strictly (a surrogate written as UTF-8 bytes is not
    text), so only a ``\\u`` escape can make a lone surrogate: text without one skips the check
    of the text (``check_values``), as text without 16 digits in a row skips the check of the
    numbers.
    """
    try:
        text = text.decode(json.detect_encoding(text)) if isinstance(text, bytes) else text
        data = json.loads(text, object_pairs_hook=_unique)
    except _Repeats:
        assert isinstance(text, str)
        raise _repeated_key(text) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError("", f"not JSON ({exc})") from None
    utf8 = text.encode("utf-8", "surrogatepass")  # bytes are searched faster than text
    return Decoded(data, b"\\u" in utf8, _long_digits(utf8))


def check_values(document: Decoded) -> None:
    """``RecordError`` naming a string or key of the document that is not valid Unicode, or a
    whole number beyond ``LARGEST_NUMBER`` (looked for only where ``read_json`` says its text
    may hold one)."""
    if document.text or document.numbers:
        _check_values(document.data, document.text, document.numbers)


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
        field = f"{field}[{part}]" if isinstance(part, int) else subfield(field, part)
    return field


def _places(data: dict[Any, Any] | list[Any]) -> Iterator[tuple[tuple[Any, str | int], Any]]:
    """Where each value inside ``data`` sits, and the value (parents before what they hold)."""
    stack: list[tuple[dict[Any, Any] | list[Any], _Where]] = [(data, None)]
    while stack:
        value, where = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            inside = (where, key)
            yield inside, item
            if isinstance(item, dict | list):
                stack.append((item, inside))


class _Repeats(Exception):
    """An object of the document gives a key twice (``_unique``)."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the document; ``_Repeats`` when it gives a key twice."""
    found = dict(pairs)
    if len(found) < len(pairs):
        raise _Repeats
    return found


class _Repeated(dict[str, Any]):
    """An object of the document that gives ``key`` twice (``_repeated_key``)."""

    key = ""


def _marked(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the document, a ``_Repeated`` one when it gives a key twice."""
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    repeated, seen = _Repeated(found), set()
    for key, _ in pairs:
        if key in seen:
            repeated.key = key
            break
        seen.add(key)
    return repeated


def _repeated_key(text: str) -> RecordError:
    """The error naming a key that ``text``, a JSON document, gives twice in an object. The
    document is read again, marking such objects: only a document that has one is read twice."""
    data = json.loads(text, object_pairs_hook=_marked)
    where, found = None, data
    if not isinstance(data, _Repeated):
        where, found = next((w, v) for w, v in _places(data) if isinstance(v, _Repeated))
    return RecordError(
        subfield(_field(where), found.key), "appears twice in its object; a key is given once"
    )


def _is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: JSON's ``\\ud800`` escapes can make a lone surrogate,
    which no page, database or terminal can write."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_values(data: object, text: bool, numbers: bool) -> None:
    """``RecordError`` naming a string or key that is not valid Unicode (``text``), or a whole
    number beyond ``LARGEST_NUMBER`` (``numbers``).

    The whole document is checked at once first (in C: a tenth of the time of a look at each
    value); only a document that fails is searched for the field to name.
    """
    try:
        whole = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass  # not what JSON decodes to (a test's Python value), or a number Python won't write
    else:
        text = text and not _is_unicode(whole)
        numbers = numbers and _long_digits(whole.encode("utf-8", "surrogatepass"))
        if not (text or numbers):
            return
    if not isinstance(data, dict | list):
        return
    beyond = f"is beyond the largest number a record may hold (±{LARGEST_NUMBER})"
    for inside, item in _places(data):
        if text and isinstance(inside[1], str):
            need(_is_unicode(inside[1]), _field(inside), "is not valid Unicode text")
        if text and isinstance(item, str):
            need(_is_unicode(item), _field(inside), "is not valid Unicode text")
        elif numbers and is_int(item):
            need(-LARGEST_NUMBER <= item <= LARGEST_NUMBER, _field(inside), beyond)


def _check_options(options: dict[str, Any]) -> None:
    """Every text in the options is short (a sequence's name, a colour) and shows as it is, as
    a player's name must (``referee.rules.names``): a colour's name is read on every card."""
    too_long = f"is longer than {OPTION_TEXT} characters"
    for key, value in options.items():
        field = subfield("options", key)
        need(len(key) <= OPTION_TEXT, field, too_long)
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        keys: set[str] = set()
        for i, item in items:
            if isinstance(item, str):
                where = field if i is None else f"{field}[{i}]"
                need(len(item) <= OPTION_TEXT, where, too_long)
                need(not _hidden(item), where, HIDDEN_TEXT)
                key = same_name_key(item)
                need(key not in keys, where, "names what an earlier one names, as it shows")
                keys.add(key)


#: What a text that does not show as it is is refused with (a name, a colour).
HIDDEN_TEXT = (
    "holds a character that does not show (a control, format or private-use character, or a "
    "line break), or shows nothing"
)


def _hidden(text: str) -> bool:
    """Whether ``text`` holds a character that does not show, or is only what shows as nothing
    (blank text is not: it is no name, which the game says)."""
    return hidden_character(text) or bool(text.strip() and not shown(text))


def parse_record(data: object, *, checked: bool = False) -> Record:
    """Check the shape of a decoded document and turn it into a ``Record``. ``checked``: its
    text and numbers were checked already (``check_values``, on a document holding it)."""
    return _parse(data, check_text=not checked, check_numbers=not checked)


def _is_top_field(key: str, game: object) -> bool:
    """Whether ``key`` is a top field of a record of some game (``game``: the record's, not
    checked yet). Every game's part is loaded only for a key that is not the record's own."""
    if key in _TOP_FIELDS:
        return True
    if isinstance(game, str) and game in GAMES and key == record_part(game).first_field:
        return True
    return key in {record_part(other).first_field for other in GAMES}


def _parse(data: object, check_text: bool, check_numbers: bool) -> Record:
    need(isinstance(data, dict), "", "a record is a JSON object")
    assert isinstance(data, dict)
    if check_text or check_numbers:
        _check_values(data, check_text, check_numbers)
    for key in data:
        if not _is_top_field(key, data.get("game")):
            raise RecordError(subfield("", key), "is not a field of a table-referee/1 record")
    need(data.get("format") == FORMAT, "format", f'must be "{FORMAT}"')
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError("game", f"must be one of {', '.join(sorted(GAMES))}")
    listed = data.get("players")
    need(
        not isinstance(listed, list) or len(listed) <= LARGEST_TABLE,
        "players",
        f"no game seats more than {LARGEST_TABLE} players",
    )
    players = [name.strip() for name in str_list(listed, "players")]
    need(len(players) > 0, "players", "must name at least one player")
    options = data.get("options", {})
    need(isinstance(options, dict), "options", "must be an object")
    _check_options(options)
    own = record_part(game)
    first_key = own.first_field
    for key in data:  # what is left beyond the top fields is another game's first field
        if key not in _TOP_FIELDS and key != first_key:
            raise RecordError(key, f"is not used in {game}; use {first_key}")
    first = data.get(first_key)
    need(first is None or isinstance(first, str), first_key, "must be a player's name")
    setup = Setup(game, tuple(players), options, first.strip() if first else None)
    try:
        game_rules = GAMES[game](setup)
    except OptionError as exc:
        raise RecordError(f"options.{exc.option}", str(exc)) from None
    rounds = data.get("rounds", [])
    need(isinstance(rounds, list), "rounds", "must be a list of rounds")
    events: list[ev.Event] = []
    # Who is dealt in and who deals each round, as the record's seat changes leave them: what
    # orders its bids (a change the rules refuse is noted by the replay, not followed here).
    seating, rules, dealer = Seating.of(setup.players), game_rules, None
    for index, raw in enumerate(rounds):
        number = index + 1
        field = f"rounds[{index}]"
        if number <= rules.round_count:
            need(isinstance(raw, dict), field, "a round is an object")
            for key in raw:
                if key not in own.round_schema:
                    raise RecordError(subfield(field, key), f"is not a field of a {game} round")
            for change in seat_events(raw, number, field):
                events.append(change)
                if seat_breach(rules, seating, change) is None:
                    after = seating.applied(change)
                    if after.seated != seating.seated:
                        rules = rules.reseated(after.seated, number)
                    seating = after
        events.append(ev.BeginRound(number))
        if number > rules.round_count:
            break  # one round too many is a round-count breach; the rest is not read
        last = index == len(rounds) - 1
        seats = seating.seats_in(number)
        dealer = dealer_after(seating.ring, dealer, setup.first_player, seats)
        events += own.round_events(raw, number, field, last, rules, seats, dealer)
    if "ended_after" in data:
        ended = data["ended_after"]
        need(is_int(ended) and ended >= 1, "ended_after", "must be a round's number")
        events.append(ev.End(ended))
    if "history" not in data:
        return Record(setup, tuple(events), game_rules.round_count)
    from referee.records.history import read_history  # only a record with a history needs it

    log = read_history(data["history"], setup, len(game_rules.deck.colours))
    record = Record(setup, tuple(events), game_rules.round_count, log)
    replayed = export_record(record.replay())
    if replayed.get("ended_after") != data.get("ended_after"):
        raise RecordError(
            "history", "its entries in force do not end the game where ended_after says"
        )
    given = replayed["rounds"]
    if given != rounds:
        differs = next(n for n in range(len(given) + 1) if given[n : n + 1] != rounds[n : n + 1])
        raise RecordError(
            "history",
            f"its entries in force do not give the record's rounds (round {differs + 1} "
            "differs): correct the history too, or leave it out",
        )
    return record


# --- export --------------------------------------------------------------------------------


def export_record(state: State, log: Sequence[LogEntry] = ()) -> dict[str, Any]:
    """The table as a ``table-referee/1`` document (entries as made; options in full), with its
    ``log`` as the ``history`` when it has one. A sealed secret bid of a round not over yet is
    left out, as a bid not yet turned up."""
    own = record_part(state.setup.game)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": state.setup.game,
        "players": list(state.setup.players),
        "options": dict(state.game.options),
        own.first_field: state.setup.first_player,
        "rounds": [],
    }
    changes = state.seating.changes if state.seating is not None else ()
    for rnd in state.rounds:
        seats = export_seats(changes, rnd.number)
        out = ({"seats": seats} if seats else {}) | own.export_round(state, rnd)
        if rnd.plays:
            out["plays"] = [
                {"leader": t.leader, "cards": [str(card) for _, card in t.cards]} for t in rnd.plays
            ]
        doc["rounds"].append(out)
    coming = export_seats(changes, len(state.rounds) + 1)
    if coming:  # made before a round not begun yet
        doc["rounds"].append({"seats": coming})
    if state.ended is not None:
        doc["ended_after"] = state.ended
    if log:
        from referee.records.history import write_history  # only a table with a log needs it

        doc["history"] = write_history(state, log)
    return doc


# --- the JSON schema ---------------------------------------------------------------------------

#: The reference copy of the format's JSON schema.
SCHEMA_FILE = Path(__file__).with_name("record.schema.json")


def record_schema() -> dict[str, Any]:
    """The JSON schema of a record of any game registered now: the fields every game shares as
    the reference copy (``SCHEMA_FILE``) has them; the ``game`` one of the registry's, and each
    game's field naming who begins round 1, options and rounds as its record part gives them.
    For the games of ``referee.rules.registry.GAME_LIST`` it is the reference copy itself (a
    test keeps it so). Every game's rules and record part are loaded."""
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    parts = {game: record_part(game) for game in GAMES}
    firsts = {part.first_field for part in parts.values()}
    top = {key: value for key, value in schema["properties"].items() if key in _TOP_FIELDS}
    top["game"] = {"enum": list(parts)}
    schema["properties"] = top | {first: {"type": "string"} for first in sorted(firsts)}
    schema["allOf"] = [
        {
            "if": {"properties": {"game": {"const": game}}},
            "then": {
                "properties": {
                    **dict.fromkeys(sorted(firsts - {part.first_field}), False),
                    "options": {
                        "properties": dict(part.option_schema),
                        "additionalProperties": False,
                    },
                    "rounds": {
                        "items": {
                            "type": "object",
                            "properties": dict(part.round_schema),
                            "additionalProperties": False,
                        }
                    },
                }
            },
        }
        for game, part in parts.items()
    ]
    return schema
