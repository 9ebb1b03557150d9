"""pyproject.toml says what requirements.txt and requirements-dev.txt pin, and packages what runs.

requirements.txt stays the file to install from (README, Dockerfile, .ci/run); pyproject.toml's
``[project] dependencies`` and ``dev`` extra list the same pins, so ``pip install .`` gives the
same libraries. The package is ``referee`` with every file it holds that is not Python (or a
catalog's source), and the ``referee`` command is ``python -m referee``: the wheel, installed in
a fresh virtual environment, speaks German as the checkout does.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import os
import re
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pins(requirements: str) -> list[str]:
    """A requirements file's requirements, in order: no comments, blank lines or ``-r`` lines."""
    lines = (
        line.split("#", 1)[0].strip() for line in (ROOT / requirements).read_text().splitlines()
    )
    return [line for line in lines if line and not line.startswith("-")]


def normal(requirement: str) -> str:
    """A requirement as pip compares names: lower case, runs of ``-_.`` as one ``-``."""
    name, rest = re.match(r"([A-Za-z0-9._-]+)(.*)", requirement.replace(" ", "")).groups()
    return re.sub(r"[-_.]+", "-", name).lower() + rest


def test_the_dependencies_are_requirements_txt():
    assert [normal(r) for r in PROJECT["dependencies"]] == [
        normal(r) for r in pins("requirements.txt")
    ]


def test_the_dev_extra_is_requirements_dev_txt():
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text().splitlines()
    dev = [normal(r) for r in PROJECT["optional-dependencies"]["dev"]]
    assert dev == [normal(r) for r in pins("requirements-dev.txt")]


def test_every_pin_is_exact():
    for requirement in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]:
        assert re.fullmatch(r"[A-Za-z0-9._-]+(\[[a-z,]+\])?==[0-9][0-9A-Za-z.+]*", requirement)


