"""The reveal, undo and simultaneous-tap path against a real PostgreSQL server.

Set ``REFEREE_TEST_POSTGRES`` (e.g. ``postgresql+psycopg://referee:referee@
127.0.0.1:5432/referee_test``); without it the tests are skipped, unless
``REFEREE_REQUIRE_POSTGRES=1`` makes a missing server a failure (CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import delete, text

from referee.store import GameTable
from referee.store.db import make_engine
from referee.web.database import engine_of
from referee.web.push import news_of
from tests.web.conftest import (
    Browserless,
    LiveServer,
    a_reveal_reaches_the_streams,
    act,
    create_table,
    live_table,
    make_app,
    simultaneous_taps,
)
from tests.web_sheets.test_change_side import side_switch_races_a_save

pytestmark = pytest.mark.postgres

URL = os.environ.get("REFEREE_TEST_POSTGRES", "")
REQUIRED = os.environ.get("REFEREE_REQUIRE_POSTGRES") == "1"


def _unavailable() -> str | None:
    if not URL:
        return "REFEREE_TEST_POSTGRES is not set"
    engine = make_engine(URL)
    try:
        with engine.connect() as connection:
            connection.execute(text("select 1"))
    except Exception as error:  # any connection failure means no server to test against
        return f"PostgreSQL at REFEREE_TEST_POSTGRES is not reachable ({type(error).__name__})"
    finally:
        engine.dispose()
    return None


@pytest.fixture()
def pg_app(tmp_path: Path) -> Iterator[Flask]:
    reason = _unavailable()
    if reason:
        if REQUIRED:
            pytest.fail(f"{reason}, and REFEREE_REQUIRE_POSTGRES=1")
        pytest.skip(reason)
    app = make_app(URL, tmp_path, EVENTS_HEARTBEAT=0.5)
    codes: list[str] = []
    app.config["CREATED_CODES"] = codes
    yield app
    engine = engine_of(app)
    with engine.begin() as connection:
        connection.execute(delete(GameTable).where(GameTable.code.in_(codes)))
    engine.dispose()


def test_reveal_and_undo_on_postgres(pg_app: Flask) -> None:
    assert engine_of(pg_app).dialect.name == "postgresql"
    client = pg_app.test_client()
    code, token, _ = create_table(client, seed="iron-lynx-808")
    pg_app.config["CREATED_CODES"].append(code)
    for taps in range(3):
        assert act(client, code, token, "reveal", taps).status_code == 303
    assert act(client, code, token, "undo", 3).status_code == 303
    assert client.get(f"/api/t/{code}").get_json()["taps"] == 2
    assert act(client, code, token, "undo", 3).status_code == 409


def test_simultaneous_reveals_on_postgres(pg_app: Flask) -> None:
    server = LiveServer(pg_app)
    try:
        http = Browserless(server.url)
        code, token = live_table(http)
        pg_app.config["CREATED_CODES"].append(code)
        for seen in range(2):
            statuses = simultaneous_taps(http, code, token, "reveal", seen, 8)
            assert sorted(statuses) == [200] + [409] * 7
            _, body, _ = http.request(f"/api/t/{code}", accept="application/json")
            assert json.loads(body)["taps"] == seen + 1
    finally:
        server.stop()


def test_the_stream_delivers_a_reveal_by_notify(pg_app: Flask) -> None:
    """The reveal's NOTIFY wakes the process's one listener: the database is
    read once when the first page of a table arrives, and never polled."""
    server = LiveServer(pg_app)
    try:
        news = news_of(pg_app)
        a_reveal_reaches_the_streams(server, pg_app.config["CREATED_CODES"])
        assert news.postgres and 1 <= news.checks <= 2  # the first page's read (and one on reconnecting)
    finally:
        server.stop()


GEVENT_PSYCOPG = """
from gevent import monkey
monkey.patch_all()
import sys, time
import gevent
from sqlalchemy import text
from referee.store.db import make_engine

engine = make_engine(sys.argv[1])
ticks = 0

def tick():
    global ticks
    while True:
        ticks += 1
        gevent.sleep(0.01)

def sleep_in_postgres():
    with engine.connect() as connection:
        connection.execute(text("select pg_sleep(0.5)"))

ticker = gevent.spawn(tick)
sleep_in_postgres()  # connect once first
ticks, started = 0, time.monotonic()
gevent.joinall([gevent.spawn(sleep_in_postgres) for _ in range(4)])
print(round(time.monotonic() - started, 2), ticks)
"""


def test_psycopg_waits_cooperatively_under_gevent(pg_app: Flask) -> None:
    """Under gunicorn's gevent workers (monkey-patched), psycopg waits through
    gevent's select: four queries sleeping 0.5 s in PostgreSQL overlap, and
    the rest of the process keeps running meanwhile."""
    out = subprocess.run(
        [sys.executable, "-c", GEVENT_PSYCOPG, URL],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 0, out.stderr
    seconds, ticks = out.stdout.split()
    assert float(seconds) < 1.5  # one after another they would take 2 s
    assert int(ticks) >= 20  # the ticker ran during the queries


def test_a_side_switch_racing_a_save_on_postgres(pg_app: Flask) -> None:
    """Under PostgreSQL's own locking, a host's side switch and a player's
    first save from two phones at once: one wins, and no saved sheet is
    left on a side the table does not play (checked in the helper)."""
    outcomes = {
        side_switch_races_a_save(pg_app, f"pg-side-race-{round_}", pg_app.config["CREATED_CODES"])
        for round_ in range(8)
    }
    assert outcomes <= {(303, 409), (409, 200)}
