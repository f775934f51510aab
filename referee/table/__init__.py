"""A table's life, between the database (``referee.store``) and the pages (``referee.web``).

Setting up a table and revealing its cards (``hosting``), where it stands
(``state``, its deal in ``deal``), the map side it plays (``sides``), each
player's sheet through the seasons (``sheets``, checked by ``checks``,
stored through ``records``), the ambushes'
effects and the solo helper (``ambushes``), scoring a season (``scoring``),
and the standings and exports (``standings``), and how each server process
hears of a reveal for the pages waiting on it (``news``). Functions take a SQLAlchemy
session and plain values, and return rows or dataclasses, or raise
``Refused`` with a status and a sentence. Nothing here imports Flask or
``referee.web``: a script, a test or another front end plays a table the
same way the pages do.

This module only re-exports what callers name most: the errors, finding a
table, and the stored rows the functions hand out.
"""

from __future__ import annotations

from referee.store.models import MAX_NAME_LENGTH, GameTable, Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet
from referee.store.tables import normalise_code
from referee.table.deal import SEASON_NAMES, SEASONS, dealt, setup_of
from referee.table.errors import NoSuchTable, Refused, TableExpired
from referee.table.state import Table, find_table, open_table

__all__ = [
    "MAX_NAME_LENGTH",
    "SEASONS",
    "SEASON_NAMES",
    "GameTable",
    "NoSuchTable",
    "Refused",
    "Seat",
    "SeasonScoreRecord",
    "SeasonSheet",
    "Table",
    "TableExpired",
    "dealt",
    "find_table",
    "normalise_code",
    "open_table",
    "setup_of",
]
