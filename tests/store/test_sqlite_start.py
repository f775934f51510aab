"""Server workers starting together on a new SQLite file: each one's first
connection switches the database to WAL, and only one can. SQLite refuses the
others at once ("database is locked"), without waiting its busy timeout.
Before the store retried the switch, about one start in thirty of four
workers failed here, and CI's start of four gunicorn workers failed once."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from referee.store.db import create_schema, make_engine

WORKERS = 4
STARTS = 30


pytestmark = pytest.mark.slow


def _start(url: str, at: float, results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    while time.time() < at:
        pass  # all workers open their first connection at the same moment
    try:
        engine = make_engine(url)
        create_schema(engine)  # as each worker does when it starts
        with engine.connect() as connection:
            mode = connection.execute(text("PRAGMA journal_mode")).scalar()
        results.put(str(mode))
    except Exception as error:  # noqa: BLE001 - the test reports whatever a worker met
        results.put(f"{type(error).__name__}: {error}")


def test_workers_opening_a_new_database_together_all_connect(tmp_path: Path) -> None:
    fork = multiprocessing.get_context("fork")
    for n in range(STARTS):
        url = f"sqlite:///{tmp_path / f'start{n}.sqlite'}"
        results: multiprocessing.Queue = fork.Queue()  # type: ignore[type-arg]
        at = time.time() + 0.2
        workers = [fork.Process(target=_start, args=(url, at, results)) for _ in range(WORKERS)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=30)
        assert sorted(results.get(timeout=5) for _ in workers) == ["wal"] * WORKERS, f"start {n}"
