"""The history page's lines and a correction's prefilled form, as plain data for the templates."""

from __future__ import annotations

from typing import Any

from referee.rules import State
from referee.rules import events as ev


def form_values(state: State, event: ev.Event) -> dict[str, Any]:
    """The form fields that would post ``event`` again (to prefill a correction)."""
    seat = {p: str(i) for i, p in enumerate(state.setup.players, start=1)}
    if isinstance(event, ev.Trump):
        return {"trump": event.card}
    if isinstance(event, (ev.Bid, ev.Reveal)):
        return {"player": seat.get(event.player, ""), "bid": str(event.bid)}
    if isinstance(event, ev.Declare):
        choice = f"open-{event.bid}" if event.open else "secret"
        return {"player": seat.get(event.player, ""), "choice": choice}
    if isinstance(event, ev.Tricks):
        return {f"tricks-{seat[p]}": str(n) for p, n in event.tricks.items() if p in seat}
    if isinstance(event, ev.Starter):
        return {
            "player": seat.get(event.player, ""),
            "chosen_by": seat.get(event.chosen_by or "", ""),
        }
    if isinstance(event, ev.Number):
        return {"number": str(event.number)}
    if isinstance(event, ev.Designators):
        return {f"designator-{c.split('-')[0]}": c.split("-")[-1] for c in event.cards}
    if isinstance(event, ev.Designate):
        return {"colour": event.colour}
    if isinstance(event, ev.Won):
        return {
            f"won-{seat[p]}-{c}": str(n)
            for p, counts in event.won.items()
            if p in seat
            for c, n in counts.items()
        }
    return {}
