"""One bad entry, one breach: a value that is bad by itself, put into a legal record, is reported
where it is, and nothing else is accused because of it.

Every legal golden record (``tests/records``, exit 0) is corrupted at every place of each field
kind, one value at a time, and checked with ``check --json``; so is a random place of random
legal games of every game and option (``tests/simulate.py``), spelled every way the format
allows. Only values the referee can tell
are bad without knowing what really happened are used: a card that spells no card, is not in
the deck or was already played; a name that is no player's; a trump, number card or designator
that is garbled, or left out of a round that is not the record's last one under way (which may
still lack entries); a count below zero; a bid or number card out of range; a trick
with a card left out. (A plausible wrong value — another real card, another player as leader —
is a different game the record tells, and what it implies is not a false accusation.)

What is asserted, and why:

- The violations are exactly the one breach of that value, at its round, trick and player: a
  card's player is the one whose turn it was; a leader who is no player's, a trick with a card
  missing, and round-level entries name no trick. So a bad card never turns into a ``turn``
  breach on the next trick, a ``plays`` breach on the counts, a revoke, or a ``missing`` entry.
- The other rounds keep their scores and the game stays as complete as it was: one bad entry
  does not reach beyond its round. But a round's result under a name that is no player's, or
  one that is no count, leaves that player's result out (where no plays give the results): the
  round and so the game are then not complete (``docs/record-format.md``).
- The round itself is scored as before or, when what is left cannot tell (the last trick of a
  round recorded card by card, without its tricks or cards won beside), not at all — never
  differently. Where the round gives its results beside the plays (``tricks``; ebbes: ``won``
  and ``designations``), or the bad card is not in a trick game's last trick, it keeps its
  scores: the next trick's leader says who won a trick its cards cannot settle.
- A bid out of range is scored as entered, so only the breach is asserted for it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.records import parse_record
from referee.records.check import check_text
from referee.rules import Deck
from tests.rules.test_properties import CASES, SEEDS, case_id, draw_record, examples

RECORDS = Path(__file__).parent.parent / "records"
LEGAL = sorted(
    path
    for path in RECORDS.glob("*/*.json")
    if not path.name.endswith(".expect.json")
    and json.loads(path.with_name(path.stem + ".expect.json").read_text())["exit"] == 0
)


@dataclass(frozen=True)
class Bad:
    """One corrupted copy of a record: what was done, the one violation it must give (rule,
    round, trick, player), how its round must be scored: ``"keep"`` (as before),
    ``"keep-or-none"`` (as before, or not at all) or ``"any"`` (as the changed entry gives), and
    whether the game stays as complete as it was (``completes``)."""

    what: str
    doc: dict[str, Any]
    breach: tuple[str, int, int | None, str | None]
    scores: str
    completes: bool = True


Maker = Callable[[dict[str, Any]], Iterator[Bad]]
MAKERS: list[Maker] = []


def maker(fn: Maker) -> Maker:
    MAKERS.append(fn)
    return fn


def rounds(doc: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each round's number and the round."""
    for index, rnd in enumerate(doc["rounds"]):
        yield index + 1, rnd


def changed(doc: dict[str, Any], index: int, edit: Callable[[dict[str, Any]], None]) -> Any:
    new = copy.deepcopy(doc)
    edit(new["rounds"][index])
    return new


def seat(doc: dict[str, Any], leader: str, offset: int) -> str:
    """Who plays the card ``offset`` places after the ``leader``'s (names as reported)."""
    players = [name.strip() for name in doc["players"]]
    return players[(players.index(leader.strip()) + offset) % len(players)]


def is_last_trick(doc: dict[str, Any], number: int, trick: int) -> bool:
    return trick == len(doc["rounds"][number - 1]["plays"])


def card_scores(doc: dict[str, Any], number: int, trick: int) -> str:
    """How a round with a bad card in ``trick`` must be scored (see the module docstring)."""
    rnd = doc["rounds"][number - 1]
    if doc["game"] == "ebbes":
        return "keep" if "won" in rnd and "designations" in rnd else "keep-or-none"
    return "keep" if "tricks" in rnd or not is_last_trick(doc, number, trick) else "keep-or-none"


