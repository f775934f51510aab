"""Server push: a table page's event stream is sent each reveal; the panel is
rendered once per table and taps however many pages ask; each process asks
the database once per check, not once per page; a code that is not an open
table is told so. PostgreSQL's LISTEN/NOTIFY path is in ``test_postgres.py``,
the browser's side in ``test_push_browser.py``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, update

from referee.store import GameTable
from referee.store.models import utcnow
from referee.table.news import GONE, Board, News
from referee.web.database import engine_of, get_session
from referee.web.panels import STATES, cache_of
from referee.web.push import event as sse_event
from referee.web.push import news_of, stream_seconds
from tests.browser import LiveServer
from tests.web.conftest import (
    Browserless,
    EventStream,
    a_reveal_reaches_the_streams,
    act,
    create_table,
    csrf_token,
    live_table,
    make_app,
)


@pytest.fixture()
def push_app(tmp_path: Path) -> Flask:
    """An app whose streams send a comment every 0.3 s and end after 4 s."""
    return make_app(
        f"sqlite:///{tmp_path / 'push.sqlite'}", tmp_path, EVENTS_HEARTBEAT=0.3, EVENTS_LIFETIME=4.0
    )


@pytest.fixture()
def push_client(push_app: Flask) -> FlaskClient:
    return push_app.test_client()


@pytest.fixture()
def server(push_app: Flask) -> Iterator[LiveServer]:
    live = LiveServer(push_app)
    yield live
    live.stop()


def test_the_stream_delivers_a_reveal_on_sqlite(server: LiveServer) -> None:
    a_reveal_reaches_the_streams(server)


def test_the_stream_is_neither_buffered_nor_compressed(server: LiveServer) -> None:
    code, _ = live_table(Browserless(server.url))
    stream = EventStream(server.url, f"/t/{code}/events", headers={"Accept-Encoding": "gzip, br"})
    try:
        assert stream.status == 200
        assert stream.headers["X-Accel-Buffering"] == "no"
        assert stream.headers["Cache-Control"] == "no-cache, no-transform"
        assert "Content-Encoding" not in stream.headers and "Content-Length" not in stream.headers
        # No taps given: the page is sent the table as it stands, at once.
        first = stream.next_event()
        assert first is not None and first[:2] == ("panel", "0")
        assert stream.retry == 1500
        assert stream.next_event() is None  # the stream ends by itself after its lifetime
        assert stream.comments >= 3  # heartbeats meanwhile, as SSE comments
    finally:
        stream.close()


def test_a_reconnecting_page_is_sent_what_it_missed(push_app: Flask, server: LiveServer) -> None:
    http = Browserless(server.url)
    code, token = live_table(http)
    _, page, _ = http.request(f"/t/{code}/host/{token}")
    form = {"csrf_token": csrf_token(page), "host": token, "taps": "0"}
    assert http.request(f"/t/{code}/reveal", form, accept="application/json")[0] == 200
    # EventSource sends the last event's id on reconnecting; it wins over the address's taps.
    stream = EventStream(server.url, f"/t/{code}/events?taps=1", headers={"Last-Event-ID": "0"})
    try:
        got = stream.next_event()
        assert got is not None and got[:2] == ("panel", "1")
    finally:
        stream.close()
    # A page already showing the table is sent nothing but heartbeats.
    quiet = EventStream(server.url, f"/t/{code}/events?taps=1")
    try:
        assert quiet.next_event() is None and quiet.comments >= 3
    finally:
        quiet.close()
    # The ended streams left no board behind, and the feeder stopped with the last one.
    news = news_of(push_app)
    deadline = time.monotonic() + 5
    while (news.waiting or news.feeding) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert news.waiting == 0 and not news.feeding


def test_the_panel_is_rendered_once_per_table_and_taps(push_app: Flask, server: LiveServer) -> None:
    http = Browserless(server.url)
    code, token = live_table(http)
    cache = cache_of(push_app)
    before = cache.renders
    for _ in range(5):
        assert http.request(f"/t/{code}/panel")[0] == 200
    assert cache.renders == before + 1
    for _ in range(3):
        assert http.request(f"/t/{code}/panel?mode=tv")[0] == 200
    assert cache.renders == before + 2
    for _ in range(3):  # the host's panel holds the host's token and a CSRF token: never shared
        assert http.request(f"/t/{code}/panel?mode=host&token={token}")[0] == 200
    assert cache.renders == before + 2

    streams = [EventStream(server.url, f"/t/{code}/events?taps=0") for _ in range(12)]
    try:
        _, page, _ = http.request(f"/t/{code}/host/{token}")
        form = {"csrf_token": csrf_token(page), "host": token, "taps": "0"}
        assert http.request(f"/t/{code}/reveal", form, accept="application/json")[0] == 200
        got = {s.next_event() for s in streams}
        assert len(got) == 1 and next(iter(got)) is not None
        assert cache.renders == before + 3  # one render for twelve followers
        assert http.request(f"/t/{code}/panel")[0] == 200  # and a polling page meets the same panel
        assert cache.renders == before + 3
    finally:
        for stream in streams:
            stream.close()


def test_the_cache_is_bounded(push_app: Flask) -> None:
    cache = cache_of(push_app)
    cache.size = 3
    for n in range(5):
        assert cache.get(("T", 1, 1, "follow", n), lambda n=n: f"panel {n}") == f"panel {n}"
    assert cache.get(("T", 1, 1, "follow", 4), lambda: "again") == "panel 4"
    assert cache.get(("T", 1, 1, "follow", 0), lambda: "again") == "again"  # the oldest was dropped
    assert cache.renders == 6


def test_an_unknown_or_expired_table_is_told_on_the_events_route(
    push_app: Flask, push_client: FlaskClient
) -> None:
    app_client = push_client
    unknown = app_client.get("/t/ZZZZZZ/events")
    assert unknown.status_code == 404
    assert "No table has the code ZZZZZZ; check it with the host." in unknown.text
    api = app_client.get("/t/ZZZZZZ/events", headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.get_json()["error"].startswith("No table has the code")
    code, _, _ = create_table(app_client)
    with push_app.app_context():
        session = get_session()
        session.execute(
            update(GameTable).where(GameTable.code == code).values(updated_at=utcnow() - timedelta(days=31))
        )
        session.commit()
    gone = app_client.get(f"/t/{code}/events")
    assert gone.status_code == 410
    assert f"Table {code} expired after 30 days without a reveal; start a new one." in gone.text
    wrong = app_client.get(f"/t/{code}/events?mode=judge")
    assert wrong.status_code == 400 and "for the host, a follower or a TV" in wrong.text


def test_a_stream_ends_when_its_table_is_deleted(push_app: Flask, server: LiveServer) -> None:
    code, _ = live_table(Browserless(server.url))
    stream = EventStream(server.url, f"/t/{code}/events?taps=0")
    try:
        assert stream.status == 200
        with push_app.app_context():
            session = get_session()
            table = session.query(GameTable).filter_by(code=code).one()
            session.delete(table)
            session.commit()
        started = time.monotonic()
        assert stream.next_event() is None
        assert time.monotonic() - started < 3  # well before the stream's 4 s lifetime
    finally:
        stream.close()


def test_one_check_per_process_however_many_pages_wait(push_app: Flask, push_client: FlaskClient) -> None:
    """Thirty pages on two tables: each check of the watcher is one query."""
    codes = [create_table(push_client)[0], create_table(push_client)[0]]
    with push_app.app_context():
        ids = [get_session().query(GameTable.id).filter_by(code=c).scalar() for c in codes]
    engine = engine_of(push_app)
    news = News(engine, interval=0.02)
    queries: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "game_tables" in statement and threading.current_thread().name == "referee-news":
            queries.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    followers = [news.follow(ids[n % 2]) for n in range(30)]
    try:
        assert {f.wait(None, 1) for f in followers} == {0}
        time.sleep(0.3)
        checks = news.checks
        assert checks >= 5
        assert len(queries) in (checks - 2, checks - 1, checks)  # the first of each table came from follow()
        assert all(q.count("?") <= 2 for q in queries)  # the ids of the two tables, not thirty pages
    finally:
        event.remove(engine, "before_cursor_execute", count)
        for f in followers:
            f.close()


def test_a_move_wakes_every_waiting_page(push_app: Flask, push_client: FlaskClient) -> None:
    code, token, _ = create_table(push_client)
    with push_app.app_context():
        table_id = get_session().query(GameTable.id).filter_by(code=code).scalar()
    news = News(engine_of(push_app), interval=0.02)
    followers = [news.follow(table_id) for _ in range(20)]
    woke: list[int | None] = []
    threads = [threading.Thread(target=lambda f=f: woke.append(f.wait(0, 10))) for f in followers]
    try:
        for thread in threads:
            thread.start()
        assert act(push_client, code, token, "reveal", 0).status_code == 303
        for thread in threads:
            thread.join(10)
        assert woke == [1] * 20
        assert followers[0].wait(1, 0.05) is None  # nothing new: the wait times out
        with push_app.app_context():
            session = get_session()
            session.delete(session.get(GameTable, table_id))
            session.commit()
        assert followers[0].wait(1, 5) == GONE
    finally:
        for f in followers:
            f.close()


def test_a_first_read_never_takes_a_board_back() -> None:
    """A page's first read of a table may be older than a move the listener
    heard meanwhile; the move stands. Later reads (the watcher's) are news."""
    board = Board()
    board.settle(3)
    assert board.taps == 3
    board.hear(5)
    board.settle(4)
    assert board.taps == 5
    changed = board.changed
    board.hear(4)  # an undo
    assert board.taps == 4 and changed.is_set() and not board.changed.is_set()


def test_an_event_has_one_data_line_per_line() -> None:
    assert (
        sse_event("panel", 3, "<p>\r\na</p>\rb") == "event: panel\nid: 3\ndata: <p>\ndata: a</p>\ndata: b\n\n"
    )


@pytest.mark.parametrize("raw", ["0", "-5", "5.5", "²", "3601", "", "9" * 20])
def test_a_bad_stream_lifetime_is_refused_at_start(raw: str) -> None:
    with pytest.raises(ValueError, match="REFEREE_STREAM_SECONDS must be a whole number of seconds"):
        stream_seconds(raw)


def test_the_stream_lifetime_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_STREAM_SECONDS", "90")
    app = make_app(f"sqlite:///{tmp_path / 'env.sqlite'}", tmp_path)
    assert app.config["EVENTS_LIFETIME"] == 90.0


def test_a_reveal_is_answered_with_no_query_after_its_commit(
    push_app: Flask, push_client: FlaskClient
) -> None:
    """On PostgreSQL the commit wakes this process's pages; a query after it
    would make the host wait behind every page's write."""
    code, token, page = create_table(push_client)
    engine = engine_of(push_app)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.split()[0].upper())

    event.listen(engine, "before_cursor_execute", record)
    try:
        form = {"csrf_token": csrf_token(page), "host": token, "taps": "0"}
        answer = push_client.post(f"/t/{code}/reveal", data=form, headers={"Accept": "application/json"})
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert answer.status_code == 200 and answer.get_json()["taps"] == 1
    assert answer.get_json()["turn"]  # the state of the table after the tap
    assert statements[-1] == "UPDATE", statements


