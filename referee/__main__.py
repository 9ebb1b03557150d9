"""``python -m referee check RECORD.json [--json]``: the command-line referee.

Reads a ``table-referee/1`` record (``-`` for standard input), prints a score table (or JSON with
``--json``) and every breach; exit 0 = keeps the rules, 1 = breaks a rule, 2 = cannot be read.
"""

from __future__ import annotations

import argparse
import sys

from referee.check import check_text


def main(argv: list[str] | None = None) -> int:
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
    status, output = check_text(text, as_json=args.json)
    stream = sys.stdout if status != 2 or args.json else sys.stderr
    stream.write(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
