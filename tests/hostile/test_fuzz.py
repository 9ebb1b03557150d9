"""Hostile input at every form and URL, fuzzed with hypothesis through the Flask test client,
on SQLite and on PostgreSQL.

Random and malicious values — huge and negative numbers, unicode, empty and very long strings,
lists where one value goes, missing fields, forged hidden fields (seq, round, action, seats),
XSS and SQL payloads, uploads that are not JSON or too large, records whose history times run
backwards or lie beyond what a record holds — at /new, every entry action of /t/<id>/entry,
/t/<id>/undo, /t/<id>/amend/<n>, /records and unknown URLs. The client that
posts to a table holds its scorekeeper link (``tests/links.py``), so its entries, undos and
corrections reach the rules engine; an address fuzzed at a table the client holds no link to
may be refused (403) like any other.

After every request:

- never a 5xx (TESTING is on, so an exception in a view fails the test with its traceback);
- every answer with the security headers (``referee.web.headers``), each once;
- an answer a person can read: a redirect, or a page with an error box, flash or field error;
- no payload comes back unescaped;
- the stored table is whole and keeps the rules: sequence numbers without gaps, the strict
  replay of its effective events succeeds and the lenient one notes no breach. (A correction
  of an *earlier* entry may, by design, make a later entry break a rule — the table then shows
  the breach — so after one of those the table is checked with the correction strictly in its
  place and a lenient replay of the whole log.) A table loaded from a record notes just the
  breaches the referee finds in the record: the ones a table keeps.

Examples are derandomized: the same inputs on every run.
"""

from __future__ import annotations

import functools
import io
import json
import random
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from referee.records import export_record, load_record
from referee.records.history import EntryRefused, as_entered
from referee.rules import GAMES, Setup, replay, start
from referee.store.tables import (
    append_entry,
    create_table,
    effective_events,
    get_table,
    in_force,
)
from referee.web.headers import HEADERS
from referee.web.round.entries import BUILDERS
from referee.web.screens import screens
from tests.durability import summary
from tests.durability.legal import breaches, check_log, entry_form, next_entry
from tests.hostile.conftest import on_postgresql
from tests.links import join

pytestmark = pytest.mark.hostile

RECORDS = Path(__file__).resolve().parents[1] / "records"
#: The actions an entry form may post: every game's (a forged one may post another game's).
ACTIONS = sorted({*BUILDERS, *(action for game in GAMES for action in screens(game).builders)})


def fuzz(examples: int) -> settings:
    """Hypothesis settings: the same examples every run, no time limit per example, and no
    shrinking of a failing example (it can take many minutes against a database; the failing
    example is reported as found, and found again on the next run)."""
    return settings(
        max_examples=examples,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


XSS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><svg onload=alert(1)>",
    "<a href='javascript:alert(1)'>x</a>",
]
PAYLOADS = [
    *XSS,
    "' OR '1'='1",
    "1; DROP TABLE entries; --",
    "'); DELETE FROM tables; --",
    "{{7*7}}",
    "{% raw %}",
    "%s%s%s%n",
    "../../../../etc/passwd",
    "\x00",
    "a\x00b",
    "\u202eevil",
    "🂡🃏",
    "Ünïcødé",
    "٣",  # an Arabic-Indic 3: str.isdigit() says yes
    "²",
    "①",
    " 1",
    "1 ",
    "+1",
    "-1",
    "-0",
    "0x10",
    "1e9",
    "1.5",
    "NaN",
    "Infinity",
    "9" * 400,
    str(2**63),
    str(-(2**63)),
    "999",
    "1000",
    "true",
    "null",
    "[]",
    "{}",
    "",
    " ",
    "\r\n",
    "\t",
]
SMALL_NUMBERS = st.integers(-2, 16).map(str)

#: A value a hostile browser can send in a form field.
hostile_text = st.one_of(
    st.sampled_from(PAYLOADS),
    SMALL_NUMBERS,
    st.integers().map(str),
    st.text(max_size=40),
    st.builds(lambda c, n: c * n, st.sampled_from("x9é<"), st.integers(1000, 200_000)),
)
#: A field's value: usually one, sometimes several (a list where one value goes).
hostile_value = st.one_of(
    hostile_text, st.lists(hostile_text, min_size=2, max_size=3), st.just(["", ""])
)


