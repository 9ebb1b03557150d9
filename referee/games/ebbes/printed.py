"""ebbes on paper: per player the cards won of the plus, ebbes, minus and nix colours and the
points; above each round a strip with the number card (or the placed designators), the colour
of each role and who started. The blank card leaves that strip to be written in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from reportlab.platypus import Flowable, Spacer

from referee.rules import Game, RoundState, State
from referee.rules.ebbes import Ebbes, EbbesRound
from referee.rules.marks import N_
from referee.rules.wording import number_text
from referee.sheets import common
from referee.sheets.grid import Cell, Column, Row
from referee.sheets.layout import own
from referee.sheets.printed import PrintedGame
from referee.sheets.words import _

if TYPE_CHECKING:
    from referee.sheets.card import BlankCard

#: The colour roles whose cards are counted on the sheet, in column order.
COUNTED_ROLES = ("plus", "ebbes", "minus", "nix")

#: The printed words of the strip's labels and the roles (marked for the catalog).
STRIP_WORDS = {
    "number": N_("number"),
    "designators": N_("designators"),
    "trump": N_("trump"),
    "plus": N_("plus"),
    "ebbes": N_("ebbes"),
    "minus": N_("minus"),
    "nix": N_("nix"),
    "starts": N_("starts"),
}

#: What the strip above a blank round asks for.
BLANK_STRIP = ("number", "trump", "plus", "ebbes", "minus", "nix")


class PrintedEbbes(PrintedGame):
    score_columns = (
        Column(STRIP_WORDS["plus"], 22),
        Column(STRIP_WORDS["ebbes"], 25),
        Column(STRIP_WORDS["minus"], 25),
        Column(STRIP_WORDS["nix"], 18),
        Column(N_("pts"), 22, meaning=N_("Points")),
        Column(N_("total"), 26, mark="bold", meaning=N_("Total")),
    )
    blank_columns = (
        Column(STRIP_WORDS["plus"], 22),
        Column(STRIP_WORDS["ebbes"], 25),
        Column(STRIP_WORDS["minus"], 25),
        Column(STRIP_WORDS["nix"], 20),
        Column(N_("pts"), 24, meaning=N_("Points")),
        Column(N_("total"), 30, meaning=N_("Total")),
    )
    # TRANSLATORS: the option names and values the PDF's footer prints, as the record has them.
    option_words: ClassVar[tuple[str, ...]] = (
        N_("extended"),
        N_("variant"),
        N_("standard"),
        N_("placed-designators"),
        N_("discard"),
        N_("trump_from"),
        N_("now"),
        N_("next-trick"),
    )
    blank_legend = N_(
        "Write in the number card, then the colour of each role as its cards fall: the 1st "
        "card of the number is trump, the 2nd plus, the 3rd ebbes, the 4th minus; the fifth "
        "colour is nix. Count each player's cards won of plus (+1 each), ebbes (+3 to each "
        "player with neither the most nor the fewest), minus (−1 each) and nix (the most "
        "chooses who starts the next round)."
    )
    first_line = N_("Starts round 1: %(player)s")
    blank_row_height = 24.0

    def lead_columns(self, names: Sequence[str]) -> list[Column]:
        """The round only: its starter and colour roles are in the strip above each round."""
        return [Column(N_("Round"), 40)]  # room for the totals row's "Summe" in bold

    def round_lead(self, state: State, rnd: RoundState) -> tuple[list[Cell], list[tuple[str, str]]]:
        """The round's designations as words: the number (or placed designators), each colour
        role and who started."""
        assert isinstance(rnd, EbbesRound)
        roles = rnd.role_map()
        if rnd.designators is not None:
            first = ("designators", ", ".join(card.label() for card in rnd.designators))
        else:
            first = ("number", "" if rnd.number_card is None else str(rnd.number_card))
        strip = [first]
        strip += [(role, common.colour_word(colour)) for role, colour in roles.items()]
        strip.append(("starts", rnd.leader or ""))
        return [], strip

    def player_cells(
        self, state: State, rnd: RoundState, player: str, score: int | None
    ) -> list[Cell]:
        game = state.game
        assert isinstance(game, Ebbes) and isinstance(rnd, EbbesRound)
        won = (game.won_of(rnd) or {}).get(player)
        roles = rnd.role_map()
        counts: list[Cell] = [
            "" if won is None or roles[role] is None else str(won.get(roles[role] or "", 0))
            for role in COUNTED_ROLES
        ]
        return [*counts, "" if score is None else number_text(score)]

    def legend(self, state: State) -> list[Flowable]:
        text = _(
            "Cards won of the plus, ebbes, minus and nix colours. Plus +1 a card, minus −1 a "
            "card, ebbes +3 to each player with neither the most nor the fewest."
        )
        return [Spacer(0, 6), own(text, 8)]

    def dealer(self, card: BlankCard, game: Game[Any], number: int) -> str:
        """Who starts: known beforehand for round 1 only (the nix majority chooses after)."""
        if card.first is None or number > 1:
            return ""
        return card.seat_names()[card.first - 1] or _("seat %(n)s", n=card.first)

    def blank_row(self, card: BlankCard, game: Game[Any], number: int) -> Row:
        strip = [(role, "") for role in BLANK_STRIP]
        strip.append(("starts", self.dealer(card, game, number)))
        return Row([str(number)] + [""] * (len(self.blank_columns) * card.players), strip)


PART = PrintedEbbes()
