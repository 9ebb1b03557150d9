"""Each roster player's rating in one game, from the places of its complete games
(docs/group-format.md, "The rating").

The rating is openskill's Weng-Lin Plackett-Luce model with its parameters fixed here
(``MODEL_PARAMETERS``; the library is pinned in requirements.txt), so the same tables give the
same numbers everywhere. Every roster player starts at mu 25, sigma 25/3. The complete tables are
taken in the order they were played (``referee.groups.stats.in_order``), each a free-for-all of
its seats ranked by place (tied players share a place: a draw between them). A guest takes part
as an anonymous opponent: a new player of the starting rating at every table, forgotten after
it. A table without roster players rates nobody, nor does one of a single player (which breaks
its game's rules). The ``ordinal`` shown is mu − 3 sigma, the skill the player is 99.7 % likely
to have at least.

>>> model().mu, round(model().sigma, 4), round(model().beta, 4)
(25.0, 8.3333, 4.1667)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce, PlackettLuceRating

if TYPE_CHECKING:
    from referee.groups.stats import CountedTable

__all__ = ["MODEL_PARAMETERS", "ORDINAL_Z", "model", "ratings"]

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

#: The decimals a rating is given to.
DECIMALS = 3


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
        members = [table.seats[seat.name] or "" for seat in facts.seats]  # "": a guest
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