# --- checks --------------------------------------------------------------------------------------


def count(n: int = 1) -> None:
    summary.count("fuzzed_requests", n)


def answered(response: Any, sent: Any = None, what: str = "") -> str:
    """Not a server error, and something a person can read; the body.

    ``what`` names the request in hypothesis' statistics (``--hypothesis-show-statistics``),
    which show how often each kind was accepted and refused.
    """
    count()
    if what:
        event(f"{what}: {response.status_code}")
    status = response.status_code
    body = response.get_data().decode("utf-8", "replace")  # an icon or a PDF is answered too
    assert status < 500, body[-2000:]
    secured(response)
    if status in (301, 302, 303, 308):
        assert response.headers["Location"]
        return body
    if status == 405:  # werkzeug's own page (tested apart: test_get_of_a_post_address)
        assert "not allowed" in body
        return body
    if status >= 400:
        assert re.search(r'class="(error-box|flash|field-error)', body), (status, body[-1500:])
    for payload in XSS:
        if any(payload in value for value in values(sent)):
            assert payload not in body, f"{payload!r} came back unescaped"
    return body


def secured(response: Any) -> None:
    """The security headers, each once (a view's own value of one is kept: none sets one)."""
    for name, value in HEADERS.items():
        assert response.headers.getlist(name) == [value], (name, response.status_code)


def values(sent: Any) -> list[str]:
    """Every text sent in a form (a field's value, or each of its values)."""
    if not isinstance(sent, Mapping):
        return []
    found: list[str] = []
    for value in sent.values():
        found += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return found


class Table:
    """A table under fire, and what its log must stay; ``client`` holds its scorekeeper link."""

    def __init__(
        self, app: Flask, client: FlaskClient, game: str, seed: int, progress: int
    ) -> None:
        self.app = app
        self.setup = Setup(game, ("Ann", "Ben", "Cho"))
        self.rng = random.Random(seed)
        self.strict = True  # until an earlier entry is corrected (see the module docstring)
        with app.app_context():
            self.id = create_table(self.setup)
            state, seq = start(self.setup), 0
            for _ in range(progress):
                entry = next_entry(state, self.rng)
                if entry is None:
                    break
                event, state = entry
                seq = append_entry(self.id, seq, "event", event.to_dict())
        join(app, client, self.id)
        self.check()

    def check(self) -> None:
        """The stored log is whole and keeps the rules; remember its state and seq."""
        with self.app.app_context():
            record = get_table(self.id)
        assert record is not None
        if self.strict:
            self.state = check_log(self.setup, record.entries)
        else:
            seqs = [e.seq for e in record.entries]
            assert seqs == list(range(1, len(seqs) + 1))
            self.state = replay(self.setup, effective_events(record.entries), lenient=True)
        self.entries = record.entries
        self.seq = record.last_seq

    def events_in_force(self) -> list[int]:
        return list(in_force(self.entries))


#: Fields a forged form may add: real ones of other actions, and ones that do not exist.
FIELD_NAMES = [
    *("player", "bid", "choice", "chosen_by", "colour", "trump", "number"),
    *("tricks-4", "tricks-0", "won-1-black", "designator-red", "csrf_token"),
    *("name", "after", "start"),
]


def mutate(form: dict[str, Any], data: st.DataObject, seq: int, rnd: int) -> dict[str, Any]:
    """A few forgeries of a form: a field replaced, dropped, added, or a hidden one forged."""
    form = dict(form)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        how = data.draw(
            st.sampled_from(["replace", "drop", "add", "seq", "round", "action", "player"]),
            label="how",
        )
        keys = sorted(form)
        if how == "replace" and keys:
            form[data.draw(st.sampled_from(keys))] = data.draw(hostile_value)
        elif how == "drop" and keys:
            form.pop(data.draw(st.sampled_from(keys)))
        elif how == "add":
            name = data.draw(st.sampled_from(FIELD_NAMES) | st.text(max_size=20))
            form[name] = data.draw(hostile_value)
        elif how == "seq":
            form["seq"] = data.draw(
                st.sampled_from([seq - 1, seq + 1, 0, -1, 2**31, 2**64]).map(str) | hostile_text
            )
        elif how == "round":
            form["round"] = data.draw(
                st.sampled_from([rnd - 1, rnd + 1, 0, 99, 100, -1]).map(str) | hostile_text
            )
        elif how == "action":
            form["action"] = data.draw(st.sampled_from(ACTIONS) | hostile_text)
        else:
            form["player"] = data.draw(st.sampled_from(["0", "1", "2", "3", "4", "99"]))
    return form


