"""Accessibility of every main screen, measured in Chromium as a phone shows it.

- Every button, input and select has an accessible name, as Chromium's accessibility tree
  computes it (a label, aria-label or text), so a screen reader says what it does.
- The score sheet is a real ``<table>`` with ``<th scope>`` headers.
- At 200 % text zoom (a 360 px phone showing 180 CSS px across) no page scrolls sideways and
  nothing in the main content sticks out, except inside the score sheet's own scroll box.
- Text contrast is at least 4.5:1 (WCAG AA) in light and in dark mode: the computed colour of
  every piece of visible text (body text, hints, links, buttons, error messages, flashes)
  against the background it is drawn on, after opacity. Disabled buttons are exempt (WCAG 1.4.3).

The screens are set up through the store (the journeys test the taps); each is then reached in
the browser as a person would see it, errors included. A table opens only through one of its
links, so the phone first opens one (``/j#<token>``, made with ``tests/links.py``): the
scorekeeper link, or the spectator link for the spectator's screen. Each screen is reached once
and checked on the phone that shows it: light, then dark (its colour scheme switched, as the
phone's setting does), then at 200 % zoom (half its CSS pixels across).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from referee.rules import Setup, start
from referee.store.tables import append_entry, create_table
from tests.durability.legal import next_entry
from tests.e2e.conftest import PHONE, LiveServer
from tests.e2e.helpers import answered, chip
from tests.links import new_link

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips these tests (fails them with REQUIRE_BROWSER=1)
    expect = None

pytestmark = pytest.mark.e2e

#: The minimum contrast ratio of text (WCAG 2 AA, 1.4.3).
CONTRAST = 4.5
#: The minimum contrast of a graphical object against what is around it (WCAG 2 AA, 1.4.11):
#: the blacked-out mark on the sheet.
SHAPE_CONTRAST = 3.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("a11y")) as live:
        yield live


def open_link(page: Any, server: LiveServer, table: str, kind: str = "keeper") -> str:
    """Open a new ``kind`` link to the table on ``page``'s phone, which then shows the table;
    the table's address."""
    url = server.url(f"/t/{table}")
    page.goto(server.url(f"/j#{new_link(server.app, table, kind)}"))
    expect(page).to_have_url(url)
    return url


def played_table(server: LiveServer, game: str, step: str, rounds: int, **options: Any) -> str:
    """A new table played (legally, at random but repeatably) up to its first ``step`` action
    after ``rounds`` complete rounds; its id."""
    setup = Setup(game, ("Ann", "Ben", "Cho"), options)
    rng = random.Random(7)
    with server.app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (now := state.next_step()) is not None:
            if now.action == step and now.round > rounds:
                return table
            event, state = next_entry(state, rng) or pytest.fail("the game ended")
            seq = append_entry(table, seq, "event", event.to_dict())
    raise AssertionError(f"no {step} step after round {rounds}")


def table_at(
    page: Any, server: LiveServer, game: str, step: str, *, rounds: int = 0, **options: Any
) -> str:
    """A table played up to ``step`` (``played_table``), open on ``page``'s phone as its
    scorekeeper; its address."""
    return open_link(page, server, played_table(server, game, step, rounds, **options))


# --- the screens -------------------------------------------------------------------------------

#: A screen takes a page and the server and leaves the page showing the screen.
Screen = Callable[[Any, LiveServer], None]


def home_with_a_table(page: Any, server: LiveServer) -> None:
    table_at(page, server, "blackout", "bid")  # the home page lists the tables seen
    page.goto(server.url("/"))


def new_table_of(game: str) -> Screen:
    def screen(page: Any, server: LiveServer) -> None:
        page.goto(server.url("/new"))
        page.get_by_role("radio", name=game).check()

    return screen


def new_table_refused(page: Any, server: LiveServer) -> None:
    page.goto(server.url("/new"))
    page.get_by_role("textbox", name="1 Seat 1").fill("Ann")
    page.get_by_label("Most cards in a hand").fill("many")
    page.get_by_role("button", name="Create table").click()
    expect(page.get_by_role("alert")).to_be_visible()


