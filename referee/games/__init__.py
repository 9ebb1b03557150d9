"""One package per game, holding what the game adds beyond its rules in each layer: its record
fields (``record.py``), its printed sheets (``printed.py``) and its round screens and new-table
options (``screens.py``). How the shared code finds them, and how a game is added:
``referee.parts``."""