def entry_post(table: Table, data: st.DataObject) -> tuple[dict[str, Any], bool]:
    """A form for the table's next entry: the legal one, or a forgery of it. And is it legal?"""
    entry = next_entry(table.state, table.rng)
    if entry is None:
        legal: dict[str, Any] = {"seq": str(table.seq), "round": "1", "action": "trump"}
        rnd = 1
    else:
        legal = entry_form(table.state, entry[0], table.seq)
        rnd = entry[0].round
    if entry is not None and data.draw(st.booleans(), label="legal"):
        return legal, True
    return mutate(legal, data, table.seq, rnd), False


def without_nul(value: Any) -> Any:
    """A field's value(s) without NUL characters: a sidestep of two known bugs on PostgreSQL
    (``test_a_nul_character_in_the_first_dealers_name``, ``…_in_a_table_address``)."""
    if isinstance(value, list):
        return [v.replace("\x00", "") for v in value]
    return value.replace("\x00", "")


# --- a table under fire: entries, undos, corrections, and every page in between ---------------


@fuzz(300)
@given(
    game=st.sampled_from(["blackout", "alles-oder-nichts", "ebbes"]),
    seed=st.integers(0, 2**16),
    progress=st.integers(0, 40),
    data=st.data(),
)
def test_a_table_under_fire(hostile_app, hostile_client, game, seed, progress, data):
    table = Table(hostile_app, hostile_client, game, seed, progress)
    client, base = hostile_client, f"/t/{table.id}"
    for _ in range(data.draw(st.integers(1, 8), label="requests")):
        before = table.seq
        what = data.draw(
            st.sampled_from(["entry"] * 5 + ["undo", "amend", "pages"]), label="request"
        )
        if what == "entry":
            form, legal = entry_post(table, data)
            response = client.post(f"{base}/entry", data=form)
            answered(response, form, f"entry ({'legal' if legal else 'forged'})")
            if legal:
                assert response.status_code == 303, response.get_data(as_text=True)[-1500:]
        elif what == "undo":
            form = {"seq": data.draw(st.just(str(table.seq)) | hostile_value)}
            answered(client.post(f"{base}/undo", data=form), form, "undo")
        elif what == "amend":
            amend(table, client, data)
        else:
            pages(table, client, data)
        table.check()
        assert table.seq - before in (0, 1), "one request, at most one entry"


def amend(table: Table, client: FlaskClient, data: st.DataObject) -> None:
    """A correction of an entry in force (usually the last), or of one that cannot be."""
    events = table.events_in_force()
    targets = st.sampled_from(events) if events else st.just(1)
    target = data.draw(
        st.one_of(st.just(events[-1]) if events else targets, targets, st.integers(0, 10**30)),
        label="target",
    )
    url = f"/t/{table.id}/amend/{target}"
    page = client.get(url)
    answered(page, what="amend page")
    if page.status_code != 200:
        assert page.status_code == 404 and target not in events
        return
    form = {
        name: value
        for name, value in re.findall(
            r'name="([^"]+)"[^>]*?value="([^"]*)"', page.get_data(as_text=True)
        )
    }
    if data.draw(st.booleans(), label="forge"):
        form = mutate(form, data, table.seq, int(form.get("round") or 1))
    response = client.post(url, data=form)
    answered(response, form, "amend")
    if response.status_code == 303 and target != events[-1]:
        # An earlier entry corrected: it must keep the rules in its place; what follows may
        # now break one (shown on the table), so the log is checked leniently from here on.
        with table.app.app_context():
            record = get_table(table.id)
        assert record is not None
        force = list(in_force(record.entries))
        replay(table.setup, effective_events(record.entries)[: force.index(target) + 1])
        table.strict = False


def pages(table: Table, client: FlaskClient, data: st.DataObject) -> None:
    """Every page of the table answers, and its record reads back as the same game."""
    path = data.draw(st.sampled_from(["", "/sheet", "/history", "/record.json"]))
    response = client.get(f"/t/{table.id}{path}")
    answered(response)
    assert response.status_code == 200
    if path == "/record.json":
        state = load_record(response.get_data()).replay()
        assert state.totals() == table.state.totals()
        if table.strict:
            assert breaches(state) == []


