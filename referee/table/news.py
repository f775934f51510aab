"""Who hears of a reveal: one cheap check per server process, not one per page.

A follower's page keeps an event stream open (``referee.web.push``), and each
stream waits here for the table it shows to move. A server process keeps one
``Board`` per table that has pages waiting, with the table's taps as last
heard, and one feeder that keeps the boards current for all of them:

- on PostgreSQL, one connection per process LISTENs on the channel every
  winning reveal or undo NOTIFYs in its own transaction
  (``referee.store.tables.move``), so the process hears of a move once, at
  its commit, whichever process made it;
- on SQLite, which has no notifications, a watcher asks the database for
  the taps of the watched tables, all in one query, every ``interval``
  seconds.

A move wakes every page waiting on its table at once. The feeder runs only
while some page is waiting, and starts again with the next one. The waiting
is done with ``threading`` (an ``Event`` per board), which gevent's
monkey-patching makes cooperative: under gunicorn's gevent workers a thousand
waiting pages are a thousand greenlets and one feeder.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import sessionmaker

from referee.store import tables as stored

log = logging.getLogger(__name__)

GONE = -1
"""The taps a board reports once its table has been deleted."""

WATCH_INTERVAL = 0.1
"""Seconds between two SQLite checks: a reveal reaches the pages within this."""

LISTEN_TIMEOUT = 5.0
"""Seconds a PostgreSQL listener waits before it looks whether pages still wait."""

RETRY_AFTER = 1.0
"""Seconds before a feeder tries again after the database failed it."""

HEAD_START = 0.002
"""Seconds a PostgreSQL listener waits before waking the pages: the tap whose
commit sent the notification, when this process made it, answers the host
first instead of after every page's write (``hosting.reveal`` needs no query
after its commit)."""


class Board:
    """One table's taps as this process last heard them, and the pages waiting on it."""

    def __init__(self) -> None:
        self.taps: int | None = None
        """None until first heard."""
        self.changed = threading.Event()
        """Set (and replaced by a fresh one) each time ``taps`` changes."""
        self.pages = 0

    def hear(self, taps: int) -> None:
        """Record ``taps`` and wake whoever waits, if it is news."""
        if taps == self.taps:
            return
        self.taps = taps
        changed, self.changed = self.changed, threading.Event()
        changed.set()

    def settle(self, taps: int) -> None:
        """The taps read when the board was made, unless a move was heard meanwhile."""
        if self.taps is None:
            self.hear(taps)


@dataclass
class Follower:
    """One page waiting on a table; ``close`` it when the page goes."""

    news: News
    table_id: int
    board: Board
    closed: bool = False

    def wait(self, seen: int | None, timeout: float) -> int | None:
        """The table's taps as soon as they differ from ``seen`` (at once if
        they do already), or None after ``timeout`` seconds without news.
        ``GONE`` once the table has been deleted."""
        changed = self.board.changed  # taken before the check: a move after it sets this one
        taps = self.board.taps
        if taps is not None and taps != seen:
            return taps
        changed.wait(timeout)
        taps = self.board.taps
        return taps if taps is not None and taps != seen else None

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.news.leave(self.table_id, self.board)


class News:
    """This process's boards and their one feeder, for the database behind ``engine``."""

    def __init__(self, engine: Engine, interval: float = WATCH_INTERVAL) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine)
        self.interval = interval
        self.postgres = engine.dialect.name == "postgresql"
        self.checks = 0
        """How many times this process asked the database for taps (tests and benchmarks read it)."""
        self._lock = threading.Lock()
        self._boards: dict[int, Board] = {}
        self._feeder: threading.Thread | None = None

    def follow(self, table_id: int) -> Follower:
        """Wait on a table from now on. The first page to wait on a table in
        this process reads its taps (made before the read, the board misses no
        move committed after it); the others share the board."""
        with self._lock:
            board = self._boards.get(table_id)
            fresh = board is None
            if board is None:
                board = self._boards[table_id] = Board()
            board.pages += 1
            if self._feeder is None:
                self._feeder = threading.Thread(target=self._feed, name="referee-news", daemon=True)
                self._feeder.start()
        follower = Follower(self, table_id, board)
        if fresh:
            try:
                self._check([table_id], first=True)
            except BaseException:
                follower.close()
                raise
        return follower

    def leave(self, table_id: int, board: Board) -> None:
        with self._lock:
            board.pages -= 1
            if board.pages <= 0 and self._boards.get(table_id) is board:
                del self._boards[table_id]

    @property
    def waiting(self) -> int:
        """How many tables pages wait on in this process."""
        return len(self._boards)

    @property
    def feeding(self) -> bool:
        """Whether this process's feeder is running (only while pages wait, and a moment after)."""
        return self._feeder is not None

    def _round(self) -> list[int] | None:
        """For the feeder: the tables pages wait on, or None when there are
        none and it must stop (a later page starts another)."""
        with self._lock:
            if self._feeder is not threading.current_thread():
                return None
            if not self._boards:
                self._feeder = None
                return None
            return list(self._boards)

    def hear(self, table_id: int, taps: int) -> None:
        """A table moved to ``taps``: wake the pages waiting on it in this process."""
        board = self._boards.get(table_id)
        if board is not None:
            board.hear(taps)

    def _check(self, table_ids: list[int], first: bool = False) -> None:
        """Read these tables' taps in one query and tell their boards. The
        ``first`` read of a new board yields to a move heard meanwhile: on
        PostgreSQL the notification may be newer than the read."""
        with self.sessions() as session:
            found = stored.taps_of(session, table_ids)
        self.checks += 1
        for table_id in table_ids:
            board = self._boards.get(table_id)
            if board is None:
                continue
            taps = found.get(table_id, GONE)
            if first:
                board.settle(taps)
            else:
                board.hear(taps)

    def _feed(self) -> None:
        try:
            if self.postgres:
                self._listen()
            else:
                self._watch()
        except BaseException:  # never leave pages waiting on a feeder that died
            with self._lock:
                if self._feeder is threading.current_thread():
                    self._feeder = None
            raise

    def _watch(self) -> None:
        """SQLite: one query for all watched tables every ``interval`` seconds."""
        while (table_ids := self._round()) is not None:
            try:
                self._check(table_ids)
            except SQLAlchemyError:
                log.exception("checking the tables' taps failed; trying again")
                time.sleep(RETRY_AFTER)
            time.sleep(self.interval)

    def _listen(self) -> None:
        """PostgreSQL: one LISTEN connection; after each (re)connection, one
        read of every watched table catches what was committed meanwhile."""
        listener: stored.MoveListener | None = None
        try:
            while (table_ids := self._round()) is not None:
                try:
                    if listener is None:
                        listener = stored.MoveListener(self.engine)
                        self._check(table_ids)
                    for table_id, taps in listener.moves(LISTEN_TIMEOUT):
                        time.sleep(HEAD_START)
                        self.hear(table_id, taps)
                except Exception as error:  # psycopg's own errors too: the driver is used directly
                    if listener is None:
                        log.warning("listening for reveals failed (%s); trying again", error)
                    else:
                        log.warning("the connection listening for reveals dropped (%s); reconnecting", error)
                        _close_quietly(listener)
                        listener = None
                    time.sleep(RETRY_AFTER)
        finally:
            if listener is not None:
                _close_quietly(listener)


def _close_quietly(listener: stored.MoveListener) -> None:
    try:
        listener.close()
    except Exception:  # already broken: nothing more to do with it
        log.debug("closing a broken listener connection failed", exc_info=True)