def test_pages_arriving_together_ask_the_database_once(push_app: Flask, server: LiveServer) -> None:
    """The first stream of a table in a process reads the table (and its
    taps); the next ones, within a minute, start without a query."""
    code, _ = live_table(Browserless(server.url))
    engine = engine_of(push_app)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "game_tables" in statement and threading.current_thread().name != "referee-news":
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    streams = []
    try:
        for _ in range(10):
            streams.append(EventStream(server.url, f"/t/{code.lower()}/events?taps=0"))
            assert streams[-1].status == 200
        assert len(statements) == 2, statements  # the table's id and age, then its taps
    finally:
        event.remove(engine, "before_cursor_execute", record)
        for stream in streams:
            stream.close()


def test_the_polled_state_is_built_once_per_taps(push_app: Flask, push_client: FlaskClient) -> None:
    code, token, _ = create_table(push_client)
    states = push_app.extensions[STATES]
    answers = [push_client.get(f"/api/t/{code.lower()}") for _ in range(4)]
    assert {a.get_json()["taps"] for a in answers} == {0} and states.renders == 1
    assert answers[0].headers["ETag"] and answers[0].mimetype == "application/json"
    assert act(push_client, code, token, "reveal", 0).status_code == 303
    after = [push_client.get(f"/api/t/{code}").get_json() for _ in range(3)]
    assert after[0]["taps"] == 1 and after[0]["turn"] and after.count(after[0]) == 3
    assert states.renders == 2


