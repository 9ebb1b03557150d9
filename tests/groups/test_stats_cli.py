"""``python -m referee stats`` as docs/group-format.md says: the table for people, --json,
--season, standard input, the language, and the exit status 0 / 1 / 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FRIDAY = Path(__file__).with_name("friday-club.json")


def referee(*args: str, stdin: bytes | None = None, lang: str = "C") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env | {"LANG": lang},
    )


def friday() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(FRIDAY.read_text())
    return doc


def test_a_group_that_keeps_the_rules_prints_its_tables_and_exits_0():
    done = referee("stats", str(FRIDAY))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert out.startswith("Friday club: every counted table\n")
    for line in ("Blackout: 3 tables", "Alles oder Nichts: 2 tables", "ebbes: 1 table"):
        assert line in out
    head = "Player  Tables  Complete  Wins  Win rate  Avg place  Best  Streak  Now      Rating\n"
    assert head in out  # the rating as the web shows it: "22.2 ± 7.8", right-aligned
    blackout = out.split("Blackout: 3 tables")[1].split("Alles oder Nichts")[0]
    heads = "Player  Rounds  Points  Made  Over  Under  Bid 0  0 made  Dealt  Dealt, made"
    assert heads in blackout
    rows = [line.split() for line in blackout.splitlines() if line.startswith("Ann")]
    assert rows[0] == ["Ann", "3", "2", "0", "0%", "2.50", "22", "0", "0", "22.2", "±", "7.8"]
    assert rows[1] == ["Ann", "7", "33", "3", "2", "2", "2", "0", "3", "1"]
    assert "Eve" not in out and "Gus" not in out and "Chloe" not in out
    assert "breaks the rules" not in out


def test_players_are_listed_by_rating():
    out = referee("stats", str(FRIDAY)).stdout.decode()
    blackout = out.split("Blackout: 3 tables")[1].split("Player  Rounds")[0]
    names = [line.split()[0] for line in blackout.strip().splitlines()[1:]]
    doc = json.loads(referee("stats", str(FRIDAY), "--json").stdout)
    players = doc["games"]["blackout"]["players"].values()
    # by the rating as shown, then the smaller ± as shown, then more finished games; Ben and
    # Cho are level in all three (27.9 ± 8.2, one finished game each): roster order
    by_rating = sorted(
        players,
        key=lambda p: (-shown(p["rating"]["mu"]), shown(p["rating"]["sigma"]), -p["complete"]),
    )
    assert names == [p["name"] for p in by_rating] == ["Ben", "Cho", "Dee", "Ann"]


def shown(value: float) -> float:
    """A figure as the table shows it, to one decimal, a half rounded up."""
    return float(Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def test_json_on_standard_input():
    done = referee("stats", "-", "--json", stdin=FRIDAY.read_bytes())
    assert done.returncode == 0
    doc = json.loads(done.stdout)
    assert set(doc) == {"group", "season", "games", "breaking"}
    assert doc["games"]["ebbes"]["players"]["p1"]["points"] == 12


def test_season():
    done = referee("stats", str(FRIDAY), "--season", "2025")
    assert done.returncode == 0
    out = done.stdout.decode()
    assert out.startswith("Friday club: season 2025\n") and "Blackout: 1 table\n" in out
    assert "Alles oder Nichts" not in out
    doc = json.loads(referee("stats", "--json", "--season", "2026", str(FRIDAY)).stdout)
    assert doc["season"] == "2026" and doc["games"]["blackout"]["tables"] == 2


def test_a_season_the_file_has_not_is_exit_2():
    done = referee("stats", str(FRIDAY), "--season", "1999")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == "This group file has no season 1999. Its seasons: 2025, 2026.\n"
    done = referee("stats", str(FRIDAY), "--season", "1999", "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "This group file has no season 1999.",
        "field": "--season",
    }


def test_a_counted_table_that_breaks_a_rule_is_exit_1_and_still_counts():
    doc = friday()
    doc["tables"][3]["counts"] = True  # table 4: Dee's bid against the hook
    text = json.dumps(doc).encode()
    done = referee("stats", "-", stdin=text)
    assert done.returncode == 1
    assert (
        "Table 4 breaks the rules; its numbers count as the table kept them "
        "(python -m referee check shows where)." in done.stdout.decode()
    )
    as_json = referee("stats", "-", "--json", stdin=text)
    assert as_json.returncode == 1
    stats = json.loads(as_json.stdout)
    assert stats["breaking"] == [4]
    assert stats["games"]["blackout"]["tables"] == 4
    assert stats["games"]["blackout"]["players"]["p5"]["name"] == "Eve"  # now at a counted table
    # out of season, it does not count: the file keeps the rules for that season
    assert referee("stats", "-", "--season", "2025", stdin=text).returncode == 0


@pytest.mark.parametrize(
    ("stdin", "field", "sentence"),
    [
        (b"{not json", "", "not JSON"),
        (b'{"format": "table-referee/1"}', "format", 'format: must be "table-referee-group/1"'),
        (
            json.dumps(
                {**friday(), "tables": [{**friday()["tables"][0], "seats": {"Ann": "p9"}}]}
            ).encode(),
            "tables[0].seats.Ann",
            'table 1: seats.Ann: "p9" is no roster player\'s id',
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_exit_2_naming_where(stdin, field, sentence):
    done = referee("stats", "-", stdin=stdin)
    assert done.returncode == 2 and done.stdout == b"" and b"Traceback" not in done.stderr
    assert done.stderr.decode().startswith(f"This group file cannot be read: {sentence}")
    as_json = referee("stats", "-", "--json", stdin=stdin)
    assert as_json.returncode == 2
    error = json.loads(as_json.stdout)
    assert error["field"] == field and error["error"].startswith(sentence)


def test_a_missing_file_is_exit_2():
    done = referee("stats", "/nonexistent/group.json")
    assert done.returncode == 2 and b"Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("stats",),
        ("stats", str(FRIDAY), str(FRIDAY)),
        ("stats", str(FRIDAY), "--season"),
        ("stats", str(FRIDAY), "--season", "2025", "--season", "2026"),
        ("check", str(FRIDAY), "--season", "2025"),
        ("stats", "--verbose"),
        ("play", str(FRIDAY)),
    ],
)
def test_usage_errors_are_exit_2(args):
    done = referee(*args)
    assert done.returncode == 2
    assert "usage: python -m referee check RECORD.json" in done.stderr.decode()
    assert "python -m referee stats GROUP.json [--season NAME] [--json]" in done.stderr.decode()


def test_help_names_both_commands():
    done = referee("--help")
    assert done.returncode == 0
    assert "stats GROUP.json [--season NAME] [--json]" in done.stdout.decode()


def test_the_table_speaks_german():
    done = referee("stats", str(FRIDAY), lang="de_DE.UTF-8")
    out = done.stdout.decode()
    assert out.startswith("Friday club: alle gezählten Tische\n")
    assert "Blackout: 3 Tische" in out and "ebbes: 1 Tisch\n" in out
    assert "Spieler" in out and "Siegquote" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("Ann")]
    assert rows[0][4:7] == ["0", "%", "2,50"]
    missing = referee("stats", str(FRIDAY), "--season", "1999", lang="de_DE.UTF-8")
    assert missing.stderr.decode().startswith("Diese Gruppendatei hat keine Saison 1999.")


def test_names_that_do_not_print_are_shown_escaped():
    """The reader refuses such names in the roster, but a group's own name may not hold one
    either; what reaches the terminal never holds a raw escape."""
    doc = friday()
    doc["name"] = "Friday\x1b[31m"
    done = referee("stats", "-", stdin=json.dumps(doc).encode())
    assert done.returncode == 2
    assert "\x1b" not in done.stderr.decode()


def test_the_referee_console_script_has_the_command():
    from referee.__main__ import main

    assert main(["stats", str(FRIDAY), "--json"]) == 0


def test_a_large_group_shared_out_to_processes_gives_what_one_process_gives(tmp_path):
    """As a command, ``stats`` reads and replays a file of many tables in a process per core
    (``referee.groups.stats.counted_tables``): the answer is the one a single process gives,
    for the whole file and for a season; the counted tables of three forked processes are
    those of one, in order; and a table that cannot be read, far into the file, is said as
    ``read_group`` says it."""
    from bench.group_stats import group
    from referee.groups import read_group
    from referee.groups.report import stats_text
    from referee.groups.stats import FEWEST_SHARED

    doc = group(FEWEST_SHARED + 21, "summary")
    path = tmp_path / "group.json"
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    path.write_text(text, encoding="utf-8")
    for season in ([], ["--season", "2024"]):
        done = referee("stats", str(path), "--json", *season)
        assert done.returncode == 0, done.stderr
        one = stats_text(text, season[1] if season else None, as_json=True, processes=1)
        assert done.stdout.decode() == one[1]
    # In a process of its own: forking one that runs tests (with their threads) is not safe.
    code = (
        "import sys; from pathlib import Path; from referee.groups.document import read_group_head;"
        "from referee.groups.stats import counted_tables;"
        "group, tables = read_group_head(Path(sys.argv[1]).read_bytes());"
        "assert counted_tables(group, tables, None, 3) == counted_tables(group, tables), 'differ'"
    )
    shared = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, cwd=ROOT)
    assert shared.returncode == 0, shared.stderr.decode()
    late = FEWEST_SHARED + 7
    doc["tables"][late]["record"]["rounds"][0]["trmup"] = "H"
    doc["tables"][late + 5]["seats"] = {"Nobody": None}  # a second, later: not the one said
    broken = json.dumps(doc).encode()
    with pytest.raises(ValueError) as read:
        read_group(broken)
    done = referee("stats", "-", stdin=broken)
    assert done.returncode == 2
    assert f"table {late + 1}: record.rounds[0].trmup" in str(read.value)
    assert str(read.value) in done.stderr.decode()
    as_json = json.loads(referee("stats", "-", "--json", stdin=broken).stdout)
    assert as_json["field"] == f"tables[{late}].record.rounds[0].trmup"


def test_a_file_larger_than_a_server_loads_is_exit_2_unread():
    from referee.__main__ import MOST_READ
    from referee.groups import LARGEST_LOADED

    assert MOST_READ == LARGEST_LOADED + 1
    padded = FRIDAY.read_bytes().rstrip()[:-1] + b', "name": "' + b"x" * LARGEST_LOADED + b'"}'
    done = referee("stats", "-", stdin=padded)
    assert done.returncode == 2 and done.stdout == b""
    assert "larger than 16 MiB, the most a server loads" in done.stderr.decode()
    said = json.loads(referee("stats", "-", "--json", stdin=padded).stdout)
    assert "16 MiB" in said["error"]
    german = referee("stats", "-", stdin=padded, lang="de_DE.UTF-8").stderr.decode()
    assert "16 MiB" in german and "larger" not in german


def test_a_long_replay_is_said_before_it_starts(monkeypatch):
    from referee.groups import report

    heard: list[str] = []
    data = FRIDAY.read_bytes()
    assert report.stats_text(data, say=heard.append)[0] == 0 and heard == []  # a moment's work
    monkeypatch.setattr(report, "BYTES_PER_SECOND", 100)  # as if it were a much larger file
    assert report.stats_text(data, say=heard.append)[0] == 0
    assert heard == [f"Reading and replaying 7 tables: about {-(-len(data) // 100)} s."]
