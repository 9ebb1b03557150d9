"""Random legal games of Blackout, Alles oder Nichts and ebbes, for the property tests.

The simulator is a second, independent reading of docs/rules.md: it deals real hands, plays random
*legal* cards (follow the led colour when you can, otherwise anything), settles every trick and
scores every round itself. It never imports ``referee``, so when a test finds the engine and the
simulator agreeing, two separate implementations of the rule book agree.

Everything random comes from one ``random.Random`` passed in, so a seed reproduces a game::

    game = simulate(random.Random(7), "ebbes", 4, {"discard": True})
    doc = to_record(game, random.Random(7), detail="plays")

``simulate`` gives a ``Game`` (the whole truth: hands played, winners, scores); ``to_record``
writes it as a ``table-referee/1`` document, with tricks card by card (``plays``), as results only
(``tricks``/``won``/``designations``), or both. ``benchmark_record`` is the long 3-player Blackout
game used to time the referee.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

FORMAT = "table-referee/1"

#: Player names to draw from: plain ones and a few that test spelling (accents, spaces, quotes).
# fmt: off
NAMES = ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay", "Gus", "Hal", "Zoë", "Jean-Luc", "O'Neil",
         "Li Wei")
# fmt: on

#: Blackout suits from the lowest to the highest when trimming the deck (♣, ♦, ♥, ♠).
SUITS_LOW_FIRST = ("C", "D", "H", "S")
RANK_LETTERS = {11: "J", 12: "Q", 13: "K", 14: "A"}
BLACKOUT_SEQUENCES = ("up-down", "up-down-double", "down-up", "up", "down")

ALLES_COLOURS = ("red", "yellow", "green", "blue")
ALLES_SCHEDULE = (6, 5, 4, 3, 4, 5, 6)
ALLES_HIGHEST_BID = 6
#: Colour names for custom Alles oder Nichts decks (colours × values must make 48).
# fmt: off
COLOUR_WORDS = ("red", "yellow", "green", "blue", "black", "white", "orange", "pink", "grey",
                "brown", "gold", "silver", "teal", "lime", "navy", "olive", "rose", "ivory",
                "cyan", "plum", "sand", "mint", "ruby", "jade", "dark red", "grün", "bleu",
                "rot", "gelb", "blau", "weiß", "violet", "coral", "amber", "azure", "beige",
                "khaki", "lilac", "mauve", "ochre", "peach", "sepia", "slate", "umber", "wine",
                "smoke", "steel", "straw")
# fmt: on

EBBES_COLOURS = ("red", "yellow", "green", "blue", "purple")
EBBES_ROLES = ("trump", "plus", "ebbes", "minus")
EBBES_ROUNDS = 5


@dataclass(frozen=True)
class Card:
    """One card: a colour (a suit letter in Blackout) and a value (Blackout: 2–14, ace high)."""

    colour: str
    value: int


@dataclass
class Trick:
    """A trick as played: the leader, the cards in seat order from the leader, the winner and
    the trump it was settled with."""

    leader: str
    cards: list[Card]
    winner: str
    trump: str | None


@dataclass
class Round:
    """The whole truth of one round: what was dealt, bid, played, won and scored."""

    number: int
    cards_each: int
    leader: str
    tricks: list[Trick]
    scores: dict[str, int]
    dealer: str | None = None
    trump_card: Card | None = None
    bids: dict[str, int] = field(default_factory=dict)
    open: dict[str, bool] = field(default_factory=dict)
    number_card: int | None = None
    designators: list[Card] = field(default_factory=list)
    designations: list[str] = field(default_factory=list)
    discards: dict[str, Card] = field(default_factory=dict)
    won: dict[str, dict[str, int]] = field(default_factory=dict)
    chosen_by: str | None = None
    nix_majority: list[str] = field(default_factory=list)

    def tricks_won(self, players: tuple[str, ...]) -> dict[str, int]:
        counts = Counter(trick.winner for trick in self.tricks)
        return {p: counts[p] for p in players}


@dataclass
class Game:
    """A simulated game: its setup as a record states it, and every round's truth."""

    name: str
    players: tuple[str, ...]
    options: dict[str, Any]
    first: str
    rounds: list[Round]

    def totals(self) -> dict[str, int]:
        return {p: sum(rnd.scores[p] for rnd in self.rounds) for p in self.players}

    def winners(self) -> list[str]:
        """The highest total wins; ties share (in seat order)."""
        totals = self.totals()
        best = max(totals.values())
        return [p for p in self.players if totals[p] == best]


