"""Bytes over the wire for a table's sheet editor, as Chromium fetches it.

Starts the app on a local server with a fresh database, sets up a table and
opens a player's sheet editor in headless Chromium (Debian's, never a
downloaded one) twice: a first visit with an empty cache, then a repeat
visit (the same browser, a new navigation, as when a player comes back to
the page). For each request that reaches the server it prints the status,
the encoding and the bytes received (headers + body, as Chromium counts
them), then the totals:

    python bench/page_bytes.py

It measures the referee that ``import referee`` finds (the editable install;
``PYTHONPATH=.`` for a worktree's own).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from referee.rules import deck
from referee.table import hosting
from referee.web.app import create_app
from referee.web.database import get_session

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def editor_path(app: Any) -> str:
    """A new three-player table; the first player's sheet editor."""
    with app.app_context():
        setup = deck.Setup(edition="base", seed="page-bytes").check()
        table = hosting.set_up(get_session(), setup, "A", ["Ann", "Ben", "Cat"]).table
        return f"/t/{table.code}/sheets/1/spring"


def visit(page: Any, url: str) -> list[tuple[str, int, str, int, int]]:
    """Open ``url`` and wait for everything it loads: (path, status, encoding,
    header bytes, body bytes) for each request that reached the server."""
    seen: list[Any] = []

    def finished(request: Any) -> None:
        seen.append(request)

    page.on("requestfinished", finished)
    page.goto(url, wait_until="networkidle")
    page.remove_listener("requestfinished", finished)
    rows = []
    for request in seen:
        response = request.response()
        if response is None or response.from_service_worker:
            continue
        sizes = request.sizes()
        if sizes["responseHeadersSize"] + sizes["responseBodySize"] <= 0:  # from the browser's cache
            continue
        path = request.url.split("//", 1)[1].split("/", 1)[1]
        encoding = response.headers.get("content-encoding", "-")
        rows.append(
            ("/" + path, response.status, encoding, sizes["responseHeadersSize"], sizes["responseBodySize"])
        )
    return rows


def report(name: str, rows: list[tuple[str, int, str, int, int]], served: list[str]) -> int:
    """Print one visit's requests and totals; ``served`` is what the server itself saw."""
    print(name)
    for path, status, encoding, head, body in rows:
        print(f"  {status}  {encoding:<5} {head:>6} + {body:>6} B  {path}")
    total = sum(head + body for *_, head, body in rows)
    print(f"  {len(rows)} requests, {total:,} bytes ({total / 1000:.1f} KB); the server saw {len(served)}")
    served.clear()
    return total


def counted(app: Any, served: list[str]) -> Any:
    """The WSGI app, noting each request's path as the server receives it."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        served.append(environ["PATH_INFO"])
        return app(environ, start_response)

    return wsgi


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "page-bytes", "DATABASE_URL": f"sqlite:///{Path(folder) / 'referee.sqlite'}"}
        )
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        served: list[str] = []
        server = make_server("127.0.0.1", 0, counted(app, served), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}{editor_path(app)}"
        served.clear()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                first = report("first visit (empty cache)", visit(page, url), served)
                repeat = report("repeat visit (same browser)", visit(page, url), served)
                browser.close()
        finally:
            server.shutdown()
    print(f"sheet editor: first visit {first / 1000:.1f} KB, repeat visit {repeat / 1000:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