# --- the new-table form --------------------------------------------------------------------------

NEW_FIELDS = [
    "game",
    "first",
    "blackout_sequence",
    "blackout_max_cards",
    "blackout_hook",
    "blackout_scoring",
    "alles_colours",
    "alles_values",
    "ebbes_extended",
    "ebbes_variant",
    "ebbes_discard",
    "ebbes_trump_from",
]


@fuzz(300)
@given(data=st.data())
def test_the_new_table_form(hostile_app, hostile_client, data):
    form: dict[str, Any] = {
        "game": data.draw(st.sampled_from(["blackout", "alles-oder-nichts", "ebbes"])),
        **{f"player_{n}": name for n, name in enumerate(["Ann", "Ben", "Cho"], start=1)},
    }
    for _ in range(data.draw(st.integers(1, 6), label="forgeries")):
        name = data.draw(
            st.sampled_from(NEW_FIELDS + [f"player_{n}" for n in range(0, 10)] + ["move"])
        )
        if data.draw(st.booleans(), label="drop") and name in form:
            form.pop(name)
        else:
            form[name] = data.draw(hostile_value)
    if on_postgresql(hostile_app):  # see test_a_nul_character_in_the_first_dealers_name
        form = {k: without_nul(v) if k.startswith("player_") else v for k, v in form.items()}
    response = hostile_client.post("/new", data=form)
    answered(response, form, "new table")
    if response.status_code == 303:
        table_id = response.headers["Location"].rsplit("/", 1)[-1]
        with hostile_app.app_context():
            record = get_table(table_id)
        assert record is not None
        check_log(record.setup, record.entries)
        names = [
            (form.get(f"player_{n}") or "").strip()
            if isinstance(form.get(f"player_{n}"), str)
            else None
            for n in range(1, 9)
        ]
        if None not in names:
            assert list(record.setup.players) == [n for n in names if n]


# --- records uploaded ----------------------------------------------------------------------------


def post_upload(client: FlaskClient, fields: Mapping[str, Any]) -> Any:
    """POST /records as a browser does (multipart); ``(bytes, filename)`` values are files.

    The body is encoded here, in memory: the test client's own encoder leaves a temporary
    file open for bodies over 500 KB (a ResourceWarning, an error under ``filterwarnings``).
    """
    values = MultiDict()
    for name, value in fields.items():
        if isinstance(value, tuple):
            value = FileStorage(io.BytesIO(value[0]), filename=value[1], name=name)
        values.add(name, value)
    boundary, body = encode_multipart(values)
    return client.post(
        "/records", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )


def good_records() -> list[bytes]:
    """The golden records the referee accepts (exit 0)."""
    found = []
    for expect in sorted(RECORDS.glob("*/*.expect.json")):
        if json.loads(expect.read_text())["exit"] == 0:
            found.append(expect.with_name(expect.name.replace(".expect", "")).read_bytes())
    return found


GOOD = good_records()

#: A history's times: ordinary ones in any order (a clock can go back), and ones at and beyond
#: the ends of what a record holds, some beyond what Python's datetime holds once in UTC.
history_times = st.one_of(
    st.sampled_from(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "0001-01-01T00:00:00Z",
            "0999-12-31T23:59:59.999999Z",
            "1000-01-01T00:00:00Z",
            "9998-12-31T23:59:59.999999+00:00",
            "9999-01-01T00:00:00Z",
        ]
    ),
    st.builds(
        lambda moment, offset: moment.isoformat() + offset,
        st.datetimes(),
        st.sampled_from(["Z", "+14:00", "-14:00", "+05:30", ""]),
    ),
)


@functools.cache
def with_history(good: bytes) -> str | None:
    """The good record as the app writes it once loaded, its history included (None: the app
    would not load it)."""
    record = load_record(good)
    try:
        log = as_entered(record.setup, record.events, (), datetime(2025, 3, 1, tzinfo=UTC))
    except EntryRefused:
        return None
    return json.dumps(export_record(replay(record.setup, effective_events(log), lenient=True), log))