def at_step(
    game: str, step: str, rounds: int = 0, **options: Any
) -> Callable[[Any, LiveServer], None]:
    def screen(page: Any, server: LiveServer) -> None:
        table_at(page, server, game, step, rounds=rounds, **options)

    return screen


def blackout_hook(page: Any, server: LiveServer) -> None:
    """The dealer's turn to bid, one bid disabled with its reason."""
    table_at(page, server, "blackout", "bid")
    buttons = page.locator("section[aria-labelledby=next-title] button:enabled")
    for _ in range(2):
        answered(page, buttons.first.click)
    expect(page.locator("button:disabled")).to_have_count(1)


def tricks_refused(page: Any, server: LiveServer) -> None:
    table_at(page, server, "blackout", "play", rounds=2)
    for player in ("Ann", "Ben", "Cho"):  # round 3: three tricks, not nine
        chip(page, player, 3).tap()
    page.get_by_role("button", name="Enter the tricks").click()
    expect(page.get_by_role("alert")).to_be_visible()


def ebbes_cards_won(page: Any, server: LiveServer) -> None:
    table_at(page, server, "ebbes", "play")
    cards = page.locator("section[aria-labelledby=next-title] .choices button")
    for _ in range(4):
        answered(page, cards.first.click)
    expect(page.get_by_role("button", name="Enter the cards won")).to_be_visible()


def chips_tapped(game: str, rounds: int, where: str = "") -> Screen:
    """The count chips of ``game``'s play step after ``rounds`` rounds, Ann's first one tapped
    (a chosen chip is drawn in other colours)."""

    def screen(page: Any, server: LiveServer) -> None:
        table_at(page, server, game, "play", rounds=rounds)
        panel = page.locator("section[aria-labelledby=next-title]")
        if game == "ebbes":
            for _ in range(4):  # the roles, then the cards won
                answered(page, panel.locator(".choices button").first.click)
            panel = panel.get_by_role("group", name=re.compile("^yellow"))
        chip(panel, "Ann", 1).tap()
        expect(chip(panel, "Ann", 1)).to_be_checked()

    return screen


def card_picker(game: str) -> Screen:
    """The card picker of ``game``'s first round, recorded card by card."""

    def screen(page: Any, server: LiveServer) -> None:
        page.goto(table_at(page, server, game, "play") + "?mode=cards")
        expect(page.locator(".picker button").first).to_be_visible()

    return screen


def trick_tool(query: str) -> Screen:
    """Who wins this trick: a trick tapped, its trump chosen, the answer shown."""

    def screen(page: Any, server: LiveServer) -> None:
        page.goto(server.url(f"/tools/trick?{query}"))
        expect(page.locator("#answer")).to_be_visible()

    return screen


def undone_with_history(page: Any, server: LiveServer) -> None:
    """An undo (its flash message), then the history with the undone entry struck out."""
    table_at(page, server, "alles-oder-nichts", "declare", rounds=1)
    page.get_by_role("button", name="Undo the last entry").click()
    expect(page.locator(".flash")).to_be_visible()


def history(page: Any, server: LiveServer) -> None:
    undone_with_history(page, server)
    page.get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", name="History: Alles oder Nichts")).to_be_visible()


def amend_tricks(page: Any, server: LiveServer) -> None:
    history(page, server)
    # The newest entry (the history is newest first): the tricks.
    page.goto(server.url(page.get_by_role("link", name="Correct").first.get_attribute("href")))
    expect(page.get_by_role("button", name="Save the correction")).to_be_visible()


def amend_refused(page: Any, server: LiveServer) -> None:
    amend_tricks(page, server)
    first = page.locator("fieldset.chip-row").first  # another count for the first player:
    first.locator(".chip:not(:has(input:checked))").first.click()  # the tricks no longer add up
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("alert")).to_be_visible()


