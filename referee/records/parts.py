"""What a game adds to a record: the base class of each game's ``record.py``, and the readers of
the fields every game's rounds share.

A ``table-referee/1`` record (``referee.records``) has the same top fields for every game and a
list of rounds. A game says what its rounds hold by subclassing ``RecordGame`` in
``referee/games/<package>/record.py`` (``PART``): the fields of a round and of who begins round
1, and its options, each with its JSON schema (``referee.records.record_schema`` builds the
schema of a record from them), how a round of the record becomes its events, how a played round
becomes a record's round again, and what the command-line referee
(``referee.records.check``) reports of a round. The defaults here are those of the games that
deal and turn a trump (a dealer, a trump, bids, tricks).

The readers raise ``RecordError`` naming the field that cannot be read (``rounds[2].bids``):
``need`` for any condition, ``name_map`` and ``str_list`` for a field's shape, ``trick_events``
for a round's ``plays``. They and the error are here, below ``referee.records`` (which uses them
and offers ``RecordError`` to its callers), so that a game's part needs nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from referee.parts import part
from referee.rules import Game, RoundState, State
from referee.rules import events as ev
from referee.rules.marks import N_
from referee.rules.names import printable, quote
from referee.rules.seating import bidding_order


class RecordError(ValueError):
    """A document that cannot be read as a record; ``field`` names where (``rounds[2].bids``),
    ``message`` says what is wrong there."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


#: The report table's word for a round without a trump.
NO_TRUMP = N_("no trump")


#: The fields of a round of a game that deals and turns a trump, with their JSON schemas (the
#: references are to the schema's ``$defs``), but its ``bids``: each game's own.
#: The field every game's round may have: the seat changes made before it begins
#: (``docs/record-format.md``, "Joining, leaving, sitting out").
SEATS_FIELD: Mapping[str, Any] = {"seats": {"$ref": "#/$defs/seats"}}

DEALT_ROUND: Mapping[str, Any] = {
    **SEATS_FIELD,
    "trump": {"type": ["string", "null"], "description": "a card (QH) or a suit (H)"},
    "tricks": {"$ref": "#/$defs/counts"},
    "dealer": {"type": "string"},
    "plays": {"$ref": "#/$defs/plays"},
}


class RecordGame:
    """One game's part of a record (the defaults: a game that deals and turns a trump)."""

    #: The fields a round of the game may have, each with its JSON schema.
    round_schema: ClassVar[Mapping[str, Any]] = {
        **DEALT_ROUND,
        "bids": {"$ref": "#/$defs/counts"},
    }
    #: Its options, each with its JSON schema (a record may leave any out).
    option_schema: ClassVar[Mapping[str, Any]] = {}
    #: The top field naming who begins round 1.
    first_field = "first_dealer"
    #: The report table's column of who begins each round: its heading, and the field of the
    #: report's round it shows.
    who_heading = N_("Dealer")
    who_field = "dealer"
    #: The heading of the report table's last column (``table_texts``).
    last_heading = N_("Trump")

    # --- reading -----------------------------------------------------------------------------

    def round_events(
        self,
        raw: dict[str, Any],
        number: int,
        field: str,
        last: bool,
        rules: Game[Any],
        seats: tuple[str, ...],
        dealer: str,
    ) -> list[ev.Event]:
        """The events round ``number`` of the record stands for (after its ``BeginRound``):
        ``raw`` is the round (an object of ``round_schema``'s fields only), ``field`` where it sits
        (``rounds[0]``), ``last`` whether it is the record's last round (its last trick may be
        under way), ``seats`` the players dealt in and ``dealer`` who deals (or who starts)."""
        order = bidding_order(seats, dealer)
        out: list[ev.Event] = []
        if "dealer" in raw:
            need(isinstance(raw["dealer"], str), f"{field}.dealer", "must be a player's name")
            out.append(ev.Dealer(number, raw["dealer"].strip()))
        trump = raw.get("trump")
        if trump is not None:
            need(isinstance(trump, str), f"{field}.trump", "must be a card, a colour or null")
            out.append(ev.Trump(number, trump))
        if "bids" in raw:
            out += self.bid_events(raw["bids"], number, f"{field}.bids", order)
        out += trick_events(raw, number, field, last, rules, len(seats))
        if "tricks" in raw:
            tricks = name_map(raw["tricks"], f"{field}.tricks", "int", len(order))
            out.append(ev.Tricks(number, tricks))
        return out

    def bid_events(self, bids: object, number: int, field: str, order: list[str]) -> list[ev.Event]:
        """The events of a round's ``bids`` (at ``field``), in bidding ``order``."""
        raise NotImplementedError

    # --- writing -----------------------------------------------------------------------------

    def export_round(self, state: State, rnd: RoundState) -> dict[str, Any]:
        """A played round as a record's round, without its ``plays`` (the shared code adds
        them): the entries as made."""
        out: dict[str, Any] = {}
        if rnd.trump_card is not None or rnd.trump_colour is not None:
            out["trump"] = str(rnd.trump_card) if rnd.trump_card else rnd.trump_colour
        bids = self.export_bids(state, rnd)
        if bids:
            out["bids"] = bids
        if rnd.tricks is not None:
            out["tricks"] = dict(rnd.tricks)
        return out

    def export_bids(self, state: State, rnd: RoundState) -> dict[str, Any]:
        """A round's ``bids`` as a record writes them (empty: none yet)."""
        raise NotImplementedError

    # --- the referee's report ------------------------------------------------------------------

    def report_round(self, state: State, rnd: RoundState) -> dict[str, Any]:
        """What the ``--json`` report says of a round between its hand size and its scores:
        the dealer and the trump."""
        trump = rnd.trump_card if rnd.trump_card is not None else rnd.trump_colour
        return {"dealer": rnd.dealer, "trump": None if trump is None else str(trump)}

    def table_texts(self, entry: Mapping[str, Any]) -> list[str]:
        """The texts of a report round (``entry``) in the table's last column: the trump. The
        table shows each through ``referee.records.check.shown``."""
        return [entry["trump"] or NO_TRUMP]


