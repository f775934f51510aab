"""The Gorgon's gaze before the season's score, and the Giant Troll
Ravage's space after it, in real headless Chromium on a 390 x 844 touch phone.

"Immediately after the Gorgon is drawn, destroy one non-mountain space
adjacent to it": the destroyed space is part of the score, so Score says
why not, beside the button, until the gaze is done. The Gorgon is drawn
with the Monster brush at rows 10 and 11 (1-based), on side C."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.deals import spring_seed
from tests.web_sheets.conftest import as_host, make_table, save, score, touch_phone
from tests.web_sheets.test_heroes_pages import drawn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GORGON = [9 * 11 + 0, 9 * 11 + 2, 10 * 11 + 1]  # the card's shape: two spaces above, one between below
SHOTS = Path("/tmp/shots")
TARGET = 8 * 11 + 0  # row 9, column 1: above the Gorgon's left space
REFUSED = (
    "Gorgon Gaze waits: choose the space next to the Gorgon that it destroys, "
    "in the box above the map, then score."
)


def _on_screen(locator: Any) -> bool:
    """Whole on the 844-pixel screen, give or take the fraction of a pixel of a text's line height."""
    box = locator.bounding_box()
    return box is not None and -1 <= box["y"] and box["y"] + box["height"] <= 845


def _gorgon_drawn(app: Flask, server: str, browser: Any) -> Any:
    """Ann's phone on her spring sheet once spring is over and the Gorgon has
    come out, the Gorgon drawn with the Monster brush, tagged with its
    ambush card, and not yet saved."""
    seed = spring_seed("Gorgon Gaze", "gorgon")
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C", seed=seed)
    t.set_taps(t.season_end(0))
    page = touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/sheets")
    page.locator(".seat").nth(0).locator("text=This is me").tap()
    page.wait_for_selector("#editor")
    page.wait_for_load_state("load")
    assert page.locator("#gorgon").count() == 0
    page.locator('.brush[data-brush="M"]').tap()
    page.select_option("#ambush-tag", "Gorgon Gaze")
    for i in GORGON:
        page.locator(f'#board .cell[data-i="{i}"]').tap()
    return page


def test_the_gorgon_gaze_comes_before_the_score(app: Flask, server: str, browser: Any) -> None:
    page = _gorgon_drawn(app, server, browser)
    with page.expect_navigation():  # a save that leaves the gaze waiting reloads the page with its box
        page.locator("#save").tap()
    page.wait_for_selector("#gorgon")
    # The spaces the gaze may destroy are ringed on the map, as its box says, once
    # the editor has drawn the map.
    offered = page.locator("#gorgon-space option").evaluate_all("os => os.map(o => Number(o.value))")
    ringed = page.locator("#board .cell.target").evaluate_all("cs => cs.map(c => Number(c.dataset.i))")
    assert offered and sorted(ringed) == sorted(offered)

    # Score says why not, beside the button, and stays on the sheet.
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    waiting = page.locator("#gorgon-waiting")
    assert _on_screen(waiting)
    button.tap()
    refused = page.locator("#score-refused")
    assert refused.inner_text() == REFUSED
    assert _on_screen(refused)
    assert page.url.endswith("/sheets/1/spring")

    # The line beside Score leads to the gaze's box; the space chosen there is destroyed.
    waiting.locator("a").tap()
    page.wait_for_function("window.location.hash === '#gorgon'")
    box = page.locator("#gorgon")
    assert _on_screen(box.locator("button"))
    chosen = "#board .cell.chosen"
    marked = "cs => cs.map(c => Number(c.dataset.i))"
    assert page.locator(chosen).evaluate_all(marked) == [offered[0]]  # the space named is marked apart
    assert offered[-1] != TARGET
    page.select_option("#gorgon-space", str(offered[-1]))
    assert page.locator(chosen).evaluate_all(marked) == [offered[-1]]
    page.select_option("#gorgon-space", str(TARGET))
    assert page.locator(chosen).evaluate_all(marked) == [TARGET]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "gorgon-chosen-390x844.png"))
    classes = page.locator(f'#board .cell[data-i="{TARGET}"]').get_attribute("class") or ""
    assert classes.split().count("target") == 1
    with page.expect_navigation():
        box.locator("button").tap()
    page.wait_for_load_state("load")
    assert page.locator("#gorgon").count() == 0 and page.locator("#gorgon-waiting").count() == 0
    assert "t-X" in (page.locator(f'#board .cell[data-i="{TARGET}"]').get_attribute("class") or "")

    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    assert page.url.endswith("/sheets/1/spring/score")
    assert page.errors == []


