"""The command-line referee's report on a record: as JSON data and as a table for people.

``check_text`` is the whole of ``python -m referee check`` minus argument parsing: record text in,
(exit status, output) out. Exit 0: the record keeps the rules (warnings allowed); 1: it breaks at
least one; 2: it cannot be read.

The table for people is said in the language of the translations given (``catalog``: the one
the package's ``translations/`` holds for the usual locale variables, LANGUAGE, LC_ALL,
LC_MESSAGES, LANG; English when it holds none); the JSON document is language-free: its
``message`` is the English sentence, the catalog's source, whatever the locale.

The table for people shows every text from the record through ``shown``: its start only, and
anything that does not print as an escape, so a name can never move a terminal's cursor or
recolour it (the referee refuses such names, but an older record may still hold one).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from referee import TRANSLATIONS
from referee.records.document import Record, RecordError, load_record
from referee.records.parts import NO_TRUMP, record_part
from referee.rules import Breach, State
from referee.rules.marks import N_, Nn_, Plural
from referee.rules.names import printable, quote
from referee.rules.wording import ENGLISH, Translations, names_list, say, trump_name

#: The variables that name the locale, in the order ``gettext`` reads them.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def catalog(folder: str | os.PathLike[str] = TRANSLATIONS) -> Translations:
    """The catalog for the locale the usual variables name (``LANG=de_DE.UTF-8``: ``de``), or
    the English source when ``folder`` holds none for it. A locale that names English first (or
    none, or ``C``) is the source itself: the ``gettext`` module is not even imported."""
    named = next((os.environ[v] for v in LOCALE_VARIABLES if os.environ.get(v)), "C")
    if named.split(":")[0].split(".")[0].split("_")[0] in ("C", "POSIX", "en"):
        return ENGLISH
    import gettext

    return gettext.translation("messages", folder, fallback=True)


def _sort_key(breach: Breach) -> tuple[int, int]:
    return (breach.round or 0, breach.trick or 0)


def report(record: Record, state: State, record_rounds: int) -> dict[str, Any]:
    """The ``--json`` document of docs/record-format.md for a replayed record. A round whose last
    trick is under way (a record of a table in play may stop there) also says which trick it is,
    how many of its cards are played and who plays next (``trick_in_play``)."""
    game = state.game
    own = record_part(state.setup.game)
    rounds: list[dict[str, Any]] = []
    for number in range(1, min(record_rounds, game.round_count) + 1):
        rnd = state.rounds[number - 1] if number <= len(state.rounds) else None
        rnd = rnd if rnd is not None else game.new_round(state, number)
        entry: dict[str, Any] = {
            "number": number,
            "hand_size": rnd.tricks_total,
            "seats": list(rnd.seats),
        }
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
        "players": list(state.players),
        "start_points": dict(state.start_points()),
        "complete": state.complete,
        "ended_after": state.ended,
        "round_count": game.round_count,
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


#: The report's sentences and headings.
WORDS: dict[str, str] = {
    "round": N_("round %(round)s"),
    "trick": N_("trick %(trick)s"),
    "record": N_("record"),
    "Round": N_("Round"),
    "Cards": N_("Cards"),
    "Total": N_("Total"),
    "complete": N_("%(game)s: %(players)s (complete)"),
    "in progress": N_("%(game)s: %(players)s (in progress)"),
    "ended": N_("%(game)s: %(players)s (ended after round %(round)s of %(rounds)s)"),
    "winner": N_("Winner: %(players)s"),
    "winners": N_("Winners (shared): %(players)s"),
    "keeps": N_("The record keeps the rules."),
    "unreadable": N_("This record cannot be read: %(text)s"),
    "clock": N_(
        "Warning: the clock went back at entry %(seq)s of the history; its entries count in "
        "the order they were made."
    ),
    "in play": N_(
        "In play: round %(round)s, trick %(trick)s, %(played)s of %(seats)s cards played."
    ),
    "in play, next": N_(
        "In play: round %(round)s, trick %(trick)s, %(played)s of %(seats)s cards played; "
        "%(player)s plays next."
    ),
}
#: The headings of the breach lists, and the verdict on a record that breaks the rules.
COUNTED: dict[str, Plural] = {
    "violations": Nn_("Violation (%(count)s):", "Violations (%(count)s):", "count"),
    "warnings": Nn_("Warning (%(count)s):", "Warnings (%(count)s):", "count"),
    "breaks": Nn_(
        "The record breaks the rules (%(count)s breach).",
        "The record breaks the rules (%(count)s breaches).",
        "count",
    ),
}


def _where(breach: Breach, t: Translations) -> str:
    parts = []
    if breach.round is not None:
        parts.append(t.gettext(WORDS["round"]) % {"round": breach.round})
    if breach.trick is not None:
        parts.append(t.gettext(WORDS["trick"]) % {"trick": breach.trick})
    if breach.player is not None:
        parts.append(shown(str(breach.player)))
    return ", ".join(parts) or t.gettext(WORDS["record"])


def _in_play(round_number: int, trick: dict[str, Any], seats: int, t: Translations) -> str:
    """The line saying which trick is under way and who plays next."""
    values = {
        "round": round_number,
        "trick": trick["trick"],
        "played": trick["cards_played"],
        "seats": seats,
    }
    nxt = trick["next_player"]
    if nxt:
        return t.gettext(WORDS["in play, next"]) % (values | {"player": shown(nxt)})
    return t.gettext(WORDS["in play"]) % values


def _last_column(text: str, t: Translations) -> str:
    """A trump or a role's colour as the table names it (♥, red), or "no trump"."""
    return t.gettext(NO_TRUMP) if text == NO_TRUMP else trump_name(text, t)


