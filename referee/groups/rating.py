"""Each roster player's rating in one game, from the places of its complete games
(docs/group-format.md, "The rating").

The rating is openskill's Weng-Lin Plackett-Luce model with its parameters fixed here
(``MODEL_PARAMETERS``; the library is pinned in requirements.txt), so the same tables give the
same numbers everywhere. Every roster player starts at mu 25, sigma 25/3. The complete tables are
taken in the order they were played (``referee.groups.stats.in_order``), each a free-for-all of
its seats ranked by place (tied players share a place: a draw between them). A guest takes part
as an anonymous opponent: a new player of the starting rating at every table, forgotten after
it. A table without roster players rates nobody, nor does one of a single player (which breaks
its game's rules). The ``ordinal`` given is mu − 3 sigma, the skill the player is 99.7 % likely
to have at least; the JSON keeps it, the app ranks by the rating as shown.

**The rating as people see it** is ``mu``, and nothing else: the web's standings and profiles,
the season report, the spreadsheet and the command line's table all show it with ``shown``
(``mu`` and ``sigma`` to one decimal, a half rounded up), as "26.6 ± 8.0", and rank by exactly
those figures (``standing_key``): the higher rating first; of equal ratings as shown, the
smaller ± first, then the more finished games; players equal in all three share a place
(``placed``) and are listed in roster order; players without a rating come last.

>>> shown(26.55), shown(26.549), shown(-0.05)
(26.6, 26.5, -0.1)
>>> model().mu, round(model().sigma, 4), round(model().beta, 4)
(25.0, 8.3333, 4.1667)
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TypedDict

from openskill.models import PlackettLuce, PlackettLuceRating

from referee.groups.facts import CountedTable
from referee.groups.figures import PlayerFigures, Rating, RatingPoint

__all__ = [
    "MODEL_PARAMETERS",
    "ORDINAL_Z",
    "SHOWN_DECIMALS",
    "model",
    "placed",
    "ratings",
    "shown",
    "shown_rating",
    "standing_key",
]


class Parameters(TypedDict):
    """The rating model's parameters (openskill's names)."""

    mu: float
    sigma: float
    beta: float
    kappa: float
    tau: float
    margin: float
    limit_sigma: bool
    balance: bool


#: The model's parameters, all of them given (the library's defaults today), so that a new
#: default in the library changes no rating.
MODEL_PARAMETERS: Parameters = {
    "mu": 25.0,
    "sigma": 25.0 / 3.0,
    "beta": 25.0 / 6.0,
    "kappa": 0.0001,
    "tau": 25.0 / 300.0,
    "margin": 0.0,
    "limit_sigma": False,
    "balance": False,
}

#: How many sigmas below mu the ordinal is.
ORDINAL_Z = 3.0

#: The decimals a rating is given to in the statistics document.
DECIMALS = 3

#: The decimals a rating and its uncertainty are shown with, everywhere people read them.
SHOWN_DECIMALS = 1


def model() -> PlackettLuce:
    """The rating model."""
    return PlackettLuce(**MODEL_PARAMETERS)


def _figures(rating: PlackettLuceRating) -> tuple[float, float, float]:
    """A rating's ``mu``, ``sigma`` and ``ordinal`` to the document's decimals."""
    ordinal = rating.ordinal(z=ORDINAL_Z)
    return round(rating.mu, DECIMALS), round(rating.sigma, DECIMALS), round(ordinal, DECIMALS)


def ratings(tables: Sequence[CountedTable]) -> dict[str, Rating]:
    """Each rated roster player's rating after ``tables`` (one game's, in the order they were
    played; only the complete ones count), with its ``history``, one point per complete table
    they sat at, by roster id."""
    rater = model()
    now: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[RatingPoint]] = {}
    for table in tables:
        facts = table.facts
        if not facts.complete or len(facts.seats) < 2 or not any(table.seats.values()):
            continue  # a table of one player (a breach of its game's rules) has no one to beat
        # "": a guest, or a newcomer who joined late (no seat of the table): an anonymous opponent
        members = [table.seats.get(seat.name) or "" for seat in facts.seats]
        teams = [[now[m] if m in now else rater.rating()] for m in members]
        ranks: list[float] = [float(seat.place or 0) for seat in facts.seats]
        rated = rater.rate(teams, ranks=ranks)
        for member, (after,) in zip(members, rated, strict=True):
            if member:
                now[member] = after
                point = RatingPoint(table.key, table.played, *_figures(after))
                history.setdefault(member, []).append(point)
    return {
        member: Rating(*_figures(rating), tuple(history[member])) for member, rating in now.items()
    }


def shown(value: float) -> float:
    """A figure of the statistics document (``mu`` or ``sigma``, to 3 decimals) as every page,
    the report and the command line show it: to ``SHOWN_DECIMALS`` decimals, a half rounded up
    (away from zero), from the document's own figure. Formatted with that many decimals, it
    prints exactly."""
    step = Decimal(1).scaleb(-SHOWN_DECIMALS)
    return float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP))


def shown_rating(rating: Rating | RatingPoint | None) -> tuple[float, float] | None:
    """A rating (or a point of its history) as shown: (the rating, its ±); None for none."""
    if rating is None:
        return None
    return shown(rating.mu), shown(rating.sigma)


def standing_key(figures: PlayerFigures) -> tuple[bool, float, float, int]:
    """What the standings rank a player's figures (of one game) by, the least first: those with
    a rating before those without; then the higher rating as shown; then the smaller ± as
    shown; then the more finished games (``complete``). Equal keys share a place."""
    pair = shown_rating(figures.rating)
    if pair is None:
        return (True, 0.0, 0.0, -figures.complete)
    rating, sigma = pair
    return (False, -rating, sigma, -figures.complete)


def placed(players: Sequence[tuple[str, PlayerFigures]]) -> list[tuple[int, str, PlayerFigures]]:
    """Ranked players (``referee.groups.report.ranked``) with their places: one more than the
    number of players ranked before them by ``standing_key``, so players equal in it share the
    better place and the next is skipped (1, 1, 3), as places at a table are."""
    out: list[tuple[int, str, PlayerFigures]] = []
    for index, (player_id, figures) in enumerate(players):
        before = out[-1] if out else None
        same = before is not None and standing_key(before[2]) == standing_key(figures)
        out.append((before[0] if same and before else index + 1, player_id, figures))
    return out
