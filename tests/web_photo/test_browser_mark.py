"""Mark the grid yourself, in real headless Chromium at phone size with touch
taps: a photo whose grid the search misses comes back with the photo to tap
on; the player taps the grid's four corners (a little off, as a fingertip
does), moves one by tapping near it, and the editor opens with the reading.
Screenshots go to /tmp/shots/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask

from tests.browser import ARGS, CHROMIUM, playwright_or_skip
from tests.web_photo.conftest import stored_sheets
from tests.web_photo.test_browser import SHOTS, _phone, server  # noqa: F401 (a fixture)
from tests.web_photo.test_mark_corners import _width
from tests.web_sheets.conftest import make_table

MISSED = Path(__file__).resolve().parents[1] / "vision" / "photos" / "dim_on_pages.jpg"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _tap_at(page: Any, x: float, y: float) -> None:
    """A touch tap at the photo's pixel (``x``, ``y``) of the picture to mark on."""
    box = page.locator("#mark-img").bounding_box()
    width = page.locator("#mark-img").evaluate("img => img.naturalWidth")
    height = page.locator("#mark-img").evaluate("img => img.naturalHeight")
    page.touchscreen.tap(box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height)


def _refused(page: Any, photo: Path, sentence: str) -> None:
    """``photo`` sent from the editor, refused with ``sentence``, and the photo to mark shown."""
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))
    assert sentence in page.locator("#photo-error").inner_text()
    page.wait_for_selector("#mark-grid:not([hidden])")


def _board(page: Any) -> str:
    """The map the editor shows, as 121 map codes."""
    return "".join(
        page.locator("#board .cell").evaluate_all(
            "cells => cells.map(c => { const k = [...c.classList].find(x => x.startsWith('t-')).slice(2);"
            " return {mtn: '^', waste: '#', empty: '.'}[k] || k; })"
        )
    )


def test_mark_the_corners_of_a_missed_grid(app: Flask, server: str) -> None:  # noqa: F811
    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)
    truth = json.loads(MISSED.with_suffix(".json").read_text())
    corners = np.array(truth["corners_px"], float)
    square = float(np.linalg.norm(corners[0] - corners[1])) / 11
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        before = stored_sheets(app, t)
        _refused(page, MISSED, "No map grid found")
        assert page.locator("#mark-send").is_disabled()
        scale = page.locator("#mark-img").evaluate("img => img.naturalWidth") / truth["image_size"][0]
        marks = corners * scale

        # A first corner far off, moved once all four are down by tapping near it.
        _tap_at(page, *(marks[0] + [2.0 * square * scale, 0]))
        for corner in marks[1:]:
            _tap_at(page, *(corner + [0.2 * square * scale, -0.2 * square * scale]))
        assert "Four corners marked" in page.locator("#mark-hint").inner_text()
        assert (
            page.locator("#mark-svg circle").count() == 4 and page.locator("#mark-svg polygon").count() == 1
        )
        _tap_at(page, *(marks[0] + [-0.15 * square * scale, 0.2 * square * scale]))
        assert page.locator("#mark-svg circle").count() == 4
        page.screenshot(path=str(SHOTS / "mark-corners.png"), full_page=True)

        # The photo width is the phone's at most: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        with page.expect_navigation():
            page.locator("#mark-send").tap()
        page.wait_for_selector("#photo-note")
        assert "not saved yet" in page.locator("#photo-note").inner_text()
        page.screenshot(path=str(SHOTS / "mark-corners-read.png"), full_page=True)
        shown = _board(page)
        wrong = sum(a != b for a, b in zip(shown, "".join(truth["grid"]), strict=True))
        assert wrong <= 6, wrong
        assert errors == []
        assert stored_sheets(app, t) == before
        browser.close()


