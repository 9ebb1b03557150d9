"""One package per game, holding what the game adds beyond its rules in each layer: its record
fields (``record.py``), its printed sheets (``printed.py``), its round screens and new-table
options (``screens.py``) and its part of the group statistics (``stats.py``). How the shared
code finds them, and how a game is added: ``referee.parts``."""
