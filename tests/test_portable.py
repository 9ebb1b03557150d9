"""The app runs on Windows too: no module of it imports a POSIX-only standard module.

Checked in a fresh interpreter where importing those modules fails, as it does on Windows: the
app starts (on a new SQLite file, so the start-up migration and its lock run) and every module
of the ``referee`` package imports.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Standard modules that exist on POSIX systems only.
POSIX_ONLY = ("fcntl", "grp", "pwd", "resource", "termios")

START_WITHOUT_POSIX = f"""
import sys
for name in {POSIX_ONLY!r}:
    sys.modules[name] = None  # "import fcntl" now fails, as on Windows

import importlib, pkgutil
import referee
from app import create_app

create_app()
for module in pkgutil.walk_packages(referee.__path__, "referee."):
    importlib.import_module(module.name)
"""


def test_the_app_starts_and_imports_without_posix_only_modules(tmp_path: Path) -> None:
    database = tmp_path / "new.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test"}
    done = subprocess.run(
        [sys.executable, "-c", START_WITHOUT_POSIX],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert database.exists()
