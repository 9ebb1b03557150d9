"""What the round screen shows, computed from a table's state: the round header, what comes
next, what a card just settled, the cards still possible.

Plain data for the templates, so the templates stay free of rules logic. Everything comes from
the engine's state (``referee.rules``); nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _

from referee.rules import RoundState, State, Step
from referee.rules.blackout import Blackout
from referee.rules.ebbes import EbbesRound
from referee.web.words import WHY, colour_label


@dataclass
class RoundHeader:
    """Round n of N and who does what in it."""

    number: int
    of: int
    hand_size: int
    tricks: int
    dealer: str | None
    first_bidder: str | None
    leader: str | None
    trump: str
    roles: dict[str, str | None] = field(default_factory=dict)
    number_card: int | None = None


def round_header(state: State, rnd: RoundState) -> RoundHeader:
    game = state.game
    trump = _("no trump")
    if isinstance(rnd, EbbesRound):
        roles = rnd.role_map()
        trump = colour_label(roles["trump"]) if roles["trump"] else _("not fixed yet")
        return RoundHeader(
            rnd.number,
            game.round_count,
            rnd.hand_size,
            rnd.tricks_total,
            None,
            None,
            rnd.leader,
            trump,
            roles,
            rnd.number_card,
        )
    whole_deck = isinstance(game, Blackout) and game.whole_deck(rnd.number)
    if rnd.trump_colour is not None:
        trump = colour_label(rnd.trump_colour)
        if rnd.trump_card is not None:
            trump += f" ({rnd.trump_card.label()})"
    elif not whole_deck:
        trump = _("to be turned up")
    return RoundHeader(
        rnd.number,
        game.round_count,
        rnd.hand_size,
        rnd.tricks_total,
        rnd.dealer,
        rnd.leader,
        rnd.leader,
        trump,
    )


def describe_step(step: Step | None, game: str = "") -> str:
    """One line saying what the table enters next."""
    if step is None:
        return _("The game is over.")
    if step.action == "play" and game == "ebbes":
        return _("Play the round: tap each colour as it gets its role, then count the cards won")
    what = {  # translated when chosen: a page shows one of them
        "trump": lambda: _("Turn up the trump"),
        "bid": lambda: _("%(player)s bids", player=step.player),
        "declare": lambda: _("%(player)s declares open or secret", player=step.player),
        "play": lambda: _("Play the round, then enter the tricks won"),
        "reveal": lambda: _("Turn up %(player)s's secret bid", player=step.player),
        "starter": lambda: _("Who starts this round?"),
        "number": lambda: _("Reveal the number card"),
        "designators": lambda: _("Place the designators"),
    }
    return what[step.action]()


ORDINALS = ("1st", "2nd", "3rd", "4th")


def announcements(before: State, after: State) -> list[str]:
    """What a card just settled, in words: a trick's winner and why, an ebbes role fixed."""
    said: list[str] = []
    old, new = before.game.upcoming(before), after.current
    if old is None or new is None or old.number != new.number:
        return said
    if (
        len(new.plays)
        and new.trick_complete(-1)
        and (len(new.plays) > len(old.plays) or not old.trick_complete(-1))
    ):
        trick = new.plays[-1]
        card = next(c for p, c in trick.cards if p == trick.winner)
        said.append(
            _(
                "%(p)s wins trick %(n)s: %(why)s, %(card)s",
                p=trick.winner,
                n=len(new.plays),
                why=_(WHY[trick.why or "highest-led"]),
                card=card.label(),
            )
        )
    if isinstance(old, EbbesRound) and isinstance(new, EbbesRound):
        for index in range(len(old.derived), len(new.derived)):
            role = ("trump", "plus", "ebbes", "minus")[index]
            said.append(
                _(
                    "%(colour)s is %(role)s (the %(nth)s designating card).",
                    colour=new.derived[index],
                    role=_(role),
                    nth=ORDINALS[index],
                )
            )
            if index == 3:
                said.append(_("%(colour)s is nix.", colour=new.role_map()["nix"]))
    return said


def card_rows(state: State, rnd: RoundState) -> list[tuple[str, list[tuple[str, str]]]]:
    """The cards still possible, by colour: (colour label, [(card, label)])."""
    left = state.game.cards_left(rnd)
    rows = []
    for colour in state.game.deck.colours:
        cards = [
            (str(c), c.label()) for c in sorted(left, key=lambda c: -c.value) if c.colour == colour
        ]
        if cards:
            rows.append((colour_label(colour), cards))
    return rows


@dataclass
class CardTurn:
    """Where a round recorded card by card stands: whose card is next in which trick, the cards
    of the trick so far (player, label), and the tricks each player has won."""

    player: str | None
    trick: int
    leads: bool
    so_far: list[tuple[str, str]]
    won: list[tuple[str, int]]


def card_turn(state: State, rnd: RoundState) -> CardTurn:
    """The round screen's card-by-card status line and prompt."""
    open_trick = bool(rnd.plays) and not rnd.trick_complete(-1)
    winners = [trick.winner for trick in rnd.plays if trick.winner]
    return CardTurn(
        player=state.game.next_to_play(rnd),
        trick=len(rnd.plays) + (0 if open_trick else 1),
        leads=not open_trick,
        so_far=[(p, card.label()) for p, card in rnd.plays[-1].cards] if open_trick else [],
        won=[(p, winners.count(p)) for p in state.setup.players],
    )


def next_discarder(state: State, rnd: RoundState) -> str | None:
    """ebbes' discard variant, card by card: who still has to lay a card aside."""
    if not isinstance(rnd, EbbesRound) or not state.game.options.get("discard") or rnd.plays:
        return None
    return next((p for p in state.setup.players if p not in rnd.discards), None)
