"""The sheets package is pure: PDF bytes from the rules engine's state, no web or database."""

import ast
import subprocess
import sys
from pathlib import Path

SHEETS = Path(__file__).resolve().parents[2] / "referee" / "sheets"
ALLOWED = {
    "__future__",
    "collections",
    "contextvars",
    "copy",
    "dataclasses",
    "datetime",
    "functools",
    "importlib",
    "io",
    "re",
    "typing",
    "xml",
    "reportlab",
}


def test_sheets_import_only_the_rules_themselves_reportlab_and_small_stdlib_modules():
    for path in SHEETS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                inside = name.startswith(("referee.rules", "referee.sheets"))
                assert inside or name.split(".")[0] in ALLOWED, (path.name, name)


def test_importing_the_sheets_loads_no_web_or_database_library():
    code = (
        "import sys, referee.sheets; "
        "bad = {'flask', 'flask_babel', 'flask_wtf', 'sqlalchemy', 'werkzeug', 'jinja2'}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=SHEETS.parents[1],
    )
    assert out.stdout.strip() == "[]"
