"""The new-table page: choosing the game, seating the players, the options, and the engine's say."""

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import func, select

from referee.rules import GAMES
from referee.store import db
from referee.store.models import Table
from referee.store.tables import get_table

LOCATION = re.compile(r"^/t/[A-Za-z0-9_-]{22}$")

#: What a browser posts for the untouched form (checked boxes only: an unchecked one is absent).
DEFAULTS = {
    "game": "blackout",
    "first": "1",
    "blackout_sequence": "up-down",
    "blackout_max_cards": "",
    "blackout_hook": "y",
    "blackout_scoring": "prefix-one",
    "alles_colours": "red, yellow, green, blue",
    "alles_values": "12",
    "ebbes_variant": "standard",
    "ebbes_trump_from": "now",
}


def form(game="blackout", names=("Ann", "Ben", "Cho", "Dee"), **changes):
    """The form as posted: ``names`` in rows 1, 2, …, the rest blank, then ``changes``."""
    data = {**DEFAULTS, "game": game}
    for seat in range(1, 9):
        data[f"player_{seat}"] = names[seat - 1] if seat <= len(names) else ""
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def table_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Table))


def row_values(html: str) -> list[str]:
    """The values of the eight name rows, in order."""
    values = []
    for seat in range(1, 9):
        tag = re.search(rf'<input[^>]*name="player_{seat}"[^>]*>', html)
        assert tag, f"no row {seat}"
        value = re.search(r'value="([^"]*)"', tag.group(0))
        values.append(value.group(1) if value else "")
    return values


def selected_first(html: str) -> str:
    select_html = re.search(r'<select[^>]*name="first".*?</select>', html, re.S).group(0)
    return re.search(r'<option selected value="(\d)"', select_html).group(1)


# --- the page -------------------------------------------------------------------------------------


def test_the_page_has_eight_name_rows_and_every_games_options(client: FlaskClient) -> None:
    response = client.get("/new")
    assert response.status_code == 200
    html = response.text
    assert row_values(html) == [""] * 8
    for name in GAMES:
        assert f'data-game="{name}"' in html
    assert re.search(r'<input checked[^>]*value="blackout"', html)
    hook = re.search(r'<input[^>]*name="blackout_hook"[^>]*>', html).group(0)
    assert " checked " in hook  # the hook is on by default
    assert 'value="red, yellow, green, blue"' in html
    assert "52 ÷ players" in html


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_in_the_address_is_preselected(client: FlaskClient, game: str) -> None:
    html = client.get(f"/new?game={game}").text
    assert re.search(rf'<input checked[^>]*value="{game}"', html)
    assert len(re.findall(r"<input checked[^>]*name=\"game\"", html)) == 1


def test_an_unknown_game_in_the_address_falls_back_to_blackout(client: FlaskClient) -> None:
    html = client.get("/new?game=skat").text
    assert re.search(r'<input checked[^>]*value="blackout"', html)


def test_enter_in_a_name_field_creates_rather_than_moves(client: FlaskClient) -> None:
    """Implicit submission presses the form's first submit button: it must not be a move."""
    html = client.get("/new").text
    form_html = html[html.index('class="new-table"') :]
    first_button = re.search(r"<button[^>]*>", form_html).group(0)
    assert 'name="move"' not in first_button
    assert "default-submit" in first_button


# --- validation: the engine decides, the page shows its sentence and keeps the input --------------

