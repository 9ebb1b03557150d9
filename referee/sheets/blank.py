"""Blank scorecards, as good as the pads in the box: to print, take to the table and fill in.

Blackout: the ladder of hand sizes (by the ``sequence`` and ``max_cards`` options), the rounds
without a trump marked, and a small "1" printed in every score box, so an exact bid is scored by
writing the bid after it. Alles oder Nichts: 6-5-4-3-4-5-6 with an "o  s" to circle for an open
or secret bid. ebbes: a strip per round to write in the number card and the colour of each role,
and a box per player for the cards won of each scoring colour. Names and the first dealer are
optional; given them, the card prints who deals (ebbes: starts) each round.

Whether the players and options are allowed is the rules engine's decision (``start``): a
``Breach`` or ``OptionError`` from ``blank_card`` says why not.
"""

from __future__ import annotations

from gettext import NullTranslations

from reportlab.platypus import Spacer

from referee.rules import start
from referee.sheets import common, fonts
from referee.sheets.card import BlankCard
from referee.sheets.grid import Grid
from referee.sheets.layout import Page, own
from referee.sheets.printed import printed
from referee.sheets.words import _, ngettext, speaking

#: The height of the name row when some seats are left blank (points): room to write a name.
NAME_HEIGHT = 30.0


def blank_card(
    card: BlankCard, page: Page | None = None, words: NullTranslations | None = None
) -> bytes:
    """The blank scorecard as PDF bytes (``Breach``/``OptionError``/``ValueError`` if the rules
    or the card do not allow it), in the language of ``words`` (``speaking``)."""
    with speaking(words):
        return blank(card, page)


@fonts.fitted
def blank(card: BlankCard, page: Page | None) -> bytes:
    """The blank scorecard as PDF bytes, in the language being spoken."""
    page = page or Page()
    game = start(card.setup()).game
    part = printed(card.game)
    names = card.seat_names()
    numbers = range(1, game.round_count + 1)
    rows = [part.blank_row(card, game, number) for number in numbers]
    per_player = list(part.blank_columns)
    lead = part.lead_columns([part.dealer(card, game, number) for number in numbers])
    grid = Grid(
        lead=lead,
        per_player=per_player,
        names=names,
        captions=[_("seat %(n)s", n=seat) for seat in range(1, card.players + 1)],
        rows=rows,
        foot=[_("Total")] + [""] * (len(lead) - 1 + len(per_player) * card.players),
        row_height=part.blank_row_height,
        name_height=None if all(names) else NAME_HEIGHT,
        fill=True,
    )
    title = _("%(game)s — scorecard", game=game.title)
    lines = [
        " · ".join(
            [
                ngettext("%(num)s player", "%(num)s players", card.players),
                ngettext("%(num)s round", "%(num)s rounds", game.round_count),
                part.ladder(game),
            ]
        ),
        _("Date: %(blank)s    Place: %(blank)s", blank="______________________"),
    ]
    head = common.heading(title, lines)
    notes = [
        Spacer(0, 4),
        own(_(part.blank_legend), 8),
        *common.column_legend([*lead, *per_player]),
        *common.glyph_note(names),
    ]
    return common.pdf(grid, page, title, head, notes, game.title, game.options, part.option_words)
