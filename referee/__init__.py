"""Table Referee: scorekeeping and rules referee for Blackout, Alles oder Nichts and ebbes."""

import os

#: The translation catalogs, ``translations/<lang>/LC_MESSAGES/messages.po`` and the compiled
#: ``messages.mo`` beside it (docs/translating.md): in the package, so the installed ``referee``
#: command reads the very files the web app reads (a path of ``os.path``: importing pathlib
#: would cost a tenth of a check).
TRANSLATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "translations")