INVALID = [
    pytest.param(
        form("blackout", ["Ann"]), "Blackout is played by 2 to 8 players, not 1.", id="blackout-1"
    ),
    pytest.param(
        form("blackout", []), "Blackout is played by 2 to 8 players, not 0.", id="blackout-0"
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben"]),
        "Alles oder Nichts is played by 3 to 6 players, not 2.",
        id="alles-2",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay", "Gus"]),
        "Alles oder Nichts is played by 3 to 6 players, not 7.",
        id="alles-7",
    ),
    pytest.param(
        form("ebbes", ["Ann", "Ben"]), "ebbes is played by 3 to 5 players, not 2.", id="ebbes-2"
    ),
    pytest.param(
        form("ebbes", ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay"]),
        "ebbes is played by 3 to 5 players, not 6.",
        id="ebbes-6",
    ),
    pytest.param(
        form("blackout", ["Ann", "Ben", "  ann "]),
        "'ann' sits at the table twice (names must differ, ignoring case).",
        id="duplicate-case-and-spaces",
    ),
    pytest.param(
        form("ebbes", ["Ann", "Ben", "BEN"]),
        "'BEN' sits at the table twice (names must differ, ignoring case).",
        id="duplicate-ebbes",
    ),
    pytest.param(
        form("blackout", ["Ann", "B" * 41]),
        f"The name '{'B' * 41}' is longer than 40 characters.",
        id="long-name",
    ),
    pytest.param(
        form("blackout", ["Ann", "Ben", "Cho", "Dee"], blackout_max_cards="14"),
        "Option 'max_cards' must be a whole number from 1 to 13, not 14.",
        id="max-cards-above-52-over-players",
    ),
    pytest.param(
        form("blackout", ["Ann"] + [f"P{i}" for i in range(2, 9)], blackout_max_cards="7"),
        "Option 'max_cards' must be a whole number from 1 to 6, not 7.",
        id="max-cards-8-players",
    ),
    pytest.param(
        form("blackout", ["Ann", "Ben", "Cho"], blackout_max_cards="0"),
        "Option 'max_cards' must be a whole number from 1 to 17, not 0.",
        id="max-cards-zero",
    ),
    pytest.param(
        form("blackout", ["Ann", "Ben", "Cho"], blackout_max_cards="lots"),
        "Most cards in a hand must be a whole number, or blank for the most.",
        id="max-cards-not-a-number",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours="red, yellow, green"),
        "3 colours × 12 values is 36 cards, not 48.",
        id="colours-times-values-36",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_values="10"),
        "4 colours × 10 values is 40 cards, not 48.",
        id="values-10",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours="red, red, blue, green"),
        "“red” is the name of another colour: each colour needs a name of its own.",
        id="colour-twice",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours="dark-red, a, b, c"),
        "Option 'colours' must be a list of colour names (no hyphens).",
        id="colour-hyphen",
    ),
    *(
        pytest.param(
            form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours=f"{colour}, b, c, d"),
            f"“{colour}” holds a character that does not show (a control, format or direction "
            "character). Type the name again with letters, digits and spaces.",
            id=f"colour-{what}",
        )
        for what, colour in (
            ("right-to-left-override", "re\u202egnp.exe"),
            ("zero-width-space", "re\u200bd"),
            ("escape", "\x1b[31mred"),
            ("hangul-filler", "\u3164"),
            ("braille-blank", "\u2800"),
        )
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours="red, red\u034f, b, c"),
        "“red\u034f” is the name of another colour: each colour needs a name of its own.",
        id="colour-twice-to-the-eye",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_values="twelve"),
        "Values per colour must be a whole number.",
        id="values-not-a-number",
    ),
    pytest.param(
        form("blackout", ["", "Ben", "Cho"], first="1"),
        "Seat 1 has no name: choose a seat with a player in it.",
        id="first-dealer-blank-seat",
    ),
]


@pytest.mark.parametrize(("data", "message"), INVALID)
def test_a_refused_table_shows_why_and_keeps_the_input(
    app: Flask, client: FlaskClient, data: dict, message: str
) -> None:
    response = client.post("/new", data=data)
    assert response.status_code == 422
    assert escape(message) in response.text
    assert row_values(response.text) == [escape(data[f"player_{n}"]) for n in range(1, 9)]
    assert re.search(rf'<input checked[^>]*value="{data["game"]}"', response.text)
    assert table_count(app) == 0


def test_the_options_of_the_other_games_are_ignored(app: Flask, client: FlaskClient) -> None:
    data = form("ebbes", ["Ann", "Ben", "Cho"], blackout_max_cards="lots", alles_values="7")
    response = client.post("/new", data=data)
    assert response.status_code == 303
    assert table_count(app) == 1


