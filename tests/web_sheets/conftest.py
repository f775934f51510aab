"""Fixtures for the sheet pages: a fresh app on a temporary SQLite file, a
table made straight in the database (the dealer's form is tested elsewhere),
and helpers that act like the editor page: claim a seat, save, score."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from referee.rules import deck
from referee.store import tables as store
from referee.vision.reader import SheetReading
from referee.web.app import create_app
from referee.web.database import get_session
from tests.browser import LiveServer, launched_chromium


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}"}
    )


@pytest.fixture()
def server(app: Flask) -> Iterator[str]:
    """The app on a live local server, for the browser tests: its address."""
    live = LiveServer(app)
    yield live.url
    live.stop()


@pytest.fixture()
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (skips when it is missing)."""
    yield from launched_chromium()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|name="csrf-token" content="([^"]+)"')


def csrf_token(html: str) -> str:
    match = CSRF.search(html)
    assert match, "no CSRF token on the page"
    return match.group(1) or match.group(2)


@dataclass
class TableAt:
    """A table made for a test: its code, host token and deal."""

    app: Flask
    code: str
    host: str
    deal: deck.Deal

    def set_taps(self, taps: int) -> None:
        from referee.store.models import GameTable

        with self.app.app_context():
            session = get_session()
            table = session.query(GameTable).filter_by(code=self.code).one()
            table.taps = taps
            session.commit()

    def season_end(self, s: int) -> int:
        """The taps at which season ``s`` (0-3) is over."""
        return sum(len(self.deal.seasons[i].turns) for i in range(s + 1))

    def season_start(self, s: int) -> int:
        return self.season_end(s - 1) + 1 if s else 0


#: Edicts easy to count by hand: spring scores A and B, summer B and C, fall C and D, winter D and A.
def photo_sent(
    server: str, browser: Any, tmp_path: Path, t: TableAt, page: Any = None, claim: str = "This is me"
) -> Any:
    """Seat 1's phone on table ``t`` (``page``, by default a new
    ``touch_phone``), its season over, with a photo sent for its sheet
    after a tap on ``claim``, the seat's button in the page's language: the
    test has replaced ``photo.read_sheet``, so the photo is any picture."""
    shot = tmp_path / "sheet.jpg"
    Image.new("RGB", (64, 64), "white").save(shot)
    page = page or touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/sheets")
    page.locator(".seat").nth(0).locator(f"text={claim}").tap()
    page.wait_for_selector("#photo-form")
    page.wait_for_load_state("load")
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(shot))
    return page


def touch_phone(browser: Any, width: int = 390, height: int = 844, locale: str | None = None) -> Any:
    """A page on a touch phone of ``width`` x ``height`` (asking for the
    ``locale``'s language, when given), its script errors kept in
    ``page.errors`` for the test to find none."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        **({"locale": locale} if locale else {}),
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def sure_reading(side: str, grid: list[str]) -> SheetReading:
    """What the reader gives for a clear photo of a sheet holding ``grid``:
    every square sure, the coins read as 0, a blank picture as its canvas.
    A test about the pages after a reading swaps the reader for this."""
    return SheetReading(
        side=side,
        grid=tuple(grid),
        confidence=tuple(tuple(1.0 for _ in row) for row in grid),
        coins=0,
        corners=((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)),
        canvas=np.full((64, 64, 3), 255, dtype=np.uint8),
    )


EASY_EDICTS = ("Sentinel Wood", "Canal Lake", "Great City", "Borderlands")


def make_table(
    app: Flask,
    players: list[str],
    edition: str = "base",
    side: str = "A",
    seed: str = "sheet-test-1",
    chosen: tuple[str, str, str, str] | None = None,
    **combined: Any,
) -> TableAt:
    """A table made straight in the database; ``combined`` passes a combined
    game's choices (``ambushes``, ``season_set``, ...) to the setup."""
    setup = deck.Setup(
        edition=edition,
        seed=seed,
        solo=len(players) == 1,
        edicts="chosen" if chosen else "random",
        chosen=chosen,
        **combined,
    ).check()
    with app.app_context():
        table, token = store.create_table(
            get_session(), {"deal": setup.to_dict(), "map_side": side}, setup.version, players
        )
        code = table.code
    return TableAt(app, code, token, deck.deal(setup))


def as_host(client: FlaskClient, t: TableAt) -> None:
    response = client.get(f"/t/{t.code}/sheets?host={t.host}")
    assert response.status_code == 303


def claim(client: FlaskClient, t: TableAt, seat: int) -> None:
    page = client.get(f"/t/{t.code}/sheets")
    response = client.post(f"/t/{t.code}/seats/{seat}/claim", data={"csrf_token": csrf_token(page.text)})
    assert response.status_code == 303, response.text


def editor(client: FlaskClient, t: TableAt, seat: int, season: str) -> tuple[str, dict[str, Any]]:
    """The editor page and the configuration it hands to editor.js."""
    import json

    page = client.get(f"/t/{t.code}/sheets/{seat}/{season}")
    assert page.status_code == 200, page.text
    raw = re.search(r'<script type="application/json" id="editor-config">(.*?)</script>', page.text, re.S)
    assert raw
    return page.text, json.loads(raw.group(1))


def save(
    client: FlaskClient,
    t: TableAt,
    seat: int,
    season: str,
    rows: list[str] | str,
    coins: int = 0,
    **extra: Any,
) -> Any:
    """Post a map as the editor does (JSON, CSRF header, the revision it loaded unless given)."""
    html, config = editor(client, t, seat, season)
    body = {
        "revision": config["revision"],
        "map": rows if isinstance(rows, str) else "\n".join(rows),
        "coins": coins,
        "monsters": [],
        "heroes": [],
    }
    body.update(extra)
    return client.post(
        f"/t/{t.code}/sheets/{seat}/{season}",
        json=body,
        headers={"X-CSRFToken": csrf_token(html), "Accept": "application/json"},
    )


def score(client: FlaskClient, t: TableAt, seat: int, season: str) -> Any:
    html, _ = editor(client, t, seat, season)
    return client.post(
        f"/t/{t.code}/sheets/{seat}/{season}/score",
        data={"csrf_token": csrf_token(html)},
        headers={"Accept": "application/json"},
    )
