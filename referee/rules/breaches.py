"""Breaches of the rules: a small exception hierarchy under ``ValueError``.

Every breach carries the rule id from ``record-format.md`` (``hook``, ``follow-suit`` …), a finer
message ``code``, where it happened (round, trick, player, all counted from 1) and the parameters.
The sentence people read is built from the code and the parameters, so it can be translated;
a text parameter (or player) longer than ``names.QUOTED`` characters is kept only as its start.

>>> b = IllegalEntry("hook", "hook", round=5, player="Dee", bid=2, total=5, hand=5)
>>> b.message
'Dee (the dealer) cannot bid 2: the bids would add up to 5, the number of tricks.'
>>> isinstance(b, ValueError), b.rule
(True, 'hook')
"""

from __future__ import annotations

from typing import ClassVar

from referee.rules.names import quote

#: Every rule id a breach can carry (``record-format.md``).
RULE_IDS = frozenset(
    {
        "players",
        "round-count",
        "missing",
        "dealer",
        "bid-range",
        "hook",
        "bid-above-hand",
        "trick-total",
        "trump",
        "number",
        "designation",
        "colour-total",
        "starter",
        "card",
        "turn",
        "follow-suit",
        "plays",
    }
)

#: Sentence templates by message code; parameters are filled in by name.
MESSAGES: dict[str, str] = {
    # players
    "unknown-player": "{name!r} is not a player at this table.",
    "renamed-player": (
        "{name!r} is not a player at this table; player {seat} is named by no entry, so "
        "{name!r} is read as player {seat}."
    ),
    "player-count": "{game} is played by {low} to {high} players, not {count}.",
    "empty-name": "Player {seat} has no name.",
    "long-name": "The name {name!r} is longer than 40 characters.",
    "unprintable-name": (
        "The name {name!r} holds a character that does not show (a control, format or "
        "private-use character, or a line break)."
    ),
    "duplicate-name": "{name!r} sits at the table twice (names must differ, ignoring case).",
    # rounds and order
    "round-count": "The game has {rounds} rounds; round {round} is one too many.",
    "round-over": "Round {entry_round} is over; the table is in round {current}.",
    "round-ahead": "Round {entry_round} has not started; the table is in round {current}.",
    "game-over": "The game is over: all {rounds} rounds are played.",
    "not-now": "{what} is not what comes next: {expected}.",
    "dealer": "{player} did not deal round {round}: the deal passes left, so {expected} dealt.",
    "bid-turn": "It is {expected}'s turn to bid, not {player}'s.",
    "declare-turn": "It is {expected}'s turn to declare, not {player}'s.",
    "already-bid": "{player} has already bid in round {round}.",
    "already-declared": "{player} has already declared in round {round}.",
    "leader": "Trick {trick} was led by {player}, but {expected} had to lead it.",
    "card-turn": "It is {expected}'s turn to play, not {player}'s.",
    "trick-size": "Trick {trick} has {count} cards; with {players} players it needs {players}.",
    "too-many-tricks": "Round {round} has only {tricks} tricks.",
    "trick-under-way": "Trick {trick} of round {round} is not finished: its cards come first.",
    "starter-round-one": "{player} cannot start round 1: {expected} was chosen as first starter.",
    "starter-chooser": (
        "{chosen_by} could not choose the starter: only {majority} had the most nix cards."
    ),
    "starter-twice": "The start player of round {round} has already been chosen.",
    # missing entries
    "missing-bid": "{player}'s bid in round {round} is missing.",
    "missing-declaration": "{player}'s open/secret declaration in round {round} is missing.",
    "missing-secret": "{player}'s secret bid in round {round} has not been turned up.",
    "missing-tricks": "The tricks won in round {round} are missing.",
    "missing-results": "The cards won in round {round} are missing.",
    "missing-player-tricks": "{player}'s tricks in round {round} are missing.",
    "missing-trump-first": "Turn up the trump for round {round} before the bids.",
    "missing-bids-first": "All bids of round {round} are needed before the tricks.",
    "missing-number": "The number card of round {round} is missing.",
    "missing-designators": "The placed designators of round {round} are missing.",
    "missing-won": "{player}'s cards won in round {round} are missing.",
    "missing-won-colour": "{player}'s {colour} cards won in round {round} are missing.",
    "missing-designations": (
        "Round {round} names {count} of the {expected} colour designations it must have."
    ),
    "missing-starter": "Choose who starts round {round} first.",
    "missing-discard": "{player}'s discard in round {round} is missing.",
    # bids
    "bid-range": "{player} cannot bid {bid}: a bid is 0 to {high} in round {round}.",
    "hook": (
        "{player} (the dealer) cannot bid {bid}: the bids would add up to {total}, "
        "the number of tricks."
    ),
    "bid-above-hand": (
        "{player} bid {bid} with {hand} cards: legal, but it can never be made exactly."
    ),
    "open-needs-bid": "{player} declared open: the open bid must be entered with it.",
    "reveal-not-secret": "{player}'s bid in round {round} was open, there is nothing to turn up.",
    "reveal-early": "Secret bids are turned up when round {round} is over.",
    "already-revealed": "{player}'s secret bid in round {round} is already turned up.",
    # trick counts
    "trick-total": "The tricks won add up to {total}; round {round} has {tricks} tricks.",
    "trick-negative": "{player} cannot win {count} tricks.",
    "won-negative": "{player} cannot win {count} {colour} cards.",
    "won-whole-tricks": (
        "{player} won {total} cards, which is not a whole number of tricks of {players} cards."
    ),
    "colour-total": "{total} {colour} cards are won in all; {expected} are in play.",
    "unknown-colour": "{colour!r} is not a colour of this game.",
    # trump
    "trump-whole-deck": "Round {round} deals the whole deck: there is no trump.",
    "trump-unknown": "{trump!r} is not a suit, colour or card of this deck.",
    "trump-missing": "Round {round} needs a trump.",
    "trump-twice": "The trump of round {round} is already {trump}.",
    # ebbes
    "number-range": "{number} is not a number card: they show 1 to 5.",
    "number-used": "The number card {number} was already used in round {used_in}.",
    "number-twice": "The number card of round {round} is already {number}.",
    "number-in-placed": "With placed designators no number card is revealed.",
    "designators-not-placed": "Designators are placed only in the placed-designators variant.",
    "designators-shape": "The designators must be five cards, one of each colour.",
    "designators-twice": "The designators of round {round} are already placed.",
    "designation-repeat": "{colour} already has a role in round {round}.",
    "designation-too-many": "Only four colours get a role; the fifth is nix by itself.",
    "designation-plays": (
        "The plays fix {expected} as designation {index} in round {round}, not {colour}."
    ),
    "discard-variant": "Discards are made only in the discard variant.",
    "discard-twice": "{player} has already discarded in round {round}.",
    "discard-late": "Discards are made before the first trick.",
    # cards
    "card-unreadable": "{card!r} is not a card.",
    "card-not-in-deck": "{card} is not in this deck.",
    "card-twice": "{card} was already played in round {round}.",
    "card-turned": "{card} is the turned trump card: it was not dealt.",
    "card-discarded": "{card} was discarded in round {round}.",
    # revoke
    "follow-suit": (
        "{player} showed out of {colour} in trick {trick} but played {card} in trick {later}: "
        "a revoke."
    ),
    # plays against entries
    "plays-tricks": "{player} won {derived} tricks in the plays, not {given}.",
    "plays-won": "{player} won {derived} {colour} cards in the plays, not {given}.",
}


