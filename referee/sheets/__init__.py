"""Printable score sheets: a table's sheet and blank scorecards, as PDF bytes.

Pure functions over the rules engine's state (``referee.rules``) and plain data; reportlab
does the printing. Nothing here knows Flask or the database: the web layer hands in what it
read from the store (``SheetInfo``) and sends the bytes back.
"""

from referee.sheets.blank import blank_card
from referee.sheets.card import BlankCard
from referee.sheets.layout import ORIENTATIONS, PAPERS, Page
from referee.sheets.score import Correction, SheetInfo, table_sheet

__all__ = [
    "ORIENTATIONS",
    "PAPERS",
    "BlankCard",
    "Correction",
    "Page",
    "SheetInfo",
    "blank_card",
    "table_sheet",
]
