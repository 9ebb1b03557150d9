"""Alles oder Nichts beyond its rules (``referee.rules.alles``): its record fields, printed
sheets, round screens and part of the group statistics, one module each (see
``referee.games``)."""