class Breach(ValueError):
    """An entry that breaks a rule. ``rule`` is the record-format rule id."""

    severity: ClassVar[str] = "violation"

    def __init__(
        self,
        rule: str,
        code: str,
        *,
        round: int | None = None,
        trick: int | None = None,
        player: str | None = None,
        **params: object,
    ) -> None:
        assert rule in RULE_IDS, rule
        self.rule = rule
        self.code = code
        self.round = round
        self.trick = trick
        self.player = player if player is None else quote(player)
        # A sentence repeats at most the start of a value, however long the value typed.
        self.params = {k: quote(v) if isinstance(v, str) else v for k, v in params.items()}
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The sentence for people, built from the code and the parameters."""
        return MESSAGES[self.code].format(
            player=self.player, round=self.round, trick=self.trick, **self.params
        )

    def to_dict(self) -> dict[str, object]:
        """The breach as ``record-format.md`` prints it."""
        return {
            "round": self.round,
            "trick": self.trick,
            "player": self.player,
            "rule": self.rule,
            "message": self.message,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rule!r}, {self.message!r})"


class IllegalEntry(Breach):
    """An entry the rules do not allow: a bid out of range, the hook, an unknown card or colour."""


class OutOfTurn(Breach):
    """An entry at the wrong moment or by the wrong player: a bid out of order, a wrong leader."""


class Missing(Breach):
    """Something the round needs before it can go on or be scored."""


class Miscount(Breach):
    """Counts that do not add up: tricks, cards won per colour, entries against the plays."""


class Revoke(Breach):
    """A proven revoke: a player showed out of a colour and later played it."""


class Caution(Breach):
    """A warning: legal, but can never win (a bid above the hand size). Never raised."""

    severity: ClassVar[str] = "warning"
