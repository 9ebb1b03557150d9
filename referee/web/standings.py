"""Who leads the table: the players ahead on the totals so far."""

from __future__ import annotations


def leaders(totals: dict[str, int]) -> list[str]:
    """The players with the highest total so far, in seat order (nobody before any score)."""
    best = max(totals.values())
    return [p for p, total in totals.items() if total == best] if any(totals.values()) else []