json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**53, -(2**53), 10**4299, -(10**4299)])  # beyond what a record holds
    | st.floats(allow_nan=True, allow_infinity=True)
    | hostile_text,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def poke(value: Any, data: st.DataObject, depth: int = 0) -> Any:
    """The JSON value with one place, somewhere inside, replaced or removed."""
    if isinstance(value, dict) and value and depth < 6 and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        changed = dict(value)
        if data.draw(st.integers(0, 5), label="drop key") == 0:
            changed.pop(key)
        else:
            changed[key] = poke(value[key], data, depth + 1)
        return changed
    if isinstance(value, list) and value and depth < 6 and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        changed_list = list(value)
        changed_list[index] = poke(value[index], data, depth + 1)
        return changed_list
    return data.draw(json_value)


@st.composite
def uploads(draw: st.DrawFn) -> bytes:
    kinds = ["poked", "poked", "poked", "json", "bytes", "huge", "good", "times"]
    kind = draw(st.sampled_from(kinds))
    if kind == "good":
        return draw(st.sampled_from(GOOD))
    if kind == "times":
        text = with_history(draw(st.sampled_from(GOOD)))
        if text is None:
            return draw(st.sampled_from(GOOD))
        timed = json.loads(text)
        history = timed["history"]
        for _ in range(draw(st.integers(1, 3), label="times")):
            history[draw(st.integers(0, len(history) - 1))]["at"] = draw(history_times)
        return json.dumps(timed).encode()
    if kind == "json":
        return json.dumps(draw(json_value)).encode()
    if kind == "bytes":
        return draw(
            st.binary(max_size=200) | hostile_text.map(lambda t: t.encode("utf-8", "ignore"))
        )
    if kind == "huge":
        return b"[" + b"1," * draw(st.integers(600_000, 700_000)) + b"1]"
    record = json.loads(draw(st.sampled_from(GOOD)))
    data = draw(st.data())
    return json.dumps(poke(record, data), ensure_ascii=draw(st.booleans())).encode()


@fuzz(250)
@given(body=uploads(), filename=st.sampled_from(["game.json", "", "../x.json", "<b>.json"]))
def test_record_uploads(hostile_app, hostile_client, body, filename):
    response = post_upload(hostile_client, {"record": (body, filename)})
    answered(response, what="upload")
    if response.status_code == 303:
        # A loaded record's table notes the breaches the referee finds in the record, no
        # others (docs/record-format.md: the breaches a table keeps are kept), its log whole.
        table_id = response.headers["Location"].rsplit("/", 1)[-1]
        with hostile_app.app_context():
            record = get_table(table_id)
        assert record is not None
        assert [e.seq for e in record.entries] == list(range(1, len(record.entries) + 1))
        state = replay(record.setup, effective_events(record.entries), lenient=True)
        referee = load_record(body).replay()
        assert [b.to_dict() for b in state.violations] == [b.to_dict() for b in referee.violations]


@pytest.mark.parametrize(
    "post",
    [
        {},
        {"record": "not a file"},
        {"other": (b"{}", "x.json")},
        {"record": (b"", "empty.json")},
        {"record": (b"x" * (2 * 1024 * 1024), "big.json")},
    ],
    ids=["nothing", "a-string", "wrong-field", "empty", "two-megabytes"],
)
def test_uploads_that_are_not_a_record(hostile_client, post):
    body = answered(post_upload(hostile_client, post))
    assert 'class="error-box"' in body


# --- addresses -----------------------------------------------------------------------------------


#: Ben's bid of 0 as the page of a table ``at_the_first_bid`` posts it.
FIRST_BID = {"seq": "1", "round": "1", "action": "bid", "player": "2", "bid": "0"}


def at_the_first_bid(app: Flask, client: FlaskClient) -> str:
    """A Blackout table for Ann and Ben with its trump turned up; ``client`` keeps its score."""
    with app.app_context():
        table = create_table(Setup("blackout", ("Ann", "Ben")))
        append_entry(table, 0, "event", {"type": "trump", "round": 1, "card": "H"})
    join(app, client, table)
    return table


@pytest.fixture(scope="module")
def a_table(hostile_app: Flask) -> str:
    with hostile_app.app_context():
        return create_table(Setup("blackout", ("Ann", "Ben")))


