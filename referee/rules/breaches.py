"""Breaches of the rules: a small exception hierarchy under ``ValueError``.

Every breach carries a rule id of ``docs/record-format.md`` (``hook``, ``follow-suit`` …), a finer
message ``code``, where it happened (round, trick, player, all counted from 1) and the parameters.
The sentence people read is built from the code and the parameters (``referee.rules.wording``),
so it can be translated: the parameters are language-free (numbers, names, card and colour codes,
text as typed); a text parameter (or player) longer than ``names.QUOTED`` characters is kept
only as its start.

>>> b = IllegalEntry("hook", "hook", round=5, player="Dee", bid=2, total=5, hand=5)
>>> b.message
'Dee (the dealer) cannot bid 2: the bids would add up to 5, the number of tricks.'
>>> isinstance(b, ValueError), b.rule
(True, 'hook')
"""

from __future__ import annotations

from typing import ClassVar, TypedDict

from referee.rules.cards import BadCard, Card
from referee.rules.marks import N_, Nn_, Plural
from referee.rules.names import quote
from referee.rules.wording import ENGLISH, Translations, say

#: Every rule id a breach can carry (``docs/record-format.md``).
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
        "end",
        "seats",
    }
)

#: Sentences by message code, in English (the catalog's source): parameters are filled in by name,
#: each shown as ``referee.rules.wording`` says for its name (a card as the table names it …).
MESSAGES: dict[str, str | Plural] = {
    # players
    "unknown-player": N_("%(name)s is not a player at this table."),
    "renamed-player": N_(
        "%(name)s is not a player at this table; player %(seat)s is named by no entry, so "
        "%(name)s is read as player %(seat)s."
    ),
    "player-count": N_("%(game)s is played by %(low)s to %(high)s players, not %(count)s."),
    "empty-name": N_("Player %(seat)s has no name."),
    "long-name": N_("The name %(name)s is longer than 40 characters."),
    "unprintable-name": N_(
        "The name %(name)s holds a character that does not show (a control, format or "
        "private-use character, or a line break)."
    ),
    "duplicate-name": N_("%(name)s sits at the table twice (names must differ, ignoring case)."),
    # rounds and order
    "round-count": N_("The game has %(rounds)s rounds; round %(round)s is one too many."),
    "round-over": N_("Round %(entry_round)s is over; the table is in round %(current)s."),
    "round-ahead": N_("Round %(entry_round)s has not started; the table is in round %(current)s."),
    "game-over": N_("The game is over: all %(rounds)s rounds are played."),
    "end-before-first": N_("The game can end only after a complete round: round 1 has not begun."),
    "end-mid-round": N_(
        "The game can end only after a complete round: round %(round)s is not over."
    ),
    "end-other-round": N_(
        "The game can end only after the round just played: round %(current)s, not round %(round)s."
    ),
    "after-end": N_("The game was ended after round %(ended)s: nothing more is entered."),
    # joining, leaving, sitting out
    "seats-fixed": N_(
        "Nobody can join, leave or sit out in %(game)s: it is dealt from a deck made for the "
        "players who began. Start a new table for the new count."
    ),
    "seats-mid-round": N_(
        "Players join, leave or sit out between rounds: round %(round)s is not over."
    ),
    "seats-other-round": N_(
        "Players join, leave or sit out before the next round, round %(next)s, not round %(round)s."
    ),
    "has-left": N_("%(player)s has left the table."),
    "not-dealt": N_("%(player)s is not dealt in round %(round)s (sitting out or gone)."),
    "leave-too-few": N_(
        "%(player)s cannot leave: %(game)s needs at least %(low)s players at the table."
    ),
    "sits-out-already": N_("%(player)s already sits out round %(round)s."),
    "sit-out-too-few": N_(
        "%(player)s cannot sit out round %(round)s: %(game)s needs at least %(low)s players "
        "in a round."
    ),
    "join-seated": N_("%(player)s is already at the table."),
    "join-start": N_(
        "%(start)s is no way to start: a newcomer starts with the lowest total, zero or the "
        "average."
    ),
    "join-full": N_("%(player)s cannot join: %(game)s takes at most %(high)s players."),
    "no-such-entry": N_("%(entry)s is not what comes next: %(game)s has no such entry."),
    "bid-after-play": N_("A bid is not what comes next: the bidding is over once play begins."),
    "declare-after-play": N_(
        "A declaration is not what comes next: the declarations are over once play begins."
    ),
    "trump-after-bids": N_("The trump is not what comes next: it is turned up before the bids."),
    "trick-unfinished": N_(
        "A whole trick is not what comes next: the trick under way is not finished."
    ),
    "tricks-twice": N_(
        "The tricks are not what comes next: round %(round)s's tricks are already in."
    ),
    "tricks-not-kept": N_(
        "Tricks per player is not what comes next: %(game)s records the cards won per colour."
    ),
    "setup-after-play": N_("This entry is not what comes next: it comes before the first trick."),
    "starter-after-play": N_(
        "The start player is not what comes next: it is chosen before the first trick."
    ),
    "card-after-designations": N_(
        "A card is not what comes next: designations were entered by hand this round."
    ),
    "won-twice": N_(
        "The cards won are not what comes next: round %(round)s's cards won are already in."
    ),
    "won-during-play": N_(
        "The cards won are not what comes next: finish the tricks being played card by card."
    ),
    "dealer": N_(
        "%(player)s did not deal round %(round)s: the deal passes left, so %(expected)s dealt."
    ),
    "bid-turn": N_("It is %(expected)s's turn to bid, not %(player)s's."),
    "declare-turn": N_("It is %(expected)s's turn to declare, not %(player)s's."),
    "already-bid": N_("%(player)s has already bid in round %(round)s."),
    "already-declared": N_("%(player)s has already declared in round %(round)s."),
    "leader": N_("Trick %(trick)s was led by %(player)s, but %(expected)s had to lead it."),
    "card-turn": N_("It is %(expected)s's turn to play, not %(player)s's."),
    "trick-size": Nn_(
        "Trick %(trick)s has %(count)s card; with %(players)s players it needs %(players)s.",
        "Trick %(trick)s has %(count)s cards; with %(players)s players it needs %(players)s.",
        "count",
    ),
    "too-many-tricks": Nn_(
        "Round %(round)s has only %(tricks)s trick.",
        "Round %(round)s has only %(tricks)s tricks.",
        "tricks",
    ),
    "trick-under-way": N_(
        "Trick %(trick)s of round %(round)s is not finished: its cards come first."
    ),
    "starter-round-one": N_(
        "%(player)s cannot start round 1: %(expected)s was chosen as first starter."
    ),
    "starter-chooser": N_(
        "%(chosen_by)s could not choose the starter: only %(majority)s had the most nix cards."
    ),
    "starter-twice": N_("The start player of round %(round)s has already been chosen."),
    # missing entries
    "missing-bid": N_("%(player)s's bid in round %(round)s is missing."),
    "missing-declaration": N_(
        "%(player)s's open/secret declaration in round %(round)s is missing."
    ),
    "missing-secret": N_("%(player)s's secret bid in round %(round)s has not been turned up."),
    "missing-tricks": N_("The tricks won in round %(round)s are missing."),
    "missing-results": N_("The cards won in round %(round)s are missing."),
    "missing-player-tricks": N_("%(player)s's tricks in round %(round)s are missing."),
    "missing-trump-first": N_("Turn up the trump for round %(round)s before the bids."),
    "missing-bids-first": N_("All bids of round %(round)s are needed before the tricks."),
    "missing-number": N_("The number card of round %(round)s is missing."),
    "missing-designators": N_("The placed designators of round %(round)s are missing."),
    "missing-won": N_("%(player)s's cards won in round %(round)s are missing."),
    "missing-won-colour": N_("%(player)s's %(colour)s cards won in round %(round)s are missing."),
    "missing-designations": N_(
        "Round %(round)s names %(count)s of the %(needed)s colour designations it must have."
    ),
    "missing-starter": N_("Choose who starts round %(round)s first."),
    "missing-discard": N_("%(player)s's discard in round %(round)s is missing."),
    # bids
    "bid-range": N_("%(player)s cannot bid %(bid)s: a bid is 0 to %(high)s in round %(round)s."),
    "hook": N_(
        "%(player)s (the dealer) cannot bid %(bid)s: the bids would add up to %(total)s, "
        "the number of tricks."
    ),
    "bid-above-hand": Nn_(
        "%(player)s bid %(bid)s with %(hand)s card: legal, but it can never be made exactly.",
        "%(player)s bid %(bid)s with %(hand)s cards: legal, but it can never be made exactly.",
        "hand",
    ),
    "open-needs-bid": N_("%(player)s declared open: the open bid must be entered with it."),
    "reveal-not-secret": N_(
        "%(player)s's bid in round %(round)s was open, there is nothing to turn up."
    ),
    "reveal-early": N_("Secret bids are turned up when round %(round)s is over."),
    "already-revealed": N_("%(player)s's secret bid in round %(round)s is already turned up."),
    # trick counts
    "trick-total": Nn_(
        "The tricks won add up to %(total)s; round %(round)s has %(tricks)s trick.",
        "The tricks won add up to %(total)s; round %(round)s has %(tricks)s tricks.",
        "tricks",
    ),
    "trick-negative": Nn_(
        "%(player)s cannot win %(count)s trick.", "%(player)s cannot win %(count)s tricks.", "count"
    ),
    "won-negative": Nn_(
        "%(player)s cannot win %(count)s %(colour)s card.",
        "%(player)s cannot win %(count)s %(colour)s cards.",
        "count",
    ),
    "won-shape": N_("The cards won in round %(round)s are not counts per player and colour."),
    "won-shape-player": N_("%(player)s's cards won in round %(round)s are not counts per colour."),
    "won-whole-tricks": Nn_(
        "%(player)s won %(total)s card, which is not a whole number of tricks of %(players)s "
        "cards.",
        "%(player)s won %(total)s cards, which is not a whole number of tricks of %(players)s "
        "cards.",
        "total",
    ),
    "colour-total": Nn_(
        "%(total)s %(colour)s card is won in all; %(in_play)s are in play.",
        "%(total)s %(colour)s cards are won in all; %(in_play)s are in play.",
        "total",
    ),
    "unknown-colour": N_("%(text)s is not a colour of this game."),
    # trump
    "trump-whole-deck": N_("Round %(round)s deals the whole deck: there is no trump."),
    "trump-unknown": N_("%(text)s is not a suit, colour or card of this deck."),
    "trump-missing": N_("Round %(round)s needs a trump."),
    "trump-twice": N_("The trump of round %(round)s is already %(trump)s."),
    # ebbes
    "number-range": N_("%(number)s is not a number card: they show 1 to 5."),
    "number-used": N_("The number card %(number)s was already used in round %(used_in)s."),
    "number-twice": N_("The number card of round %(round)s is already %(number)s."),
    "number-in-placed": N_("With placed designators no number card is revealed."),
    "designators-not-placed": N_("Designators are placed only in the placed-designators variant."),
    "designators-shape": N_("The designators must be five cards, one of each colour."),
    "designators-twice": N_("The designators of round %(round)s are already placed."),
    "designation-repeat": N_("%(colour)s already has a role in round %(round)s."),
    "designation-too-many": N_("Only four colours get a role; the fifth is nix by itself."),
    "designation-plays": N_(
        "The plays fix %(fixed)s as designation %(index)s in round %(round)s, not %(colour)s."
    ),
    "designation-plays-none": N_(
        "The plays fix no colour as designation %(index)s in round %(round)s, not %(colour)s."
    ),
    "discard-variant": N_("Discards are made only in the discard variant."),
    "discard-twice": N_("%(player)s has already discarded in round %(round)s."),
    "discard-late": N_("Discards are made before the first trick."),
    # cards
    "card-unreadable": N_("%(text)s is not a card."),
    "card-not-in-deck": N_("%(card)s is not in this deck."),
    "card-twice": N_("%(card)s was already played in round %(round)s."),
    "card-turned": N_("%(card)s is the turned trump card: it was not dealt."),
    "card-discarded": N_("%(card)s was discarded in round %(round)s."),
    # revoke
    "follow-suit": N_(
        "%(player)s showed out of %(colour)s in trick %(trick)s but played %(card)s in trick "
        "%(later)s: a revoke."
    ),
    # plays against entries
    "plays-tricks": Nn_(
        "%(player)s won %(derived)s trick in the plays, not %(given)s.",
        "%(player)s won %(derived)s tricks in the plays, not %(given)s.",
        "derived",
    ),
    "plays-won": Nn_(
        "%(player)s won %(derived)s %(colour)s card in the plays, not %(given)s.",
        "%(player)s won %(derived)s %(colour)s cards in the plays, not %(given)s.",
        "derived",
    ),
}


class CardParam(TypedDict, total=False):
    """A card as a breach's parameter: a card's code, or the text of one that spells none."""

    card: str
    text: str


def card_param(card: Card) -> CardParam:
    """``card`` as a breach's parameter (``CardParam``)."""
    return {"text": str(card)} if isinstance(card, BadCard) else {"card": str(card)}


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
        """The sentence in English, the catalog's source (docs/record-format.md's ``message``)."""
        return self.sentence(ENGLISH)

    def sentence(self, translations: Translations, symbols: bool = True) -> str:
        """The sentence for people in the catalog's language, from the code and the parameters
        (suits as words on paper, ``symbols`` false)."""
        where = {"player": self.player, "round": self.round, "trick": self.trick}
        return say(MESSAGES[self.code], {**where, **self.params}, translations, symbols)

    def to_dict(self) -> dict[str, object]:
        """The breach as ``docs/record-format.md`` prints it."""
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
