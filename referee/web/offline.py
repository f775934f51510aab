"""Installing the app on a phone, and the host's dealer going on offline.

A game shop's Wi-Fi drops; the deal is fixed by its seed, so the host's
phone can hold the whole game. Four answers make that work:

- ``/manifest.webmanifest``: the web app manifest (name, icons drawn from the
  favicon by ``tools/make_icons.py``, colours), so a phone installs the app
  to its home screen, named in the reader's language;
- ``/sw.js``: the service worker, served from the root so that it may keep
  every page. Its code is ``static/js/sw.js``; this view puts before it what
  only the server knows: the addresses of the files to keep
  (``url_for('static', ...)``, whatever names it gives them) and a version
  drawn from their bytes, so a new file means a new worker, which replaces
  the old cache. The offline page and the manifest are in the reader's
  language, and hashed in too: switching language gives a new worker,
  which keeps them afresh in the new one;
- ``/offline``: the page the worker shows for a page it has not kept;
- ``/api/t/<code>/deal``: for the host only, the dealer's panel after every
  number of reveals from 0 to the end, rendered by the same template as the
  live page (``dealer/_panel.html``), so the phone shows exactly what the
  server would. ``static/js/offline.js`` deals from it when the network is
  gone and sends the queued taps when it is back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from referee.rules.i18n import _
from referee.web.dealer import host_table
from referee.web.present import view_of

bp = Blueprint("offline", __name__)

THEME_COLOUR = "#2c2a26"
"""The colour of the page's top bar (``.top`` in ``static/css/app.css``), for the phone's status bar."""
BACKGROUND_COLOUR = "#fbf8f1"
"""The paper colour (``--paper``), for the splash screen while the app starts."""

ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
"""The manifest's icons: static file, size in pixels, purpose."""

KEPT_STATIC = (
    "css/app.css",
    "js/offline.js",
    "js/table.js",
    "favicon.svg",
    "icons/apple-touch-icon.png",
    *(name for name, _size, _purpose in ICONS),
)
"""The static files the host's page needs, which the service worker keeps
from its first start. The other pages' files (sheets, photos) are not kept:
those pages need the server anyway."""

WORKER = "js/sw.js"
"""The service worker's code, under ``static/``."""


@bp.app_context_processor
def _colours() -> dict[str, object]:
    return {"theme_colour": THEME_COLOUR}


def manifest_body() -> dict[str, Any]:
    """The web app manifest: what a phone needs to install the app, in the reader's language."""
    home = url_for("dealer.home")
    return {
        "id": home,
        "name": str(_("Cartographers referee")),
        "short_name": str(_("Referee")),
        "description": str(_("Deals Cartographers at the table, records the map sheets and scores them.")),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ],
    }


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    response = Response(
        json.dumps(manifest_body(), indent=1, ensure_ascii=False), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    return _by_language(response)


def _by_language(response: Response) -> Response:
    """The manifest and the worker are in the reader's language (names, the
    offline page): a cache keeps one copy per language, as it does of a page
    (``referee.web.i18n``)."""
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def fingerprint(parts: Iterable[bytes]) -> str:
    """A short digest of ``parts``: the service worker's version.

    The browser installs a new worker only when the bytes of ``/sw.js``
    change, so everything the worker keeps is hashed into it: a changed
    file, address or page gives a new version, and the new worker drops
    the old cache."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()[:16]


def worker_config() -> dict[str, Any]:
    """What ``static/js/sw.js`` is told by the server (see ``service_worker``)."""
    folder = Path(current_app.static_folder or "static")
    fallback = url_for("offline.page")
    kept = [url_for("static", filename=name) for name in KEPT_STATIC]
    manifest_url = url_for("offline.manifest")
    parts = [(folder / WORKER).read_bytes()]
    for name, url in zip(KEPT_STATIC, kept, strict=True):
        parts += [url.encode(), (folder / name).read_bytes()]
    parts += [
        manifest_url.encode(),
        json.dumps(manifest_body()).encode(),
        fallback.encode(),
        render_template("offline.html").encode(),
    ]
    return {
        "version": fingerprint(parts),
        "precache": [*kept, manifest_url, fallback],
        "fallback": fallback,
        "hostPage": url_for("dealer.host", code="*", token="*"),
    }


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker: its settings as one line, then ``static/js/sw.js``."""
    folder = Path(current_app.static_folder or "static")
    code = (folder / WORKER).read_text(encoding="utf-8")
    body = f"self.REFEREE = {json.dumps(worker_config())};\n{code}"
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return _by_language(response)


@bp.get("/offline")
def page() -> ResponseReturnValue:
    """What the service worker shows, offline, for a page it has not kept."""
    return render_template("offline.html")


@bp.get("/api/t/<code>/deal")
def deal(code: str) -> ResponseReturnValue:
    """The whole deal as the host's page shows it, for the host only (403 otherwise).

    ``panels[n]`` is the panel after ``n`` reveals, the same HTML that
    ``/t/<code>/panel`` answers when the table stands at ``n``; ``csrf`` is
    the form token of this browser's session, for sending queued taps."""
    token = request.args.get("token")
    table = host_table(code, token)
    view = view_of(table)
    panels = [
        render_template("dealer/_panel.html", v=view_of(table, taps), mode="host", token=token)
        for taps in range(view.total + 1)
    ]
    response = jsonify(code=view.code, taps=view.taps, total=view.total, csrf=generate_csrf(), panels=panels)
    response.headers["Cache-Control"] = "no-store"
    return response
