"""Property tests: groups of random legal games (``tests/simulate.py``) through the statistics.

Each example is a group: a roster drawn from the simulator's names (the rest are guests, some
roster players renamed or retired since), seasons, and a few tables of every game, some cut
short in play, some that do not count, each played at its own time in its own offset. The
statistics must add up as docs/group-format.md says, agree with ``check``'s report of each
table and with the simulator's truth of each round, read back as they were written, never
read a sealed bid, and rate the same whatever order the file lists its tables in.
"""

from __future__ import annotations

import json
import os
import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.groups import group_document, read_group, table_facts
from referee.groups.facts import stats_part
from referee.groups.report import stats_text
from referee.records import parse_record
from referee.records.check import check_text
from tests import simulate as sim

FRIDAY = Path(__file__).with_name("friday-club.json")

SEEDS = st.integers(0, 2**32 - 1)
GAMES = ("blackout", "alles-oder-nichts", "ebbes")
#: ``PROPERTY_SCALE=20 pytest …`` runs every property with 20 times the examples (a long hunt).
SCALE = int(os.environ.get("PROPERTY_SCALE", "1"))
EXAMPLES = settings(
    max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def options(rng: random.Random, game: str, players: int) -> dict[str, Any]:
    """Options that keep a game short enough for many examples, with some variety."""
    if game == "blackout":
        return {"max_cards": rng.randint(1, min(5, 52 // players))} | (
            {"sequence": rng.choice(sim.BLACKOUT_SEQUENCES)} if rng.random() < 0.5 else {}
        )
    if game == "ebbes":
        return {
            "extended": rng.random() < 0.3,
            "discard": rng.random() < 0.3,
            "trump_from": rng.choice(("now", "next-trick")),
            "variant": rng.choice(("standard", "placed-designators")),
        }
    return {}


def draw_group(seed: int, tables: int) -> tuple[dict[str, Any], list[sim.Game]]:
    """A group document of ``tables`` random tables, and each table's simulated game."""
    rng = random.Random(seed)
    members = rng.sample(sim.NAMES, rng.randint(0, len(sim.NAMES)))
    ids = {name: f"m{i}" for i, name in enumerate(members)}
    roster = []
    for name in members:
        shown = f"{name} Jr" if rng.random() < 0.2 else name  # renamed since
        roster.append(
            {"id": ids[name], "name": shown} | ({"retired": True} if rng.random() < 0.2 else {})
        )
    starts = sorted(rng.sample(range(0, 400), rng.randint(0, 3)))
    seasons = [
        {"name": f"S{i}", "from": (datetime(2026, 1, 1) + timedelta(days=day)).date().isoformat()}
        for i, day in enumerate(starts)
    ]
    minutes = rng.sample(range(0, 400 * 24 * 60), tables)  # each table its own moment
    docs, truths = [], []
    for minute in minutes:
        game = rng.choice(GAMES)
        low, high = sim.PLAYER_RANGE[game]
        count = rng.randint(low, min(high, 5))
        truth = sim.simulate(rng, game, count, options(rng, game, count))
        record = sim.to_record(truth, rng, rng.choice(sim.DETAILS))
        if rng.random() < 0.3:
            record = sim.in_progress(truth, record, rng)
        offset = timezone(timedelta(minutes=rng.randrange(-12 * 60, 14 * 60 + 1, 15)))
        played = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=minute)).astimezone(offset)
        docs.append(
            {
                "played": played.isoformat(),
                "counts": rng.random() < 0.8,
                "seats": {p: ids.get(p) for p in truth.players},
                "record": record,
            }
        )
        truths.append(truth)
    group = {
        "format": "table-referee-group/1",
        "name": "Random club",
        "players": roster,
        "seasons": seasons,
        "tables": docs,
    }
    return group, truths


def stats(group: dict[str, Any], season: str | None = None) -> tuple[int, dict[str, Any]]:
    status, output = stats_text(json.dumps(group), season, as_json=True)
    assert status != 2, output
    return status, json.loads(output)


@EXAMPLES
@given(SEEDS, st.integers(1, 6))
def test_the_statistics_add_up_as_documented(seed: int, tables: int) -> None:
    group, _ = draw_group(seed, tables)
    status, doc = stats(group)
    assert status == 0 and doc["breaking"] == []  # legal games, in play or not
    counted = [t for t in group["tables"] if t["counts"]]
    reports = [json.loads(check_text(json.dumps(t["record"]), as_json=True)[1]) for t in counted]
    roster = {m["id"]: m for m in group["players"]}
    for game, figures in doc["games"].items():
        mine = [(t, r) for t, r in zip(counted, reports, strict=True) if r["game"] == game]
        assert figures["tables"] == len(mine)
        sat = {m for t, _ in mine for m in t["seats"].values() if m}
        assert list(figures["players"]) == [m for m in roster if m in sat]
        for member, p in figures["players"].items():
            assert p["name"] == roster[member]["name"]
            at = [
                (t, r, next(n for n, m in t["seats"].items() if m == member))
                for t, r in mine
                if member in t["seats"].values()
            ]
            assert p["tables"] == len(at)
            assert p["complete"] == sum(r["complete"] for _, r, _ in at)
            assert p["wins"] == sum(name in r["winners"] for _, r, name in at)
            assert p["points"] == sum(r["totals"][name] for _, r, name in at)
            assert p["rounds"] == sum(
                rnd["scores"] is not None for _, r, _ in at for rnd in r["rounds"]
            )
            assert p["wins"] <= p["complete"] <= p["tables"] <= figures["tables"]
            check_game_keys(game, p)
            check_extensions(p)
        check_head_to_head(figures["players"])
    assert list(doc["games"]) == [g for g in GAMES if g in doc["games"]]


def check_game_keys(game: str, p: dict[str, Any]) -> None:
    if game == "ebbes":
        assert p["plus_points"] >= 0 >= p["minus_points"]
        assert p["points"] == p["plus_points"] + p["minus_points"] + 3 * p["ebbes_bonus"]
        assert 0 <= p["ebbes_bonus"] <= p["rounds"] and 0 <= p["nix_majority"] <= p["rounds"]
        return
    assert p["bids_made"] + p["over"] + p["under"] == p["rounds"]
    assert p["zero_made"] <= p["zero_bids"] <= p["rounds"]
    if game == "blackout":
        assert p["dealer_made"] <= p["dealer_rounds"] <= p["rounds"]
    else:
        assert p["open_declared"] + p["secret_declared"] == p["rounds"]
        assert p["open_made"] + p["secret_made"] == p["bids_made"]
        assert p["open_made"] <= p["open_declared"] and p["secret_made"] <= p["secret_declared"]


def check_extensions(p: dict[str, Any]) -> None:
    complete = p["complete"]
    if complete == 0:
        assert (p["win_rate"], p["average_place"], p["best_game"], p["rating"]) == (None,) * 4
    else:
        assert p["win_rate"] == round(p["wins"] / complete, 3)
        assert 1 <= p["average_place"] <= 5
        assert len(p["rating"]["history"]) == complete
        assert p["rating"]["history"][-1]["mu"] == p["rating"]["mu"]
        played = [entry["played"] for entry in p["rating"]["history"]]
        assert sorted(played, key=datetime.fromisoformat) == played
    streaks = p["streaks"]
    assert streaks["current"] <= streaks["longest"] <= p["wins"]
    assert sum(t["tables"] for t in p["head_to_head"].values()) <= complete * 4


def check_head_to_head(players: dict[str, Any]) -> None:
    for member, p in players.items():
        for other, met in p["head_to_head"].items():
            back = players[other]["head_to_head"][member]
            assert met["tables"] == met["ahead"] + met["behind"] + met["level"] > 0
            assert (back["ahead"], back["behind"], back["level"]) == (
                met["behind"],
                met["ahead"],
                met["level"],
            )


@EXAMPLES
@given(SEEDS, st.integers(1, 4))
def test_each_complete_round_is_the_simulators_round(seed: int, tables: int) -> None:
    """A second reading: what each game's part says of each complete round, and the round
    count the facts give, against what the simulator played."""
    group, truths = draw_group(seed, tables)
    for table, truth in zip(group["tables"], truths, strict=True):
        state = parse_record(table["record"]).replay()
        facts = table_facts(state)
        game, own = state.game, stats_part(truth.name)
        complete = [rnd for rnd in state.rounds if game.round_complete(rnd)]
        assert {seat.rounds for seat in facts.seats} == {len(complete)}
        for rnd in complete:
            real = truth.rounds[rnd.number - 1]
            scores = game.score_round(state, rnd)
            assert scores is not None
            said = own.round_values(state, rnd, scores)
            for name in truth.players:
                values = said[name]
                assert scores[name].points == real.scores[name]
                if truth.name == "ebbes":
                    assert values["nix_majority"] == (name in real.nix_majority)
                    roles = dict(zip(sim.EBBES_ROLES, real.designations, strict=False))
                    won = real.won[name]
                    assert values["plus_points"] == (won[roles["plus"]] if "plus" in roles else 0)
                    assert values["minus_points"] == (
                        -won[roles["minus"]] if "minus" in roles else 0
                    )
                else:
                    assert values["bid"] == real.bids[name]
                    assert values["tricks"] == real.tricks_won(truth.players)[name]
                    if truth.name == "blackout":
                        assert values["dealer"] == (real.dealer == name)
                    else:
                        assert values["open"] == real.open[name]
        if facts.complete:
            totals = truth.totals()
            assert {s.name: s.points for s in facts.seats} == totals
            assert [s.name for s in facts.seats if s.won] == truth.winners()


@EXAMPLES
@given(SEEDS, st.integers(1, 4))
def test_write_read_write_is_stable(seed: int, tables: int) -> None:
    group, _ = draw_group(seed, tables)
    first = group_document(read_group(json.dumps(group)))
    second = group_document(read_group(json.dumps(first)))
    assert second == first
    assert stats(first)[1] == stats(group)[1]


@EXAMPLES
@given(SEEDS)
def test_a_sealed_bid_is_never_read(seed: int) -> None:
    """An Alles oder Nichts table stopped before a round's tricks, its secret bids known (as
    the app knows a sealed bid): its facts are those of the same table with the secret bids
    not given at all."""
    rng = random.Random(seed)
    truth = sim.simulate(rng, "alles-oder-nichts", rng.randint(3, 6))
    record = sim.to_record(truth, rng, "summary")
    stop = rng.randrange(len(record["rounds"]))
    record["rounds"] = record["rounds"][: stop + 1]
    del record["rounds"][stop]["tricks"]
    hidden = json.loads(json.dumps(record))
    bids = hidden["rounds"][stop]["bids"]
    for name, bid in bids.items():
        if not bid["open"]:
            bids[name] = {"open": False}
    sealed = parse_record(record).replay()
    assert sealed.game.sealed(sealed.rounds[stop]) or all(
        b["open"] for b in record["rounds"][stop]["bids"].values()
    )
    assert table_facts(sealed) == table_facts(parse_record(hidden).replay())


def without_keys(doc: Any) -> Any:
    """The statistics without the tables' keys (their numbers in the file)."""
    if isinstance(doc, dict):
        return {k: without_keys(v) for k, v in doc.items() if k not in ("table", "breaking")}
    if isinstance(doc, list):
        return [without_keys(v) for v in doc]
    return doc


@EXAMPLES
@given(SEEDS, st.integers(2, 6), st.randoms(use_true_random=False))
def test_the_statistics_do_not_hang_on_the_order_of_the_file(seed, tables, shuffler) -> None:
    """Tables played at different moments: the ratings, streaks and best games are the same
    in whatever order the file lists them, and twice the same."""
    group, _ = draw_group(seed, tables)
    first = stats(group)[1]
    assert stats(group)[1] == first
    shuffled = dict(group, tables=shuffler.sample(group["tables"], len(group["tables"])))
    assert without_keys(stats(shuffled)[1]) == without_keys(first)


def test_tables_played_at_the_same_moment_are_taken_in_the_files_order() -> None:
    club = json.loads(FRIDAY.read_text())
    first = club["tables"][0]  # complete: Ben 1st, Ann 2nd
    club["tables"] = [first, first, dict(first, played="2025-12-05T18:00:00+00:00")]
    ratings = stats(club)[1]["games"]["blackout"]["players"]["p1"]["rating"]["history"]
    # 18:00 UTC is 19:00 in the +01:00 of the others: played first, the others as listed
    assert [entry["table"] for entry in ratings] == [3, 1, 2]


@EXAMPLES
@given(SEEDS, st.integers(1, 6))
def test_the_seasons_share_out_the_tables(seed: int, tables: int) -> None:
    """Every counted table is in the season its evening falls in, or before the first."""
    group, _ = draw_group(seed, tables)
    whole = stats(group)[1]["games"]
    first = min((s["from"] for s in group["seasons"]), default=None)
    before = [
        t for t in group["tables"] if t["counts"] and (first is None or t["played"][:10] < first)
    ]
    games = {game: 0 for game in whole}
    for table in before:
        games[table["record"]["game"]] += 1
    for season in group["seasons"]:
        for game, figures in stats(group, season["name"])[1]["games"].items():
            games[game] += figures["tables"]
    assert games == {game: figures["tables"] for game, figures in whole.items()}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def places(doc: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``doc``."""
    found = [where]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += places(value, (*where, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += places(value, (*where, index))
    return found


@EXAMPLES
@given(SEEDS, st.data())
def test_a_corrupted_group_is_read_or_refused_never_a_crash(seed: int, data: st.DataObject) -> None:
    group, _ = draw_group(seed, 2)
    for _ in range(data.draw(st.integers(1, 3), label="corruptions")):
        path = data.draw(st.sampled_from(places(group)[1:]), label="path")
        where: Any = group
        for step in path[:-1]:
            where = where[step]
        where[path[-1]] = data.draw(JSON, label="value")
    for season in (None, "S0"):
        status, output = stats_text(json.dumps(group), season, as_json=True)
        assert status in (0, 1, 2)
        doc = json.loads(output)
        assert set(doc) == (
            {"error", "field"} if status == 2 else {"group", "season", "games", "breaking"}
        )
