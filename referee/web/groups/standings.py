"""The group's standings and each roster player's profile, per game, for a season or all time,
the statistics document they are rendered from (``/g/<id>/stats.json``), and the standings as a
spreadsheet (``/g/<id>/standings.xlsx``) and a printable season report.

Every number on these pages is a value of the document ``numbers.py`` gives, exactly
``referee.groups.statistics``'s: the pages format it, say what it counts (a tap away: each
number's ``<details>``, or a footnote the heading links to) and never add anything up of their
own. Each page's content is rendered once per group version, tables' positions, language,
season and (a profile) player and game, through the memo; the document itself is kept as
``numbers.py`` says.

Guests have no profile (they are opponents, not the group's players); a retired player keeps
theirs. A table still in play counts its complete rounds (no win, no rating), one that breaks
a rule counts as the table kept it (both are named beside the numbers), and one marked as not
counting is left out and named too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Response, abort, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from referee.groups import Group
from referee.groups.figures import Rating, Statistics
from referee.groups.rating import MODEL_PARAMETERS, placed, shown, shown_rating
from referee.rules import GAMES
from referee.rules.wording import MINUS, number_text
from referee.sheets.season import GameWords, season_report
from referee.web.chart import rated_tables, rating_chart
from referee.web.downloads import (
    XLSX,
    SpreadsheetValue,
    attachment,
    page_from,
    safe_file_name,
    spreadsheet,
)
from referee.web.groups.glance import positions
from referee.web.groups.group import load_group
from referee.web.groups.numbers import (
    Scope,
    chosen_scope,
    game_keys,
    honesty,
    most,
    numbers,
    played_day,
    rivals,
    scopes,
    standings,
    table_id_of,
)
from referee.web.i18n import gettext, translations
from referee.web.language import language
from referee.web.memo import memo
from referee.web.sharing.access import GROUPS


def decimal(value: float | None, places: int = 1) -> str:
    """A number with ``places`` decimals in the reader's language (a decimal comma in German,
    as the command line's table says it); a dash for none."""
    if value is None:
        return "–"
    whole, _, decimals = f"{value:.{places}f}".partition(".")
    text = gettext("%(whole)s.%(decimals)s", whole=whole.lstrip("-"), decimals=decimals)
    return MINUS + text if whole.startswith("-") and value < 0 else text


def percent(rate: float | None) -> str:
    """A rate (0–1) as a whole percentage; a dash for none."""
    if rate is None:
        return "–"
    return gettext("%(percent)s%%", percent=round(rate * 100))


def whole(value: int) -> str:
    """A whole number, a negative one with a minus sign (the app's ``number_text``)."""
    return number_text(value)


def rating_text(rating: Rating | None) -> str:
    """A rating as shown everywhere (``referee.groups.rating.shown_rating``), "27.3 ± 2.1"; a
    dash for none."""
    pair = shown_rating(rating)
    if pair is None:
        return "–"
    return f"{decimal(pair[0])}\u00a0±\u00a0{decimal(pair[1])}"  # never broken


def rating_value(rating: Rating | None) -> str:
    """The rating alone, as shown (its ± apart); a dash for none."""
    pair = shown_rating(rating)
    return "–" if pair is None else decimal(pair[0])


def rating_sigma(rating: Rating | None) -> str:
    """A rating's ± alone, as shown; a dash for none."""
    pair = shown_rating(rating)
    return "–" if pair is None else decimal(pair[1])


def end_label(rating: Rating | None) -> str:
    """A rating where its line ends on the chart: the rating alone (room is short)."""
    pair = shown_rating(rating)
    return "" if pair is None else decimal(pair[0])


def formats() -> dict[str, Any]:
    """What the templates format numbers with."""
    return {
        "decimal": decimal,
        "percent": percent,
        "whole": whole,
        "rating_text": rating_text,
        "rating_value": rating_value,
        "rating_sigma": rating_sigma,
        "start_mu": decimal(shown(float(MODEL_PARAMETERS["mu"]))),
        "start_sigma": decimal(shown(float(MODEL_PARAMETERS["sigma"]))),
    }


