"""ebbes in a record: no dealer, no trump turned up, no bids. A round names its starter (and who
chose them), the number card or the placed designators, the cards laid aside, the colours in
the order they were fixed and each player's cards won of each colour. Round 1's starter is the
record's ``first_starter``; the referee reports each round's colour roles and nix majority."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.records.parts import (
    SEATS_FIELD,
    RecordError,
    RecordGame,
    is_int,
    name_map,
    need,
    str_list,
    subfield,
    trick_events,
)
from referee.rules import Game, RoundState, State
from referee.rules import events as ev
from referee.rules.ebbes import ROLES, Ebbes, EbbesRound
from referee.rules.marks import N_


class RecordEbbes(RecordGame):
    round_schema: ClassVar[Mapping[str, Any]] = {
        **SEATS_FIELD,
        "number": {"type": "integer"},
        "designators": {"type": "array", "maxItems": 5, "items": {"type": "string"}},
        "starter": {"type": "string"},
        "chosen_by": {"type": "string"},
        "designations": {"type": "array", "maxItems": 5, "items": {"type": "string"}},
        "won": {
            "type": "object",
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        "discards": {"type": "object", "additionalProperties": {"type": "string"}},
        "plays": {"$ref": "#/$defs/plays"},
    }
    option_schema: ClassVar[Mapping[str, Any]] = {
        "extended": {"type": "boolean"},
        "variant": {"enum": list(Ebbes.option_choices["variant"])},
        "discard": {"type": "boolean"},
        "trump_from": {"enum": list(Ebbes.option_choices["trump_from"])},
    }
    first_field = "first_starter"
    who_heading = N_("Starter")
    who_field = "starter"
    last_heading = N_("Roles (trump plus ebbes minus nix)")

    def round_events(
        self,
        raw: dict[str, Any],
        number: int,
        field: str,
        last: bool,
        rules: Game[Any],
        seated: tuple[str, ...],
        dealer: str,
    ) -> list[ev.Event]:
        seats, colours = len(seated), len(rules.deck.colours)
        out: list[ev.Event] = []
        if "starter" in raw or "chosen_by" in raw:
            starter, chooser = raw.get("starter"), raw.get("chosen_by")
            need(isinstance(starter, str), f"{field}.starter", "must be a player's name")
            need(
                chooser is None or isinstance(chooser, str),
                f"{field}.chosen_by",
                "must be a player's name",
            )
            assert isinstance(starter, str)
            out.append(ev.Starter(number, starter.strip(), chooser.strip() if chooser else None))
        if "number" in raw:
            need(is_int(raw["number"]), f"{field}.number", "must be a whole number")
            out.append(ev.Number(number, raw["number"]))
        if "designators" in raw:
            designators = _colour_list(raw["designators"], f"{field}.designators", colours)
            out.append(ev.Designators(number, tuple(designators)))
        if "discards" in raw:
            discards = name_map(raw["discards"], f"{field}.discards", "str", seats)
            out += [ev.Discard(number, p, card) for p, card in discards.items()]
        out += trick_events(raw, number, field, last, rules, seats)
        for colour in _colour_list(raw.get("designations", []), f"{field}.designations", colours):
            out.append(ev.Designate(number, colour))
        if "won" in raw:
            won = name_map(raw["won"], f"{field}.won", "any", seats)
            for p, counts in won.items():
                readable = isinstance(counts, dict) and len(counts) <= colours
                if readable and all(is_int(count) for count in counts.values()):
                    continue  # the field is named only for counts that cannot be read
                where = subfield(f"{field}.won", p)
                need(isinstance(counts, dict), where, "must be an object of colour → cards")
                need(len(counts) <= colours, where, f"names more than the deck's {colours} colours")
                for colour, count in counts.items():
                    if not is_int(count):
                        raise RecordError(subfield(where, colour), "must be a whole number")
            out.append(ev.Won(number, won))
        return out

    def export_round(self, state: State, rnd: RoundState) -> dict[str, Any]:
        assert isinstance(rnd, EbbesRound)
        out: dict[str, Any] = {}
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
        return out

    def report_round(self, state: State, rnd: RoundState) -> dict[str, Any]:
        """Who started (the first trick's leader where no starter was entered), the colour of
        each role and the nix majority (who chooses the next starter)."""
        game = state.game
        assert isinstance(game, Ebbes) and isinstance(rnd, EbbesRound)
        return {
            "starter": rnd.leader or (rnd.plays[0].leader if rnd.plays else None),
            "roles": rnd.role_map(),
            "nix_majority": game.nix_majority(state, rnd) or [],
        }

    def table_texts(self, entry: Mapping[str, Any]) -> list[str]:
        """The colour of each role, "?" where not known yet."""
        return [entry["roles"][role] or "?" for role in ROLES]


def _colour_list(value: object, field: str, colours: int) -> list[str]:
    """Designations or designators: a list of at most one entry per colour of the deck."""
    need(
        not isinstance(value, list) or len(value) <= colours,
        field,
        f"lists more than the deck's {colours} colours",
    )
    return str_list(value, field)


PART = RecordEbbes()