# --- reordering without JavaScript ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "rows", "first"),
    [
        ("up-2", ["Ben", "Ann", "Cho", "Dee"], "2"),  # Ann was first dealer: she moves along
        ("down-1", ["Ben", "Ann", "Cho", "Dee"], "2"),
        ("down-3", ["Ann", "Ben", "Dee", "Cho"], "1"),
        ("up-1", ["Ann", "Ben", "Cho", "Dee"], "1"),  # nothing above the first seat
        ("down-8", ["Ann", "Ben", "Cho", "Dee"], "1"),
        ("down-4", ["Ann", "Ben", "Cho", "", "Dee"], "1"),  # a blank row moves like any other
        ("sideways-2", ["Ann", "Ben", "Cho", "Dee"], "1"),
    ],
)
def test_move_up_and_down_reorders_the_rows_and_creates_nothing(
    app: Flask, client: FlaskClient, move: str, rows: list[str], first: str
) -> None:
    response = client.post("/new", data=form(names=["Ann", "Ben", "Cho", "Dee"], move=move))
    assert response.status_code == 200
    assert row_values(response.text) == rows + [""] * (8 - len(rows))
    assert selected_first(response.text) == first
    assert table_count(app) == 0


def test_the_first_dealer_follows_the_moved_name(client: FlaskClient) -> None:
    data = form(names=["Ann", "Ben", "Cho", "Dee"], first="3", move="up-3")
    html = client.post("/new", data=data).text
    assert row_values(html)[:4] == ["Ann", "Cho", "Ben", "Dee"]
    assert selected_first(html) == "2"
    assert '<option selected value="2">Seat 2: Cho</option>' in html


def test_a_move_keeps_the_options_and_the_game(client: FlaskClient) -> None:
    data = form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_values="8", move="down-1")
    data["alles_colours"] = "red, yellow, green, blue, black, white"
    html = client.post("/new", data=data).text
    assert re.search(r'<input checked[^>]*value="alles-oder-nichts"', html)
    assert 'value="red, yellow, green, blue, black, white"' in html
    assert 'name="alles_values" type="text" value="8"' in html


# --- creating the table ---------------------------------------------------------------------------

CREATED = [
    pytest.param(
        form("blackout", ["Ann", "Ben", "Cho", "Dee"], first="4"),
        ("Ann", "Ben", "Cho", "Dee"),
        "Dee",
        {"sequence": "up-down", "hook": True, "scoring": "prefix-one", "max_cards": 13},
        id="blackout-defaults",
    ),
    pytest.param(
        form(
            "blackout",
            [" Ann ", "", "Cho"],
            blackout_sequence="down-up",
            blackout_max_cards="5",
            blackout_hook=None,
            blackout_scoring="ten-plus-bid",
        ),
        ("Ann", "Cho"),
        "Ann",
        {"sequence": "down-up", "hook": False, "scoring": "ten-plus-bid", "max_cards": 5},
        id="blackout-options-blank-row-trimmed",
    ),
    pytest.param(
        form("alles-oder-nichts", ["Ann", "Ben", "Cho"], first="2"),
        ("Ann", "Ben", "Cho"),
        "Ben",
        {"colours": ["red", "yellow", "green", "blue"], "values": 12},
        id="alles-defaults",
    ),
    pytest.param(
        form(
            "alles-oder-nichts",
            ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay"],
            alles_colours="Red, yellow,green , blue, black, white",
            alles_values="8",
        ),
        ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay"),
        "Ann",
        {"colours": ["red", "yellow", "green", "blue", "black", "white"], "values": 8},
        id="alles-6x8",
    ),
    pytest.param(
        form("ebbes", ["Ann", "Ben", "Cho", "Dee", "Eve"], first="5"),
        ("Ann", "Ben", "Cho", "Dee", "Eve"),
        "Eve",
        {"extended": False, "variant": "standard", "discard": False, "trump_from": "now"},
        id="ebbes-defaults",
    ),
    pytest.param(
        form(
            "ebbes",
            ["Ann", "Ben", "Cho"],
            ebbes_extended="y",
            ebbes_variant="placed-designators",
            ebbes_discard="y",
            ebbes_trump_from="next-trick",
        ),
        ("Ann", "Ben", "Cho"),
        "Ann",
        {
            "extended": True,
            "variant": "placed-designators",
            "discard": True,
            "trump_from": "next-trick",
        },
        id="ebbes-options",
    ),
]


@pytest.mark.parametrize(("data", "players", "first", "options"), CREATED)
def test_a_valid_form_creates_the_table_and_redirects_to_it(
    app: Flask, client: FlaskClient, data: dict, players: tuple, first: str, options: dict
) -> None:
    response = client.post("/new", data=data)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert LOCATION.match(location), location
    table_id = location.rsplit("/", 1)[1]
    with app.app_context():
        table = get_table(table_id)
    assert table is not None
    assert table.setup.game == data["game"]
    assert table.setup.players == players
    assert table.setup.first_player == first
    assert dict(table.setup.options) == options
    assert table.entries == ()
    with client.session_transaction() as session:
        assert session["tables"][0] == table_id  # on this browser's home page


