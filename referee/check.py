"""The command-line referee's report on a record: as JSON data and as a table for people.

``check_text`` is the whole of ``python -m referee check`` minus argument parsing: record text in,
(exit status, output) out. Exit 0: the record keeps the rules (warnings allowed); 1: it breaks at
least one; 2: it cannot be read.

The table for people shows every text from the record through ``shown``: its start only, and
anything that does not print as an escape, so a name can never move a terminal's cursor or
recolour it (the referee refuses such names, but an older record may still hold one).
"""

from __future__ import annotations

import json
from typing import Any

from referee.record_parts import record_part
from referee.records import Record, RecordError, load_record
from referee.rules import Breach, State
from referee.rules.names import printable, quote


def _sort_key(breach: Breach) -> tuple[int, int]:
    return (breach.round or 0, breach.trick or 0)


def report(record: Record, state: State, record_rounds: int) -> dict[str, Any]:
    """The ``--json`` document of record-format.md for a replayed record. A round whose last
    trick is under way (a record of a table in play may stop there) also says which trick it is,
    how many of its cards are played and who plays next (``trick_in_play``)."""
    game = state.game
    own = record_part(state.setup.game)
    rounds: list[dict[str, Any]] = []
    for number in range(1, min(record_rounds, game.round_count) + 1):
        rnd = state.rounds[number - 1] if number <= len(state.rounds) else None
        rnd = rnd if rnd is not None else game.new_round(state, number)
        entry: dict[str, Any] = {"number": number, "hand_size": rnd.tricks_total}
        entry.update(own.report_round(state, rnd))
        scores = game.score_round(state, rnd)
        entry["scores"] = None if scores is None else {p: s.points for p, s in scores.items()}
        if rnd.plays and not rnd.plays[-1].full:
            entry["trick_in_play"] = {
                "trick": len(rnd.plays),
                "cards_played": len(rnd.plays[-1].cards),
                "next_player": game.next_to_play(rnd),
            }
        rounds.append(entry)
    return {
        "game": state.setup.game,
        "players": list(state.setup.players),
        "complete": state.complete,
        "rounds": rounds,
        "totals": state.totals(),
        "winners": state.winners(),
        "violations": [b.to_dict() for b in sorted(state.violations, key=_sort_key)],
        "warnings": [b.to_dict() for b in sorted(state.warnings, key=_sort_key)],
    }


def shown(text: str) -> str:
    """A text from the record as the terminal shows it: its start, with escapes for what does
    not print."""
    return printable(quote(text))


def _where(item: dict[str, Any]) -> str:
    parts = []
    if item["round"] is not None:
        parts.append(f"round {item['round']}")
    if item["trick"] is not None:
        parts.append(f"trick {item['trick']}")
    if item["player"] is not None:
        parts.append(shown(str(item["player"])))
    return ", ".join(parts) or "record"


def _in_play(round_number: int, trick: dict[str, Any], seats: int) -> str:
    """The line saying which trick is under way and who plays next."""
    line = (
        f"In play: round {round_number}, trick {trick['trick']}, "
        f"{trick['cards_played']} of {seats} cards played"
    )
    nxt = trick["next_player"]
    return line + (f"; {shown(nxt)} plays next." if nxt else ".")


def render_table(doc: dict[str, Any]) -> str:
    """The report as a plain-text score table with the breaches listed under it."""
    own = record_part(doc["game"])
    players = [shown(p) for p in doc["players"]]
    width = max([5, *(len(p) for p in players)])
    who = own.who_heading
    who_width = max([len(who), *(len(p) for p in players)])
    head = f"{'Round':>5}  {'Cards':>5}  {who:<{who_width}}  "
    head += "  ".join(f"{p:>{width}}" for p in players) + f"  {own.last_heading}"
    lines = [
        f"{doc['game']}: {', '.join(players)} ({'complete' if doc['complete'] else 'in progress'})",
        "",
        head,
    ]
    for rnd in doc["rounds"]:
        scores = rnd["scores"]
        cells = "  ".join(
            f"{(scores[p] if scores and p in scores else '-'):>{width}}" for p in doc["players"]
        )
        person = rnd.get(own.who_field)
        person = shown(person) if person else None
        tail = " ".join(shown(text) for text in own.table_texts(rnd))
        lines.append(
            f"{rnd['number']:>5}  {rnd['hand_size']:>5}  {person or '?':<{who_width}}  "
            f"{cells}  {tail}"
        )
    totals = "  ".join(f"{doc['totals'].get(p, 0):>{width}}" for p in doc["players"])
    lines.append(f"{'Total':>5}  {'':>5}  {'':<{who_width}}  {totals}")
    for rnd in doc["rounds"]:
        if "trick_in_play" in rnd:
            lines.append("\n" + _in_play(rnd["number"], rnd["trick_in_play"], len(players)))
    if doc["winners"]:
        label = "Winner" if len(doc["winners"]) == 1 else "Winners (shared)"
        lines.append(f"\n{label}: {', '.join(shown(w) for w in doc['winners'])}")
    for kind in ("violations", "warnings"):
        items = doc[kind]
        if items:
            lines.append(f"\n{kind.capitalize()} ({len(items)}):")
            lines += [f"  {_where(i)}: {printable(i['message'])} [{i['rule']}]" for i in items]
    verdict = (
        "The record keeps the rules."
        if not doc["violations"]
        else f"The record breaks the rules ({len(doc['violations'])} breach(es))."
    )
    lines.append("\n" + verdict)
    return "\n".join(lines) + "\n"


def check_text(text: str | bytes, as_json: bool = False) -> tuple[int, str]:
    """Check a record's text: (exit status, what to print on standard output)."""
    try:
        record = load_record(text)
    except RecordError as exc:
        if as_json:
            return 2, json.dumps({"error": str(exc), "field": exc.field}, ensure_ascii=False)
        return 2, f"This record cannot be read: {printable(str(exc))}\n"
    state = record.replay()
    rounds = sum(1 for e in record.events if e.type == "begin-round")
    doc = report(record, state, rounds)
    status = 1 if doc["violations"] else 0
    if as_json:
        return status, json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    return status, render_table(doc)
