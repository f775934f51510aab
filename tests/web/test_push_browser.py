"""Server push in real headless Chromium: a follower's page is updated by its
event stream without polling; it polls instead when the stream is refused
or the browser has no EventSource; and when the server is gone it shows a
"reconnecting" mark, cleared once the server is back.

Skipped when ``/usr/bin/chromium`` is missing, unless ``REFEREE_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import LiveServer, launched_chromium
from tests.web.conftest import Browserless, csrf_token, live_table, make_app

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.fixture()
def browser() -> Iterator[Any]:
    yield from launched_chromium()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[LiveServer]:
    app = make_app(f"sqlite:///{tmp_path / 'push.sqlite'}", tmp_path, POLL_MS=150, EVENTS_HEARTBEAT=1.0)
    live = LiveServer(app)
    yield live
    live.stop()


def reveal(http: Browserless, code: str, token: str, taps: int) -> None:
    """The host's tap, sent as the host's page sends it."""
    _, page, _ = http.request(f"/t/{code}/host/{token}")
    form = {"csrf_token": csrf_token(page), "host": token, "taps": str(taps)}
    assert http.request(f"/t/{code}/reveal", form, accept="application/json")[0] == 200


def follower_page(browser: Any, url: str, how: str = "stream", taps: int = 0) -> tuple[Any, list[str]]:
    """A follower's phone on ``url``, and the list of addresses it asks for from
    now on. ``how`` may take the stream away: "refused" (the events route
    answers 503) or "missing" (a browser without EventSource)."""
    context = browser.new_context(**PHONE)
    if how == "missing":
        context.add_init_script("delete window.EventSource;")
    page = context.new_page()
    if how == "refused":
        page.route(
            "**/events*", lambda route: route.fulfill(status=503, body="down", content_type="text/plain")
        )
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(url)
    page.wait_for_selector(f'#panel[data-taps="{taps}"]')
    return page, asked


def test_a_follower_is_updated_by_the_stream_without_polling(browser: Any, server: LiveServer) -> None:
    http = Browserless(server.url)
    code, token = live_table(http)
    page, asked = follower_page(browser, f"{server.url}/t/{code}")
    page.wait_for_timeout(800)  # five poll periods: a page without its stream would have polled
    settled = len(asked)
    reveal(http, code, token, 0)
    page.wait_for_selector('#panel[data-taps="1"] .turn .card', timeout=10_000)
    after = asked[settled:]
    assert any(f"/t/{code}/events" in url for url in asked)
    assert not [url for url in asked if "/api/t/" in url or "/panel" in url], asked
    assert after == []  # the card came in the stream: no request at all
    assert page.locator("#reconnecting").is_hidden()


@pytest.mark.parametrize("how", ["refused", "missing"])
def test_the_page_polls_when_the_stream_fails(browser: Any, server: LiveServer, how: str) -> None:
    http = Browserless(server.url)
    code, token = live_table(http)
    page, asked = follower_page(browser, f"{server.url}/t/{code}", how)
    page.wait_for_timeout(500)
    reveal(http, code, token, 0)
    page.wait_for_selector('#panel[data-taps="1"] .turn .card', timeout=10_000)
    assert any(f"/api/t/{code}" in url for url in asked)
    assert any(f"/t/{code}/panel" in url for url in asked)
    assert page.locator("#reconnecting").is_hidden()  # the server answers: nothing to warn of


# --- the server gone and back ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, instance: Path) -> subprocess.Popen[bytes]:
    """The development server in a process of its own, so that it can really go away."""
    env = {
        **os.environ,
        "REFEREE_INSTANCE": str(instance),
        "SECRET_KEY": "push-test",
        "REFEREE_POLL_MS": "200",
    }
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "flask", "--app", "referee", "run", "--port", str(port)]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    pytest.fail("the development server did not open its port")


def test_a_page_that_lost_the_server_says_so_until_it_is_back(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_server(port, tmp_path / "instance")
    try:
        http = Browserless(url)
        code, token = live_table(http)
        reveal(http, code, token, 0)
        page, _ = follower_page(browser, f"{url}/t/{code}", taps=1)
        mark = page.locator("#reconnecting")
        page.wait_for_timeout(500)
        assert mark.is_hidden()

        proc.kill()  # the server is gone: its streams and its port with it
        proc.wait(10)
        mark.wait_for(state="visible", timeout=10_000)
        assert "may not be the latest" in mark.inner_text()
        assert page.locator('#panel[data-taps="1"]').count() == 1  # the last card stays, marked

        proc = start_server(port, tmp_path / "instance")
        mark.wait_for(state="hidden", timeout=15_000)
        reveal(Browserless(url), code, token, 1)
        page.wait_for_selector('#panel[data-taps="2"]', timeout=10_000)
        assert mark.is_hidden()
    finally:
        proc.kill()
        proc.wait(10)
