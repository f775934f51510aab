"""What every browser test shares: Debian's Chromium driven by Playwright, and
the app on a real local server.

Never a downloaded browser: without ``/usr/bin/chromium`` the browser tests
skip with a reason, unless ``REFEREE_REQUIRE_BROWSER=1`` (CI) makes that a
failure.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def playwright_or_skip() -> Any:
    """``sync_playwright``, or a skip (a failure in CI) naming what is missing."""
    required = os.environ.get("REFEREE_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            raise
        pytest.skip("the playwright package is not installed (pip install -e '.[test]')")
    if not os.path.exists(CHROMIUM):
        if required:
            pytest.fail(f"{CHROMIUM} is missing and REFEREE_REQUIRE_BROWSER=1")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    return sync_playwright


def launched_chromium() -> Iterator[Any]:
    """Debian's Chromium, launched for one test and closed after it (skips,
    or fails in CI, when it is missing); a ``browser`` fixture yields from it."""
    sync_playwright = playwright_or_skip()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class LiveServer:
    """The app on a real local HTTP server (threaded, like ``flask run``)."""

    def __init__(self, app: Flask) -> None:
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(5)