def game_over(page: Any, server: LiveServer) -> None:
    setup = Setup("blackout", ("Ann", "Ben"), {"max_cards": 1})
    rng = random.Random(3)
    with server.app.app_context():
        table, state, seq = create_table(setup), start(setup), 0
        while (entry := next_entry(state, rng)) is not None:
            event, state = entry
            seq = append_entry(table, seq, "event", event.to_dict())
    open_link(page, server, table)
    expect(page.locator(".winner")).to_be_visible()


def score_sheet(page: Any, server: LiveServer) -> None:
    """The sheet of a table two rounds into the game (it must be there: checked at once)."""
    table = table_at(page, server, "alles-oder-nichts", "trump", rounds=2)
    page.goto(table + "/sheet")
    assert page.locator("table.sheet").count() == 1, "the score sheet is not shown as a table"


def share(page: Any, server: LiveServer) -> None:
    """The share page with a spectator and a scorekeeper link shown (QR codes and text)."""
    table_at(page, server, "alles-oder-nichts", "declare")
    page.get_by_role("link", name="Share", exact=True).click()
    for button in ("Make a spectator link", "Make a scorekeeper link"):
        with page.expect_navigation():
            page.get_by_role("button", name=button).click()
    expect(page.locator("#keeper-link")).to_be_visible()


def spectator(page: Any, server: LiveServer) -> None:
    """A table as a spectator's phone shows it: no controls, a line saying who records."""
    open_link(page, server, played_table(server, "blackout", "bid", 1), "viewer")
    expect(page.get_by_text("this page follows along")).to_be_visible()


def round_scored(page: Any, server: LiveServer) -> None:
    """The round screen right after a round is scored: its summary above the next round."""
    table_at(page, server, "blackout", "trump", rounds=1)
    expect(page.get_by_role("heading", name="Round 1 scored")).to_be_visible()


def standings(page: Any, server: LiveServer) -> None:
    """The standings and the score chart two rounds into the game."""
    table = table_at(page, server, "alles-oder-nichts", "trump", rounds=2)
    page.goto(table + "/standings")
    expect(page.get_by_role("img", name="Running totals after each round")).to_be_visible()


def tv_mode(page: Any, server: LiveServer) -> None:
    """TV mode during round 3's bids: the totals, the round being played, the sheet."""
    table = table_at(page, server, "blackout", "bid", rounds=2)
    page.goto(table + "/tv")
    expect(page.locator(".tv-now")).to_be_visible()


def more_menu(page: Any, server: LiveServer) -> None:
    """The tab bar's "More" opened: the downloads, TV mode and the rules."""
    table_at(page, server, "ebbes", "number")
    page.get_by_text("More", exact=True).click()
    expect(page.get_by_role("link", name="Rules")).to_be_visible()


def paper_page(page: Any, server: LiveServer) -> None:
    """A table not begun, its paper card page: the card to print, the photo to take."""
    page.goto(table_at(page, server, "blackout", "trump", max_cards=2) + "/paper")


def paper_confirm(page: Any, server: LiveServer) -> None:
    """A hard photo of a filled-in card read: the questions with their cut-outs, the rounds."""
    from tests.paper.photos import Shot, card_photo
    from tests.tools import tool

    tool("pdftoppm")
    setup = Setup("blackout", ("Ann", "Ben", "Cho"), {"max_cards": 2})
    shot = Shot(tilt=28, turn=170, blur=1.2, light=0.45, shadow=True, quality=60, side=1800)
    data, _values = card_photo(random.Random(5), setup, shot)
    paper_page(page, server)
    photo = {"name": "card.jpg", "mimeType": "image/jpeg", "buffer": data}
    page.locator("input#photo").set_input_files(photo)
    page.get_by_role("button", name="Read the card").click()
    expect(page.get_by_role("heading", name="Check the card")).to_be_visible()


def not_found(page: Any, server: LiveServer) -> None:
    page.goto(server.url("/t/no-such-table"))


