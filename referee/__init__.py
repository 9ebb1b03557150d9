"""Table Referee: scorekeeping and rules referee for Blackout, Alles oder Nichts and ebbes."""
