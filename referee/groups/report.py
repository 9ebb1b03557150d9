"""``python -m referee stats`` minus its arguments: a group file in, (exit status, output) out.

Exit 0: the file is read and every counted table keeps the rules; 1: some counted table breaks a
rule (its numbers still count, as the table kept them); 2: the file cannot be read, or the
season asked for is none of the file's (docs/group-format.md). ``--json`` prints the document of
``referee.groups.stats.statistics``; without it, a table for people per game, said in the
language of the translations given, as ``check``'s table is (``referee.records.check``): the
players in the standings' order (``ranked``: by the rating as shown, ``referee.groups.rating``),
each rating shown as the web's pages show it, "26.6 ± 8.0".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from referee.groups.document import LARGEST_LOADED, GroupError, GroupFile, read_group_head
from referee.groups.facts import stats_part
from referee.groups.figures import PlayerFigures, Rating, Statistics
from referee.groups.rating import SHOWN_DECIMALS, shown_rating, standing_key
from referee.groups.stats import FEWEST_SHARED, counted_tables, statistics
from referee.records.check import shown
from referee.rules import GAMES
from referee.rules.marks import N_, Nn_, Plural
from referee.rules.names import printable
from referee.rules.wording import ENGLISH, Translations

__all__ = ["COUNTED", "WORDS", "ranked", "rating_words", "render_stats", "stats_text"]

#: The table's sentences and headings.
WORDS: dict[str, str] = {
    "unreadable": N_("This group file cannot be read: %(text)s"),
    "too large": N_(
        "This group file is larger than %(most)s MiB, the most a server loads: its statistics "
        "would take too long and too much memory."
    ),
    "no season": N_("This group file has no season %(season)s."),
    "its seasons": N_("Its seasons: %(seasons)s."),
    "every table": N_("%(group)s: every counted table"),
    "season": N_("%(group)s: season %(season)s"),
    "nothing counts": N_("No table counts."),
    "Player": N_("Player"),
    "Tables": N_("Tables"),
    "Complete": N_("Complete"),
    "Wins": N_("Wins"),
    "Win rate": N_("Win rate"),
    "Avg place": N_("Avg place"),
    "Best": N_("Best"),
    "Streak": N_("Streak"),
    "Now": N_("Now"),
    "Rating": N_("Rating"),
    "Rounds": N_("Rounds"),
    "Points": N_("Points"),
    # TRANSLATORS: a share shown as a percentage, such as 33%.
    "percent": N_("%(percent)s%%"),
    # TRANSLATORS: a number with its decimals, such as 1.25 (a decimal comma where one is usual).
    "decimal": N_("%(whole)s.%(decimals)s"),
    "json": N_("Head-to-head and each rating's history over time: python -m referee stats --json."),
}
#: The sentences with a count.
COUNTED: dict[str, Plural] = {
    "tables": Nn_("%(game)s: %(count)s table", "%(game)s: %(count)s tables", "count"),
    "breaking": Nn_(
        "Table %(tables)s breaks the rules; its numbers count as the table kept them "
        "(python -m referee check shows where).",
        "Tables %(tables)s break the rules; their numbers count as the tables kept them "
        "(python -m referee check shows where).",
        "count",
    ),
    "replaying": Nn_(
        "Reading and replaying %(count)s table: about %(seconds)s s.",
        "Reading and replaying %(count)s tables: about %(seconds)s s.",
        "count",
    ),
}


def stats_text(
    text: bytes | str,
    season: str | None = None,
    as_json: bool = False,
    translations: Translations = ENGLISH,
    processes: int = 1,
    say: Callable[[str], None] | None = None,
) -> tuple[int, str]:
    """The statistics of a group file's text (for ``season``, by name, or every table):
    (exit status, what to print: on standard output, or, for exit 2 without ``as_json``, on
    standard error). Its tables are read and replayed in up to ``processes`` processes
    (``counted_tables``). A season the file has not is said before its tables are read; a file
    larger than a server loads (``LARGEST_LOADED``) is refused unread; and when the replays
    will take a while, ``say`` is told how long first."""
    if len(text) > LARGEST_LOADED:
        said = translations.gettext(WORDS["too large"]) % {"most": LARGEST_LOADED // MIB}
        if as_json:
            return 2, json.dumps({"error": said, "field": ""}, ensure_ascii=False)
        return 2, said + "\n"
    try:
        group, raw_tables = read_group_head(text)
        chosen = None if season is None else group.season(season)
        if season is not None and chosen is None:
            return 2, _no_season(group, season, as_json, translations)
        seconds = expected_seconds(len(text), len(raw_tables), processes)
        if say is not None and seconds >= SAY_FROM:
            params = {"count": len(raw_tables), "seconds": seconds}
            say(_counted("replaying", params, translations))
        tables = counted_tables(group, raw_tables, chosen, processes)
    except GroupError as exc:
        if as_json:
            return 2, json.dumps({"error": str(exc), "field": exc.field}, ensure_ascii=False)
        return 2, translations.gettext(WORDS["unreadable"]) % {"text": printable(str(exc))} + "\n"
    doc = statistics(group.name, group.players, None if chosen is None else chosen.name, tables)
    status = 1 if doc.breaking else 0
    if as_json:
        return status, json.dumps(doc.document(), ensure_ascii=False, indent=2) + "\n"
    return status, render_stats(doc, translations)


#: What a process reads and replays of a group file in a second, about (measured with card-by-card
#: games, the slowest kind: 0.5 to 0.6 MB a second on the shared machines CI runs on).
BYTES_PER_SECOND = 500_000
#: From how many seconds expected the command says how long it will take.
SAY_FROM = 5
MIB = 1024 * 1024


def expected_seconds(size: int, tables: int, processes: int) -> int:
    """About how long reading and replaying a file of ``size`` bytes takes, in whole seconds."""
    working = processes if processes > 1 and tables >= FEWEST_SHARED else 1
    return -(-size // (BYTES_PER_SECOND * working))


def _no_season(group: GroupFile, season: str, as_json: bool, t: Translations) -> str:
    said = t.gettext(WORDS["no season"]) % {"season": shown(season)}
    if as_json:
        return json.dumps({"error": said, "field": "--season"}, ensure_ascii=False)
    if group.seasons:
        seasons = ", ".join(shown(s.name) for s in group.seasons)
        said += " " + t.gettext(WORDS["its seasons"]) % {"seasons": seasons}
    return said + "\n"


def _counted(kind: str, params: Mapping[str, object], t: Translations) -> str:
    """The sentence ``COUNTED[kind]`` with ``params``, its form chosen by their ``count``."""
    singular, plural, counted = COUNTED[kind]
    count = params[counted]
    assert isinstance(count, int)
    return t.ngettext(singular, plural, count) % params


def _number(value: float | None, places: int, t: Translations) -> str:
    """A number with ``places`` decimals in the language of ``t``; "-" for none."""
    if value is None:
        return "-"
    whole, _, decimals = f"{value:.{places}f}".partition(".")
    return t.gettext(WORDS["decimal"]) % {"whole": whole, "decimals": decimals}


def _columns(heads: Sequence[str], rows: Sequence[Sequence[str]], t: Translations) -> list[str]:
    """Lines of a table: the first column (the names) to the left, the others to the right."""
    cells = [[t.gettext(WORDS["Player"]), *(t.gettext(h) for h in heads)], *rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return [
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip()
        for row in cells
    ]


def ranked(players: Mapping[str, PlayerFigures]) -> list[tuple[str, PlayerFigures]]:
    """The players' figures (a game's ``players``: id → figures) in the standings' order: by
    ``referee.groups.rating.standing_key`` (the rating as shown, the highest first; then the
    smaller ±, then the more finished games; those without a rating last), players equal in it
    in the order given (the roster's). The order of the table for people, the web's standings,
    the spreadsheet and the season report."""

    def order(item: tuple[int, tuple[str, PlayerFigures]]) -> tuple[object, ...]:
        index, (_id, player) = item
        return (*standing_key(player), index)

    return [item for _, item in sorted(enumerate(players.items()), key=order)]


def rating_words(rating: Rating | None, t: Translations = ENGLISH) -> str:
    """A rating as every page shows it, "26.6 ± 8.0" (the decimal sign of ``t``); "-" for
    none."""
    pair = shown_rating(rating)
    if pair is None:
        return "-"
    value, sigma = pair
    return f"{_number(value, SHOWN_DECIMALS, t)} ± {_number(sigma, SHOWN_DECIMALS, t)}"


#: The headings of the table of results, then of the table of rounds (with the game's own).
RESULTS = ("Tables", "Complete", "Wins", "Win rate", "Avg place", "Best", "Streak", "Now", "Rating")
ROUNDS = ("Rounds", "Points")


def _results(p: PlayerFigures, t: Translations) -> list[str]:
    """A player's row of the table of results."""
    rate, best = p.win_rate, p.best_game
    return [
        shown(p.name),
        str(p.tables),
        str(p.complete),
        str(p.wins),
        "-" if rate is None else t.gettext(WORDS["percent"]) % {"percent": round(rate * 100)},
        _number(p.average_place, 2, t),
        "-" if best is None else str(best.total),
        str(p.streaks.longest),
        str(p.streaks.current),
        rating_words(p.rating, t),
    ]


def render_stats(doc: Statistics, t: Translations = ENGLISH) -> str:
    """The statistics as plain-text tables per game, in the language of ``t``."""
    group = shown(doc.group)
    if doc.season is None:
        lines = [t.gettext(WORDS["every table"]) % {"group": group}]
    else:
        lines = [t.gettext(WORDS["season"]) % {"group": group, "season": shown(doc.season)}]
    if not doc.games:
        lines += ["", t.gettext(WORDS["nothing counts"])]
    for game, figures in doc.games.items():
        own = stats_part(game)
        title = GAMES[game].title
        lines += ["", _counted("tables", {"game": title, "count": figures.tables}, t)]
        players = [player for _id, player in ranked(figures.players)]
        rows = [_results(p, t) for p in players]
        lines += ["", *_columns([WORDS[h] for h in RESULTS], rows, t)]
        heads = [*(WORDS[h] for h in ROUNDS), *(own.headings[k] for k in own.keys)]
        rows = [
            [shown(p.name), str(p.rounds), str(p.points), *(str(p.counts[k]) for k in own.keys)]
            for p in players
        ]
        lines += ["", *_columns(heads, rows, t)]
    if doc.games:
        lines += ["", t.gettext(WORDS["json"])]
    breaking = doc.breaking
    if breaking:
        tables = ", ".join(str(key) for key in breaking)
        lines += ["", _counted("breaking", {"count": len(breaking), "tables": tables}, t)]
    return "\n".join(lines) + "\n"
