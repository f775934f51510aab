"""Where tables live: plain SQLAlchemy models, and sessions on a database URL.

``models`` holds the tables and seats (and owns ``Base``), ``sheets`` the
players' sheets and score records, ``tables`` the conditional UPDATE that
advances a table, ``db`` builds the engine and opens sessions, and
``schema`` brings the database up to the newest of the ``migrations``. No
Flask here: the app's per-request session is ``referee.web.database``.
"""

from __future__ import annotations

from referee.store.db import create_schema, make_engine, session_factory
from referee.store.models import Base, GameTable, Seat

__all__ = ["Base", "GameTable", "Seat", "create_schema", "make_engine", "session_factory"]
