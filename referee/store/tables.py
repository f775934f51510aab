"""Creating, finding and advancing tables.

Advancing is one conditional UPDATE (``... SET taps = taps + 1 WHERE id = ?
AND taps = ?``): the database, not the app, decides which of two simultaneous
taps wins, so a double tap or two host tabs reveal exactly one card, with
SQLite or PostgreSQL and any number of server threads or processes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.store.models import CODE_ALPHABET, GameTable, Seat, digest, new_code, new_token, utcnow

TAPS_CHANNEL = "referee_taps"
"""The PostgreSQL notification channel a move is announced on, as ``"<table id> <taps>"``."""


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
    connection = session.connection()
    won = connection.execute(statement).rowcount == 1
    if won and connection.dialect.name == "postgresql":
        connection.execute(select(func.pg_notify(TAPS_CHANNEL, f"{table_id} {target}")))
    session.commit()
    return won


def taps_of(session: Session, table_ids: list[int]) -> dict[int, int]:
    """The taps of each of these tables that still exists, in one query."""
    if not table_ids:
        return {}
    rows = session.execute(select(GameTable.id, GameTable.taps).where(GameTable.id.in_(table_ids)))
    return {table_id: taps for table_id, taps in rows}


class MoveListener:
    """A connection of its own that LISTENs on ``TAPS_CHANNEL`` (PostgreSQL only).

    It is kept apart from the pool, in autocommit, since a LISTEN inside an open
    transaction would hear nothing until the transaction ended; one per server
    process is enough however many pages are waiting (``referee.table.news``)."""

    def __init__(self, engine: Engine) -> None:
        self._connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            self._connection.exec_driver_sql(f"LISTEN {TAPS_CHANNEL}")
        except BaseException:
            self.close()
            raise

    def moves(self, timeout: float) -> Iterator[tuple[int, int]]:
        """(table id, taps) for each move committed, as they come, for up to ``timeout`` seconds.

        Uses the psycopg 3 connection's own ``notifies``: it waits through
        ``select``/``poll``, which gevent patches, so a waiting listener
        leaves the rest of the process running."""
        driver: Any = self._connection.connection.driver_connection
        for note in driver.notifies(timeout=timeout):
            table_id, _, taps = note.payload.partition(" ")
            if table_id.isdigit() and taps.isdigit():
                yield int(table_id), int(taps)

    def close(self) -> None:
        """Drop the connection for good (never back to the pool with a LISTEN on it)."""
        self._connection.invalidate()
        self._connection.close()
