"""The pure layers stay pure: the rules engine (no Flask, SQL, reportlab or I/O: nothing but
itself and small standard modules, and ``importlib`` for the registry to import a game's rules
by the name its line gives), the score sheets with each game's printed part (PDF bytes
from the engine's state with reportlab, a season report's ratings shown as the group's rating
module shows them; no web or database), the records with each game's
record part (``table-referee/1`` documents and the referee's report: the engine, the registry
and the standard library only), the groups with each game's stats part (the group's model and
rules, group files and their statistics: the records, the engine, the standard library and the
rating library only — never the web or the store, which keep and show the group's model — with
``multiprocessing`` for the command line to share a large file's tables out to its cores) and the
command line (``python -m referee``: the records, and the groups only for ``stats``). Checked
by reading their imports, and by importing each in a fresh interpreter and looking at what it
loaded. The shared code of a layer with game parts
(the web pages' too) names no game: what a game adds is in its part (``referee.parts``), and the
games are named only in the registry (``referee.rules.registry``)."""

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.rules import GAMES

REFEREE = Path(__file__).resolve().parents[1] / "referee"


@dataclass(frozen=True)
class Layer:
    package: str
    files: tuple[str, ...]  # its files, as patterns under referee/
    inside: tuple[str, ...]  # the project's modules it may import
    allowed: frozenset[str]  # the other top-level modules it may import
    never_loaded: frozenset[str]  # top-level modules importing it must not load
    part: str | None = None  # the module each game has in this layer (games/<package>/<part>.py)


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
        frozenset(SMALL_STDLIB | {"importlib"}),
        frozenset(WEB_AND_DATABASE | {"reportlab", "json", "socket"}),
    ),
    Layer(
        "sheets",
        ("sheets/*.py", "parts.py", "games/*/printed.py"),
        # A group's season report prints the group's statistics (``referee.groups.figures``)
        # and shows its ratings as the group's room says they are shown
        # (``referee.groups.rating``): one rule for every page, report and command.
        # The readable card is drawn where the reader looks for its boxes (``referee.paper
        # .layout``), with its QR code made by segno.
        (
            "referee.rules",
            "referee.sheets",
            "referee.parts",
            "referee.groups.rating",
            "referee.groups.figures",
            "referee.paper.layout",
            "referee.paper.parts",
        ),
        frozenset(
            SMALL_STDLIB
            | {"contextlib", "contextvars", "datetime", "gettext", "importlib", "io", "re", "xml"}
        )
        | {"reportlab", "segno"},
        frozenset(WEB_AND_DATABASE),
        "printed",
    ),
    Layer(
        "records",
        (
            "records/*.py",
            "games/*/record.py",
        ),
        (
            "referee.rules",
            "referee.records",
            "referee.parts",
        ),
        frozenset(
            SMALL_STDLIB
            | {"bisect", "datetime", "gettext", "itertools", "json", "os", "pathlib", "re", "sys"}
        ),
        frozenset(WEB_AND_DATABASE | {"reportlab"}),
        "record",
    ),
    Layer(
        "groups",
        ("groups/*.py", "games/*/stats.py"),
        ("referee.rules", "referee.records", "referee.groups", "referee.parts"),
        frozenset(
            SMALL_STDLIB
            | {"datetime", "decimal", "json", "multiprocessing", "pathlib", "re", "zoneinfo"}
        )
        | {"openskill"},
        frozenset(WEB_AND_DATABASE | {"reportlab"}),
        "stats",
    ),
    Layer(
        "paper",
        ("paper/*.py", "games/*/paper.py"),
        ("referee.rules", "referee.paper", "referee.parts"),
        frozenset(SMALL_STDLIB | {"json", "math", "pathlib", "struct"}) | {"numpy", "cv2"},
        frozenset(WEB_AND_DATABASE | {"reportlab", "sklearn", "scipy"}),
        "paper",
    ),
    Layer(
        "command line",
        ("__main__.py",),
        ("referee.records", "referee.groups"),
        frozenset(SMALL_STDLIB | {"gc", "os", "sys"}),
        frozenset(WEB_AND_DATABASE | {"reportlab", "openskill"}),
    ),
]
#: The package itself (``referee/__init__.py``), which every layer may import: it imports only
#: ``os``, to name where the package's translation catalogs are.
ROOT_PACKAGE = "referee"
#: The modules the layers with game parts find in each game's package.
PARTS = {"paper", "printed", "record", "screens", "stats"}
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
            allowed = (
                name == ROOT_PACKAGE
                or name.startswith(layer.inside)
                or name.split(".")[0] in layer.allowed
            )
            others = tuple(f".{other}" for other in PARTS - {layer.part})
            allowed = allowed and not name.endswith(others)  # other layers' parts
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


def test_the_command_line_loads_the_groups_only_for_stats():
    """``check`` costs what it did before groups: ``stats`` imports them when it is asked for."""
    code = (
        "import sys, referee.__main__; "
        "print(sorted(m for m in sys.modules if m.startswith(('referee.groups', 'openskill'))))"
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


def game_words() -> tuple[set[str], set[str]]:
    """What names a game in code: its rules module and the classes defined there, and its
    record name or package name in a string or an identifier."""
    modules = {cls.__module__ for cls in GAMES.values()}
    classes = {
        name
        for module in modules
        for name, value in vars(sys.modules[module]).items()
        if isinstance(value, type) and value.__module__ == module
    }
    return modules | classes, set(GAMES) | {GAMES.entry(game).package for game in GAMES}


def names_of_games(path: Path) -> list[tuple[int, str]]:
    """Where the code of ``path`` names a game (docstrings left out)."""
    exact, words = game_words()
    word = re.compile("|".join(re.escape(w) for w in sorted(words)), re.IGNORECASE)
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            texts = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Import):
            texts = [alias.name for alias in node.names]
        elif isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            texts = [node.name]
        elif isinstance(node, ast.arg):
            texts = [node.arg]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts = [] if id(node) in docstrings else [node.value]
        else:
            continue
        found += [(node.lineno, t) for t in texts if t in exact or word.search(t)]
    return found


@pytest.mark.parametrize(
    "layer", [layer for layer in LAYERS if layer.part], ids=lambda layer: layer.package
)
def test_the_shared_code_of_a_layer_names_no_game(layer):
    shared = [
        path
        for pattern in layer.files
        if not pattern.startswith("games/")  # the parts
        for path in REFEREE.glob(pattern)
    ]
    assert shared
    for path in shared:
        assert names_of_games(path) == [], str(path.relative_to(REFEREE))


def test_the_shared_code_of_the_web_pages_names_no_game():
    """A game's options, round screens and the entries only it has are its screens part's."""
    shared = list((REFEREE / "web").rglob("*.py"))
    assert shared
    for path in shared:
        assert names_of_games(path) == [], str(path.relative_to(REFEREE))
