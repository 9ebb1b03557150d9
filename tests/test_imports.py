"""The web layer's imports: no circle among its modules (a type-only import counts too: a reader
follows it as any other), nothing below ``create_app`` imports the speed layer, and with the
speed layer off it is not even loaded. Read from the code's own import statements."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEED = "referee.web.speed"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted((ROOT / "referee").rglob("*.py"))}


def imported(name: str) -> set[str]:
    """The project's modules that module ``name`` imports, anywhere in it."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1]])
                base = f"{base}.{node.module}" if node.module else base
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {other for other in found if other in MODULES and other != name}


def circles(names: list[str]) -> list[list[str]]:
    """The import circles among ``names`` (strongly connected parts of more than one module)."""
    edges = {name: imported(name) & set(names) for name in names}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in edges[name]:
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == name:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for name in names:
        if name not in index:
            visit(name)
    return found


@pytest.mark.parametrize("package", ["referee.web"])
def test_no_import_circle(package: str) -> None:
    names = [name for name in MODULES if name == package or name.startswith(package + ".")]
    assert circles(names) == []


def test_nothing_outside_the_speed_layer_imports_it() -> None:
    importers = [
        name
        for name in MODULES
        if not (name == SPEED or name.startswith(SPEED + "."))
        and any(other == SPEED or other.startswith(SPEED + ".") for other in imported(name))
    ]
    assert importers == []


@pytest.mark.parametrize("on", [False, True])
def test_the_speed_layer_is_loaded_only_when_it_is_on(tmp_path: Path, on: bool) -> None:
    script = (
        "import sys\n"
        "from app import create_app\n"
        f"app = create_app({{'SECRET_KEY': 'x', 'SPEED': {on},\n"
        f"    'SQLALCHEMY_DATABASE_URI': 'sqlite:///{tmp_path / 'db.sqlite3'}'}})\n"
        "app.test_client().get('/')\n"
        f"print(sorted(name for name in sys.modules if name.startswith({SPEED!r})))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert (loaded != "[]") == on, loaded
