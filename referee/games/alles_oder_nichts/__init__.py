"""Alles oder Nichts beyond its rules (``referee.rules.alles``): its record fields, printed
sheets and round screens, one module each (see ``referee.games``)."""