def part(group: Group, scope: Scope, what: tuple[object, ...], render: Callable[[], str]) -> Markup:
    """A page's content, rendered once per group version, tables' positions, language, scope
    and ``what`` (the page and its subject)."""
    key = (
        *(what, group.id, group.version, positions(group), language(), scope.value),
        request.script_root,
    )
    return memo("groups", key, lambda: Markup(render()))


def scope_args(scope: Scope, chosen: bool) -> dict[str, str]:
    """The query that keeps the scope in a link: none when it is the default."""
    return {"season": scope.value} if chosen else {}


# --- the standings -------------------------------------------------------------------------


def standings_page(group_id: str) -> ResponseReturnValue:
    """Each game's standings of the season asked for (``?season=``), the current one, or all
    time."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    scope = chosen_scope(group)
    chosen = "season" in request.args

    def render() -> str:
        doc = numbers(group, scope)
        games = []
        for game, figures in doc.games.items():
            ranked = standings(figures)
            shown = {pid: (f.name, end_label(f.rating)) for pid, f in ranked}
            games.append(
                {
                    "name": game,
                    "title": GAMES[game].title,
                    "figures": figures,
                    "ranked": ranked,
                    "placed": placed(ranked),
                    "honesty": honesty(group, scope, game, doc),
                    "chart": rating_chart(ranked, rated_tables(figures.players), shown),
                }
            )
        quiet = [
            (name, game.title, honesty(group, scope, name, doc))
            for name, game in GAMES.items()
            if name not in doc.games
        ]
        idle = [
            player
            for player in group.players
            if not player.retired
            and not any(player.id in figures.players for figures in doc.games.values())
        ]
        return render_template(
            "groups/_standings.html",
            idle=idle,
            group=group,
            scope=scope,
            scopes=scopes(group),
            doc=doc,
            games=games,
            quiet=[q for q in quiet if q[2].not_counted or q[2].ended],
            args=scope_args(scope, chosen),
            **formats(),
        )

    return render_template(
        "groups/standings.html",
        group=group,
        keeper=GROUPS.keeps(group_id),
        scope=scope,
        content=part(group, scope, ("standings", chosen), render),
    )


#: The standings spreadsheet's numbers shown as the page shows them (by column): the rating and
#: its uncertainty with one decimal (the figures the page shows and ranks by), the win rate as a
#: percentage, the average place with two.
STANDINGS_FORMATS = {3: "0.0", 4: "0.0", 7: "0%", 8: "0.00"}


def standings_table(doc: Statistics) -> list[list[SpreadsheetValue]]:
    """Every game's standings in one table, in the request's language: the header, then each
    game's players in the page's order and places with the page's numbers (the statistics
    document's, whole: a spreadsheet rounds them only as it shows them, ``STANDINGS_FORMATS``;
    but the rating and its ±, which the standings rank by, as shown:
    ``referee.groups.rating.shown_rating``); an empty cell for a number the page shows as a
    dash."""
    lines: list[list[SpreadsheetValue]] = [
        [
            gettext("Game"),
            gettext("Place"),
            gettext("Player"),
            gettext("Rating"),
            gettext("Uncertainty"),
            gettext("Wins"),
            gettext("Finished games"),
            gettext("Win rate"),
            gettext("Avg place"),
        ]
    ]
    for game, figures in doc.games.items():
        for place, _pid, player in placed(standings(figures)):
            rating, sigma = shown_rating(player.rating) or (None, None)
            lines.append(
                [
                    GAMES[game].title,
                    place,
                    player.name,
                    rating,
                    sigma,
                    player.wins,
                    player.complete,
                    player.win_rate,
                    player.average_place,
                ]
            )
    return lines


def standings_xlsx(group_id: str) -> ResponseReturnValue:
    """The standings of the season asked for (``?season=``), the current one, or all time, as a
    spreadsheet (``.xlsx``): a row per game and player, the sheet named in the reader's
    language."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    scope = chosen_scope(group)
    rows = standings_table(numbers(group, scope))
    body = spreadsheet(gettext("Standings"), rows, STANDINGS_FORMATS)
    return attachment(
        body, XLSX, safe_file_name("group", group_id[:8], scope.value, "standings.xlsx")
    )


