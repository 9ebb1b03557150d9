"""Plain Whist in the group statistics: nothing beyond the points every game has."""

from referee.groups.facts import StatsGame

PART = StatsGame()
