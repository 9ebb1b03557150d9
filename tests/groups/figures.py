"""The typed statistics of a group file, for tests that look at them as the pages and the
season report do (``referee.groups.figures``), and a player's figures made up for a ranking."""

from __future__ import annotations

from referee.groups.document import read_group_head
from referee.groups.figures import PlayerFigures, Rating, Statistics, Streaks
from referee.groups.stats import counted_tables, statistics


def statistics_of(data: bytes, season: str | None = None) -> Statistics:
    """The statistics of a group file (``season``: by name), as ``stats --json`` gives their
    document."""
    group, tables = read_group_head(data)
    chosen = None if season is None else group.season(season)
    assert season is None or chosen is not None, season
    name = None if chosen is None else chosen.name
    return statistics(group.name, group.players, name, counted_tables(group, tables, chosen))


def rated(mu: float | None, sigma: float = 0.0, complete: int = 0) -> PlayerFigures:
    """A player's figures with only a rating (``mu`` ± ``sigma``; None: no rating) and a count
    of finished games: what the standings rank by."""
    rating = None if mu is None else Rating(mu, sigma, mu - 3 * sigma, ())
    return PlayerFigures(
        "", complete, complete, 0, 0, 0, {}, None, None, None, Streaks(0, 0), {}, rating
    )