def upload_refused(page: Any, server: LiveServer) -> None:
    page.goto(server.url("/"))
    bad = {"name": "not-a-record.json", "mimeType": "application/json", "buffer": b"not JSON"}
    page.get_by_label("Game record (.json)").set_input_files(bad)
    page.get_by_role("button", name="Load record").click()
    expect(page.get_by_role("alert")).to_be_visible()


def group_with_tables(page: Any, server: LiveServer) -> tuple[str, str]:
    """A group of five with tonight's Blackout table (Ann, Ben, a guest) two rounds in, opened
    on ``page`` with a keeper link; the group's and the table's id."""
    from referee.store.groups import attach_table, create_group, make_group_link

    table = played_table(server, "blackout", "bid", 2, max_cards=3)
    with server.app.app_context():
        group = create_group("Friday club", "Europe/Berlin", ("Ann", "Ben", "Dee", "Eve", "Fay"))
        attach_table(group, table, {"Ann": "p1", "Ben": "p2", "Cho": None})
        token = make_group_link(group, "keeper")
    page.goto(server.url(f"/j#{token}"))
    expect(page).to_have_url(server.url(f"/g/{group}"))
    return group, table


def group_page(page: Any, server: LiveServer) -> None:
    """The group page: tonight's table with who leads, the roster, seasons."""
    group_with_tables(page, server)
    expect(page.get_by_role("heading", name=re.compile("^Tonight"))).to_be_visible()


def group_start(page: Any, server: LiveServer) -> None:
    """Starting a table from the group: a refusal, the chips tapped kept."""
    group, _table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/new?game=blackout"))
    page.get_by_role("checkbox", name="Ann", exact=True).check()
    answered(page, page.get_by_role("button", name="Start the table", exact=True).click)
    expect(page.get_by_role("alert")).to_be_visible()


def group_roster(page: Any, server: LiveServer) -> None:
    """The roster with a rename refused beside its player's form."""
    group, _table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/roster"))
    page.locator("summary", has_text="Ann").click()
    page.locator("details[open]").get_by_label("Name").fill("ben")
    answered(page, page.locator("details[open]").get_by_role("button", name="Rename").click)
    expect(page.get_by_role("alert")).to_be_visible()


def group_table(page: Any, server: LiveServer) -> None:
    """A table the group keeps: its seats, a guest to merge, counting and letting go."""
    group, table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/t/{table}"))
    expect(page.get_by_role("button", name="Merge into the roster")).to_be_visible()


def group_keeper_link(page: Any, server: LiveServer) -> None:
    """A keeper's own keeper link to keep: its QR code, copy and share."""
    group, _table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/my-link"))
    expect(page.locator("#keeper-link")).to_be_visible()


def group_seats(page: Any, server: LiveServer) -> None:
    """Starting a table from the group: four tapped, their seats listed, one moved."""
    group, _table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/new?game=blackout"))
    for name in ("Dee", "Ann", "Eve", "Ben"):
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Move Eve up", exact=True).click()
    expect(page.locator("#seating li")).to_have_count(4)


def no_link(page: Any, server: LiveServer) -> None:
    """A phone without a link to a group that is there: what to do."""
    group, _table = group_with_tables(page, server)
    page.context.clear_cookies()
    page.goto(server.url(f"/g/{group}"))
    expect(page.get_by_role("heading", name="What to do")).to_be_visible()


def group_share(page: Any, server: LiveServer) -> None:
    """The group's share page with its group link and a keeper link shown."""
    group, _table = group_with_tables(page, server)
    page.goto(server.url(f"/g/{group}/share"))
    for button in ("Make a group link", "Make a keeper link"):
        with page.expect_navigation():
            page.get_by_role("button", name=button).click()
    expect(page.locator("#keeper-link")).to_be_visible()


