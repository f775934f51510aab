"""Server push: a table page keeps an event stream open and is sent each reveal.

``GET /t/<code>/events`` answers ``text/event-stream`` (Server-Sent Events,
read by the browser's ``EventSource``; see ``static/js/table.js``). After
each reveal or undo every stream on the table gets one message: for a
follower or a TV, ``event: panel`` with the new panel's HTML (rendered once
per table and taps, ``panels``), so the page swaps it in without asking
again; for the host, ``event: taps`` with the count alone, and the host's
page fetches its own panel (it holds the host's token). The event's ``id``
is the taps, so a reconnecting ``EventSource`` says in ``Last-Event-ID``
what it shows, and is sent the panel at once if the table moved meanwhile.

The stream holds no database connection: it waits on this process's board
for the table (``referee.table.news``), which one feeder per process keeps
current. A stream lasts five minutes (``REFEREE_STREAM_SECONDS``, less up
to a fifth so that a hall's pages do not all reconnect at once), then ends
and the browser reconnects after ``RETRY_MS``; meanwhile a comment line every
``EVENTS_HEARTBEAT`` seconds keeps proxies from closing it and finds pages
that are gone. ``X-Accel-Buffering: no`` and ``Cache-Control: no-transform``
ask proxies (nginx) to pass each message on at once and not compress it.
When the stream fails, the page falls back to polling ``/api/t/<code>``.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, abort, current_app, request, stream_with_context
from flask.typing import ResponseReturnValue

from referee.rules.i18n import _
from referee.table import hosting, normalise_code
from referee.table.news import GONE, Follower, News
from referee.web import database
from referee.web.dealer import MAX_TAPS, VIEWS, load
from referee.web.i18n import language
from referee.web.inputs import setting, whole_number
from referee.web.panels import PanelCache, render_panel

bp = Blueprint("push", __name__)

EXTENSION = "referee.news"
MESSAGES = "referee.push.messages"
OPEN_TABLES = "referee.push.open_tables"

RETRY_MS = 1500
"""How long a browser waits before reconnecting a stream that ended."""

DEFAULTS = {
    "EVENTS_HEARTBEAT": 15.0,
    "NEWS_INTERVAL": 0.1,
}
"""Seconds: how often a stream sends a comment, and how often a process
checks SQLite for reveals (PostgreSQL notifies instead)."""


def stream_seconds(raw: str) -> float:
    """``REFEREE_STREAM_SECONDS``: how long a stream lasts before the browser
    reconnects, 1 to 3600 seconds, or a clear error at start-up."""
    return float(setting(raw, "REFEREE_STREAM_SECONDS", 1, 3600, "seconds"))


def init_app(app: Flask) -> None:
    """One ``News`` per app (so per server process) on the app's database."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    if "EVENTS_LIFETIME" not in app.config:
        app.config["EVENTS_LIFETIME"] = stream_seconds(os.environ.get("REFEREE_STREAM_SECONDS", "300"))
    app.extensions[EXTENSION] = News(database.engine_of(app), interval=app.config["NEWS_INTERVAL"])
    app.extensions[MESSAGES] = PanelCache()
    app.extensions[OPEN_TABLES] = OpenTables()


class OpenTables:
    """Join codes this process found to be open tables a moment ago, and
    their ids. A hall's phones arrive together and reconnect every few
    minutes: the first of each table asks the database, and the others,
    for a minute, do not. A table deleted meanwhile ends its streams
    (``news.GONE``); one expiring meanwhile streams a minute longer."""

    def __init__(self, seconds: float = 60.0, size: int = 1024) -> None:
        self.seconds = seconds
        self.size = size
        self._found: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, code: str) -> int | None:
        with self._lock:
            found = self._found.get(code)
            if found is None or time.monotonic() - found[1] > self.seconds:
                return None
            return found[0]

    def put(self, code: str, table_id: int) -> None:
        with self._lock:
            self._found[code] = (table_id, time.monotonic())
            self._found.move_to_end(code)
            while len(self._found) > self.size:
                self._found.popitem(last=False)


def news_of(app: Flask) -> News:
    news: News = app.extensions[EXTENSION]
    return news


def event(name: str, taps: int, data: str) -> str:
    """One Server-Sent Event: its name, ``id`` (the taps) and ``data``, one
    ``data:`` line per line of text."""
    lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return f"event: {name}\nid: {taps}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


def message(code: str, table_id: int, mode: str, taps: int) -> str:
    """What a page in ``mode`` is sent when the table reaches ``taps``: built
    once per process for all the pages of a table that read its language (the
    first page to need it reads the table, and the panel comes from the shared
    cache). A stream keeps its request, so its language is the page's."""
    if mode == "host":
        return event("taps", taps, str(taps))

    def build() -> str:
        try:
            html = render_panel(load(code), mode, taps)
        finally:
            database.close_session()
        return event("panel", taps, "\n".join(line.strip() for line in html.splitlines() if line.strip()))

    messages: PanelCache = current_app.extensions[MESSAGES]
    return messages.get((code, table_id, mode, taps, language()), build)


def stream(
    code: str, mode: str, seen: int | None, follower: Follower, lifetime: float, heartbeat: float
) -> Iterator[str]:
    """The messages of one stream until its lifetime ends, the table is
    deleted, or the page goes (the server then closes the generator)."""
    try:
        yield f"retry: {RETRY_MS}\n\n"  # sent at once: the page knows the stream is open
        end = time.monotonic() + lifetime * random.uniform(0.8, 1.0)
        while (left := end - time.monotonic()) > 0:
            taps = follower.wait(seen, min(heartbeat, left))
            if taps == GONE:
                return
            if taps is None:
                yield ": keep-alive\n\n"
                continue
            seen = taps
            yield message(code, follower.table_id, mode, taps)
    finally:
        follower.close()


@bp.get("/t/<code>/events")
def events(code: str) -> ResponseReturnValue:
    """A table page's event stream (404 or 410 with a sentence for a code
    that is not an open table)."""
    mode = request.args.get("mode", "follow")
    if mode not in VIEWS:
        abort(400, str(_("A table page is shown for the host, a follower or a TV.")))
    config = current_app.config
    code = normalise_code(code)
    recent: OpenTables = current_app.extensions[OPEN_TABLES]
    table_id = recent.get(code)
    if table_id is None:
        table_id = hosting.watch(database.get_session(), code, config["TABLE_LIFETIME"]).table_id  # 404, 410
        recent.put(code, table_id)
    seen = whole_number(request.headers.get("Last-Event-ID") or request.args.get("taps"), MAX_TAPS)
    follower = news_of(current_app).follow(table_id)
    database.close_session()  # hand the connection back: a stream may last minutes
    body = stream(code, mode, seen, follower, config["EVENTS_LIFETIME"], config["EVENTS_HEARTBEAT"])
    response = Response(stream_with_context(body), mimetype="text/event-stream")
    response.call_on_close(follower.close)  # also when the page went before the stream began
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response
