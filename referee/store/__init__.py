"""Persistence: the database handle, the models, and the repository functions for tables.

``referee.store.db`` holds ``db``/``migrate`` and the SQLite set-up, ``referee.store.models`` the
tables, ``referee.store.tables`` the functions the web layer calls. Importing this package
registers the models on ``db.metadata``, which Alembic's autogenerate compares against.
"""

from referee.store import models
from referee.store.db import db, migrate, prepare_database

__all__ = ["db", "migrate", "models", "prepare_database"]
