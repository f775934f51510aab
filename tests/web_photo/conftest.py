"""Fixtures for the photo pages: the sheet pages' app and client, a table on
the side of a committed sample photo, and helpers that post a photo the way
the editor's form does and read back what the page hands to editor.js."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.store.models import GameTable
from referee.store.sheets import SeasonSheet
from referee.table.state import Table
from referee.vision.reader import SheetReading, read_sheet
from referee.web.app import create_app
from referee.web.database import get_session
from tests.web_sheets.conftest import TableAt, csrf_token, editor


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}"}
    )


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"

SAMPLE = "006"
"""A colour sheet of side A the tests photograph (one destroyed space on it,
which a base game's reading cannot have)."""


def _table_now(t: TableAt) -> Table:
    with t.app.app_context():
        return Table.of(get_session().query(GameTable).filter_by(code=t.code).one())


def table_reading(t: TableAt, data: bytes, season: int = 0) -> SheetReading:
    """What the photo page reads for ``season``'s sheet at table ``t`` as it
    stands: only the codes its game can draw, no more heroes than its deal
    revealed, and no more monsters than the ambushes revealed allow."""
    table = _table_now(t)
    return read_sheet(
        data, table.side.letter, table.drawn, table.heroes_revealed(season), table.monsters_at_most(season)
    )


def monsters_at_most(t: TableAt, season: int = 0) -> int | None:
    """The table's bound on monster spaces for ``season``'s sheet as it stands."""
    return _table_now(t).monsters_at_most(season)


def sample(name: str = SAMPLE) -> tuple[bytes, dict[str, Any]]:
    """A committed sample photo and its true grid, coins and side."""
    return (SAMPLES / f"{name}.jpg").read_bytes(), json.loads((SAMPLES / f"{name}.json").read_text())


def multipart(fields: dict[str, str], photo: bytes | None, filename: str = "sheet.jpg") -> tuple[bytes, str]:
    """A multipart body built by hand, so that a body of many megabytes stays in
    memory (the test client spools big ones to a file it never closes)."""
    boundary = "photo-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    if photo is not None:
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{filename}"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        )
        parts.append(head.encode() + photo + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def post_photo(
    client: FlaskClient,
    t: TableAt,
    seat: int,
    season: str,
    data: bytes | None,
    filename: str = "sheet.jpg",
    headers: dict[str, str] | None = None,
    token: bool = True,
) -> Any:
    """Post ``data`` (None: no file chosen) as the editor's photo form does."""
    html, _ = editor(client, t, seat, season)
    body, content_type = multipart({"csrf_token": csrf_token(html)} if token else {}, data, filename)
    return client.post(
        f"/t/{t.code}/sheets/{seat}/{season}/photo",
        data=body,
        content_type=content_type,
        headers=headers or {},
    )


def page_config(html: str) -> dict[str, Any]:
    raw = re.search(r'<script type="application/json" id="editor-config">(.*?)</script>', html, re.S)
    assert raw, "no editor configuration on the page"
    return dict(json.loads(raw.group(1)))


def photo_error(html: str) -> str | None:
    found = re.search(r'<p id="photo-error"[^>]*>(.*?)</p>', html, re.S)
    return found.group(1) if found else None


def stored_sheets(flask_app: Flask, t: TableAt) -> list[tuple[int, int, str, int, int]]:
    """Every stored season sheet of the table: seat, season, map, coins and revision."""
    with flask_app.app_context():
        session = get_session()
        table = session.query(GameTable).filter_by(code=t.code).one()
        out = []
        for seat in table.seats:
            for sheet in session.query(SeasonSheet).filter_by(seat_id=seat.id).order_by(SeasonSheet.season):
                out.append((seat.order + 1, sheet.season, sheet.map_text, sheet.coins, sheet.revision))
        return out
