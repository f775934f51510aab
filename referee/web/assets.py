"""Static files under names that carry a hash of their content, cached for a year.

``url_for('static', filename='css/app.css')`` gives
``/static/css/app.3f2a9c1b07.css``: the name changes whenever the content
does, so that address is served with ``Cache-Control: public,
max-age=31536000, immutable`` and a phone fetches each file once per release
of the app, never asking again. Templates need no change: the hook is on
``url_for`` for the ``static`` endpoint.

An address without the hash, or with another one (a page left open on a
phone across an upgrade asks for the old name), still gets today's file,
but with ``Cache-Control: no-cache``, so nothing stale is kept. Each process
reads and hashes the files once, when the app is made, and serves them from
memory: the bytes served under a name are the bytes that were hashed, even
if the files on disk change under a running server. ``flask run --debug``
keeps Flask's own static files, so an edit shows on the next reload.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, request
from werkzeug.wrappers import Response as BaseResponse

EXTENSION = "referee.assets"
LONG = "public, max-age=31536000, immutable"
"""For a hashed address: its content never changes."""
SHORT = "no-cache"
"""For a plain or stale address: the browser asks again (and gets 304 if unchanged)."""
HASH_LENGTH = 10
_HASHED = re.compile(rf"(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[^./]+)")


@dataclass(frozen=True)
class Asset:
    """One static file as this process serves it."""

    name: str
    """Its path under ``static/``: ``css/app.css``."""
    hashed: str
    """The name with its content's hash: ``css/app.3f2a9c1b07.css``."""
    body: bytes
    mimetype: str
    digest: str
    """SHA-256 of the body (its ETag)."""


def hashed_name(name: str, digest: str) -> str:
    """``css/app.css`` with the hash before its extension: ``css/app.3f2a9c1b07.css``."""
    stem, dot, ext = name.rpartition(".")
    if not dot or "/" in ext:
        return f"{name}.{digest[:HASH_LENGTH]}"
    return f"{stem}.{digest[:HASH_LENGTH]}.{ext}"


class Assets:
    """Every file under a static folder, read and hashed once."""

    def __init__(self, folder: Path) -> None:
        self.by_name: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or any(part.startswith(".") for part in path.relative_to(folder).parts):
                continue
            name = path.relative_to(folder).as_posix()
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()
            mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            asset = Asset(name, hashed_name(name, digest), body, mimetype, digest)
            self.by_name[name] = asset
            self.by_hashed[asset.hashed] = asset

    def find(self, requested: str) -> tuple[Asset, bool] | None:
        """The file an address names, and whether the address carries its
        current hash; an unknown address gives None."""
        if requested in self.by_hashed:
            return self.by_hashed[requested], True
        if requested in self.by_name:
            return self.by_name[requested], False
        stale = _HASHED.fullmatch(requested)
        if stale:
            asset = self.by_name.get(stale["stem"] + stale["ext"])
            if asset is not None:
                return asset, False
        return None


def _assets() -> Assets:
    assets: Assets = current_app.extensions[EXTENSION]
    return assets


def serve(filename: str) -> BaseResponse:
    """The ``static`` endpoint: a hashed address for a year, any other for now."""
    found = _assets().find(filename)
    if found is None:
        abort(404)
    asset, current = found
    response = Response(asset.body, mimetype=asset.mimetype)
    response.headers["Cache-Control"] = LONG if current else SHORT
    response.set_etag(asset.digest)
    return response.make_conditional(request)


def _hashed_url(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for('static', filename=...)`` names the file by its content."""
    if endpoint == "static" and isinstance(values.get("filename"), str):
        asset = _assets().by_name.get(values["filename"])
        if asset is not None:
            values["filename"] = asset.hashed


def init_app(app: Flask) -> None:
    """Hash the static files and serve them (not in debug mode: edits must show)."""
    if app.debug or app.static_folder is None:
        return
    app.extensions[EXTENSION] = Assets(Path(app.static_folder))
    app.view_functions["static"] = serve
    app.url_defaults(_hashed_url)
