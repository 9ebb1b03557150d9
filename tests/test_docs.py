"""The repository stands alone: no file points outside it, and its documents point at what is there.

Every tracked text file is read: none may send a reader to the team's folder beside the
repository, every relative Markdown link must resolve to a file inside the repository (and to a
heading of it, when it names one), every ``docs/<name>.md`` a file names must exist, and the
README's layout must name what the tree holds.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Folders that are not the repository's own files when there is no git to ask.
UNTRACKED = {".git", ".venv", "artifacts", "instance", "__pycache__", "build", "dist"}

#: The team's folder beside the repository, in the spellings that point at it (written in pieces
#: so that this file does not name it itself).
OUTSIDE = re.compile(r"\.\./" + "shared|" + r"\bshared/(?:rules|record-format|group-format|DESIGN)")

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
#: ``[text](target)`` and ``[text](target "title")``; images too.
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: ``[label]: target`` reference definitions.
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w.-]+\.md\b")


@cache
def tracked() -> tuple[Path, ...]:
    """The repository's files: git's list, or, without git, the tree less what git ignores."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z"],
            capture_output=True,
            check=True,
            text=True,
        ).stdout.split("\0")
        return tuple(ROOT / name for name in listed if name and (ROOT / name).is_file())
    except (OSError, subprocess.CalledProcessError):
        return tuple(
            path
            for path in ROOT.rglob("*")
            if path.is_file() and UNTRACKED.isdisjoint(path.relative_to(ROOT).parts)
        )


@cache
def text(path: Path) -> str | None:
    """The file's text, or None for a file that is not UTF-8 text (images, compiled catalogs)."""
    try:
        data = path.read_bytes()
        return None if b"\0" in data else data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def texts() -> list[tuple[Path, str]]:
    return [(path, body) for path in tracked() if (body := text(path)) is not None]


def markdown_files() -> list[Path]:
    return [path for path in tracked() if path.suffix == ".md"]


def prose(markdown: str) -> str:
    """Markdown without its code: links shown as code are examples, not links."""
    return INLINE_CODE.sub("", FENCE.sub("", markdown))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    words = re.sub(r"[^\w\- ]", "", words.strip().lower())
    return words.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every anchor of a Markdown file's headings, with GitHub's -1, -2 for repeated ones."""
    seen: dict[str, int] = {}
    found = set()
    for _, heading in HEADING.findall(FENCE.sub("", text(path) or "")):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def broken_links(path: Path) -> list[str]:
    """What is wrong with each relative link of one Markdown file."""
    body = prose(text(path) or "")
    problems = []
    for target in LINK.findall(body) + REFERENCE.findall(body):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # https:, mailto: …: not a file of the repository
        name, _, fragment = target.partition("#")
        where = path if not name else (path.parent / name).resolve()
        if not where.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif fragment and where.suffix == ".md" and fragment not in anchors(where):
            problems.append(f"{target}: no heading #{fragment} in {where.name}")
    return problems


def test_the_files_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in tracked()}
    assert {"README.md", "docs/rules.md", "docs/record-format.md", "referee/__init__.py"} <= names


def test_no_file_points_at_the_folder_beside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{body.count(chr(10), 0, match.start()) + 1}: {match.group()}"
        for path, body in texts()
        for match in OUTSIDE.finditer(body)
    ]
    assert found == []


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_inside_the_repository(path: Path):
    assert broken_links(path) == []


def test_the_link_check_sees_what_it_must():
    """The checks above would pass on nothing: they must see a broken link when there is one."""
    assert slug("One bad entry, one breach") == "one-bad-entry-one-breach"
    assert (
        slug("Game records: the `table-referee/1` format")
        == "game-records-the-table-referee1-format"
    )
    sample = "[a](../../elsewhere.md) [b](missing.md) [c](rules.md#nowhere) `[d](gone.md)`"
    found = LINK.findall(prose(sample))
    assert found == ["../../elsewhere.md", "missing.md", "rules.md#nowhere"]
    assert OUTSIDE.search("see ../" + "shared/") and OUTSIDE.search("shared/" + "rules.md")


def test_every_docs_file_named_exists():
    """A comment, docstring or document that names ``docs/<name>.md`` names a file that is there
    (the changelog may name a file that an entry removed)."""
    missing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path, body in texts()
        if path != ROOT / "CHANGELOG.md"
        for name in sorted(set(DOCS_PATH.findall(body)))
        if not (ROOT / name).is_file()
    ]
    assert missing == []


def layout() -> list[tuple[int, list[str]]]:
    """The README's layout block as (indent, names) per line that names something: the names are
    the first column, up to the description."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Layout", 1)[1].split("```", 2)[1]
    rows = []
    for line in block.splitlines()[1:]:
        indent = len(line) - len(line.lstrip(" "))
        first = re.split(r" {2,}", line.strip(), maxsplit=1)[0] if line.strip() else ""
        if first and indent <= 2:
            rows.append((indent, first.split()))
    return rows


def test_the_readme_layout_names_what_is_there():
    """Each path in the README's layout exists (``<game>``: every game), each name indented under
    a folder is in that folder."""
    missing = []
    folder = ""
    for indent, names in layout():
        for name in names:
            path = name if indent == 0 else folder + name
            if indent == 0 and name.endswith("/"):
                folder = name
            if not list(ROOT.glob(re.sub(r"<[^>]+>", "*", path.rstrip("/")))):
                missing.append(path)
    assert missing == []


def test_the_readme_layout_names_every_folder():
    """Every top-level folder of the repository, and every package of ``referee/``, is named."""
    named = {name.rstrip("/") for indent, names in layout() if indent == 0 for name in names}
    parts = [path.relative_to(ROOT).parts for path in tracked()]
    folders = {part[0] for part in parts if len(part) > 1}
    packages = {"/".join(part[:2]) for part in parts if part[0] == "referee" and len(part) > 2}
    unnamed = sorted(
        folder
        for folder in folders | packages
        if not folder.startswith(".")
        and folder not in named
        and not any(n.startswith(folder + "/") for n in named)
    )
    assert unnamed == []


#: The kinds of change a release lists (Keep a Changelog), each at most once.
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def changelog() -> list[tuple[int, str, list[str]]]:
    """The changelog's headings as (level, text, the texts of the headings it is under)."""
    headings = []
    above: list[tuple[int, str]] = []
    for hashes, heading in HEADING.findall(FENCE.sub("", (ROOT / "CHANGELOG.md").read_text())):
        level = len(hashes)
        above = [(lvl, text) for lvl, text in above if lvl < level]
        headings.append((level, heading, [text for _, text in above]))
        above.append((level, heading))
    return headings


def test_no_changelog_heading_repeats_within_its_section():
    """One section per release, and in it each kind of change (and each theme under one) once."""
    seen = [(tuple(parents), level, heading) for level, heading, parents in changelog()]
    assert sorted({key for key in seen if seen.count(key) > 1}) == []


def test_the_changelog_has_releases_and_kinds_of_change():
    releases = [heading for level, heading, _ in changelog() if level == 2]
    assert releases[0] == "[Unreleased]"
    for release in releases[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", release), release
    kinds = [heading for level, heading, _ in changelog() if level == 3]
    assert set(kinds) <= set(KINDS)
    assert [h for level, h, _ in changelog() if level == 1] == ["Changelog"]


def test_the_newest_release_is_the_version_in_pyproject():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    releases = [heading for level, heading, _ in changelog() if level == 2]
    assert releases[1].startswith(f"[{version}] - ")