def friday_club(page: Any, server: LiveServer) -> str:
    """The Friday club (``tests/groups/friday-club.json``) loaded from its file on ``page``;
    the group's address."""
    from pathlib import Path

    page.goto(server.url("/groups/import"))
    club = Path(__file__).resolve().parents[1] / "groups" / "friday-club.json"
    page.get_by_label("Group file (.json)").set_input_files(str(club))
    page.get_by_role("button", name="Load the group").click()
    expect(page.locator(".flash")).to_be_visible(timeout=60_000)  # loaded by its own process
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+/my-link\?made=1$"))  # keep it
    return page.url.split("/my-link", 1)[0]


def group_standings(page: Any, server: LiveServer) -> None:
    """A group's standings for all time: every game's table, the notes, the rating charts."""
    page.goto(friday_club(page, server) + "/standings?season=all")


def group_profile(page: Any, server: LiveServer) -> None:
    """A player's profile: every number, one opened, the chart, the head-to-head."""
    page.goto(friday_club(page, server) + "/p/p1?game=blackout&season=all")
    page.locator("details#rating summary").click()


def group_import_refused(page: Any, server: LiveServer) -> None:
    page.goto(server.url("/groups/import"))
    bad = {"name": "group.json", "mimeType": "application/json", "buffer": b"[]"}
    page.get_by_label("Group file (.json)").set_input_files(bad)
    page.get_by_role("button", name="Load the group").click()
    expect(page.get_by_role("alert")).to_be_visible(timeout=60_000)


SCREENS: dict[str, Screen] = {
    "home": home_with_a_table,
    "new-blackout": new_table_of("Blackout · 2–8 players"),
    "new-alles": new_table_of("Alles oder Nichts · 3–6 players"),
    "new-ebbes": new_table_of("ebbes · 3–5 players"),
    "new-refused": new_table_refused,
    "blackout-trump": at_step("blackout", "trump"),
    "blackout-hook": blackout_hook,
    "blackout-tricks-refused": tricks_refused,
    "alles-declare": at_step("alles-oder-nichts", "declare"),
    "alles-reveal": at_step("alles-oder-nichts", "reveal"),
    "ebbes-number": at_step("ebbes", "number"),
    "ebbes-designate": at_step("ebbes", "play"),
    "ebbes-cards-won": ebbes_cards_won,
    "ebbes-starter": at_step("ebbes", "starter", rounds=1),
    "ebbes-designators": at_step("ebbes", "designators", variant="placed-designators"),
    "alles-trump": at_step("alles-oder-nichts", "trump"),
    "blackout-chips": chips_tapped("blackout", rounds=2),
    "ebbes-chips": chips_tapped("ebbes", rounds=0),
    "blackout-picker": card_picker("blackout"),
    "alles-picker": card_picker("alles-oder-nichts"),
    "ebbes-picker": card_picker("ebbes"),
    "trick-blackout": trick_tool("game=blackout&trump=H&card1=10S&card2=QH&card3=2D"),
    "trick-ebbes": trick_tool("game=ebbes&trump=yellow&card1=red-5&card2=yellow-3&card3=purple-1"),
    "undone": undone_with_history,
    "history": history,
    "amend": amend_tricks,
    "amend-refused": amend_refused,
    "game-over": game_over,
    "sheet": score_sheet,
    "share": share,
    "spectator": spectator,
    "round-scored": round_scored,
    "standings": standings,
    "tv": tv_mode,
    "more-menu": more_menu,
    "paper": paper_page,
    "paper-confirm": paper_confirm,
    "not-found": not_found,
    "upload-refused": upload_refused,
    "group": group_page,
    "group-start-refused": group_start,
    "group-roster-refused": group_roster,
    "group-table": group_table,
    "group-share": group_share,
    "group-keeper-link": group_keeper_link,
    "group-seats": group_seats,
    "no-link": no_link,
    "group-standings": group_standings,
    "group-profile": group_profile,
    "group-import-refused": group_import_refused,
}


def show(name: str, page: Any, server: LiveServer) -> None:
    """Bring ``page`` to the screen ``name``, with its stylesheet and script loaded."""
    SCREENS[name](page, server)
    page.wait_for_load_state("load")