def render_table(
    doc: dict[str, Any], state: State, t: Translations = ENGLISH, clock_back: Sequence[int] = ()
) -> str:
    """The report as a plain-text score table with the breaches listed under it, in the
    language of ``t`` (the breaches from ``state``, in the order ``doc`` lists them), and a line
    for each entry of the history the clock went back at (``clock_back``, their seqs)."""
    own = record_part(doc["game"])
    players = [shown(p) for p in doc["players"]]
    width = max([5, *(len(p) for p in players)])
    who = t.gettext(own.who_heading)
    who_width = max([len(who), *(len(p) for p in players)])
    word_round, word_cards = t.gettext(WORDS["Round"]), t.gettext(WORDS["Cards"])
    head = f"{word_round:>5}  {word_cards:>5}  {who:<{who_width}}  "
    head += "  ".join(f"{p:>{width}}" for p in players) + f"  {t.gettext(own.last_heading)}"
    status = WORDS["complete" if doc["complete"] else "in progress"]
    if doc["ended_after"] is not None:
        status = WORDS["ended"]
    shown_status = t.gettext(status) % {
        "game": doc["game"],
        "players": ", ".join(players),
        "round": doc["ended_after"],
        "rounds": doc["round_count"],
    }
    lines = [shown_status, "", head]
    for rnd in doc["rounds"]:
        scores = rnd["scores"]
        cells = "  ".join(
            f"{(scores[p] if scores and p in scores else '-'):>{width}}" for p in doc["players"]
        )
        person = rnd.get(own.who_field)
        person = shown(person) if person else None
        tail = " ".join(_last_column(shown(text), t) for text in own.table_texts(rnd))
        lines.append(
            f"{rnd['number']:>5}  {rnd['hand_size']:>5}  {person or '?':<{who_width}}  "
            f"{cells}  {tail}"
        )
    totals = "  ".join(f"{doc['totals'].get(p, 0):>{width}}" for p in doc["players"])
    lines.append(f"{t.gettext(WORDS['Total']):>5}  {'':>5}  {'':<{who_width}}  {totals}")
    for rnd in doc["rounds"]:
        if "trick_in_play" in rnd:
            lines.append("\n" + _in_play(rnd["number"], rnd["trick_in_play"], len(players), t))
    if doc["winners"]:
        label = WORDS["winner" if len(doc["winners"]) == 1 else "winners"]
        winners = names_list((shown(w) for w in doc["winners"]), t)
        lines.append("\n" + t.gettext(label) % {"players": winners})
    notes = {
        "violations": sorted(state.violations, key=_sort_key),
        "warnings": sorted(state.warnings, key=_sort_key),
    }
    for kind, items in notes.items():
        if items:
            lines.append("\n" + say(COUNTED[kind], {"count": len(items)}, t))
            lines += [f"  {_where(b, t)}: {printable(b.sentence(t))} [{b.rule}]" for b in items]
    if clock_back:
        lines.append("")
        lines += [t.gettext(WORDS["clock"]) % {"seq": seq} for seq in clock_back]
    broken = len(doc["violations"])
    verdict = say(COUNTED["breaks"], {"count": broken}, t) if broken else t.gettext(WORDS["keeps"])
    lines.append("\n" + verdict)
    return "\n".join(lines) + "\n"


def check_text(
    text: str | bytes, as_json: bool = False, translations: Translations = ENGLISH
) -> tuple[int, str]:
    """Check a record's text: (exit status, what to print on standard output; the table for
    people in the language of ``translations``)."""
    try:
        record = load_record(text)
    except RecordError as exc:
        if as_json:
            return 2, json.dumps({"error": str(exc), "field": exc.field}, ensure_ascii=False)
        reason = printable(str(exc))
        return 2, translations.gettext(WORDS["unreadable"]) % {"text": reason} + "\n"
    state = record.replay()
    rounds = sum(1 for e in record.events if e.type == "begin-round")
    doc = report(record, state, rounds)
    status = 1 if doc["violations"] else 0
    if as_json:
        return status, json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    clock_back: list[int] = []
    if record.log:
        from referee.records.log import clock_went_back  # only a record with a history needs it

        clock_back = clock_went_back(record.log)
    return status, render_table(doc, state, translations, clock_back)
