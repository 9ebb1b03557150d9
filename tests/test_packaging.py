"""pyproject.toml says what requirements.txt and requirements-dev.txt pin, and packages what runs.

requirements.txt stays the file to install from (README, Dockerfile, .ci/run); pyproject.toml's
``[project] dependencies`` and ``dev`` extra list the same pins, so ``pip install .`` gives the
same libraries. The package is ``referee`` with every file it holds that is not Python, and the
``referee`` command is ``python -m referee``.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import tomllib
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
    """Every file under ``referee/`` that is not Python is named as package data, so an installed
    package reads what the repository's does."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["include"] == ["referee", "referee.*"]
    data = {
        f"{package.replace('.', '/')}/{name}"
        for package, names in setuptools["package-data"].items()
        for name in names
    }
    files = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "referee").rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    }
    assert files == data
