"""Golden records: every record under tests/records/ checked against its expected verdict.

Each ``NAME.json`` has a ``NAME.expect.json`` written from the rule book by hand: the exit status,
the per-round scores (and the trick in play of a record stopped in the middle of one), totals,
winners, and the violations and warnings (rule, round, trick, player; the sentences are not
compared).
"""

import json
from pathlib import Path

import pytest

from referee.records.check import check_text
from referee.rules import GAMES

RECORDS = Path(__file__).parent / "records"
CASES = sorted(p for p in RECORDS.rglob("*.json") if not p.name.endswith(".expect.json"))


def located(items):
    key = lambda i: (i["round"] or 0, i["trick"] or 0, i["rule"], i["player"] or "")  # noqa: E731
    return sorted(({k: i[k] for k in ("rule", "round", "trick", "player")} for i in items), key=key)


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(RECORDS)) for p in CASES])
def test_record_gets_its_expected_verdict(path):
    expect = json.loads(path.with_name(path.name[: -len(".json")] + ".expect.json").read_text())
    status, output = check_text(path.read_bytes(), as_json=True)
    assert status == expect["exit"], output
    if status == 2:
        return
    doc = json.loads(output)
    assert located(doc["violations"]) == located(expect["violations"])
    assert located(doc["warnings"]) == located(expect.get("warnings", []))
    keys = ("number", "hand_size", "scores", "trick_in_play")
    got_rounds = [{k: r.get(k) for k in keys} for r in doc["rounds"]]
    want_rounds = [{k: r.get(k) for k in keys} for r in expect["rounds"]]
    assert got_rounds == want_rounds
    assert doc["totals"] == expect["totals"]
    assert doc["winners"] == expect["winners"]
    assert doc["complete"] == expect["complete"]


def test_there_is_a_golden_record_for_every_game():
    assert {p.parent.name for p in CASES} >= set(GAMES)
