"""``python -m referee check RECORD.json [--json]``: the command-line referee.

Reads a ``table-referee/1`` record (``-`` for standard input), prints a score table (or JSON with
``--json``) and every breach; exit 0 = keeps the rules, 1 = breaks a rule, 2 = cannot be read.
The table speaks the language the usual locale variables name (``LANG=de_DE.UTF-8``) when
``translations/`` has its catalog; ``--json`` is the same in every language.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.check import TRANSLATIONS, catalog, check_text


def main(argv: list[str] | None = None, translations: Path = TRANSLATIONS) -> int:
    """Run the command line ``argv``, said in the locale's language from the catalogs in
    ``translations``; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m referee", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check and score a game record")
    check.add_argument("record", help="the record file, or - for standard input")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            text: bytes = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"Cannot read {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    status, output = check_text(text, as_json=args.json, translations=catalog(translations))
    stream = sys.stdout if status != 2 or args.json else sys.stderr
    stream.write(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
