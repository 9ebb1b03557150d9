"""A group's evening that does not go as planned, in Chromium on a 360×740 phone, read in English
and in German: a Blackout table seated by taps from the group page, Eve arriving before round 3,
Ben sitting out round 4, Dee leaving after round 7 and the game ended after round 8 — each change
tapped on the round screen — then the sheet, the PDF, the history, the record's round trip, the
standings and the profiles, checked against these numbers worked out by hand.

The group (roster Ann, Ben, Cho, Dee, Eve, Fay) seats Ann, Ben, Cho and Dee; Ann deals first. In
every round the player left of the dealer (who leads) bids the whole hand and wins every trick,
the others bid 0, and the dealer, held by the hook from the 0 that would make the bids add up,
bids 1 and wins nothing. A bid made scores it with a 1 in front (0 → 10, 5 → 15), a miss 0. The
entries of the rounds are made through the store (``test_journeys.py`` taps rounds); the seats,
the end and everything read are the phone's.

===  =====================  ======================================  ===================
rd   dealt in, dealer last  scores                                  totals after
===  =====================  ======================================  ===================
1    Ben Cho Dee Ann        Ben 11, Cho 10, Dee 10, Ann 0           A0 B11 C10 D10
2    Cho Dee Ann Ben        Cho 12, Dee 10, Ann 10, Ben 0           A10 B11 C22 D20
–    Eve joins left of Dee with the lowest total, Ann's 10 (5 players: 10 cards at most)
3    Dee Eve Ann Ben Cho    Dee 13, Eve 10, Ann 10, Ben 10, Cho 0   A20 B21 C22 D33 E20
–    Ben sits out round 4
4    Eve Ann Cho Dee        Eve 14, Ann 10, Cho 10, Dee 0           A30 B21 C32 D33 E34
5    Ann Ben Cho Dee Eve    Ann 15, Ben 10, Cho 10, Dee 10, Eve 0   A45 B31 C42 D43 E34
6    Ben Cho Dee Eve Ann    Ben 16, Cho 10, Dee 10, Eve 10, Ann 0   A45 B47 C52 D53 E44
7    Cho Dee Eve Ann Ben    Cho 17, Dee 10, Eve 10, Ann 10, Ben 0   A55 B47 C69 D63 E54
–    Dee leaves after round 7 (4 players: 13 cards at most, 25 rounds in all)
8    Eve Ann Ben Cho        Eve 18, Ann 10, Ben 10, Cho 0           A65 B57 C69 D63 E72
–    the game ends after round 8 of 25
===  =====================  ======================================  ===================

Round n deals n cards to each. The deal passes left among the players dealt in: round 4's
dealer is Dee, the next after Cho with Ben sitting out; round 8's is Cho, the next after Ben,
Dee having left.

Final totals: Eve 72, Cho 69, Ann 65, Dee 63, Ben 57: Eve wins; places Eve 1, Cho 2, Ann 3,
Dee 4, Ben 5. For the group (games ended early count, the group's default), in Blackout: Eve 6
rounds (3 to 8) and 62 points scored (72 less the 10 she started with), 1 finished game and 1
win; Ann 8 rounds, 65 points, no win; Ben 7 rounds (not round 4, which he sat out), 57 points;
Dee 7 rounds, 63 points. The group choosing not to count games ended early leaves this table out
of every number: nobody has a finished game.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from pypdf import PdfReader

from referee.records import load_record
from referee.store.tables import append_entry, get_table, table_state
from tests.e2e.conftest import PHONE, LiveServer
from tests.e2e.helpers import answered
from tests.e2e.test_chips import COUNT_TOUCHES, Counted
from tests.e2e.test_group_season import main_text, number

pytestmark = pytest.mark.e2e

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

SIX = ["Ann", "Ben", "Cho", "Dee", "Eve", "Fay"]
FINAL = {"Ann": 65, "Ben": 57, "Cho": 69, "Dee": 63, "Eve": 72}


def play_round(server: LiveServer, table: str) -> None:
    """The next round as the docstring plays it: the trump (hearts), the bids in the bidding
    order, the tricks to the player left of the dealer."""
    with server.app.app_context():
        record, state = get_table(table), table_state(table)
        assert record is not None and state is not None
        rnd = state.game.upcoming(state)
        assert rnd is not None and rnd.dealer is not None
        seats = list(rnd.seats)
        at = seats.index(rnd.dealer)
        order = seats[at + 1 :] + seats[: at + 1]  # left of the dealer first, the dealer last
        lead, hand = order[0], rnd.hand_size
        events: list[dict[str, Any]] = [
            {"type": "trump", "round": rnd.number, "card": "H"},
            *(
                {"type": "bid", "round": rnd.number, "player": name, "bid": bid}
                for name, bid in ((n, hand if n == lead else 0) for n in order[:-1])
            ),
            {"type": "bid", "round": rnd.number, "player": rnd.dealer, "bid": 1},
            {
                "type": "tricks",
                "round": rnd.number,
                "tricks": {name: hand if name == lead else 0 for name in seats},
            },
        ]
        seq = record.last_seq
        for event in events:
            seq = append_entry(table, seq, "event", event)
        after = table_state(table)
        assert after is not None and not after.violations, after.violations


def totals(server: LiveServer, table: str) -> dict[str, int]:
    with server.app.app_context():
        state = table_state(table)
        assert state is not None
        return dict(state.totals())


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_group_evening_where_people_come_and_go(live_server, phone, shoot) -> None:
    page = phone()
    page.context.add_init_script(COUNT_TOUCHES)
    page.goto(live_server.url("/groups/new"))
    page.get_by_label("Group name").fill("Friday club")
    page.get_by_label("Players, one name per line").fill("\n".join(SIX))
    answered(page, page.get_by_role("button", name="Create group").tap)
    answered(page, page.get_by_role("link", name="Kept: on to the group").tap)
    group_url = page.url

    # Tonight's table, seated as they sit: Ann, Ben, Cho, Dee; Ann deals first (no table yet).
    answered(page, page.get_by_role("link", name=re.compile(r"^Blackout \d")).tap)
    for name in ("Ann", "Ben", "Cho", "Dee"):
        page.get_by_role("checkbox", name=name, exact=True).tap()
    answered(page, page.get_by_role("button", name="Start the table", exact=True).tap)
    table = page.url.rsplit("/", 1)[-1]
    play_round(live_server, table)
    play_round(live_server, table)
    assert totals(live_server, table) == {"Ann": 10, "Ben": 11, "Cho": 22, "Dee": 20}

    # Eve arrives before round 3: three taps and her name, the lowest total to start with.
    page.goto(live_server.url(f"/t/{table}"))  # as the table is now
    counted = Counted(page)
    counted.reset()
    panel = page.locator("details.seat-changes")
    counted.tap(panel.locator("summary"))
    counted.tap(panel.get_by_label("Name"))
    page.keyboard.type("Eve")
    counted.tap(panel.get_by_role("button", name="Seat them from round 3"), sends=True)
    assert counted.taps == 3
    play_round(live_server, table)
    assert totals(live_server, table)["Eve"] == 20  # 10 to start, 10 for her 0 made

    # Ben sits out round 4.
    page.goto(live_server.url(f"/t/{table}"))  # as the table is now
    panel = page.locator("details.seat-changes")
    panel.locator("summary").tap()
    panel.get_by_label("Sits out round 4").select_option(label="Ben")
    answered(page, panel.get_by_role("button", name="Sit out").tap)
    for _ in range(4):  # rounds 4 to 7
        play_round(live_server, table)
    assert totals(live_server, table) == {"Ann": 55, "Ben": 47, "Cho": 69, "Dee": 63, "Eve": 54}

    # Dee leaves after round 7; round 8 is played; the game ends there, in two taps.
    page.goto(live_server.url(f"/t/{table}"))  # as the table is now
    panel = page.locator("details.seat-changes")
    panel.locator("summary").tap()
    panel.get_by_label("Leaves the table (their total stands)").select_option(label="Dee")
    answered(page, panel.get_by_role("button", name="Leave").tap)
    play_round(live_server, table)
    page.goto(live_server.url(f"/t/{table}"))  # as the table is now
    counted.reset()
    end = page.locator("details.end-early:not(.seat-changes)")
    counted.tap(end.locator("summary"))
    counted.tap(end.get_by_role("button", name="End after round 8 of 25"), sends=True)
    assert counted.taps == 2
    expect(page.get_by_text("Ended after round 8 of 25").first).to_be_visible()
    assert totals(live_server, table) == FINAL
    fits(page)
    shoot(page, "game-over-en")

    # The sheet: a column for Eve blank before she came, a dash for Ben's round 4, the line of
    # who came and went, the totals.
    page.goto(live_server.url(f"/t/{table}/sheet"))
    sheet = main_text(page)
    for said in (
        "Winner: Eve",
        "Ended after round 8 of 25",
        "Eve joined left of Dee, starting with 10 (the lowest total)",
        "Ben sat out round 4 4 4 ♥ 0 · 0 10 30 – 0 · 0 10 32",  # a dash for Ben
        "Dee left the table; their total stands",
        "Total 65 57 69 63 72",
    ):
        assert said in sheet, said
    fits(page)
    shoot(page, "sheet-en")

    # The PDF says the same.
    pdf = page.request.get(live_server.url(f"/t/{table}/sheet.pdf"))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
    text = re.sub(r"\s+", " ", text)
    assert "5 players · ended after round 8 of 25" in text
    assert "Who came and went" in text and "Eve" in text

    # The history has each change as an entry of its own.
    page.goto(live_server.url(f"/t/{table}/history"))
    history = main_text(page)
    for said in (
        "Round 8: the game ended after round 8",
        "Round 8: Dee left the table; their total stands",
        "Round 8 · Deals: Cho Ann 10, Ben 10, Cho 0, Eve 18",  # Dee gone
        "Round 4 · Deals: Dee Ann 10, Ben –, Cho 10, Dee 0, Eve 14",  # Ben sat it out
        "Round 2 · Deals: Ben Ann 10, Ben 0, Cho 12, Dee 10 Round 1",  # Eve not there yet
    ):
        assert said in history, said
    page.locator("#history-round-4 summary").tap()
    expect(page.locator("#history-round-4")).to_contain_text("Round 4: Ben sat out round 4")
    page.locator("#history-round-3 summary").tap()
    expect(page.locator("#history-round-3")).to_contain_text("Eve")

    # The record's round trip: the same totals from the record loaded as a new table.
    download = page.request.get(live_server.url(f"/t/{table}/record.json"))
    record = load_record(download.body())
    assert dict(record.replay().totals()) == FINAL

    # The standings and the profiles, worked out by hand above.
    page.goto(group_url + "/standings?season=all")
    standings = main_text(page)
    assert "Eve" in standings and "1/1" in standings
    fits(page)
    shoot(page, "standings-en")
    page.goto(group_url + "/p/p5?game=blackout&season=all")  # Eve
    assert number(page, "Rounds") == "6" and number(page, "Points") == "62"
    assert number(page, "Finished games") == "1" and number(page, "Wins") == "1"
    page.goto(group_url + "/p/p1?game=blackout&season=all")  # Ann
    assert number(page, "Rounds") == "8" and number(page, "Points") == "65"
    assert number(page, "Wins") == "0"
    page.goto(group_url + "/p/p2?game=blackout&season=all")  # Ben
    assert number(page, "Rounds") == "7" and number(page, "Points") == "57"
    page.goto(group_url + "/p/p4?game=blackout&season=all")  # Dee
    assert number(page, "Rounds") == "7" and number(page, "Points") == "63"

    # In German, the same numbers and the same story.
    page.goto(group_url)
    answered(page, page.get_by_role("link", name="Deutsch").tap)
    page.goto(live_server.url(f"/t/{table}/sheet"))
    sheet = main_text(page)
    assert "Nach Runde 8 von 25 beendet" in sheet
    assert "Eve" in sheet and "72" in sheet
    fits(page)
    shoot(page, "sheet-de")
    page.goto(group_url + "/p/p5?game=blackout&season=all")
    assert number(page, "Runden") == "6" and number(page, "Punkte") == "62"
    fits(page)
    shoot(page, "profile-de")

    # Not counting games ended early leaves the table out of every number.
    page.goto(group_url + "/standings?season=all")
    answered(page, page.get_by_role("button", name="Vorzeitig beendete Spiele nicht zählen").tap)
    expect(page.locator("#ended-early")).to_contain_text("zählt in diesen Zahlen nicht")
    shoot(page, "standings-not-counted-de")
    page.goto(group_url + "/p/p5?game=blackout&season=all")
    expect(page.locator("main")).not_to_contain_text("62")
    assert json.loads(download.body())["ended_after"] == 8
