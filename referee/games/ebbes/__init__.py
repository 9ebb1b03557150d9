"""ebbes beyond its rules (``referee.rules.ebbes``): its record fields, printed sheets and round
screens, one module each (see ``referee.games``)."""
