"""Fixtures for the table layer: an in-memory SQLite session and tables set
up and advanced through ``referee.table`` alone, as a script or another front
end would, with no Flask app anywhere."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.rules import deck
from referee.store import session_factory
from referee.table import SeasonSheet, Seat, Table, hosting, open_table
from referee.table import sheets as table_sheets

LIFETIME = timedelta(days=30)

#: Edicts easy to count by hand: spring scores A and B, summer B and C, fall C and D, winter D and A.
EASY_EDICTS = ("Sentinel Wood", "Canal Lake", "Great City", "Borderlands")


@pytest.fixture()
def session() -> Iterator[Session]:
    """A session on a fresh in-memory SQLite database with the whole schema."""
    factory = session_factory("sqlite://")
    session = factory()
    try:
        yield session
    finally:
        session.close()
        factory.kw["bind"].dispose()


def new_table(
    session: Session,
    players: list[str],
    edition: str = "base",
    side: str = "A",
    seed: str = "table-layer-1",
    chosen: tuple[str, str, str, str] | None = EASY_EDICTS,
) -> Table:
    """A table set up as the host's form does, before the first reveal."""
    setup = deck.Setup(
        edition=edition,
        seed=seed,
        solo=len(players) == 1,
        edicts="chosen" if chosen else "random",
        chosen=chosen,
    ).check()
    return Table.of(hosting.set_up(session, setup, side, players).table)


def season_end(t: Table, s: int) -> int:
    """The reveals after which season ``s`` (0-3) is over."""
    return sum(len(t.deal.seasons[i].turns) for i in range(s + 1))


def reveal_to(session: Session, t: Table, taps: int) -> Table:
    """Reveal as the host does, one tap at a time, up to ``taps``; the table as it then stands."""
    while t.table.taps < taps:
        hosting.reveal(session, t.table, t.table.taps)
    return open_table(session, t.table.code, LIFETIME)


def save(
    session: Session, t: Table, seat: Seat, s: int, rows: list[str], coins: int = 0, **extra: Any
) -> table_sheets.Saved:
    """Save a map as the editor sends it, from the sheet's current revision unless given."""
    sheet: SeasonSheet = table_sheets.open_sheet(session, t, seat, s)
    payload: dict[str, Any] = {
        "revision": sheet.revision,
        "map": "\n".join(rows),
        "coins": coins,
        "monsters": [],
        "heroes": [],
    }
    payload.update(extra)
    return table_sheets.save(session, t, seat, s, payload)