# --- trick play, shared by all three games ---------------------------------------------------


class TrumpKeeper(Protocol):
    """What trick play needs to know about trump: what it is now, and how a trick settles."""

    @property
    def trump(self) -> str | None: ...

    def saw(self, card: Card) -> None: ...

    def settling(self, trump_before: str | None) -> str | None: ...


class FixedTrump:
    """Blackout and Alles oder Nichts: the turned card's colour is trump all round (or none)."""

    def __init__(self, trump: str | None) -> None:
        self.trump = trump

    def saw(self, card: Card) -> None:
        pass

    def settling(self, trump_before: str | None) -> str | None:
        return self.trump


def left_of(players: tuple[str, ...], name: str, steps: int = 1) -> str:
    return players[(players.index(name) + steps) % len(players)]


def deal(
    rng: random.Random, deck: list[Card], players: tuple[str, ...], size: int
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Shuffle and deal ``size`` cards to each player; the rest is the stock (top card first)."""
    cards = list(deck)
    rng.shuffle(cards)
    hands = {p: cards[i * size : (i + 1) * size] for i, p in enumerate(players)}
    return hands, cards[len(players) * size :]


def legal_cards(hand: list[Card], led: str | None) -> list[Card]:
    """Follow the led colour if you can; otherwise any card (there is no duty to trump)."""
    following = [card for card in hand if card.colour == led]
    return following or hand


def trick_winner(cards: list[Card], trump: str | None) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led colour.

    >>> trick = [Card("H", 10), Card("H", 12), Card("S", 2), Card("C", 14)]
    >>> trick_winner(trick, "S"), trick_winner(trick, None), trick_winner(trick, "D")
    (2, 1, 1)
    """
    led = cards[0].colour

    def strength(card: Card) -> tuple[int, int]:
        if card.colour == trump:
            return (2, card.value)
        if card.colour == led:
            return (1, card.value)
        return (0, 0)

    return max(range(len(cards)), key=lambda i: strength(cards[i]))


def play_tricks(
    rng: random.Random,
    players: tuple[str, ...],
    hands: dict[str, list[Card]],
    leader: str,
    count: int,
    keeper: TrumpKeeper,
) -> list[Trick]:
    """Play ``count`` tricks of random legal cards; each trick's winner leads the next."""
    tricks: list[Trick] = []
    for _ in range(count):
        trump_before = keeper.trump
        cards: list[Card] = []
        seat = leader
        for _ in players:
            card = rng.choice(legal_cards(hands[seat], cards[0].colour if cards else None))
            hands[seat].remove(card)
            cards.append(card)
            keeper.saw(card)
            seat = left_of(players, seat)
        trump = keeper.settling(trump_before)
        winner = left_of(players, leader, trick_winner(cards, trump))
        tricks.append(Trick(leader, cards, winner, trump))
        leader = winner
    return tricks


def bid_near(rng: random.Random, took: int, high: int) -> int:
    """A random bid 0…high, half the time the tricks the player will really take (so exact
    bids, and their scores, come up often)."""
    return took if rng.random() < 0.5 else rng.randint(0, high)


# --- Blackout ---------------------------------------------------------------------------------


def blackout_deck(players: int, max_cards: int) -> list[Card]:
    """``players × max_cards`` cards: the 52-card deck with the lowest removed first (all 2s,
    then 3s …; within a rank ♣, ♦, ♥, ♠).

    >>> deck = blackout_deck(players=7, max_cards=7)
    >>> len(deck), Card("C", 2) in deck, Card("H", 2) in deck, Card("S", 2) in deck
    (49, False, False, True)
    """
    lowest_first = [Card(suit, value) for value in range(2, 15) for suit in SUITS_LOW_FIRST]
    return lowest_first[len(lowest_first) - players * max_cards :]


def blackout_schedule(sequence: str, top: int) -> list[int]:
    """Hand sizes of the rounds: up-down is 1…top…1 with top once, and so on.

    >>> blackout_schedule("up-down", 3), blackout_schedule("down-up", 3)
    ([1, 2, 3, 2, 1], [3, 2, 1, 2, 3])
    >>> blackout_schedule("up-down-double", 2), len(blackout_schedule("up-down", 17))
    ([1, 2, 2, 1], 33)
    """
    up = list(range(1, top + 1))
    down = up[::-1]
    return {
        "up-down": up + down[1:],
        "up-down-double": up + down,
        "down-up": down + up[1:],
        "up": up,
        "down": down,
    }[sequence]


def blackout_score(bid: int, took: int, scoring: str) -> int:
    """Exact: the bid with a 1 written in front (``ten-plus-bid``: 10 + bid); missed: 0.

    >>> [blackout_score(bid, bid, "prefix-one") for bid in (0, 3, 9, 10, 11, 26)]
    [10, 13, 19, 110, 111, 126]
    >>> blackout_score(11, 11, "ten-plus-bid"), blackout_score(3, 2, "prefix-one")
    (21, 0)
    """
    if bid != took:
        return 0
    return 10 + bid if scoring == "ten-plus-bid" else int("1" + str(bid))


def blackout_bids(
    rng: random.Random, order: list[str], took: dict[str, int], size: int, hook: bool
) -> dict[str, int]:
    """Random legal bids in bidding order; with the hook the dealer (last) avoids the one bid
    that would make the bids add up to the hand size."""
    bids = {p: bid_near(rng, took[p], size) for p in order[:-1]}
    dealer = order[-1]
    allowed = list(range(size + 1))
    if hook and sum(bids.values()) <= size:
        allowed.remove(size - sum(bids.values()))
    wish = bid_near(rng, took[dealer], size)
    bids[dealer] = wish if wish in allowed else rng.choice(allowed)
    return bids


def play_blackout(
    rng: random.Random, players: tuple[str, ...], options: dict[str, Any], first: str
) -> Game:
    top = options.get("max_cards", 52 // len(players))
    scoring = options.get("scoring", "prefix-one")
    deck = blackout_deck(len(players), top)
    rounds = []
    schedule = blackout_schedule(options.get("sequence", "up-down"), top)
    for number, size in enumerate(schedule, start=1):
        dealer = left_of(players, first, number - 1)
        hands, stock = deal(rng, deck, players, size)
        trump_card = stock[0] if stock else None
        leader = left_of(players, dealer)
        keeper = FixedTrump(trump_card.colour if trump_card else None)
        tricks = play_tricks(rng, players, hands, leader, size, keeper)
        rnd = Round(number, size, leader, tricks, {}, dealer=dealer, trump_card=trump_card)
        took = rnd.tricks_won(players)
        order = [left_of(players, dealer, i) for i in range(1, len(players) + 1)]
        rnd.bids = blackout_bids(rng, order, took, size, options.get("hook", True))
        rnd.scores = {p: blackout_score(rnd.bids[p], took[p], scoring) for p in players}
        rounds.append(rnd)
    return Game("blackout", players, options, first, rounds)


# --- Alles oder Nichts --------------------------------------------------------------------


def alles_score(open_: bool, bid: int, took: int) -> int:
    """Secret: 1 a trick, +3 if exact. Open: 2 a trick +3 if exact, else nothing.

    >>> alles_score(False, 2, 3), alles_score(True, 2, 2), alles_score(True, 0, 0)
    (3, 7, 3)
    """
    exact = bid == took
    if open_:
        return 2 * took + 3 if exact else 0
    return took + 3 * exact


def alles_options(rng: random.Random, colours: int) -> dict[str, Any]:
    """A custom deck: ``colours`` random colour names (a divisor of 48) × 48/colours values."""
    return {"colours": rng.sample(COLOUR_WORDS, colours), "values": 48 // colours}


def play_alles(
    rng: random.Random, players: tuple[str, ...], options: dict[str, Any], first: str
) -> Game:
    colours = options.get("colours", list(ALLES_COLOURS))
    deck = [Card(c, v) for c in colours for v in range(1, options.get("values", 12) + 1)]
    rounds = []
    for number, size in enumerate(ALLES_SCHEDULE, start=1):
        dealer = left_of(players, first, number - 1)
        hands, stock = deal(rng, deck, players, size)
        leader = left_of(players, dealer)
        tricks = play_tricks(rng, players, hands, leader, size, FixedTrump(stock[0].colour))
        rnd = Round(number, size, leader, tricks, {}, dealer=dealer, trump_card=stock[0])
        took = rnd.tricks_won(players)
        rnd.bids = {p: bid_near(rng, took[p], ALLES_HIGHEST_BID) for p in players}
        rnd.open = {p: rng.random() < 0.5 for p in players}
        rnd.scores = {p: alles_score(rnd.open[p], rnd.bids[p], took[p]) for p in players}
        rounds.append(rnd)
    return Game("alles-oder-nichts", players, options, first, rounds)


# --- ebbes ----------------------------------------------------------------------------------


class Designations:
    """ebbes roles as the cards fall: the 1st designating card's colour is trump, then plus,
    ebbes, minus. Standard: the cards of the revealed number; ``placed-designators``: the five
    designator cards. ``trump_from`` decides whether a trump fixed mid-trick settles that trick
    (``now``) or only counts from the next one (``next-trick``)."""

    def __init__(self, designating: list[Card], trump_from: str) -> None:
        self.designating = designating
        self.trump_from = trump_from
        self.roles: list[str] = []

    @property
    def trump(self) -> str | None:
        return self.roles[0] if self.roles else None

    def saw(self, card: Card) -> None:
        if len(self.roles) < len(EBBES_ROLES) and card in self.designating:
            self.roles.append(card.colour)

    def settling(self, trump_before: str | None) -> str | None:
        return self.trump if self.trump_from == "now" else trump_before


def nix_colour(roles: list[str]) -> str | None:
    """The fifth colour, once all four roles are fixed (no nix with fewer)."""
    rest = [c for c in EBBES_COLOURS if c not in roles]
    return rest[0] if len(roles) == len(EBBES_ROLES) else None


def ebbes_won(
    players: tuple[str, ...], tricks: list[Trick], discards: list[Card]
) -> dict[str, dict[str, int]]:
    """Cards per colour in each player's won tricks; the last trick's winner takes the discards."""
    won = {p: dict.fromkeys(EBBES_COLOURS, 0) for p in players}
    for trick in tricks:
        for card in trick.cards:
            won[trick.winner][card.colour] += 1
    for card in discards:
        won[tricks[-1].winner][card.colour] += 1
    return won


def ebbes_scores(
    players: tuple[str, ...], roles: list[str], won: dict[str, dict[str, int]]
) -> dict[str, int]:
    """Plus +1 a card, minus −1 a card, +3 to whoever has neither the most nor the fewest of the
    ebbes colour; trump, nix and a role never fixed score nothing."""
    role = dict(zip(EBBES_ROLES, roles, strict=False))
    scores = dict.fromkeys(players, 0)
    for p in players:
        if "plus" in role:
            scores[p] += won[p][role["plus"]]
        if "minus" in role:
            scores[p] -= won[p][role["minus"]]
    if "ebbes" in role:
        for p in ebbes_middle({p: won[p][role["ebbes"]] for p in players}):
            scores[p] += 3
    return scores


def ebbes_middle(counts: dict[str, int]) -> list[str]:
    """Who has neither the most nor the fewest cards of the ebbes colour (none counts).

    >>> ebbes_middle({"A": 3, "B": 2, "C": 1}), ebbes_middle({"A": 3, "B": 3, "C": 0})
    (['B'], [])
    >>> ebbes_middle({"A": 2, "B": 2, "C": 2}), ebbes_middle({"A": 4, "B": 2, "C": 2, "D": 0})
    ([], ['B', 'C'])
    """
    most, fewest = max(counts.values()), min(counts.values())
    return [p for p, count in counts.items() if fewest < count < most]


def nix_majority(
    players: tuple[str, ...], roles: list[str], won: dict[str, dict[str, int]]
) -> list[str]:
    """Who won the most nix cards (ties: all of them); empty when the round had no nix."""
    nix = nix_colour(roles)
    if nix is None:
        return []
    best = max(won[p][nix] for p in players)
    return [p for p in players if won[p][nix] == best]


def random_designators(rng: random.Random) -> list[Card]:
    """``placed-designators``: each colour card placed on a number card 1–5 (numbers repeat)."""
    return [Card(colour, rng.randint(1, 5)) for colour in EBBES_COLOURS]


def play_ebbes(
    rng: random.Random, players: tuple[str, ...], options: dict[str, Any], first: str
) -> Game:
    values = len(players) * (3 if options.get("extended", False) else 2)
    deck = [Card(c, v) for c in EBBES_COLOURS for v in range(1, values + 1)]
    size = len(deck) // len(players)
    placed = options.get("variant", "standard") == "placed-designators"
    discard = options.get("discard", False)
    numbers = rng.sample(range(1, 6), EBBES_ROUNDS)
    rounds: list[Round] = []
    starter, chooser = first, None
    for number in range(1, EBBES_ROUNDS + 1):
        hands, _ = deal(rng, deck, players, size)
        discards = {p: hands[p].pop(rng.randrange(size)) for p in players} if discard else {}
        if placed:
            designators, number_card = random_designators(rng), None
        else:
            number_card = numbers[number - 1]
            designators = [Card(c, number_card) for c in EBBES_COLOURS]
        keeper = Designations(designators, options.get("trump_from", "now"))
        count = size - 1 if discard else size
        tricks = play_tricks(rng, players, hands, starter, count, keeper)
        won = ebbes_won(players, tricks, list(discards.values()))
        rnd = Round(
            number,
            size,
            starter,
            tricks,
            ebbes_scores(players, keeper.roles, won),
            number_card=number_card,
            designators=designators if placed else [],
            designations=keeper.roles,
            discards=discards,
            won=won,
            chosen_by=chooser,
            nix_majority=nix_majority(players, keeper.roles, won),
        )
        rounds.append(rnd)
        # Whoever won the most nix cards (one of them when tied; anyone after a round without
        # nix) chooses the next start player, who may be anybody.
        chooser = rng.choice(rnd.nix_majority or list(players))
        starter = rng.choice(players)
    return Game("ebbes", players, options, first, rounds)


# --- choosing a game ----------------------------------------------------------------------------

PLAYER_RANGE = {"blackout": (2, 8), "alles-oder-nichts": (3, 6), "ebbes": (3, 5)}
PLAYERS = {"blackout": play_blackout, "alles-oder-nichts": play_alles, "ebbes": play_ebbes}


def simulate(
    rng: random.Random,
    game: str,
    players: int | tuple[str, ...],
    options: dict[str, Any] | None = None,
    first: str | None = None,
) -> Game:
    """A random legal game of ``game``: ``players`` is a count (random names) or the names.
    ``options`` are the record's options (missing ones take their defaults); the first dealer
    (ebbes: starter) is random unless given."""
    names = tuple(rng.sample(NAMES, players)) if isinstance(players, int) else players
    first = first if first is not None else rng.choice(names)
    return PLAYERS[game](rng, names, dict(options or {}), first)


# --- writing a record -------------------------------------------------------------------------

DETAILS = ("summary", "plays", "both", "mixed")


def card_text(card: Card, french: bool) -> str:
    """The canonical spelling: ``"QH"``, ``"10S"`` (Blackout) or ``"red-7"``."""
    if french:
        return RANK_LETTERS.get(card.value, str(card.value)) + card.colour
    return f"{card.colour}-{card.value}"


class Speller:
    """Writes cards, colours and names as a record holds them. ``messy`` spells them the other
    ways the format accepts (any case, surrounding spaces, ``T`` for 10) to test reading."""

    def __init__(self, rng: random.Random, game: str, messy: bool) -> None:
        self.rng = rng
        self.french = game == "blackout"
        self.messy = messy

    def _case(self, text: str) -> str:
        if self.messy and self.rng.random() < 0.3:
            text = self.rng.choice([text.upper(), text.lower(), text.swapcase()])
        return self._pad(text)

    def _pad(self, text: str) -> str:
        if self.messy and self.rng.random() < 0.3:
            return self.rng.choice([" ", "\t", "  "]) + text + self.rng.choice(["", " ", "\n"])
        return text

    def card(self, card: Card) -> str:
        text = card_text(card, self.french)
        if text.startswith("10") and self.messy and self.rng.random() < 0.5:
            text = "T" + text[2:]
        return self._case(text)

    def colour(self, colour: str) -> str:
        return self._case(colour)

    def name(self, name: str) -> str:
        """Names are case-sensitive; only surrounding spaces may vary."""
        return self._pad(name)

    def by_name(self, values: dict[str, Any]) -> dict[str, Any]:
        """A per-player map in random key order (key order carries no meaning)."""
        keys = list(values)
        self.rng.shuffle(keys)
        return {self.name(k): values[k] for k in keys}


def to_record(
    game: Game, rng: random.Random, detail: str = "mixed", messy: bool = False
) -> dict[str, Any]:
    """The game as a ``table-referee/1`` document.

    ``detail``: ``summary`` (results only: ``tricks``, or ebbes ``designations`` and ``won``),
    ``plays`` (every trick card by card, and ebbes discards; nothing the plays derive), ``both``
    (plays and the results, which agree), or ``mixed`` (a random one of those per round).
    """
    spell = Speller(rng, game.name, messy)
    first_key = "first_starter" if game.name == "ebbes" else "first_dealer"
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": game.name,
        "players": [spell.name(p) for p in game.players],
        "options": dict(game.options),
    }
    if game.first != game.players[0] or rng.random() < 0.5:
        doc[first_key] = spell.name(game.first)
    writer = ebbes_entry if game.name == "ebbes" else trick_game_entry
    doc["rounds"] = [
        writer(game, rnd, spell, rng.choice(DETAILS[:3]) if detail == "mixed" else detail)
        for rnd in game.rounds
    ]
    return doc


def plays_entry(rnd: Round, spell: Speller) -> list[dict[str, Any]]:
    return [
        {"leader": spell.name(t.leader), "cards": [spell.card(c) for c in t.cards]}
        for t in rnd.tricks
    ]


def trick_game_entry(game: Game, rnd: Round, spell: Speller, detail: str) -> dict[str, Any]:
    """A Blackout or Alles oder Nichts round: dealer (sometimes), trump, bids, results."""
    rng = spell.rng
    entry: dict[str, Any] = {}
    if rng.random() < 0.5:
        entry["dealer"] = spell.name(rnd.dealer or "")
    if rnd.trump_card is not None:
        card = rnd.trump_card
        entry["trump"] = spell.card(card) if rng.random() < 0.5 else spell.colour(card.colour)
    elif rng.random() < 0.5:
        entry["trump"] = None
    if game.name == "blackout":
        entry["bids"] = spell.by_name(rnd.bids)
    else:
        entry["bids"] = spell.by_name(
            {p: {"bid": rnd.bids[p], "open": rnd.open[p]} for p in game.players}
        )
    if detail != "summary":
        entry["plays"] = plays_entry(rnd, spell)
    if detail != "plays":
        entry["tricks"] = spell.by_name(rnd.tricks_won(game.players))
    return entry


def ebbes_entry(game: Game, rnd: Round, spell: Speller, detail: str) -> dict[str, Any]:
    """An ebbes round: starter (and who chose), number or designators, discards, results."""
    rng = spell.rng
    entry: dict[str, Any] = {}
    if rnd.number > 1 or rng.random() < 0.5:
        entry["starter"] = spell.name(rnd.leader)
    if rnd.chosen_by is not None and rng.random() < 0.5:
        entry["chosen_by"] = spell.name(rnd.chosen_by)
    if rnd.number_card is not None:
        entry["number"] = rnd.number_card
    else:
        entry["designators"] = [spell.card(c) for c in rng.sample(rnd.designators, 5)]
    # The plays alone cannot tell what the last trick's winner took, so ``plays`` gives the
    # discards; the results (``won``) may stand without them.
    if rnd.discards and (detail == "plays" or rng.random() < 0.5):
        entry["discards"] = spell.by_name({p: spell.card(c) for p, c in rnd.discards.items()})
    if detail != "summary":
        entry["plays"] = plays_entry(rnd, spell)
    if detail == "summary" or (detail == "both" and rng.random() < 0.5):
        entry["designations"] = [spell.colour(c) for c in rnd.designations]
    if detail != "plays":
        entry["won"] = spell.by_name({p: won_entry(rnd, p, spell) for p in game.players})
    return entry


def won_entry(rnd: Round, player: str, spell: Speller) -> dict[str, int]:
    """One player's cards won per colour; the trump colour may be left out."""
    trump = rnd.designations[0] if rnd.designations else None
    drop_trump = spell.rng.random() < 0.3
    return {
        spell.colour(c): n for c, n in rnd.won[player].items() if not (drop_trump and c == trump)
    }


# --- the benchmark ------------------------------------------------------------------------------


def benchmark_record(seed: int = 0) -> dict[str, Any]:
    """A complete 3-player Blackout game (33 rounds, 1…17…1 cards) with every trick card by card:
    289 tricks, 867 cards. The same seed gives the same document."""
    rng = random.Random(seed)
    game = simulate(rng, "blackout", ("Ann", "Ben", "Cho"), {}, first="Ann")
    return to_record(game, rng, detail="plays")


# --- a game in progress -------------------------------------------------------------------------


def in_progress(game: Game, doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same record stopped part-way: the rounds before a random one as they were, that one
    cut short (results not in yet, maybe a trick under way, maybe bids still missing)."""
    keep = rng.randrange(len(game.rounds))
    cut = {**doc, "rounds": list(doc["rounds"][: keep + 1])}
    cut["rounds"][keep] = cut_round(game, game.rounds[keep], doc["rounds"][keep], rng)
    return cut


def cut_round(game: Game, rnd: Round, entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A round entry before its results: fewer cards played (a short last trick allowed) and,
    before the first card, maybe fewer bids (ebbes: designations)."""
    entry = {k: v for k, v in entry.items() if k not in ("tricks", "won", "designations")}
    if "plays" in entry:
        played = rng.randrange(sum(len(t["cards"]) for t in entry["plays"]))
        entry["plays"] = first_cards(entry["plays"], played)
        if played:
            return entry
        del entry["plays"]
    if game.name == "ebbes":
        if rnd.designations and rng.random() < 0.5:
            entry["designations"] = rnd.designations[: rng.randrange(len(rnd.designations))]
        return entry
    return cut_bids(game, rnd, entry, rng)


def first_cards(plays: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The first ``count`` cards of ``plays``, trick by trick (the last trick maybe short)."""
    out = []
    for trick in plays:
        if count <= 0:
            break
        out.append({"leader": trick["leader"], "cards": trick["cards"][:count]})
        count -= len(trick["cards"])
    return out


def cut_bids(game: Game, rnd: Round, entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Only the first bids in bidding order (from left of the dealer); Alles oder Nichts secret
    bids still sealed (``{"open": false}`` without the bid)."""
    assert rnd.dealer is not None
    order = [left_of(game.players, rnd.dealer, i) for i in range(1, len(game.players) + 1)]
    made = set(order[: rng.randint(0, len(order))])
    bids = {k: v for k, v in entry["bids"].items() if k.strip() in made}
    if game.name == "alles-oder-nichts":
        bids = {
            k: v if v["open"] or rng.random() < 0.5 else {"open": False} for k, v in bids.items()
        }
    return {**entry, "bids": bids}


if __name__ == "__main__":
    # python -m tests.simulate > bench/blackout-3p-card-by-card.json
    print(json.dumps(benchmark_record(), indent=2, ensure_ascii=False))
