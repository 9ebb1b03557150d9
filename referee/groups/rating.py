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

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

if TYPE_CHECKING:
    from referee.groups.stats import CountedTable

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

#: The model's parameters, all of them given (the library's defaults today), so that a new
#: default in the library changes no rating.
MODEL_PARAMETERS: dict[str, Any] = {
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


def _shown(rating: PlackettLuceRating) -> dict[str, float]:
    return {
        "mu": round(rating.mu, DECIMALS),
        "sigma": round(rating.sigma, DECIMALS),
        "ordinal": round(rating.ordinal(z=ORDINAL_Z), DECIMALS),
    }


def ratings(tables: Sequence[CountedTable]) -> dict[str, dict[str, Any]]:
    """Each rated roster player's rating after ``tables`` (one game's, in the order they were
    played; only the complete ones count): ``mu``, ``sigma``, ``ordinal`` and the ``history``,
    one entry per complete table they sat at (its key, when it was played, and the rating
    after it), by roster id."""
    rater = model()
    now: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[dict[str, Any]]] = {}
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
                history.setdefault(member, []).append(
                    {"table": table.key, "played": table.played.isoformat(), **_shown(after)}
                )
    return {member: _shown(rating) | {"history": history[member]} for member, rating in now.items()}


def shown(value: float) -> float:
    """A figure of the statistics document (``mu`` or ``sigma``, to 3 decimals) as every page,
    the report and the command line show it: to ``SHOWN_DECIMALS`` decimals, a half rounded up
    (away from zero), from the document's own figure. Formatted with that many decimals, it
    prints exactly."""
    step = Decimal(1).scaleb(-SHOWN_DECIMALS)
    return float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP))


def shown_rating(rating: object) -> tuple[float, float] | None:
    """A rating of the document (its ``rating``, or a ``history`` entry) as shown: (the rating,
    its ±); None for none."""
    if not isinstance(rating, Mapping) or not rating:
        return None
    mu, sigma = rating["mu"], rating["sigma"]
    assert isinstance(mu, int | float) and isinstance(sigma, int | float)
    return shown(float(mu)), shown(float(sigma))


def standing_key(figures: Mapping[str, object]) -> tuple[bool, float, float, int]:
    """What the standings rank a player's figures (of one game) by, the least first: those with
    a rating before those without; then the higher rating as shown; then the smaller ± as
    shown; then the more finished games (``complete``). Equal keys share a place."""
    pair = shown_rating(figures["rating"])
    complete = figures["complete"]
    assert isinstance(complete, int)
    if pair is None:
        return (True, 0.0, 0.0, -complete)
    rating, sigma = pair
    return (False, -rating, sigma, -complete)


#: A player's figures, whatever mapping holds them.
Figures = TypeVar("Figures", bound=Mapping[str, object])


def placed(players: Sequence[tuple[str, Figures]]) -> list[tuple[int, str, Figures]]:
    """Ranked players (``referee.groups.report.ranked``) with their places: one more than the
    number of players ranked before them by ``standing_key``, so players equal in it share the
    better place and the next is skipped (1, 1, 3), as places at a table are."""
    out: list[tuple[int, str, Figures]] = []
    for index, (player_id, figures) in enumerate(players):
        before = out[-1] if out else None
        same = before is not None and standing_key(before[2]) == standing_key(figures)
        out.append((before[0] if same and before else index + 1, player_id, figures))
    return out