path_text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=0, max_size=60
) | st.sampled_from(PAYLOADS)


@fuzz(250)
@given(
    shape=st.sampled_from(["/{}", "/t/{}", "/t/{table}/{}", "/t/{table}/amend/{}", "/{}/{}"]),
    parts=st.lists(path_text, min_size=2, max_size=2),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD"]),
)
def test_unknown_addresses(hostile_app, hostile_client, a_table, shape, parts, method):
    if on_postgresql(hostile_app):  # see test_a_nul_character_in_a_table_address
        parts = [without_nul(part) for part in parts]
    path = shape.format(*(quote(p, safe="") for p in parts), table=a_table)
    response = hostile_client.open(path, method=method)
    if method == "HEAD":
        count()
        assert response.status_code < 500
    else:
        answered(response, what=method)


@pytest.mark.parametrize(
    "path",
    [
        "/t/" + "x" * 10_000,
        "/t/..%2F..%2Fetc%2Fpasswd",
        "/t/x/amend/-1",
        "/static/../app.py",
    ],
)
def test_odd_addresses(hostile_client, path):
    response = hostile_client.get(path)
    answered(response)
    assert response.status_code == 404


# --- CSRF ----------------------------------------------------------------------------------------


@pytest.mark.csrf
@pytest.mark.parametrize(
    "token", [None, "", "forged", "x" * 5000, "<script>alert(1)</script>"], ids=repr
)
@pytest.mark.parametrize("action", ["entry", "undo", "amend/1", "new"])
def test_posts_without_a_valid_token_change_nothing(app, client, token, action):
    """With CSRF on (as in production), a post without its token records nothing, even from the
    scorekeeper's phone."""
    table = at_the_first_bid(app, client)
    form: Mapping[str, str] = dict(FIRST_BID)
    if action == "new":
        form = {"game": "blackout", "player_1": "Ann", "player_2": "Ben"}
    if token is not None:
        form = {**form, "csrf_token": token}
    url = "/new" if action == "new" else f"/t/{table}/{action}"
    response = client.post(url, data=form)
    body = answered(response, form)
    assert response.status_code == 400
    assert "stale" in body
    with app.app_context():
        record = get_table(table)
        assert record is not None and record.last_seq == 1
        assert check_log(record.setup, record.entries).current.bids == {}


# --- known gaps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/t/{table}/entry", "/t/{table}/undo"])
def test_get_of_a_post_address(hostile_app, hostile_client, path):
    with hostile_app.app_context():
        table = create_table(Setup("blackout", ("Ann", "Ben")))
    join(hostile_app, hostile_client, table)
    response = hostile_client.get(path.format(table=table))
    count()
    assert response.status_code in (303, 405)
    if response.status_code == 405:
        body = response.get_data(as_text=True)
        assert 'class="error-box"' in body and f"/t/{table}" in body


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ("entry", "seq"),
        ("entry", "round"),
        ("undo", "seq"),
        ("amend/1", "seq"),
        ("amend/1", "round"),
    ],
)
def test_a_number_too_large_for_a_float(hostile_app, action, field):
    client = hostile_app.test_client()
    table = at_the_first_bid(hostile_app, client)
    form = dict(FIRST_BID)
    form[field] = "9" * 400
    try:
        response = client.post(f"/t/{table}/{action}", data=form)
    except OverflowError:
        pytest.fail("OverflowError: the server would answer 500")
    answered(response, form)


@pytest.mark.parametrize(
    "record",
    [
        {"game": "blackout", "rounds": [{"bids": {"Ben": 0}}]},
        {"game": "blackout", "rounds": [{"trump": "H", "bids": {"Cho": 0}}]},
        {"game": "ebbes", "rounds": [{"designations": ["red"]}]},
    ],
    ids=["bids-before-trump", "bid-out-of-turn", "designation-before-number"],
)
def test_a_record_whose_last_round_skips_a_step(hostile_app, hostile_client, record):
    body = {"format": "table-referee/1", "players": ["Ann", "Ben", "Cho"], **record}
    response = post_upload(hostile_client, {"record": (json.dumps(body).encode(), "game.json")})
    answered(response)
    if response.status_code == 303:
        table_id = response.headers["Location"].rsplit("/", 1)[-1]
        with hostile_app.app_context():
            stored = get_table(table_id)
        assert stored is not None
        check_log(stored.setup, stored.entries)
    else:
        assert response.status_code == 422


