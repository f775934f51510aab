"""Where tables live: plain SQLAlchemy models and a session per request.

``db`` builds the engine and hands out sessions; ``models`` holds the tables.
Other features add their own models on the same ``Base``.
"""

from __future__ import annotations

from referee.store.db import Base, get_session, init_app
from referee.store.models import GameTable, Seat

__all__ = ["Base", "GameTable", "Seat", "get_session", "init_app"]