def test_the_referee_command_is_python_m_referee():
    """The installed ``referee`` calls what ``python -m referee`` runs (the function the
    module's ``if __name__ == "__main__"`` block calls), and, called as an installed script
    calls it (the arguments in ``sys.argv``), answers the same."""
    module, _, function = PROJECT["scripts"]["referee"].partition(":")
    assert module == "referee.__main__"
    assert callable(getattr(importlib.import_module(module), function))
    tree = ast.parse((ROOT / "referee" / "__main__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If))
    assert ast.unparse(block.test) == "__name__ == '__main__'"
    assert [ast.unparse(line) for line in block.body] == [f"{function}()"]
    record = str(ROOT / "bench" / "blackout-3p-card-by-card.json")
    script = f"import sys; from {module} import {function}; sys.argv[0] = 'referee'; {function}()"
    answers = [
        subprocess.run([sys.executable, *how, "check", record, "--json"], capture_output=True)
        for how in (["-c", script], ["-m", "referee"])
    ]
    assert answers[0].returncode == answers[1].returncode == 0
    assert answers[0].stdout == answers[1].stdout and answers[0].stdout.startswith(b"{")


def test_the_package_holds_every_file_the_referee_package_has():
    """Every file under ``referee/`` that is not Python, nor a catalog's source (a ``.po``,
    compiled to the ``.mo`` beside it), is named as package data, so an installed package reads
    what the repository's does; and every name of the package data is such a file."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["include"] == ["referee", "referee.*"]
    named = {
        (package, pattern): {
            path.relative_to(ROOT).as_posix()
            for path in (ROOT / package.replace(".", "/")).glob(pattern)
        }
        for package, patterns in setuptools["package-data"].items()
        for pattern in patterns
    }
    assert [where for where, found in named.items() if not found] == []
    sources = {".py", ".pyc", ".po"}
    files = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "referee").rglob("*")
        if path.is_file() and path.suffix not in sources and "__pycache__" not in path.parts
    }
    assert files == set().union(*named.values())


# --- the wheel, installed --------------------------------------------------------------------

#: What a checkout holds beside the project (local state, caches, builds): left out of the copy
#: the wheel is built from, so that a build leaves nothing in the checkout and nothing a build
#: left there (setuptools keeps ``build/lib``) slips into the wheel.
NOT_SOURCE = frozenset(
    {".git", ".venv", "build", "dist", "instance", "artifacts", ".hypothesis", ".mypy_cache",
     ".ruff_cache", ".pytest_cache"}
)  # fmt: skip

#: A record with one breach (the hook): its German sentences below come from the catalog.
HOOK = ROOT / "tests" / "records" / "blackout" / "breach-hook.json"
GERMAN = (
    "Dee (Geber) kann nicht 1 ansagen: Die Ansagen ergäben zusammen 3, genau die Zahl der Stiche.",
    "Das Protokoll verstößt gegen die Regeln (1 Regelverstoß).",
)


def source_copy(to: Path) -> Path:
    """The checkout copied to ``to``, less ``NOT_SOURCE`` and what Python or a build leaves."""

    def ignored(folder: str, names: list[str]) -> list[str]:
        top = Path(folder) == ROOT
        return [
            name
            for name in names
            if name == "__pycache__" or name.endswith(".egg-info") or (top and name in NOT_SOURCE)
        ]

    shutil.copytree(ROOT, to, ignore=ignored)
    return to


def builds_wheels_here() -> bool:
    """This environment's setuptools builds a wheel by itself (70.1 and later: the one
    requirements-dev.txt pins), so pip need not fetch a build backend."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    return tuple(int(part) for part in version.split(".")[:2]) >= (70, 1)


def build_wheel(source: Path, out: Path) -> Path:
    """The project's wheel, built by pip from ``source`` into ``out``: offline with this
    environment's setuptools; where it has none that builds wheels, pip's isolated build fetches
    the one pyproject.toml asks for from the index pip is set up with."""
    isolation = [] if not builds_wheels_here() else ["--no-build-isolation", "--no-index"]
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *isolation, "-w", str(out)]
    subprocess.run([*pip, str(source)], check=True, capture_output=True)
    (wheel,) = out.glob("table_referee-*.whl")
    return wheel


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A new virtual environment in ``folder`` with ``wheel`` installed in it, offline, and
    nothing else; the libraries it needs are read from this environment's site-packages, which
    do not hold ``referee`` (a ``.pth`` file adds them after its own). Its ``bin`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    install = ["install", "--no-index", "--no-deps", "-q", str(wheel)]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        capture_output=True,
    )
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    lines = [f"import site; site.addsitedir({lib!r})" for lib in site.getsitepackages()]
    Path(purelib, "libraries.pth").write_text("\n".join(lines) + "\n")
    return folder / "bin"


def test_the_installed_referee_speaks_the_locales_language(tmp_path: Path) -> None:
    """``pip install .`` in a fresh environment: the wheel holds the compiled catalogs, and the
    installed ``referee check`` reads them, from anywhere, as ``python -m referee`` does here."""
    wheel = build_wheel(source_copy(tmp_path / "source"), tmp_path / "dist")
    with zipfile.ZipFile(wheel) as packed:
        assert "referee/translations/de/LC_MESSAGES/messages.mo" in packed.namelist()
    bin_folder = fresh_environment(tmp_path / "env", wheel)
    away = tmp_path / "elsewhere"
    away.mkdir()
    record = shutil.copy(HOOK, away / "game.json")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_"))}
    german = {**keep, "LANG": "de_DE.UTF-8"}
    german.pop("LANGUAGE", None)
    where = subprocess.run(
        [bin_folder / "python", "-c", "import referee; print(referee.__file__)"],
        cwd=away,
        env=german,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(tmp_path / "env")  # the installed package, not the checkout
    done = subprocess.run(
        [bin_folder / "referee", "check", record], cwd=away, env=german, capture_output=True
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode()
    for sentence in GERMAN:
        assert sentence in out
