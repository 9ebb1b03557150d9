"""The evening at a glance: what the last round scored, the standings and the score chart."""
