"""The rules engine is pure: no Flask, SQL, reportlab or I/O, and nothing else of the project."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "referee" / "rules"
ALLOWED_STDLIB = {"__future__", "collections", "copy", "dataclasses", "functools", "typing"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    return names


def test_rules_import_only_small_stdlib_modules_and_themselves():
    for path in RULES.glob("*.py"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert name.startswith("referee.rules") or top in ALLOWED_STDLIB, (path.name, name)


def test_rules_do_no_io():
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, (path.name, node.func.id)


def test_importing_the_rules_loads_no_web_database_or_pdf_library():
    code = (
        "import sys, referee.rules; "
        "bad = {'flask', 'sqlalchemy', 'reportlab', 'werkzeug', 'jinja2', 'json', 'socket'}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=RULES.parents[1],
    )
    assert out.stdout.strip() == "[]"