def stats_json(group_id: str) -> ResponseReturnValue:
    """The statistics document the standings and profiles of the scope are rendered from:
    ``python -m referee stats --json`` of the group's file (``/g/<id>/group.json``)."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    doc = numbers(group, chosen_scope(group)).document()
    body = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    response = Response(body, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


# --- a player's profile --------------------------------------------------------------------


def profile(group_id: str, player_id: str) -> ResponseReturnValue:
    """A roster player's numbers in one game (``?game=``; the first they have numbers in),
    for the season asked for, the current one, or all time."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    player = group.player(player_id)
    if player is None:
        abort(404, description=gettext("That player is not on the group's roster."))
    scope = chosen_scope(group)
    chosen = "season" in request.args
    doc = numbers(group, scope)
    played = [g for g, figures in doc.games.items() if player_id in figures.players]
    game = request.args.get("game") or (played[0] if played else next(iter(GAMES)))
    if game not in GAMES:
        abort(404, description=gettext("There is no such game."))

    def render() -> str:
        of_game = doc.games.get(game)
        figures = None if of_game is None else of_game.players.get(player_id)
        chart = None
        if of_game is not None and figures is not None and figures.rating:
            shown = {player_id: (player.name, end_label(figures.rating))}
            tables = rated_tables(of_game.players)
            chart = rating_chart([(player_id, figures)], tables, shown, band=True)
        found = rivals(group, figures) if figures is not None else []
        ranked = standings(of_game) if of_game is not None and figures is not None else []
        place = next((n for n, pid, _f in placed(ranked) if pid == player_id), None)
        return render_template(
            "groups/_profile.html",
            group=group,
            player=player,
            game=game,
            title=GAMES[game].title,
            games=[(name, g.title, name in played) for name, g in GAMES.items()],
            scope=scope,
            scopes=scopes(group),
            figures=figures,
            place=place,
            ranked_count=len(ranked),
            tables=0 if of_game is None else of_game.tables,
            keys=game_keys(game),
            rivals=found,
            ahead=most(found, "ahead"),
            behind=most(found, "behind"),
            chart=chart,
            table_of=lambda number: table_id_of(group, number),
            day_of=played_day,
            args=scope_args(scope, chosen),
            **formats(),
        )

    return render_template(
        "groups/profile.html",
        group=group,
        keeper=GROUPS.keeps(group_id),
        player=player,
        title=GAMES[game].title,
        content=part(group, scope, ("profile", chosen, player_id, game), render),
    )


# --- the printable season report -----------------------------------------------------------


def report_pdf(group_id: str) -> ResponseReturnValue:
    """The season's report as PDF (``referee.sheets.season``): the standings per game, each
    player's line and the rating chart, from the same document as the pages."""
    GROUPS.require(group_id)
    group = load_group(group_id)
    scope = chosen_scope(group)
    page = page_from(request.args)

    def make() -> bytes:
        doc = numbers(group, scope)
        games = {
            game: GameWords(
                GAMES[game].title,
                [(key, label) for key, label, _sentence in game_keys(game)],
                [pid for pid, _figures in standings(figures)],
            )
            for game, figures in doc.games.items()
        }
        return season_report(doc, games, page, words=translations())

    key = ("report", group.id, group.version, positions(group), scope.value, page, language())
    body = memo("pdfs", key, make)
    name = safe_file_name("group", group_id[:8], scope.value, "report.pdf")
    return attachment(body, "application/pdf", name)