@pytest.mark.parametrize("where", ["new", "record"])
def test_a_nul_character_in_the_first_dealers_name(hostile_app, hostile_client, where):
    if not on_postgresql(hostile_app):
        pytest.skip("SQLite stores a NUL character like any other")
    form = {"game": "blackout", "player_1": "A\x00nn", "player_2": "Ben"}
    record = {"format": "table-referee/1", "game": "blackout", "players": ["A\x00nn", "Ben"]}
    try:
        if where == "new":
            response = hostile_client.post("/new", data=form)
        else:
            upload = json.dumps({**record, "first_dealer": "A\x00nn", "rounds": []}).encode()
            response = post_upload(hostile_client, {"record": (upload, "game.json")})
    except sa.exc.DataError:
        pytest.fail("DataError: the server would answer 500")
    answered(response, form)


@pytest.mark.parametrize("path", ["/t/%00", "/t/x%00/sheet", "/t/x%00/record.json"])
def test_a_nul_character_in_a_table_address(hostile_app, hostile_client, path):
    if not on_postgresql(hostile_app):
        pytest.skip("SQLite looks a NUL character up like any other")
    try:
        response = hostile_client.get(path)
    except sa.exc.DataError:
        pytest.fail("DataError: the server would answer 500")
    answered(response)
    assert response.status_code == 404


@pytest.mark.parametrize("field", ["bid", "player"])
def test_a_number_with_more_digits_than_python_reads(hostile_app, hostile_client, field):
    table = at_the_first_bid(hostile_app, hostile_client)
    form = dict(FIRST_BID)
    form[field] = "9" * 5000
    try:
        response = hostile_client.post(f"/t/{table}/entry", data=form)
    except ValueError:
        pytest.fail("ValueError: the server would answer 500")
    answered(response, form)
    assert response.status_code == 422


# --- malformed headers ---------------------------------------------------------------------------