def test_a_czech_follower_and_an_english_one_each_read_their_own_panel(server: LiveServer) -> None:
    """The panel a follower is sent is rendered once per table, taps and
    language: a Czech follower is never sent the English one, nor the other way."""
    code, _ = live_table(Browserless(server.url), seed="brisk-heron-202")
    waiting = {"cs": "Čekáme, až hostitel odhalí první kartu", "en": "Waiting for the host to reveal"}
    for first, second in (("en", "cs"), ("cs", "en")):
        for language in (first, second):
            stream = EventStream(server.url, f"/t/{code}/events", headers={"Accept-Language": language})
            try:
                sent = stream.next_event()
            finally:
                stream.close()
            assert sent is not None and sent[0] == "panel"
            assert waiting[language] in sent[2], (first, language)
            other = "en" if language == "cs" else "cs"
            assert waiting[other] not in sent[2], (first, language)


def test_the_polled_panel_is_in_the_readers_language(push_client: FlaskClient) -> None:
    code, _, _ = create_table(push_client, seed="brisk-heron-203")
    english = push_client.get(f"/t/{code}/panel", headers={"Accept-Language": "en"}).text
    czech = push_client.get(f"/t/{code}/panel", headers={"Accept-Language": "cs"}).text
    assert "Waiting for the host to reveal" in english and "Čekáme, až hostitel" in czech
    assert push_client.get(f"/t/{code}/panel", headers={"Accept-Language": "en"}).text == english


def test_a_stream_for_no_such_view_is_refused_in_the_readers_language(push_client: FlaskClient) -> None:
    code, _, _ = create_table(push_client, seed="brisk-heron-204")
    answer = push_client.get(f"/t/{code}/events?mode=kitchen", headers={"Accept-Language": "cs"})
    assert answer.status_code == 400
    assert "Stránka stolu se zobrazuje hostiteli" in answer.text
