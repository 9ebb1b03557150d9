"""``python -m referee check`` as docs/record-format.md says: output, --json, stdin, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).parent / "records"
VALID = RECORDS / "blackout" / "default-4p.json"
BROKEN = RECORDS / "blackout" / "breach-hook.json"


def referee(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, cwd=ROOT
    )


def test_a_valid_record_prints_a_score_table_and_exits_0():
    done = referee("check", str(VALID))
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    assert "Round" in text and "Total" in text and "The record keeps the rules." in text


def test_a_broken_record_lists_its_breaches_and_exits_1():
    done = referee("check", str(BROKEN))
    assert done.returncode == 1
    assert "[hook]" in done.stdout.decode()


def test_json_output_has_the_documented_keys():
    done = referee("check", str(BROKEN), "--json")
    doc = json.loads(done.stdout)
    assert set(doc) == {
        "game",
        "players",
        "start_points",
        "ended_after",
        "round_count",
        "complete",
        "rounds",
        "totals",
        "winners",
        "violations",
        "warnings",
    }
    assert doc["violations"][0]["rule"] == "hook"
    assert set(doc["violations"][0]) == {"round", "trick", "player", "rule", "message"}


def test_standard_input():
    done = referee("check", "-", "--json", stdin=VALID.read_bytes())
    assert done.returncode == 0 and json.loads(done.stdout)["complete"] is True


@pytest.mark.parametrize(
    ("stdin", "field"),
    [
        (b"{not json", ""),
        (b'{"format": "table-referee/2", "game": "blackout", "players": ["A", "B"]}', "format"),
        (b'{"format": "table-referee/1", "game": "skat", "players": ["A", "B"]}', "game"),
        (
            b'{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"],'
            b' "rounds": [{"bids": {"A": "two"}}]}',
            "rounds[0].bids.A",
        ),
        (
            b'{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"],'
            b' "options": {"max_cards": 27}}',
            "options.max_cards",
        ),
        (
            b'{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"],'
            b' "history": [{"seq": 1, "at": "9999-12-31T23:59:59-14:00",'
            b' "event": {"type": "trump", "round": 1, "card": "H"}}]}',
            "history[0].at",
        ),
        (
            b'{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"],'
            b' "rounds": [{"trump": "H", "tricks": {"B": 1, "A": ' + b"9" * 4300 + b"}}]}",
            "rounds[0].tricks.A",
        ),
        (
            b'{"format": "table-referee/1", "game": "blackout", "players": ["A", "B"],'
            b' "rounds": [{"trump": "H", "tricks": {"A": 1, "B": 0, "A": 0}}]}',
            "rounds[0].tricks.A",
        ),
        (b"\xff\xfe garbage", ""),
        (b"[]", ""),
    ],
)
def test_unreadable_records_exit_2_naming_the_field(stdin, field):
    done = referee("check", "-", stdin=stdin)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert "cannot be read" in done.stderr.decode()
    as_json = json.loads(referee("check", "-", "--json", stdin=stdin).stdout)
    assert as_json["field"] == field


def test_a_missing_file_exits_2_without_a_traceback():
    done = referee("check", "/nonexistent/record.json")
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_usage_errors_exit_2():
    assert referee().returncode == 2
    assert referee("check").returncode == 2


def test_names_that_do_not_print_are_shown_escaped():
    """An older record may hold such names (the referee now refuses them: a ``players`` breach);
    what reaches the terminal never holds a raw escape sequence."""
    names = ["Ann\x1b[31m", "Ben\nX", "Ann\u202egnp.exe", "\u200b"]
    record = {
        "format": "table-referee/1",
        "game": "blackout",
        "players": names,
        "rounds": [{"trump": "H", "bids": dict.fromkeys(names, 0)}],
    }
    done = referee("check", "-", stdin=json.dumps(record).encode())
    assert done.returncode == 1
    out = done.stdout.decode()
    assert not any(c in out for c in "\x1b\u202e\u200b") and "Ben\nX" not in out
    assert r"Ann\x1b[31m" in out and r"Ben\nX" in out and r"Ann\u202egnp.exe" in out
    assert out.count("holds a character that does not show") == 4


@pytest.mark.parametrize(
    ("where", "field"),
    [
        ('"players": ["Ann", "\\ud800"]', "players[1]"),
        (
            '"players": ["Ann", "Ben"], "rounds": [{"bids": {"\\udfffx": 0}}]',
            "rounds[0].bids.\\udfffx",
        ),
        ('"players": ["Ann", "Ben"], "rounds": [{"trump": "\\ud83c"}]', "rounds[0].trump"),
    ],
    ids=["name", "key", "trump"],
)
def test_text_that_is_not_unicode_exits_2_naming_the_field(where, field):
    stdin = ('{"format": "table-referee/1", "game": "blackout", ' + where + "}").encode()
    done = referee("check", "-", stdin=stdin)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert f"{field}: is not valid Unicode text" in done.stderr.decode()
    as_json = referee("check", "-", "--json", stdin=stdin)
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["field"] == field


def test_a_round_with_more_tricks_than_it_deals_exits_2_at_once():
    tricks = [{"leader": "Ann", "cards": ["2H", "2H", "2H", "2H"]}] * 23_500
    record = {
        "format": "table-referee/1",
        "game": "blackout",
        "players": ["Ann", "Ben", "Cho", "Dee"],
        "rounds": [{"trump": "H", "plays": tricks}],
    }
    done = referee("check", "-", "--json", stdin=json.dumps(record).encode())
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "rounds[0].plays: lists 23500 tricks; round 1 has 1",
        "field": "rounds[0].plays",
    }


def german_catalog(folder: Path) -> Path:
    """A test-only German catalog of a few of the report's sentences, compiled by Babel as
    ``translations/de/LC_MESSAGES/messages.mo`` under ``folder``."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="de")
    catalog.add(
        ("Violation (%(count)s):", "Violations (%(count)s):"),
        ("Verstoß (%(count)s):", "Verstöße (%(count)s):"),
    )
    catalog.add(
        (
            "The record breaks the rules (%(count)s breach).",
            "The record breaks the rules (%(count)s breaches).",
        ),
        (
            "Der Spielbericht verletzt die Regeln (%(count)s Verstoß).",
            "Der Spielbericht verletzt die Regeln (%(count)s Verstöße).",
        ),
    )
    catalog.add(
        "%(player)s (the dealer) cannot bid %(bid)s: the bids would add up to %(total)s, "
        "the number of tricks.",
        "%(player)s (Geber) kann nicht %(bid)s ansagen: die Ansagen ergäben %(total)s, so viele "
        "Stiche, wie es gibt.",
    )
    catalog.add("Dealer", "Geber")
    catalog.add("round %(round)s", "Runde %(round)s")
    folder = folder / "translations"
    (folder / "de" / "LC_MESSAGES").mkdir(parents=True)
    with open(folder / "de" / "LC_MESSAGES" / "messages.mo", "wb") as out:
        write_mo(out, catalog)
    return folder


