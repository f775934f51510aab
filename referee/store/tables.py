"""Creating, finding and advancing tables.

Advancing is one conditional UPDATE (``... SET taps = taps + 1 WHERE id = ?
AND taps = ?``): the database, not the app, decides which of two simultaneous
taps wins, so a double tap or two host tabs reveal exactly one card, with
SQLite or PostgreSQL and any number of server threads or processes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.store.models import CODE_ALPHABET, GameTable, Seat, digest, new_code, new_token, utcnow


def normalise_code(text: str) -> str:
    """A join code as typed: any case, with spaces and dashes ignored."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def looks_like_code(code: str) -> bool:
    return 0 < len(code) <= 16 and all(ch in CODE_ALPHABET for ch in code)


def create_table(
    session: Session, setup: dict[str, Any], deal_version: int, players: list[str]
) -> tuple[GameTable, str]:
    """A new table with a fresh join code; returns it and the host token
    (the only time the token exists in clear)."""
    token = new_token()
    for _ in range(20):
        table = GameTable(
            code=new_code(),
            host_token_hash=digest(token),
            setup=setup,
            deal_version=deal_version,
            taps=0,
            finished=False,
        )
        table.seats = [Seat(order=i, name=name) for i, name in enumerate(players)]
        session.add(table)
        try:
            session.commit()
        except IntegrityError:  # the code was taken a moment ago: draw another
            session.rollback()
            continue
        return table, token
    raise RuntimeError("could not find a free join code")


def find_table(session: Session, code: str) -> GameTable | None:
    code = normalise_code(code)
    if not looks_like_code(code):
        return None
    return session.scalar(select(GameTable).where(GameTable.code == code))


def peek(session: Session, code: str) -> tuple[int, int, Any] | None:
    """(id, taps, updated_at) of a table, the cheapest read a follower's poll needs."""
    code = normalise_code(code)
    if not looks_like_code(code):
        return None
    row = session.execute(
        select(GameTable.id, GameTable.taps, GameTable.updated_at).where(GameTable.code == code)
    ).first()
    return None if row is None else (row[0], row[1], row[2])


def move(session: Session, table_id: int, seen: int, step: int, total: int) -> bool:
    """Move a table from ``seen`` taps to ``seen + step`` if nobody moved it
    first. ``total`` is the deal's number of turns. True when this call won."""
    target = seen + step
    if not 0 <= target <= total:
        return False
    statement = (
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.taps == seen)
        .values(taps=GameTable.taps + step, finished=target >= total, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    result = session.connection().execute(statement)
    session.commit()
    return result.rowcount == 1
