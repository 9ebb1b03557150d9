"""Benchmark: reading photographed readable scorecards back (``referee.paper``).

A corpus made from the app's own printed card (``tests/paper/photos.py``): the PDF rendered by
pdftoppm at 150 dpi, every box filled with a held-out handwritten digit (scikit-learn's digits
the classifier is not trained on, mostly from other writers) or a pen tick, then photographed:
up to 30° of tilt, any turn (some upside down), blur, uneven light, a shadow on some, JPEG
quality 60–90, 1,800–2,400 pixels on the long side. Half the cards are 4-player Blackout (25
rounds), half 4-player Alles oder Nichts (7 rounds), every round filled in.

Per cell it reports: read right by the box alone (the classifier's or tick's likeliest
reading, no rules); read right with the rules' help and no question; the share of cells asked
about; read right after the questions are answered (a wrong reading not asked about stays
wrong); the cards whose own proposed reading the engine refused (every box of the round is
then asked); and the cards the engine refuses once the questions are answered truthfully (a
wrong box not asked about: the app's "Enter the card" refuses it with the rule's sentence and
asks that round's boxes again, storing nothing). Cards whose markers or QR code are not found are
counted apart. Seconds per card are the reader's alone (not the corpus's making), on one core.

``--totals``: every player's running total is written in its free box too (as the rules give
it), and on every tenth card one player slips by 10 from some round on and carries the slip.
Then it also reports how many written totals are read (the right total among the readings),
and the disputes shown on the confirmation page once the questions are answered truthfully:
slips, totals written right against a box left wrong (the dispute is right: the card as read
is not the card as written), and totals read wrong.

    python bench/paper.py [--cards N] [--seed S] [--totals]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as the budget says
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cv2  # noqa: E402

from referee.paper.layout import card_layout  # noqa: E402
from referee.paper.photo import PhotoError  # noqa: E402
from referee.paper.reader import disputes, entries, read  # noqa: E402
from referee.rules import Breach, Setup  # noqa: E402
from tests.paper.photos import (  # noqa: E402
    card_photo,
    fill,
    photograph,
    play,
    random_shot,
    totals_of,
)

cv2.setNumThreads(1)
NAMES = ("Ann", "Ben", "Cho", "Dee")
SETUPS = [Setup("blackout", NAMES, {}, "Ann"), Setup("alles-oder-nichts", NAMES, {}, "Ann")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument(
        "--keep", type=Path, help="a folder to keep the photos not read and the hardest cards in"
    )
    parser.add_argument("--totals", action="store_true", help="write the running totals too")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    hardest: list[tuple[int, int, bytes, str]] = []
    kinds: dict[str, list[int]] = {}  # per kind of box: boxes, right alone, right with rules
    rng = random.Random(args.seed)
    cells = alone = ruled = asked = after = 0
    broken = unread = proposed = 0
    written = totals_read = slips = slips_shown = boxes_shown = false_disputes = 0
    seconds: list[float] = []
    for number in range(args.cards):
        setup = SETUPS[number % len(SETUPS)]
        slipped: tuple[int, int] | None = None
        if args.totals:
            layout = card_layout(setup.game, len(setup.players), setup.options)
            values = play(rng, setup)
            rules_totals = totals_of(setup, values, len(layout.rounds))
            on_card = dict(rules_totals)
            if number % 10 == 9:
                slipped = (rng.randrange(1, len(layout.rounds) + 1), rng.randrange(1, 5))
                for n, seat in on_card:
                    if seat == slipped[1] and n >= slipped[0]:
                        on_card[n, seat] += 10
                slips += 1
            shot = random_shot(rng)
            data = photograph(rng, fill(rng, layout, values, totals=on_card), shot)
        else:
            data, values = card_photo(rng, setup, random_shot(rng))
        started = time.process_time()
        try:
            reading = read(data, setup)
        except PhotoError as error:
            unread += 1
            print(f"card {number}: not read ({error.reason}: {error})", file=sys.stderr)
            if args.keep:
                (args.keep / f"unread-{number}.jpg").write_bytes(data)
            continue
        seconds.append(time.process_time() - started)
        proposed += bool(reading.refused)  # the reader's own card refused: all asked
        answered = {}
        for cell in reading.cells:
            truth = values[cell.key]
            cells += 1
            alone += cell.alone == truth
            ruled += cell.value == truth
            asked += cell.doubtful
            answered[cell.key] = truth if cell.doubtful else cell.value
            after += cell.doubtful or cell.value == truth
            kind = kinds.setdefault(cell.field, [0, 0, 0])
            kind[0] += 1
            kind[1] += cell.alone == truth
            kind[2] += cell.value == truth
        try:
            entries(setup, answered, reading.rounds)
        except (Breach, KeyError):
            broken += 1
        if args.totals:
            written += len(on_card)
            totals_read += sum(on_card[p] in reading.totals.get(p, ()) for p in on_card)
            for dispute in disputes(setup, answered, reading.rounds, reading.totals):
                if dispute.written != on_card[dispute.round, dispute.seat]:
                    false_disputes += 1  # the total was read wrong
                elif slipped is not None and dispute.seat == slipped[1]:
                    slips_shown += 1
                else:
                    boxes_shown += 1  # the total is right: a box left wrong makes the rules' so
        wrong = [c for c in reading.cells if c.alone != values[c.key]]
        said = "; ".join(
            f"{c.key}: wrote {values[c.key]}, box alone {c.alone}, chosen {c.value}"
            f"{' (asked)' if c.doubtful else ''}"
            for c in wrong
        )
        hardest = sorted([*hardest, (len(wrong), number, data, said)], reverse=True)[:3]
    read_cards = args.cards - unread
    print(f"cards: {args.cards} ({read_cards} read; markers or QR code not found: {unread})")
    print(f"cells: {cells}")
    print(f"right by the box alone (no rules):     {alone / cells:.2%}")
    print(f"right with the rules, no question:     {ruled / cells:.2%}")
    print(f"cells asked about:                     {asked / cells:.2%}")
    print(f"right after the questions:             {after / cells:.2%}")
    print(f"wrong readings accepted unasked:       {cells - after} cells")
    print(f"cards whose proposed reading the rules engine refused (rounds asked): {proposed}")
    print(
        "cards the rules refuse once the questions are answered (a box not asked about was "
        f"wrong; the app asks that round again, nothing stored): {broken}"
    )
    print(
        f"seconds per card (reader, one core): median {statistics.median(seconds):.2f}, "
        f"max {max(seconds):.2f}"
    )
    if args.totals:
        print(
            f"running totals written: {written}, read (right among the readings): "
            f"{totals_read / written:.2%}"
        )
        print(
            f"slips carried on: {slips}, shown as a dispute: {slips_shown}; disputes shown of "
            f"a total written right, the rules' wrong from a box left wrong: {boxes_shown}; of "
            f"a total read wrong: {false_disputes}"
        )
    for name, (boxes, right, ruled_right) in sorted(kinds.items()):
        print(
            f"  {name}: {boxes} boxes, right alone {right / boxes:.2%}, "
            f"with the rules {ruled_right / boxes:.2%}"
        )
    for count, number, data, said in hardest:
        print(f"hard card {number}: {count} boxes misread alone: {said}")
        if args.keep:
            (args.keep / f"hard-{number}.jpg").write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
