"""``python -m referee check RECORD.json [--json]``: the command-line referee.

Reads a ``table-referee/1`` record (``-`` for standard input), prints a score table (or JSON with
``--json``) and every breach; exit 0 = keeps the rules, 1 = breaks a rule, 2 = cannot be read.
The table speaks the language the usual locale variables name (``LANG=de_DE.UTF-8``) when
``translations/`` has its catalog; ``--json`` is the same in every language.

The arguments are read here rather than with ``argparse``: one command with one option does not
need it, and importing it is a tenth of what the whole check of a long game costs.
"""

from __future__ import annotations

import os
import sys

from referee.records.check import TRANSLATIONS, catalog, check_text

USAGE = "usage: python -m referee check RECORD.json [--json]"

HELP = f"""{USAGE}

Check and score a table-referee/1 game record.

  RECORD.json  the record file, or - for standard input
  --json       print the report as JSON
"""


def main(argv: list[str] | None = None, translations: str | os.PathLike[str] = TRANSLATIONS) -> int:
    """Run the command line ``argv``, said in the locale's language from the catalogs in
    ``translations``; the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if not set(args).isdisjoint({"-h", "--help"}):
        print(HELP, end="")
        return 0
    as_json = "--json" in args
    rest = [arg for arg in args if arg != "--json"]
    if len(rest) != 2 or rest[0] != "check" or (rest[1].startswith("-") and rest[1] != "-"):
        print(f"{USAGE}\npython -m referee: give the command check and one record", file=sys.stderr)
        return 2
    record = rest[1]
    try:
        if record == "-":
            text: bytes = sys.stdin.buffer.read()
        else:
            with open(record, "rb") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"Cannot read {record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    status, output = check_text(text, as_json=as_json, translations=catalog(translations))
    stream = sys.stdout if status != 2 or as_json else sys.stderr
    stream.write(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