def test_the_new_table_is_listed_on_the_home_page(client: FlaskClient) -> None:
    client.post("/new", data=form("ebbes", ["Ann", "Ben", "Cho"]))
    html = client.get("/").text
    assert "Ann, Ben, Cho" in html
    assert "Round 1 of 5" in html


# --- untrusted names ------------------------------------------------------------------------------

XSS = '<script>alert("x")</script>'


def test_a_name_with_markup_is_shown_escaped(app: Flask, client: FlaskClient) -> None:
    refused = client.post("/new", data=form(names=[XSS]))
    assert XSS not in refused.text
    assert escape(XSS) in refused.text
    moved = client.post("/new", data=form(names=["Ann", XSS], move="up-2"))
    assert XSS not in moved.text
    assert f"Seat 1: {escape(XSS)}" in moved.text
    created = client.post("/new", data=form(names=["Ann", XSS]))
    assert created.status_code == 303
    home = client.get("/").text
    assert XSS not in home
    assert escape(XSS) in home


# --- CSRF: a stale page is refused with a clear message, and keeps what was typed -----------------


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.mark.csrf
def test_a_post_without_the_token_is_refused_kindly_and_works_with_it(
    app: Flask, client: FlaskClient
) -> None:
    data = form("blackout", ["Ann", "Ben", "Cho"])
    refused = client.post("/new", data=data)
    assert refused.status_code == 400
    assert "This page was stale" in refused.text
    assert "Traceback" not in refused.text
    assert row_values(refused.text)[:3] == ["Ann", "Ben", "Cho"]  # the input is kept
    assert table_count(app) == 0

    token = csrf_token(refused.text)  # the page shown again carries a fresh token
    created = client.post("/new", data={**data, "csrf_token": token})
    assert created.status_code == 303
    assert LOCATION.match(created.headers["Location"])
    assert table_count(app) == 1


@pytest.mark.csrf
def test_a_move_on_a_stale_page_still_moves(client: FlaskClient) -> None:
    response = client.post("/new", data=form(names=["Ann", "Ben"], move="up-2"))
    assert response.status_code == 200
    assert row_values(response.text)[:2] == ["Ben", "Ann"]


@pytest.mark.csrf
def test_the_form_from_the_page_carries_a_working_token(app: Flask, client: FlaskClient) -> None:
    token = csrf_token(client.get("/new").text)
    response = client.post("/new", data={**form(), "csrf_token": token})
    assert response.status_code == 303


# --- error pages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/no-such-page", "There is no page at this address."),
        ("/new/extra", "There is no page at this address."),
        ("/t/no-such-table", "There is no table at this address."),
        ("/t/no-such-table/record.json", "There is no table at this address."),
    ],
)
def test_unknown_addresses_get_a_friendly_404(client: FlaskClient, path: str, message: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Nothing here" in response.text
    assert message in response.text
    assert 'href="/new"' in response.text


def test_an_oversized_form_gets_a_friendly_413(client: FlaskClient) -> None:
    """A form field beyond Flask's MAX_FORM_MEMORY_SIZE (500 kB) is refused with a page."""
    body = (
        b'--b\r\nContent-Disposition: form-data; name="player_1"\r\n\r\n'
        + b"A" * 600_000
        + b"\r\n--b--\r\n"
    )
    response = client.post("/new", data=body, content_type="multipart/form-data; boundary=b")
    assert response.status_code == 413
    assert "too much to send" in response.text
    assert "Traceback" not in response.text


def test_a_colour_refused_is_said_in_the_phones_language(app: Flask, client: FlaskClient) -> None:
    data = form("alles-oder-nichts", ["Ann", "Ben", "Cho"], alles_colours="rot, rot\u034f, b, c")
    response = client.post("/new", data=data, headers={"Accept-Language": "de"})
    assert response.status_code == 422
    assert escape("ist schon der Name einer anderen Farbe: Jede Farbe braucht") in response.text
    data["alles_colours"] = "ro\u200bt, b, c, d"
    response = client.post("/new", data=data, headers={"Accept-Language": "de"})
    assert escape("enthält ein Zeichen, das man nicht sieht") in response.text
    assert table_count(app) == 0