# --- the checks, run in the page ---------------------------------------------------------------

CONTROLS = "button, input:not([type=hidden]), select, textarea, summary, a[href]"


def nameless_controls(page: Any) -> tuple[int, list[str]]:
    """How many controls Chromium exposes to assistive technology, and those without a name."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": CONTROLS})["nodeIds"]
        exposed, nameless = 0, []
        for node_id in ids:
            nodes = cdp.send(
                "Accessibility.getPartialAXTree", {"nodeId": node_id, "fetchRelatives": False}
            )["nodes"]
            node = nodes[0]
            if node.get("ignored"):
                continue  # hidden from everyone (display:none, hidden, aria-hidden)
            exposed += 1
            if not str(node.get("name", {}).get("value", "")).strip():
                html = cdp.send("DOM.getOuterHTML", {"nodeId": node_id})["outerHTML"]
                nameless.append(f"{node['role']['value']}: {html[:160]}")
        return exposed, nameless
    finally:
        cdp.detach()


OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width + 1)
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  for (const el of document.querySelectorAll("main *")) {
    if (el.closest(".sheet-wrap, .history-wrap")) continue;  // tables scroll in their own box
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right <= 0) continue;   // moved off-screen on purpose (the hidden default button)
    if (box.right > width + 1 || box.left < -1) {
      const text = (el.innerText || el.value || "").trim().slice(0, 40);
      out.push(`<${el.tagName.toLowerCase()} class="${el.className}"> "${text}" ` +
               `spans ${Math.round(box.left)}…${Math.round(box.right)} of ${width}`);
    }
  }
  return out;
}"""


#: WCAG's contrast ratio of two colours ([r, g, b, …] 0–255), as a piece of the scripts below.
RATIO_JS = """  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
"""

CONTRAST_JS = (
    """(minimum) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([\\d.]+)[ ,]+([\\d.]+)[ ,]+([\\d.]+)(?:[ ,/]+([\\d.]+%?))?\\)/);
    if (!m) throw new Error("unreadable colour " + text);
    let a = m[4] === undefined ? 1 : parseFloat(m[4]) / (m[4].endsWith("%") ? 100 : 1);
    return [+m[1], +m[2], +m[3], a];
  };
  const over = (top, bottom) => {   // top (with alpha) drawn over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const background = (el) => {      // the opaque colour behind el: its backgrounds, stacked
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];  // the canvas, if nothing is opaque
    if (layers.length && layers[layers.length - 1][3] >= 1) colour = layers.pop();
    while (layers.length) colour = over(layers.pop(), colour);
    return colour;
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    return o;
  };
"""
    + RATIO_JS
    + """  const checked = [], poor = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = el.matches("input:not([type=hidden],[type=checkbox],[type=radio]), select");
    if (!own && !field) continue;
    if (el.closest("[hidden], .visually-hidden, [aria-hidden=true], option, script")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (el.closest(":disabled")) continue;  // inactive controls are exempt (WCAG 1.4.3)
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    const bg = background(el);
    const fg = parse(style.color);
    const text = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const r = ratio(text, bg);
    const what = `<${el.tagName.toLowerCase()} class="${el.className}"> ` +
                 `"${(el.innerText || el.value || el.placeholder || "").trim().slice(0, 30)}"`;
    checked.push(what);
    const behind = `rgb(${bg.slice(0, 3).map(Math.round)})`;
    if (r < minimum) poor.push(`${what}: ${r.toFixed(2)}:1 (${style.color} on ${behind})`);
  }
  return {checked: checked.length, poor: poor,
          errors: document.querySelectorAll(".error-box, .field-error, .flash").length};
}"""
)


