"""The pure layers stay pure: the rules engine (no Flask, SQL, reportlab or I/O: nothing but
itself and small standard modules) and the score sheets with each game's printed part (PDF bytes
from the engine's state with reportlab; no web or database). Checked by reading their imports,
and by importing each in a fresh interpreter and looking at what it loaded."""

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REFEREE = Path(__file__).resolve().parents[1] / "referee"


@dataclass(frozen=True)
class Layer:
    package: str
    files: tuple[str, ...]  # its files, as patterns under referee/
    inside: tuple[str, ...]  # the project's modules it may import
    allowed: frozenset[str]  # the other top-level modules it may import
    never_loaded: frozenset[str]  # top-level modules importing it must not load


SMALL_STDLIB = {
    "__future__",
    "collections",
    "copy",
    "dataclasses",
    "functools",
    "typing",
    "unicodedata",
}
WEB_AND_DATABASE = {"flask", "flask_babel", "flask_wtf", "sqlalchemy", "werkzeug", "jinja2"}
LAYERS = [
    Layer(
        "rules",
        ("rules/*.py",),
        ("referee.rules",),
        frozenset(SMALL_STDLIB),
        frozenset(WEB_AND_DATABASE | {"reportlab", "json", "socket"}),
    ),
    Layer(
        "sheets",
        ("sheets/*.py", "parts.py", "games/*/printed.py"),
        ("referee.rules", "referee.sheets", "referee.parts"),
        frozenset(SMALL_STDLIB | {"contextvars", "datetime", "importlib", "io", "re", "xml"})
        | {"reportlab"},
        frozenset(WEB_AND_DATABASE),
    ),
]
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    return names


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.package)
def test_a_layer_imports_only_what_it_may(layer):
    paths = [path for pattern in layer.files for path in REFEREE.glob(pattern)]
    assert paths
    for path in paths:
        for name in imported_modules(path):
            allowed = name.startswith(layer.inside) or name.split(".")[0] in layer.allowed
            allowed = allowed and not name.endswith((".screens", ".record"))  # other layers' parts
            assert allowed, (str(path.relative_to(REFEREE)), name)


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.package)
def test_importing_a_layer_loads_no_library_it_must_not(layer):
    modules = [
        "referee." + str(path.relative_to(REFEREE).with_suffix("")).replace("/", ".")
        for pattern in layer.files
        for path in REFEREE.glob(pattern)
    ]
    code = (
        f"import sys, {', '.join(modules).replace('.__init__', '')}; "
        f"bad = {sorted(layer.never_loaded)!r}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REFEREE.parent
    )
    assert out.stdout.strip() == "[]"


def test_the_rules_do_no_io():
    for path in (REFEREE / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, (path.name, node.func.id)
