"""A host who set up the wrong side switches it by touch on a phone, in real
Chromium at 390x844, before anyone saves: the choice opens by a tap, its
button is a full tap target inside the screen, and a player's sheet then
opens on the new side. Screenshots go to /tmp/shots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee.rules import data
from tests.web_sheets.conftest import make_table

pytestmark = [pytest.mark.browser]

SHOTS = Path("/tmp/shots")


def _phone(browser: Any, width: int = 390) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
    return context.new_page()


@pytest.mark.parametrize("width", [320, 390])
def test_the_host_switches_the_side_by_touch(app: Flask, server: str, browser: Any, width: int) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = make_table(app, ["Ann", "Ben"], side="A")
    host = _phone(browser, width)
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{server}/t/{t.code}/host/{t.host}")
    summary = host.locator("#change-side summary")
    summary.scroll_into_view_if_needed()
    summary.tap()
    button = host.locator('#change-side button[value="B"]')
    host.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    found, dock = button.bounding_box(), host.locator("#dock").bounding_box()
    assert found is not None and dock is not None and found["height"] >= 44
    assert found["x"] >= 0 and found["x"] + found["width"] <= width
    assert found["y"] + found["height"] <= dock["y"], "the Reveal dock covers the side's button"
    assert host.evaluate("document.documentElement.scrollWidth") <= width
    host.screenshot(path=str(SHOTS / f"change-side-{width}.png"))

    with host.expect_navigation():
        button.tap()

    assert f"Table {t.code} now plays map side B." in host.locator(".flash").inner_text()
    assert "map side B:" in host.locator(".about").inner_text()
    host.screenshot(path=str(SHOTS / f"changed-side-{width}.png"))

    player = _phone(browser, width)
    player.goto(f"{server}/t/{t.code}/sheets")
    player.locator(".seat").nth(0).locator("text=This is me").tap()
    player.wait_for_selector("#board")
    mountains = player.locator("#board .cell.t-mtn").evaluate_all("cells => cells.map(c => +c.dataset.i)")
    assert sorted(mountains) == sorted(r * 11 + c for r, c in data.map_sides()["B"].mountains)
    assert errors == []


def test_a_followers_page_takes_the_new_side_with_the_next_card(
    app: Flask, server: str, browser: Any
) -> None:
    """A follower's page open before the switch names the old side; with the
    next card it loads again on the new side, once: the card after that is
    swapped in as any card is."""
    t = make_table(app, ["Ann", "Ben"], side="A")
    host, follower = _phone(browser), _phone(browser)
    errors: list[str] = []
    follower.on("pageerror", lambda e: errors.append(str(e)))
    follower.goto(f"{server}/t/{t.code}")
    assert "map side A:" in follower.locator(".about").inner_text()
    host.goto(f"{server}/t/{t.code}/host/{t.host}")
    host.locator("#change-side summary").tap()
    with host.expect_navigation():
        host.locator('#change-side button[value="B"]').tap()

    with follower.expect_navigation():
        host.locator("button.reveal").tap()
    follower.wait_for_selector('#panel[data-taps="1"]')
    assert "map side B:" in follower.locator(".about").inner_text()
    follower.evaluate("window.stayed = true")  # gone if the page loads again
    host.locator("button.reveal").tap()
    follower.wait_for_selector('#panel[data-taps="2"]')
    assert follower.evaluate("window.stayed") is True
    assert errors == []