#: The contrast of each blacked-out mark on the sheet against the cell it sits in, and of its
#: text against the mark (CONTRAST_JS's colour arithmetic, on the mark's own background).
BLOB_JS = (
    """() => {
  const parse = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
"""
    + RATIO_JS
    + """  const opaque = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (!/rgba\\(.*,\\s*0\\)$/.test(c) && c !== "transparent") return parse(c);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll(".sheet a.blacked")].map((blob) => ({
    around: ratio(parse(getComputedStyle(blob).backgroundColor), opaque(blob.parentElement)),
    text: ratio(parse(getComputedStyle(blob).color), parse(getComputedStyle(blob).backgroundColor)),
  }));
}"""
)


# --- the tests ---------------------------------------------------------------------------------


def screens() -> list[str]:
    """Every screen, as the tests' parameter."""
    return list(SCREENS)


@pytest.mark.parametrize("screen", screens())
def test_every_screen_is_named_readable_and_zoomable(screen, server, phone, shoot):
    """Each screen, set up once on one phone, is checked as light, then dark (the phone's
    colour scheme switched), then at 200 % zoom; every check runs and every finding is said."""
    page = phone()
    show(screen, page, server)
    problems: list[str] = []

    exposed, nameless = nameless_controls(page)
    if screen not in ("not-found", "history", "spectator", "standings"):  # pages of links only
        assert exposed > 0, "no controls found: the check would be empty"
    problems += [f"without a name: {control}" for control in nameless]

    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        found = page.evaluate(CONTRAST_JS, CONTRAST)
        assert found["checked"] > 3, "too little text found: the check would be empty"
        if "refused" in screen or screen in ("undone", "not-found"):
            assert found["errors"] > 0, "the error message to check is not on the page"
        problems += [f"contrast below {CONTRAST}:1 ({scheme}): {poor}" for poor in found["poor"]]

    # 200 % text zoom: half the CSS pixels across (as ``phone(zoom=2)``; the device pixels per
    # CSS pixel, which only sharpen the picture, stay as they are).
    page.set_viewport_size({"width": PHONE["width"] // 2, "height": PHONE["height"] // 2})
    assert page.evaluate("document.documentElement.clientWidth") == PHONE["width"] // 2
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow:
        shoot(page, "zoom-200")
    problems += [f"sticks out at 200 % zoom: {what}" for what in overflow]
    assert not problems, "\n".join(problems)


def test_the_score_sheet_is_a_real_table_with_headers(server, phone):
    page = phone()
    show("sheet", page, server)
    table = page.get_by_role("table", name="Score sheet")
    expect(table).to_be_visible()
    columns = table.locator("thead th")
    # The round (its cards and trump in its cell, the dealer marked in theirs), then a column
    # per player.
    assert columns.count() >= 1 + 3
    for header in columns.all():
        assert header.get_attribute("scope") == "col"
    rows = table.locator("tbody tr.round-row")  # not the explanations' rows below them
    assert rows.count() == 2
    for row in rows.all():
        assert row.locator(":scope > *").first.evaluate("e => e.tagName") == "TH"
        assert row.locator(":scope > th").first.get_attribute("scope") == "row"
    assert table.locator("tfoot th").get_attribute("scope") == "row"
    # At 200 % zoom only the sheet's own box scrolls sideways, not the page.
    zoomed = phone(zoom=2)
    show("sheet", zoomed, server)
    assert zoomed.evaluate(OVERFLOW_JS) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_blacked_out_mark_stands_out_from_the_sheet(scheme, server, phone, shoot):
    """Issue 33: in dark mode the blackout mark was black on near-black. It keeps 3:1 against
    the cell it is in (a graphical object), and its number 4.5:1 against the mark."""
    page = phone(color_scheme=scheme)
    url = open_link(page, server, played_table(server, "blackout", "trump", rounds=4))
    page.goto(url + "/sheet")
    blobs = page.evaluate(BLOB_JS)
    assert blobs, "no blacked-out mark on the sheet: the check would be empty"
    shoot(page, f"blacked-{scheme}")
    for blob in blobs:
        assert blob["around"] >= SHAPE_CONTRAST, blob
        assert blob["text"] >= CONTRAST, blob