#: The headers the app reads itself (a page's poll, the position a page must show, the way back,
#: the language and its switch's origin checks, the session cookie) and the ones the server and
#: its libraries read for it (the host, the body's type, a file's conditions and range, what a
#: proxy forwards: ignored unless ``PROXY_FIX`` is set).
HEADERS_READ = [
    *("If-None-Match", "X-Table-Seq", "X-Table-Poll", "Referer", "Accept-Language", "Cookie"),
    *("Origin", "Sec-Fetch-Site", "Host", "Content-Type", "If-Modified-Since", "Range"),
    *("Accept-Encoding", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"),
    *("Accept", "Last-Event-ID"),  # a page's stream, and where it resumes
]
#: Values no browser sends: a byte that is not ASCII (``\xb2``, "²" to gunicorn, a digit to
#: ``str.isdigit``), more digits than Python reads, an address that is none, odd ETags.
MALFORMED_HEADERS = [
    *('"seq-\xb2"', '"seq-' + "9" * 5000 + '"', '"seq-1", "seq-\xb2"', 'W/"seq-1"', "*"),
    *("\xb2", "\u00e9", "9" * 5000, "-1", "+1", " ", "", "1.5", "0x10"),
    *("http://[", "//[x", "http://\xb2[/t/x", "javascript:alert(1)", "null"),
    *("session=\xb2; lang=\xb2", "lang=de; lang=xx", "bytes=\xb2-", "bytes=9999999999-1"),
    *("multipart/form-data; boundary=\xb2", "application/x-www-form-urlencoded; charset=\xb2"),
    *("de;q=\xb2, en;q=nan", "same-origin\xb2", "Mon, 32 Foo 9999 99:99:99 GMT"),
    *("text/event-stream", "text/event-stream;q=\xb2", "A" * 12, "AAAAAAAAAAA\xb2"),
]
#: What a header's value may hold on its way to the app: a byte each (gunicorn hands them on as
#: Latin-1), no control character (gunicorn refuses those itself).
header_chars = st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f")
header_value = st.one_of(
    st.sampled_from(MALFORMED_HEADERS),
    st.text(header_chars, max_size=60),
    st.builds(lambda v: f'"seq-{v}"', st.text(header_chars, max_size=12)),
)


@pytest.fixture(scope="module")
def followed(hostile_app: Flask) -> tuple[FlaskClient, dict[str, str], str]:
    """A phone keeping a table and a group, the addresses it asks for by name (the table's
    pages and poll, the group's pages, the app's own), and the table's poll key."""
    import html

    from referee.store.groups import create_group, make_group_link
    from tests.links import open_shared

    client = hostile_app.test_client()
    table = at_the_first_bid(hostile_app, client)
    page = client.get(f"/t/{table}").text
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    with hostile_app.app_context():
        group_id = create_group("Club", "UTC", ("Ann", "Ben"))
        token = make_group_link(group_id, "keeper")
    assert open_shared(client, f"/j#{token}").status_code == 303
    paths = {
        **{f"table{page}": f"/t/{table}{page}" for page in PAGES},
        **{"poll": poll, "keep": f"/t/{table}/group"},
        **{f"group{page}": f"/g/{group_id}{page}" for page in GROUP_PAGES},
        **{name: name for name in ("/", "/new", "/j", "/groups/new", "/sw.js", "/favicon.ico")},
        "switch": "/language/de?next=/",
    }
    return client, paths, poll.split("k=")[1]


PAGES = ("", "/sheet", "/history", "/tv", "/standings", "/share")
GROUP_PAGES = ("", "/standings", "/roster", "/share", "/new")
ADDRESSES = [
    *(f"table{page}" for page in PAGES),
    *("poll", "keep", *(f"group{page}" for page in GROUP_PAGES)),
    *("/", "/new", "/j", "/groups/new", "/sw.js", "/favicon.ico", "switch"),
]


@fuzz(300)
@given(
    address=st.sampled_from(ADDRESSES),
    headers=st.dictionaries(st.sampled_from(HEADERS_READ), header_value, min_size=1, max_size=4),
    post=st.booleans(),
    real_key=st.booleans(),
)
@example(
    address="table",
    headers={"If-None-Match": '"seq-\xb2"', "X-Table-Poll": ""},
    post=False,
    real_key=True,
)
@example(address="table/sheet", headers={"X-Table-Seq": "\xb2"}, post=False, real_key=False)
@example(address="table", headers={"X-Table-Seq": "9" * 5000}, post=False, real_key=False)
@example(address="/new", headers={"Referer": "http://["}, post=True, real_key=False)
@example(address="switch", headers={"Sec-Fetch-Site": "\xb2"}, post=False, real_key=False)
@example(
    address="table/sheet",
    headers={"Accept": "text/event-stream", "Last-Event-ID": "\xb2"},
    post=False,
    real_key=False,
)
@example(
    address="group",
    headers={"Accept": "text/event-stream", "Last-Event-ID": "AAAAAAAAAAA\xb2"},
    post=False,
    real_key=False,
)
def test_malformed_headers_get_the_apps_own_answer(
    hostile_app, followed, address, headers, post, real_key
):
    """Every header the app reads, malformed: the app's own page or an answer as if the header
    were not sent, with the security headers; never a 5xx. Each request is made twice: the
    second may be answered in front of Flask (the speed layer). A page asked as a stream, served
    as under gevent, opens it (its first event read, then closed) or answers as a page would."""
    from unittest import mock

    from referee.web.live import READY, STREAM_TYPE
    from referee.web.speed import streams

    client, paths, key = followed
    if "X-Table-Poll" in headers and real_key:
        headers = {**headers, "X-Table-Poll": key + headers["X-Table-Poll"][:1]}
    if "Cookie" in headers:  # the phone's own cookies would stand in for the header's
        client = hostile_app.test_client()
    streaming = STREAM_TYPE in headers.get("Accept", "")
    for _ in range(2):
        if post:
            form = {"game": "blackout", "player_1": "Ann", "player_2": "Ben"}
            response = client.post("/new", data=form, headers=headers)
        elif streaming:
            with mock.patch.object(streams, "can_hold", lambda: True):
                response = client.get(paths[address], headers=headers, buffered=False)
                if response.mimetype == STREAM_TYPE:
                    secured(response)
                    assert response.status_code == 200
                    assert next(iter(response.response)) == READY
                    response.close()
                    continue
                response.close()
                response = client.get(paths[address], headers=headers)
        else:
            response = client.get(paths[address], headers=headers)
        answered(response, what=f"headers {'POST' if post else address}")