def under_way(doc: dict[str, Any], number: int) -> bool:
    """Round ``number`` is the record's last and is not complete: it may still lack an entry
    (docs/record-format.md), so leaving one out of it is not a bad entry."""
    state = parse_record(doc).replay()
    return number == len(state.rounds) and not state.game.round_complete(state.rounds[-1])


def deck_of(doc: dict[str, Any]) -> Deck:
    return parse_record(doc).replay().game.deck


def bad_spelling(deck: Deck, card: str) -> str:
    """A typo that spells no card of the deck: ``1S`` for a French card, else a colour the
    deck does not have (a custom Alles oder Nichts deck may have lime)."""
    if deck.french:
        return "1" + card.strip()[-1]
    colour = next(word for word in ("lime", "teal", "zzz") if deck.parse_colour(word) is None)
    return colour + "-" + card.rsplit("-", 1)[1]


def outside_deck(deck: Deck, card: str) -> str | None:
    """A card that is spelled right but is not in the deck (None if every such card is)."""
    if deck.french:
        text = "2" + card.strip()[-1]
        return None if deck.parse_card(text) in deck else text
    return card.rsplit("-", 1)[0] + "-99"


@maker
def cards(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every card of every trick: mistyped, not in the deck, or one already played (earlier in
    the round, or the turned trump card)."""
    deck = deck_of(doc)
    for number, rnd in rounds(doc):
        seen: list[str] = []
        trump = rnd.get("trump")
        if trump and deck.parse_card(trump) is not None:
            seen.append(trump)
        for t, trick in enumerate(rnd.get("plays", []), start=1):
            for i, card in enumerate(trick["cards"]):
                player = seat(doc, trick["leader"], i)
                where = ("card", number, t, player)
                scores = card_scores(doc, number, t)
                replacements = [bad_spelling(deck, card), outside_deck(deck, card), *seen[-1:]]
                for text in replacements:
                    if text is None:
                        continue

                    def put(r: dict[str, Any], t: int = t, i: int = i, text: str = text) -> None:
                        r["plays"][t - 1]["cards"][i] = text

                    yield Bad(
                        f"round {number} trick {t} card {i} → {text}",
                        changed(doc, number - 1, put),
                        where,
                        scores,
                    )
                seen.append(card)


@maker
def leaders(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every trick's leader renamed to someone who is not at the table."""
    for number, rnd in rounds(doc):
        for t in range(1, len(rnd.get("plays", [])) + 1):

            def put(r: dict[str, Any], t: int = t) -> None:
                r["plays"][t - 1]["leader"] = "Nobody"

            yield Bad(
                f"round {number} trick {t} leader → Nobody",
                changed(doc, number - 1, put),
                ("players", number, t, None),
                card_scores(doc, number, t),
            )


@maker
def cards_played_again_later(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every card of every trick but the round's last card replaced by the card played after it
    (a duplicate written backwards: the later copy is the card, the earlier the typo). Which
    copy is wrong the record cannot tell: one breach, where the card shows up again."""
    for number, rnd in rounds(doc):
        played = [
            (t, i, trick)
            for t, trick in enumerate(rnd.get("plays", []), start=1)
            for i in range(len(trick["cards"]))
        ]
        for (t, i, _), (u, j, later) in pairwise(played):
            text = later["cards"][j]

            def put(r: dict[str, Any], t: int = t, i: int = i, text: str = text) -> None:
                r["plays"][t - 1]["cards"][i] = text

            yield Bad(
                f"round {number} trick {t} card {i} → {text} (played next)",
                changed(doc, number - 1, put),
                ("card", number, u, seat(doc, later["leader"], j)),
                card_scores(doc, number, u),
            )


@maker
def real_leaders(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every trick's leader changed to another player at the table (the next one round), where
    the record says who had to lead it: not an ebbes round's first trick without ``starter``,
    whose leader is the starter."""
    for number, rnd in rounds(doc):
        for t, trick in enumerate(rnd.get("plays", []), start=1):
            if t == 1 and doc["game"] == "ebbes" and "starter" not in rnd:
                continue
            other = seat(doc, trick["leader"], 1)

            def put(r: dict[str, Any], t: int = t, other: str = other) -> None:
                r["plays"][t - 1]["leader"] = other

            yield Bad(
                f"round {number} trick {t} leader → {other}",
                changed(doc, number - 1, put),
                ("turn", number, t, other),
                card_scores(doc, number, t),
            )


@maker
def short_tricks(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every whole trick with its last card left out (not the record's last trick, which would
    then be a trick under way)."""
    for number, rnd in rounds(doc):
        plays = rnd.get("plays", [])
        for t in range(1, len(plays) + 1):
            if number == len(doc["rounds"]) and t == len(plays):
                continue

            def put(r: dict[str, Any], t: int = t) -> None:
                r["plays"][t - 1]["cards"].pop()

            yield Bad(
                f"round {number} trick {t} one card short",
                changed(doc, number - 1, put),
                ("turn", number, t, None),
                card_scores(doc, number, t),
            )


@maker
def trumps(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every trump turned up garbled, or left out."""
    for number, rnd in rounds(doc):
        if not rnd.get("trump"):
            continue
        scores = "keep" if "tricks" in rnd or "plays" not in rnd else "keep-or-none"
        for text in ("XX", *([] if under_way(doc, number) else [None])):

            def put(r: dict[str, Any], text: str | None = text) -> None:
                if text is None:
                    del r["trump"]
                else:
                    r["trump"] = text

            yield Bad(
                f"round {number} trump → {text}",
                changed(doc, number - 1, put),
                ("trump", number, None, None),
                scores,
            )


def ebbes_scores(rnd: dict[str, Any]) -> str:
    """How an ebbes round whose roles the cards may not tell must be scored."""
    if "plays" not in rnd or ("won" in rnd and "designations" in rnd):
        return "keep"
    return "keep-or-none"


@maker
def number_cards(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every ebbes number card left out, or out of 1–5."""
    for number, rnd in rounds(doc):
        if "number" not in rnd:
            continue
        for value in (*([] if under_way(doc, number) else [None]), 0, 6):

            def put(r: dict[str, Any], value: int | None = value) -> None:
                if value is None:
                    del r["number"]
                else:
                    r["number"] = value

            rule = "missing" if value is None else "number"
            yield Bad(
                f"round {number} number → {value}",
                changed(doc, number - 1, put),
                (rule, number, None, None),
                ebbes_scores(rnd),
            )


@maker
def designators(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every placed designator garbled or not in the deck, and every round's left out."""
    deck = deck_of(doc)
    for number, rnd in rounds(doc):
        if "designators" not in rnd:
            continue

        def drop(r: dict[str, Any]) -> None:
            del r["designators"]

        if not under_way(doc, number):
            yield Bad(
                f"round {number} designators left out",
                changed(doc, number - 1, drop),
                ("missing", number, None, None),
                ebbes_scores(rnd),
            )
        for i, card in enumerate(rnd["designators"]):
            for text in (bad_spelling(deck, card), outside_deck(deck, card)):

                def put(r: dict[str, Any], i: int = i, text: str | None = text) -> None:
                    r["designators"][i] = text

                yield Bad(
                    f"round {number} designator {i} → {text}",
                    changed(doc, number - 1, put),
                    ("card", number, None, None),
                    ebbes_scores(rnd),
                )


@maker
def discards(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every discard garbled or not in the deck."""
    deck = deck_of(doc)
    for number, rnd in rounds(doc):
        for player, card in rnd.get("discards", {}).items():
            for text in (bad_spelling(deck, card), outside_deck(deck, card)):

                def put(r: dict[str, Any], p: str = player, text: str | None = text) -> None:
                    r["discards"][p] = text

                yield Bad(
                    f"round {number} {player}'s discard → {text}",
                    changed(doc, number - 1, put),
                    ("card", number, None, player.strip()),
                    "keep" if "won" in rnd or "plays" not in rnd else "keep-or-none",
                )


@maker
def designations(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every designation a colour the game does not have, or one named before."""
    for number, rnd in rounds(doc):
        given = rnd.get("designations", [])
        for i in range(len(given)):
            for text in ("pink", *given[:i][-1:]):

                def put(r: dict[str, Any], i: int = i, text: str = text) -> None:
                    r["designations"][i] = text

                yield Bad(
                    f"round {number} designation {i} → {text}",
                    changed(doc, number - 1, put),
                    ("designation", number, None, None),
                    "keep" if "plays" in rnd else "keep-or-none",
                )


@maker
def bids(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every bid below 0 or above the highest (Blackout: the hand size; Alles oder Nichts: 6)."""
    state = parse_record(doc).replay()
    for number, rnd in rounds(doc):
        for player, bid in rnd.get("bids", {}).items():
            high = state.rounds[number - 1].hand_size if doc["game"] == "blackout" else 6
            for value in (-1, high + 1):

                def put(r: dict[str, Any], p: str = player, value: int = value) -> None:
                    if isinstance(r["bids"][p], dict):
                        r["bids"][p]["bid"] = value
                    else:
                        r["bids"][p] = value

                if isinstance(bid, dict) and "bid" not in bid:
                    continue
                yield Bad(
                    f"round {number} {player}'s bid → {value}",
                    changed(doc, number - 1, put),
                    ("bid-range", number, None, player.strip()),
                    "any",
                )


def same_colour(written: str, trump: str | None) -> bool:
    """Whether a colour as the record spells it is ``trump`` (as spelled anywhere)."""
    return trump is not None and written.strip().casefold() == trump.strip().casefold()


@maker
def counts(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every count of tricks or cards won below zero. Where the plays give the counts, the
    round keeps its scores; in ebbes' discard variant they do not unless the discards are
    recorded (the round is complete all the same: its tricks are all played)."""
    discard = bool(doc.get("options", {}).get("discard"))
    # ebbes: the one colour not counted is trump, as designated or, where the record gives no
    # designations, as the cards played gave it (the referee's own report of the legal game).
    roles = [r.get("roles") or {} for r in legal_report(doc)["rounds"]] if "won" in str(doc) else []
    for number, rnd in rounds(doc):
        told = "plays" in rnd and (not discard or "discards" in rnd)
        for player in rnd.get("tricks", {}):

            def put(r: dict[str, Any], p: str = player) -> None:
                r["tricks"][p] = -1

            yield Bad(
                f"round {number} {player}'s tricks → -1",
                changed(doc, number - 1, put),
                ("trick-total", number, None, player.strip()),
                "keep" if told else "keep-or-none",
                completes=told,
            )
        designated = (rnd.get("designations") or [None])[0]
        trump = designated or (roles[number - 1].get("trump") if number <= len(roles) else None)
        for player, won in rnd.get("won", {}).items():
            for colour in won:

                def put_won(r: dict[str, Any], p: str = player, c: str = colour) -> None:
                    r["won"][p][c] = -1

                # The round stays complete where its plays give all its tricks, even when
                # the discards they leave out keep it from being scored (record-format.md: a
                # round's results are in when all its tricks are played), or where the count
                # is trump's, which is not counted.
                yield Bad(
                    f"round {number} {player}'s {colour} won → -1",
                    changed(doc, number - 1, put_won),
                    ("trick-total", number, None, player.strip()),
                    "keep" if told else "keep-or-none",
                    completes="plays" in rnd or same_colour(colour, trump),
                )


@maker
def names(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every player named in a round (a key of a map, the dealer, the starter, who chose)
    renamed to someone who is not at the table."""
    discard = bool(doc.get("options", {}).get("discard"))
    for number, rnd in rounds(doc):
        told = "plays" in rnd and (not discard or "discards" in rnd)
        for key in ("bids", "tricks", "won", "discards"):
            for player in rnd.get(key, {}):

                def put(r: dict[str, Any], key: str = key, p: str = player) -> None:
                    r[key] = {("Nobody" if q == p else q): v for q, v in r[key].items()}

                yield Bad(
                    f"round {number} {key} of {player} → Nobody",
                    changed(doc, number - 1, put),
                    ("players", number, None, None),
                    "keep" if key in ("tricks", "won") and told else "keep-or-none",
                    completes="plays" in rnd or key not in ("tricks", "won"),  # as in ``counts``
                )
        for key in ("dealer", "starter", "chosen_by"):
            if key in rnd:

                def put_name(r: dict[str, Any], key: str = key) -> None:
                    r[key] = "Nobody"

                yield Bad(
                    f"round {number} {key} → Nobody",
                    changed(doc, number - 1, put_name),
                    ("players", number, None, None),
                    "keep-or-none",
                )


def first_use(doc: dict[str, Any], name: str) -> tuple[int | None, int | None]:
    """Where a record first names a player (round and trick; round None: who begins round 1),
    in the order a round's fields are entered: who deals or starts, bids and discards, then the
    tricks, then the counts."""
    first = doc.get("first_dealer", doc.get("first_starter"))
    if isinstance(first, str) and first.strip() == name:
        return None, None
    for number, rnd in rounds(doc):
        before = [rnd.get(k) for k in ("dealer", "starter", "chosen_by")]
        before += [*rnd.get("bids", {}), *rnd.get("discards", {})]
        if name in [n.strip() for n in before if isinstance(n, str)]:
            return number, None
        for t, trick in enumerate(rnd.get("plays", []), start=1):
            if trick["leader"].strip() == name:
                return number, t
        if name in [n.strip() for n in (*rnd.get("tricks", {}), *rnd.get("won", {}))]:
            return number, None
    raise AssertionError(f"{name} is named nowhere")


@maker
def renamed_players(doc: dict[str, Any]) -> Iterator[Bad]:
    """Every player renamed in ``players`` alone (the rounds still name them as before), who has
    entries of their own (a bid, a count): one breach where the old name is first used, and the
    rounds read as before."""
    for i, name in enumerate(name.strip() for name in doc["players"]):
        own = [rnd.get(key, {}) for _, rnd in rounds(doc) for key in ("bids", "tricks", "won")]
        if not any(name in [key.strip() for key in entries] for entries in own):
            continue  # no entry of their own: their name in the rounds is only a leader's
        renamed = copy.deepcopy(doc)
        renamed["players"][i] = name + "x"
        where = first_use(doc, name)
        yield Bad(f"players[{i}] {name} → {name}x", renamed, ("players", *where, None), "keep")


def seated(report: dict[str, Any], rnd: dict[str, Any]) -> list[int] | None:
    """A reported round's scores in seat order (a renamed player keeps their seat's)."""
    scores = rnd["scores"]
    return None if scores is None else [scores[name] for name in report["players"]]


def judged(before: dict[str, Any], bad: Bad) -> list[str]:
    """What is wrong with the report on ``bad`` (see the module docstring), given the report on
    the record before: nothing when it is right."""
    status, out = check_text(json.dumps(bad.doc), as_json=True)
    report = json.loads(out)
    found = [(v["rule"], v["round"], v["trick"], v["player"]) for v in report["violations"]]
    problems = []
    if status != 1 or found != [bad.breach]:
        problems.append(f"violations {found}, not [{bad.breach}]")
    number = bad.breach[1]
    for old_round, new_round in zip(before["rounds"], report["rounds"], strict=True):
        old, new = seated(before, old_round), seated(report, new_round)
        if old_round["number"] != number and old != new:
            problems.append(f"round {old_round['number']} scored {new}")
        elif old_round["number"] == number and (
            (bad.scores == "keep" and new != old)
            or (bad.scores == "keep-or-none" and new not in (old, None))
        ):
            problems.append(f"its round scored {new}, not {old}")
    if report["complete"] != (before["complete"] and bad.completes):
        problems.append(f"complete is {report['complete']}")
    return [f"{bad.what}: " + "; ".join(problems)] if problems else []


def legal_report(doc: dict[str, Any]) -> dict[str, Any]:
    status, out = check_text(json.dumps(doc), as_json=True)
    assert status == 0, out
    report: dict[str, Any] = json.loads(out)
    return report


@pytest.mark.parametrize("make", MAKERS, ids=lambda make: make.__name__)
@pytest.mark.parametrize("path", LEGAL, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_one_bad_value_in_a_golden_record_gives_one_breach_where_it_is(
    path: Path, make: Maker
) -> None:
    """Every place of the field kind ``make`` corrupts, one at a time."""
    doc = json.loads(path.read_text())
    before = legal_report(doc)
    assert [wrong for bad in make(doc) for wrong in judged(before, bad)] == []


@pytest.mark.parametrize(("game", "case"), CASES, ids=case_id)
@examples(3)
@given(seed=SEEDS, data=st.data())
def test_one_bad_value_in_a_random_game_gives_one_breach_where_it_is(
    game: str, case: Any, seed: int, data: st.DataObject
) -> None:
    """A random place of a random field kind in a random legal game, in any detail and
    spelling."""
    _, doc = draw_record(data, game, case, seed)
    before = legal_report(doc)
    make = data.draw(st.sampled_from(MAKERS), label="field kind")
    bads = list(make(doc))
    if bads:
        assert judged(before, data.draw(st.sampled_from(bads), label="corruption")) == []
