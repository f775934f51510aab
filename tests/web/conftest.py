"""Fixtures: a fresh app per test on a temporary SQLite file, and helpers to
create a table and reveal through the real forms (CSRF token included)."""

from __future__ import annotations

import http.client
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.web.app import create_app
from tests.browser import LiveServer


def make_app(database: str, instance: Path, **extra: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": database,
            "SERVER_NAME": None,
            **extra,
        }
    )


@pytest.fixture()
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite"


@pytest.fixture()
def app(db_path: Path, tmp_path: Path) -> Iterator[Flask]:
    yield make_app(f"sqlite:///{db_path}", tmp_path)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


def csrf_token(html: str) -> str:
    match = CSRF.search(html)
    assert match, "no CSRF token on the page"
    return match.group(1) or match.group(2)


def setup_form(**fields: Any) -> dict[str, Any]:
    """A valid setup form (base game, three players), overridden by ``fields``."""
    form: dict[str, Any] = {
        "edition": "base",
        "map_side": "A",
        "players": "Ann\nBen\nCat",
        "edicts": "random",
        "seed": "amber-fox-417",
    }
    form.update(fields)
    return {k: v for k, v in form.items() if v is not None}


def create_table(client: FlaskClient, **fields: Any) -> tuple[str, str, str]:
    """Create a table through the form; returns (code, host token, host page html)."""
    page = client.get("/")
    response = client.post("/", data={**setup_form(**fields), "csrf_token": csrf_token(page.text)})
    assert response.status_code == 303, response.text
    match = re.search(r"/t/([A-Z0-9]+)/host/([^/?#]+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    host = client.get(response.headers["Location"])
    assert host.status_code == 200
    return match.group(1), match.group(2), host.text


def act(client: FlaskClient, code: str, token: str, what: str, taps: int, **headers: str) -> Any:
    """POST a reveal or undo from the host page, with the page's CSRF token."""
    page = client.get(f"/t/{code}/host/{token}")
    return client.post(
        f"/t/{code}/{what}",
        data={"csrf_token": csrf_token(page.text), "host": token, "taps": str(taps)},
        headers=headers,
    )


@pytest.fixture()
def live(app: Flask) -> Iterator[LiveServer]:
    server = LiveServer(app)
    yield server
    server.stop()


class Browserless:
    """A tiny HTTP client with a cookie jar, for talking to a live server."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(
        self, path: str, form: dict[str, Any] | None = None, accept: str = "text/html"
    ) -> tuple[int, str, dict[str, str]]:
        body = urllib.parse.urlencode(form, doseq=True).encode() if form is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers={"Accept": accept})
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), dict(error.headers)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def live_table(http: Browserless, **fields: Any) -> tuple[str, str]:
    """Create a table on a live server through the form: (code, host token)."""
    _, page, _ = http.request("/")
    status, _, headers = http.request("/", {**setup_form(**fields), "csrf_token": csrf_token(page)})
    assert status == 303, status
    match = re.search(r"/t/([A-Z0-9]+)/host/([^/?#]+)$", headers["Location"])
    assert match
    return match.group(1), match.group(2)


def simultaneous_taps(
    http: Browserless, code: str, token: str, what: str, seen: int, count: int
) -> list[int]:
    """``count`` POSTs of the same tap released at the same instant; their statuses."""
    _, page, _ = http.request(f"/t/{code}/host/{token}")
    form = {"csrf_token": csrf_token(page), "host": token, "taps": str(seen)}
    barrier = threading.Barrier(count)

    def tap() -> int:
        barrier.wait()
        return http.request(f"/t/{code}/{what}", form, accept="application/json")[0]

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda _: tap(), range(count)))


class EventStream:
    """A table page's event stream (``/t/<code>/events``), read as a browser's
    ``EventSource`` reads it: one event at a time, comments counted apart."""

    def __init__(
        self, base: str, path: str, headers: dict[str, str] | None = None, timeout: float = 15
    ) -> None:
        parts = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.headers = dict(self.response.getheaders())
        self.comments = 0
        self.retry: int | None = None

    def next_event(self) -> tuple[str, str, str] | None:
        """The next event as (name, id, data), or None when the server ended the stream."""
        name, event_id, data = "message", "", []
        while True:
            line = self.response.readline().decode()
            if not line:
                return None
            line = line.rstrip("\n")
            if line == "":
                if data or name != "message":
                    return name, event_id, "\n".join(data)
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "":
                self.comments += 1
            elif field == "event":
                name = value
            elif field == "id":
                event_id = value
            elif field == "data":
                data.append(value)
            elif field == "retry":
                self.retry = int(value)

    def close(self) -> None:
        self.connection.close()


def a_reveal_reaches_the_streams(server: LiveServer, codes: list[str] | None = None) -> None:
    """Two followers and the host keep streams open; one reveal reaches each
    of them (the panel to followers, the count to the host), and an undo too."""
    http = Browserless(server.url)
    code, token = live_table(http, seed="brisk-heron-201")
    if codes is not None:
        codes.append(code)
    followers = [EventStream(server.url, f"/t/{code}/events?taps=0") for _ in range(2)]
    host = EventStream(server.url, f"/t/{code}/events?mode=host&taps=0")
    try:
        assert [s.status for s in [*followers, host]] == [200] * 3
        for stream in [*followers, host]:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
        _, page, _ = http.request(f"/t/{code}/host/{token}")
        form = {"csrf_token": csrf_token(page), "host": token, "taps": "0"}
        assert http.request(f"/t/{code}/reveal", form, accept="application/json")[0] == 200
        pushed = [s.next_event() for s in followers]
        assert pushed[0] == pushed[1]
        assert pushed[0] is not None
        name, taps, html = pushed[0]
        assert (name, taps) == ("panel", "1")
        _, panel, _ = http.request(f"/t/{code}/panel")
        assert 'data-taps="1"' in html and '<section class="turn"' in html
        assert html.split() == panel.split()  # the same panel the page would fetch, lines trimmed
        assert host.next_event() == ("taps", "1", "1")
        form["taps"] = "1"
        assert http.request(f"/t/{code}/undo", form, accept="application/json")[0] == 200
        back = followers[0].next_event()
        assert back is not None and back[:2] == ("panel", "0") and 'data-taps="0"' in back[2]
        assert host.next_event() == ("taps", "0", "0")
    finally:
        for stream in [*followers, host]:
            stream.close()
