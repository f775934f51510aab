"""Refusals at a table: a sentence for a person and a status for whoever asked.

The table layer answers the web pages, the command line and the tests alike,
so it cannot abort an HTTP request. It raises ``Refused`` instead, carrying a
status number that reads the same everywhere (the HTTP codes, because every
reader knows them): 400 input the table cannot take, 404 nothing there, 409
the table is not at that point (or moved on meanwhile), 410 gone. ``referee.web``
turns a refusal into the page or JSON answer with that status.

The sentence is a ``referee.rules.i18n.Text``: this layer marks it for
translation without knowing the reader's language (nor importing Flask), and
it is put into words when the web layer renders it.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from referee.rules.errors import RefereeError
from referee.rules.i18n import Text

BAD_INPUT = 400
NOT_FOUND = 404
CONFLICT = 409
GONE = 410


class SheetPage(NamedTuple):
    """Where a refusal's remedy is: a seat's sheet (``page`` "sheet") or its
    score page ("score") for season index ``season``, which a page links to."""

    page: Literal["sheet", "score"]
    season: int


class Refused(RefereeError):
    """A table request refused: ``status`` says how, the message what to do,
    and ``remedy``, when there is one, the page where it is done."""

    def __init__(self, status: int, message: Text | str, remedy: SheetPage | None = None):
        super().__init__(message)
        self.status = status
        self.remedy = remedy


class NoSuchTable(Refused):
    """No table has the code asked for (mistyped, or never created)."""

    def __init__(self, message: Text | str):
        super().__init__(NOT_FOUND, message)


class TableExpired(Refused):
    """The table exists but has had no reveal for longer than its lifetime."""

    def __init__(self, message: Text | str):
        super().__init__(GONE, message)
