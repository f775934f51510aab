"""Purging expired tables (issue 12): a table idle past its lifetime goes
with its seats, sheets and scores, and no other row does; on SQLite and
PostgreSQL, whose foreign keys do the cascade."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from referee.store.db import session_factory
from referee.store.models import GameTable, Seat, utcnow
from referee.table import NoSuchTable, SeasonScoreRecord, SeasonSheet, find_table, scoring
from referee.table.state import purge_expired
from tests.store.conftest import new_database  # noqa: F401  (the fixture)
from tests.table.conftest import LIFETIME, new_table, reveal_to, save, season_end
from tests.table.test_sheet_flow import BLANK_A, drawn


def played(session: Session, seed: str, idle: timedelta) -> str:
    """A two-player table with both spring sheets saved and one scored,
    last touched ``idle`` ago; its join code."""
    t = new_table(session, ["Ann", "Ben"], seed=seed)
    t = reveal_to(session, t, season_end(t, 0))
    save(session, t, t.seat(1), 0, drawn(BLANK_A, r0c0="F"), coins=1)
    save(session, t, t.seat(2), 0, drawn(BLANK_A, r4c4="W"))
    scoring.score(session, t, t.seat(1), 0)
    t.table.updated_at = utcnow() - idle
    session.commit()
    return t.table.code


def counts(session: Session) -> tuple[int, ...]:
    return tuple(
        int(session.scalar(select(func.count()).select_from(model)) or 0)
        for model in (GameTable, Seat, SeasonSheet, SeasonScoreRecord)
    )


def test_purge_deletes_expired_tables_with_everything_at_them(new_database: Callable[[], str]) -> None:  # noqa: F811
    factory = session_factory(new_database())
    session = factory()
    old = played(session, "purge-old", LIFETIME + timedelta(hours=1))
    older = played(session, "purge-older", LIFETIME * 3)
    young = played(session, "purge-young", LIFETIME - timedelta(hours=1))
    fresh = played(session, "purge-fresh", timedelta(0))
    assert counts(session) == (4, 8, 8, 4)

    assert purge_expired(session, LIFETIME) == 2
    assert counts(session) == (2, 4, 4, 2)
    for code in (old, older):
        with pytest.raises(NoSuchTable):
            find_table(session, code, LIFETIME)
    for code in (young, fresh):
        assert [seat.name for seat in find_table(session, code, LIFETIME).seats] == ["Ann", "Ben"]

    assert purge_expired(session, LIFETIME) == 0
    assert purge_expired(session, timedelta(minutes=1)) == 1  # a shorter lifetime: the young one too
    assert counts(session) == (1, 2, 2, 1)
    session.close()
    factory.kw["bind"].dispose()