def test_clear_takes_the_marks_away(app: Flask, server: str) -> None:  # noqa: F811
    sync_playwright = playwright_or_skip()
    truth = json.loads(MISSED.with_suffix(".json").read_text())
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        _refused(page, MISSED, "No map grid found")
        for x, y in ((100, 100), (300, 120), (320, 300)):
            _tap_at(page, x, y)
        assert page.locator("#mark-svg circle").count() == 3 and page.locator("#mark-send").is_disabled()
        page.locator("#mark-clear").tap()
        assert page.locator("#mark-svg circle").count() == 0
        assert "0" in page.locator("#mark-hint").inner_text()
        assert errors == []
        browser.close()


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The height two boxes share on screen."""
    return max(0.0, min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]))


def test_the_brushes_leave_the_photo_to_mark_uncovered(app: Flask, server: str) -> None:  # noqa: F811
    """On a small phone (320 x 640) the brush bar at the screen's foot would
    hide a third of the photo to mark. While the photo is on screen the bar
    leaves the foot; once the player scrolls down to the board, it is back."""
    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)
    truth = json.loads(MISSED.with_suffix(".json").read_text())
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code, 320, 640)
        _refused(page, MISSED, "No map grid found")
        for top in (0.0, 0.5, 1.0):  # the photo's top, middle and foot at the screen's foot
            page.evaluate(
                "t => { const b = document.getElementById('mark-img').getBoundingClientRect();"
                " window.scrollBy(0, b.top + t * b.height - window.innerHeight + 10); }",
                top,
            )
            page.wait_for_timeout(150)
            shown = page.locator("#mark-img").bounding_box()
            bar = page.locator(".toolbar").bounding_box()
            assert _overlap(shown, bar) == 0, top
        page.screenshot(path=str(SHOTS / "mark-corners-320.png"))
        page.locator("#board").scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, document.getElementById('board').getBoundingClientRect().top - 40)")
        page.wait_for_timeout(150)
        assert page.locator(".toolbar").evaluate("bar => getComputedStyle(bar).position") == "sticky"
        page.screenshot(path=str(SHOTS / "mark-board-320.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        assert errors == []
        browser.close()


def test_choose_your_own_grid_on_a_photo_of_two_sheets(app: Flask, server: str, tmp_path: Path) -> None:  # noqa: F811
    """The play-test: on a photo of two sheets the player's grid can be a few
    dozen pixels across on the phone, four corners hard to hit. The grids
    found are outlined: a tap inside one marks its corners, a tap inside
    the other moves them there, and the grid chosen is read alone."""
    from tests.vision.test_two_sheets import _side_by_side

    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)
    data, left, right, _ = _side_by_side("006", "007")
    photo = tmp_path / "two.jpg"
    photo.write_bytes(data)
    t = make_table(app, ["Ann", "Ben"], side=str(left["side"]))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        before = stored_sheets(app, t)
        _refused(page, photo, "Two map sheets")
        assert page.locator("#mark-svg polygon.mark-offer").count() == 2
        assert "Tap inside your own sheet's grid" in page.locator("#mark-hint").inner_text()
        scale = page.locator("#mark-img").evaluate("img => img.naturalWidth") / _width(data)

        def centre(truth: dict[str, Any]) -> np.ndarray:
            return np.array(truth["corners_px"], float).mean(axis=0) * scale

        _tap_at(page, *centre(right))  # the neighbour's, by mistake
        assert page.locator("#mark-svg circle").count() == 4
        assert page.locator("#mark-svg polygon.mark-offer").count() == 1
        assert not page.locator("#mark-send").is_disabled()
        _tap_at(page, *centre(left))  # then the player's own
        marked = page.locator("#mark-corners").input_value()
        corners = np.array([[float(v) for v in pair.split(",")] for pair in marked.split()])
        want = np.array(left["corners_px"], float) * scale
        square = float(np.linalg.norm(want[0] - want[1])) / 11
        assert all(np.linalg.norm(want - c, axis=1).min() < square / 2 for c in corners)
        assert "Your grid is marked" in page.locator("#mark-hint").inner_text()
        page.screenshot(path=str(SHOTS / "mark-choose-own-grid.png"), full_page=True)
        with page.expect_navigation():
            page.locator("#mark-send").tap()
        page.wait_for_selector("#photo-note")
        shown = _board(page)

        def wrong(truth: dict[str, Any]) -> int:
            return sum(r != w for r, w in zip(shown, "".join(truth["grid"]), strict=True) if w in ".FVAW")

        assert wrong(left) <= 2 < 30 <= wrong(right)
        assert errors == []
        assert stored_sheets(app, t) == before
        browser.close()
