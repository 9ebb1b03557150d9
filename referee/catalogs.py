"""The translation catalogs in ``referee/translations/``: the commands that keep them in step
with the code, and the check CI runs (docs/translating.md says how a translator uses them).

    python -m referee.catalogs update       # extract every marked string, merge it into each .po
    python -m referee.catalogs init LANG    # a new language: referee/translations/LANG/…/
    python -m referee.catalogs compile      # each .po to the .mo the app reads (both committed)
    python -m referee.catalogs check        # exit 1 if a catalog lacks, leaves open or is stale

``babel.cfg`` says which files hold strings; the keywords are Babel's own (``_``, ``gettext``,
``ngettext``, ``N_``, …) and Flask-Babel's ``lazy_gettext``/``lazy_ngettext``.
"""

from __future__ import annotations

import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from referee import TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]
#: The catalogs the web app and the ``referee`` command read (package data).
FOLDER = Path(TRANSLATIONS)
KEYWORDS = [
    "-k",
    "lazy_gettext",
    "-k",
    "lazy_ngettext:1,2",
    "-k",
    "Nn_:1,2",
    "--add-comments",
    "TRANSLATORS:",
]


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command in this process (from the project's root)."""
    CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]


def extract(to: Path) -> Catalog:
    """Every string the code marks for translation, written to ``to`` (a .pot) and returned."""
    pybabel(
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        *KEYWORDS,
        "--no-location",
        "-o",
        str(to),
        str(ROOT),
    )
    with open(to, "rb") as pot:
        return read_po(pot)


def po_files() -> list[Path]:
    """Each language's catalog, ``referee/translations/<code>/LC_MESSAGES/messages.po``."""
    return sorted(FOLDER.glob("*/LC_MESSAGES/messages.po"))


def read(po: Path) -> Catalog:
    with open(po, "rb") as source:
        return read_po(source)


def compiled(catalog: Catalog) -> bytes:
    """The .mo of ``catalog``, as ``compile`` writes it."""
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@dataclass(frozen=True)
class Problems:
    """What is wrong with one language's catalog; empty lists when nothing is."""

    po: Path
    missing: list[str]  # strings the code marks that the catalog lacks
    untranslated: list[str]
    fuzzy: list[str]
    stale_mo: bool  # the committed .mo is not the .po compiled

    def __bool__(self) -> bool:
        return bool(self.missing or self.untranslated or self.fuzzy or self.stale_mo)


def problems(template: Catalog, po: Path) -> Problems:
    """Check one catalog against the extracted ``template``."""
    catalog = read(po)
    mo = po.with_suffix(".mo")
    entries = [message for message in catalog if message.id]
    return Problems(
        po=po,
        missing=[str(m.id) for m in template if m.id and m.id not in catalog],
        untranslated=[
            str(m.id)
            for m in entries
            if not (all(m.string) if isinstance(m.string, tuple) else m.string)
        ],
        fuzzy=[str(m.id) for m in entries if m.fuzzy],
        stale_mo=not mo.exists() or mo.read_bytes() != compiled(catalog),
    )


def check() -> list[Problems]:
    """Every catalog with something wrong (see ``Problems``); an empty list when all are right."""
    with tempfile.TemporaryDirectory() as folder:
        template = extract(Path(folder, "messages.pot"))
    return [found for po in po_files() if (found := problems(template, po))]


def merge(*args: str) -> None:
    """Extract the strings into a template of the moment and run ``pybabel`` (``update`` or
    ``init``) with it."""
    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder, "messages.pot")
        extract(template)
        pybabel(*args[:1], "-i", str(template), "-d", str(FOLDER), *args[1:])


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        merge("update", "--ignore-obsolete")
    elif command == "init" and len(argv) == 2:
        merge("init", "-l", argv[1])
    elif command == "compile":
        for po in po_files():
            po.with_suffix(".mo").write_bytes(compiled(read(po)))
    elif command == "check":
        found = check()
        for wrong in found:
            print(f"{wrong.po.relative_to(ROOT)}:")
            for what in ("missing", "untranslated", "fuzzy"):
                for msgid in getattr(wrong, what):
                    print(f"  {what}: {msgid!r}")
            if wrong.stale_mo:
                print("  the .mo is not the .po compiled: python -m referee.catalogs compile")
        return 1 if found else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
