"""Blackout beyond its rules (``referee.rules.blackout``): its record fields, printed sheets and
round screens, one module each (see ``referee.games``)."""