@pytest.fixture
def german_locale(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")


def test_the_table_speaks_the_locales_language_from_a_compiled_catalog(
    tmp_path, capsys, german_locale
):
    from referee.__main__ import main

    assert main(["check", str(BROKEN)], translations=german_catalog(tmp_path)) == 1
    out = capsys.readouterr().out
    assert "Geber" in out and "Verstoß (1):" in out
    assert (
        "Runde 3, Dee: Dee (Geber) kann nicht 1 ansagen: die Ansagen ergäben 3, so viele Stiche, "
        "wie es gibt. [hook]"
    ) in out
    assert "Der Spielbericht verletzt die Regeln (1 Verstoß)." in out
    assert "Round" in out  # a heading the test catalog does not hold stays English


def test_json_stays_language_free_whatever_the_locale(tmp_path, capsys, german_locale):
    from referee.__main__ import main

    english = referee("check", str(BROKEN), "--json").stdout.decode()
    assert main(["check", str(BROKEN), "--json"], translations=german_catalog(tmp_path)) == 1
    assert capsys.readouterr().out == english


def test_without_a_catalog_for_the_locale_english_comes_out(tmp_path, capsys, german_locale):
    from referee.__main__ import main

    assert main(["check", str(BROKEN)], translations=tmp_path / "none") == 1
    out = capsys.readouterr().out
    assert "The record breaks the rules (1 breach)." in out
    assert "round 3, Dee: Dee (the dealer) cannot bid 1" in out


IN_PLAY = RECORDS / "blackout" / "in-play-mid-trick.json"


def test_a_record_stopped_in_a_trick_says_which_trick_and_who_plays_next():
    done = referee("check", str(IN_PLAY))
    assert done.returncode == 0, done.stdout
    assert "In play: round 2, trick 2, 2 of 4 cards played; Dee plays next." in done.stdout.decode()
    doc = json.loads(referee("check", str(IN_PLAY), "--json").stdout)
    assert doc["complete"] is False and doc["violations"] == []
    assert doc["rounds"][-1]["scores"] is None
    assert doc["rounds"][-1]["trick_in_play"] == {
        "trick": 2,
        "cards_played": 2,
        "next_player": "Dee",
    }
    assert all("trick_in_play" not in r for r in doc["rounds"][:-1])


def test_a_round_under_way_may_lack_its_trump_a_complete_one_may_not():
    """docs/record-format.md: `trump` is "no trump in a complete round that must have one"."""
    record = json.loads(IN_PLAY.read_bytes())
    del record["rounds"][-1]["trump"]
    done = referee("check", "-", "--json", stdin=json.dumps(record).encode())
    assert done.returncode == 0 and json.loads(done.stdout)["violations"] == []
    record["rounds"][-1]["plays"][-1]["cards"] += ["KS", "QC"]  # the round's last trick is in
    doc = json.loads(referee("check", "-", "--json", stdin=json.dumps(record).encode()).stdout)
    assert [(v["rule"], v["round"]) for v in doc["violations"]] == [("trump", 2)]


def test_checking_a_record_loads_only_its_own_games_rules_and_no_history_code():
    """What the referee loads is most of what it costs (bench/check_replay.py): a record of one
    game loads that game's rules, and one without a history none of the history's code."""
    code = (
        "import sys; from referee.__main__ import main; "
        f"main(['check', {str(VALID)!r}]); "
        "print(sorted(m for m in sys.modules if m.startswith('referee.rules.')"
        " or m in ('referee.records.log', 'referee.records.history', 'argparse', 'datetime')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    loaded = done.stdout.splitlines()[-1]
    assert "referee.rules.blackout" in loaded
    for module in (
        "ebbes",
        "alles",
        "records.history",
        "referee.records.log",
        "argparse",
        "datetime",
    ):
        assert module not in loaded