def test_a_gaze_already_on_the_sheet_is_confirmed_beside_score(app: Flask, server: str, browser: Any) -> None:
    """A sheet recorded at the season's end already shows the gaze's X: the
    box above the map chooses it, and a button beside Score confirms it
    there, so the player need not scroll a screen up and back (a
    play-test's three players all did)."""
    page = _gorgon_drawn(app, server, browser)
    page.locator('.brush[data-brush="X"]').tap()
    page.locator(f'#board .cell[data-i="{TARGET}"]').tap()  # the gaze, drawn on paper as the Gorgon was
    with page.expect_navigation():
        page.locator("#save").tap()
    confirm = page.locator("#gorgon-confirm")
    assert confirm.inner_text() == "The gaze destroyed row 9, column 1: confirm"
    page.locator("#score-form button.primary").scroll_into_view_if_needed()
    assert _on_screen(confirm)
    # two buttons a thumb tells apart: apart by a gap, side by side or one above the other
    a, b = confirm.bounding_box(), page.locator("#score-form button.primary").bounding_box()
    assert a is not None and b is not None
    apart = max(b["y"] - (a["y"] + a["height"]), b["x"] - (a["x"] + a["width"]))
    assert apart >= 6, (a, b)
    with page.expect_navigation():
        confirm.tap()
    page.wait_for_load_state("load")
    assert page.locator("#gorgon").count() == 0 and page.locator("#gorgon-confirm").count() == 0
    assert page.locator("#board .cell.t-X").count() == 1  # the one X, not a second
    with page.expect_navigation():
        page.locator("#score-form button.primary").tap()
    assert page.url.endswith("/sheets/1/spring/score")
    assert page.errors == []


def _troll_scored(app: Flask, client: Any, server: str, browser: Any, row: int, col: int) -> Any:
    """The host's phone on spring's score page, the Giant Troll drawn at
    ``row``, ``col`` (0-based) and its after-scoring choice waiting."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C")
    as_host(client, t)
    tags = [{"ambush": "Giant Troll Ravage", "spaces": [[row, col]]}]
    save(client, t, 1, "spring", drawn(**{f"r{row}c{col}": "M"}), monsters=tags)
    t.set_taps(t.season_end(0))
    score(client, t, 1, "spring")
    page = touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring/score")
    return page


def test_the_trolls_choices_are_ringed_and_the_one_named_crossed(
    app: Flask, client: Any, server: str, browser: Any
) -> None:
    """After spring's score, the Giant Troll Ravage's box names a space: the
    map above it rings every space it may destroy and crosses the one named,
    following the select, as the Gorgon's box does in the editor."""
    page = _troll_scored(app, client, server, browser, 10, 10)
    marked = "cs => cs.map(c => Number(c.dataset.i))"
    choices = [9 * 11 + 10, 10 * 11 + 9]
    assert sorted(page.locator("#score-board .cell.target").evaluate_all(marked)) == choices
    assert page.locator("#score-board .cell.chosen").evaluate_all(marked) == [choices[0]]
    page.select_option("#troll-space", str(choices[1]))
    assert page.locator("#score-board .cell.chosen").evaluate_all(marked) == [choices[1]]
    assert page.errors == []


def test_a_troll_choice_above_the_screen_comes_into_view(
    app: Flask, client: Any, server: str, browser: Any
) -> None:
    """The troll's select sits under the map: a space chosen there while the
    map's top rows are above the screen scrolls its cross into view."""
    page = _troll_scored(app, client, server, browser, 0, 5)
    select = page.locator("#troll-space")
    select.evaluate("s => s.scrollIntoView({block: 'start'})")  # the map's top rows above the screen
    other = select.locator("option").nth(1).get_attribute("value")
    cell = page.locator(f'#score-board .cell[data-i="{other}"]')
    assert (cell.bounding_box() or {"y": 0})["y"] < 0
    page.select_option("#troll-space", other)
    found = cell.bounding_box()
    assert found is not None and 0 <= found["y"] and found["y"] + found["height"] <= 844
    assert "chosen" in (cell.get_attribute("class") or "")
    assert page.errors == []