def record_part(game: str) -> RecordGame:
    """The record part of ``game`` (by its record name)."""
    return part(game, "record", RecordGame)


# --- readers of a round's fields ---------------------------------------------------------------


def is_int(value: object) -> bool:
    """Whether ``value`` is a whole number (JSON's ``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def need(cond: bool, field: str, message: str) -> None:
    """``RecordError(field, message)`` unless ``cond``. (A check of every entry of a round, a
    trick or a map raises ``RecordError`` itself, so that a field's name is made only for an
    entry that cannot be read: a game recorded card by card has hundreds. So does a check whose
    message is made from the value, of every map: a group file of 1,000 tables has 30,000.)"""
    if not cond:
        raise RecordError(field, message)


def subfield(field: str, key: str) -> str:
    """The field of ``key`` inside ``field``, with the key quoted safely (its start, escaped)."""
    return f"{field}.{printable(quote(key))}" if field else printable(quote(key))


def name_map(value: object, field: str, kind: str, seats: int) -> dict[str, Any]:
    """A map keyed by player name (keys trimmed, each player once) naming at most ``seats``
    players; ``kind`` "int" or "str" checks each value, "any" none."""
    need(isinstance(value, dict), field, "must be an object keyed by player name")
    assert isinstance(value, dict)
    if len(value) > seats:
        raise RecordError(field, f"names {len(value)} players; the table has {seats}")
    out: dict[str, Any] = {}
    # ``type(...) is``: a decoded document's whole numbers are ints, its true and false bools
    # (``is_int`` without its two calls, for every bid and count of a group's thousand tables).
    wanted = int if kind == "int" else str if kind == "str" else None
    for key, item in value.items():
        name = key.strip()
        if name in out:
            raise RecordError(subfield(field, key), "names the same player as a key before it")
        if wanted is not None and type(item) is not wanted:
            said = "a whole number" if kind == "int" else "a string"
            raise RecordError(subfield(field, key), f"must be {said}")
        out[name] = item
    return out


def str_list(value: object, field: str) -> list[str]:
    """A list of strings."""
    need(isinstance(value, list), field, "must be a list of strings")
    assert isinstance(value, list)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"{field}[{i}]", "must be a string")
    return value


def by_order(entries: Mapping[str, Any], order: list[str]) -> list[str]:
    """The players of ``entries`` in ``order``, then any others (a name no one sits under) as
    they come."""
    return [p for p in order if p in entries] + [p for p in entries if p not in order]


def trick_events(
    raw: dict[str, Any], number: int, field: str, last: bool, rules: Game[Any], seats: int
) -> list[ev.Event]:
    """The round's tricks (``seats`` players dealt in); ``RecordError`` as soon as they hold
    more tricks or cards than the round deals. The last trick of the record's ``last`` round
    may be under way (fewer cards than players, at least one) while the round's results are
    not in."""
    if "plays" not in raw:
        return []
    plays = raw["plays"]
    need(isinstance(plays, list), f"{field}.plays", "must be a list of tricks")
    tricks = rules.tricks_in(number)
    need(
        len(plays) <= tricks,
        f"{field}.plays",
        f"lists {len(plays)} tricks; round {number} has {tricks}",
    )
    out: list[ev.Event] = []
    played, deals = 0, tricks * seats
    for t, trick in enumerate(plays):
        if not (isinstance(trick, dict) and trick.keys() == {"leader", "cards"}):
            raise RecordError(
                f"{field}.plays[{t}]", 'a trick is {"leader": name, "cards": [card, ...]}'
            )
        leader, cards = trick["leader"], trick["cards"]
        if not isinstance(leader, str):
            raise RecordError(f"{field}.plays[{t}].leader", "must be a player's name")
        played += len(cards) if isinstance(cards, list) else 0
        if played > deals:
            raise RecordError(
                f"{field}.plays[{t}].cards", f"more cards than round {number} deals ({deals})"
            )
        str_list(cards, f"{field}.plays[{t}].cards")
        out.append(ev.Trick(number, leader.strip(), tuple(cards)))
    final = out[-1] if out else None
    under_way = last and not ({"tricks", "won"} & raw.keys())
    if under_way and isinstance(final, ev.Trick) and 0 < len(final.cards) < seats:
        # A trick under way (docs/record-format.md): its cards one by one, the first by the leader.
        # Only in a round under way: beside the round's results it is a trick short of cards.
        out[-1:] = [ev.Play(number, final.cards[0], final.leader)]
        out += [ev.Play(number, card) for card in final.cards[1:]]
    return out


#: A seat change in a record's ``seats``: its key, and the event it stands for.
SEAT_KEYS: Mapping[str, type[ev.Event]] = {"join": ev.Join, "leave": ev.Leave, "sit_out": ev.SitOut}


def seat_events(raw: dict[str, Any], number: int, field: str) -> list[ev.Event]:
    """The seat changes a round's ``seats`` lists, made before round ``number`` begins."""
    if "seats" not in raw:
        return []
    changes = raw["seats"]
    where = f"{field}.seats"
    need(isinstance(changes, list), where, "must be a list of seat changes")
    out: list[ev.Event] = []
    for index, change in enumerate(changes):
        at = f"{where}[{index}]"
        kinds = [key for key in SEAT_KEYS if isinstance(change, dict) and key in change]
        need(len(kinds) == 1, at, 'must be {"join": name}, {"leave": name} or {"sit_out": name}')
        assert isinstance(change, dict)
        kind = kinds[0]
        extra = (
            change.keys() - {kind, "after", "start"} if kind == "join" else change.keys() - {kind}
        )
        need(
            not extra, subfield(at, sorted(extra)[0]) if extra else at, f"is not a field of {kind}"
        )
        name = change[kind]
        need(isinstance(name, str), subfield(at, kind), "must be a player's name")
        if kind != "join":
            out.append(SEAT_KEYS[kind](number, name.strip()))  # type: ignore[call-arg]
            continue
        after, start = change.get("after"), change.get("start", "lowest")
        need(after is None or isinstance(after, str), subfield(at, "after"), "must be a name")
        need(isinstance(start, str), subfield(at, "start"), "must be lowest, zero or average")
        out.append(ev.Join(number, name.strip(), after.strip() if after else None, start))
    return out


def export_seats(changes: Sequence[ev.Event], number: int) -> list[dict[str, Any]]:
    """The seat changes made before round ``number``, as a record's ``seats``."""
    out: list[dict[str, Any]] = []
    for change in changes:
        if change.round != number:
            continue
        if isinstance(change, ev.Join):
            item: dict[str, Any] = {"join": change.player}
            if change.after is not None:
                item["after"] = change.after
            item["start"] = change.start
        else:
            key = "leave" if isinstance(change, ev.Leave) else "sit_out"
            item = {key: change.player}  # type: ignore[attr-defined]
        out.append(item)
    return out
