"""``python -m referee``: the command-line referee.

``check RECORD.json [--json]`` reads a ``table-referee/1`` record (``-`` for standard input),
prints a score table (or JSON with ``--json``) and every breach; exit 0 = keeps the rules, 1 =
breaks a rule, 2 = cannot be read. ``stats GROUP.json [--season NAME] [--json]`` reads a
``table-referee-group/1`` file and prints its statistics per game (docs/group-format.md); exit 0
= every counted table keeps the rules, 1 = one breaks a rule, 2 = the file cannot be read or has
no such season. The tables speak the language the usual locale variables name
(``LANG=de_DE.UTF-8``) when the package's ``translations/`` has its catalog; ``--json`` is the
same in every language.

The arguments are read here rather than with ``argparse``: two commands with two options do not
need it, and importing it is a tenth of what the whole check of a long game costs. ``check``
loads no group code (``referee.groups`` and its rating library are imported for ``stats``).
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

from referee import TRANSLATIONS
from referee.records.check import catalog, check_text

USAGE = """usage: python -m referee check RECORD.json [--json]
       python -m referee stats GROUP.json [--season NAME] [--json]"""

HELP = f"""{USAGE}

check: check and score a table-referee/1 game record.
stats: the statistics of a table-referee-group/1 group file, per game and player.

  RECORD.json    the record file, or - for standard input
  GROUP.json     the group file, or - for standard input
  --season NAME  stats: only the tables of that season of the group
  --json         print the report as JSON

stats reads a group file of at most 16 MiB, the most a server loads.
"""

#: The most ``stats`` reads of its file: the largest a server loads, and one byte more to tell
#: that a file is beyond it (``referee.groups.report.stats_text`` refuses it).
MOST_READ = 16 * 1024 * 1024 + 1


def command_line(args: list[str]) -> tuple[str, str, str | None, bool] | None:
    """The command, its file, the season (``stats`` only) and whether to print JSON; None when
    ``args`` are not a command line of ``USAGE``."""
    words: list[str] = []
    season: str | None = None
    as_json = False
    rest = iter(args)
    for arg in rest:
        if arg == "--json":
            as_json = True
        elif arg == "--season":
            if season is not None:
                return None
            season = next(rest, None)
            if season is None:
                return None
        else:
            words.append(arg)
    if len(words) != 2 or words[0] not in ("check", "stats"):
        return None
    if (words[1].startswith("-") and words[1] != "-") or (
        season is not None and words[0] != "stats"
    ):
        return None
    return words[0], words[1], season, as_json


def main(
    argv: list[str] | None = None,
    translations: str | os.PathLike[str] = TRANSLATIONS,
    processes: int = 1,
) -> int:
    """Run the command line ``argv``, said in the locale's language from the catalogs in
    ``translations``; the exit status. ``stats`` replays a large group's tables in up to
    ``processes`` processes (``referee.groups.stats.counted_tables``)."""
    args = sys.argv[1:] if argv is None else argv
    if not set(args).isdisjoint({"-h", "--help"}):
        print(HELP, end="")
        return 0
    found = command_line(args)
    if found is None:
        print(
            f"{USAGE}\npython -m referee: give a command (check or stats) and one file",
            file=sys.stderr,
        )
        return 2
    command, path, season, as_json = found
    most = MOST_READ if command == "stats" else -1  # -1: all of it
    try:
        if path == "-":
            text: bytes = sys.stdin.buffer.read(most)
        else:
            with open(path, "rb") as handle:
                text = handle.read(most)
    except OSError as exc:
        print(f"Cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if command == "check":
        status, output = check_text(text, as_json=as_json, translations=catalog(translations))
    else:
        from referee.groups.report import stats_text  # only stats needs the groups

        words = catalog(translations)
        status, output = stats_text(text, season, as_json, words, processes, say=said)
    stream = sys.stdout if status != 2 or as_json else sys.stderr
    stream.write(output)
    return status


def said(text: str) -> None:
    """A word on standard error while the command works (how long it will take)."""
    print(text, file=sys.stderr, flush=True)


def run() -> NoReturn:
    """The command itself, ``python -m referee`` and the installed ``referee``: ``main`` of the
    arguments, then the process ends with its status.

    One run reads one file, answers and ends; what it builds is freed by reference counting (a
    group's replayed tables one by one) or lives until the answer. The cycle collector would only
    walk those objects again and again (a tenth of a stats run), so it is off. ``stats`` uses
    every core the process may run on (``main`` called as a function forks nothing: its caller
    may have threads). Once the answer is written the process ends without freeing a group's
    objects one by one (a twentieth of a stats run): the system frees them at once."""
    gc.disable()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        status = main(processes=usable or 1)
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader stopped (``stats … | head``): end as a shell's pipe would
        status = 128 + 13  # SIGPIPE
    os._exit(status)


if __name__ == "__main__":
    run()
