"""The note over a photo's reading says why a square shows something else
than the photo: the game's limits chose it. In real headless Chromium on
touch phones, in Czech at 320 x 640 and in English at 390 x 844.

A base table whose spring has revealed Rift Lands alone (one monster square
at most). The reader is replaced by a fixed reading in which the limit
took two monsters, so the test is about the page, not the reader.
Screenshots go to /tmp/shots/."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee.web import photo
from tests.table.test_sheet_flow import BLANK_A, drawn
from tests.web_sheets.conftest import make_table, photo_sent, sure_reading, touch_phone

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots")
#: The two squares the limit took, read as villages instead, and the monster it kept.
GRID = drawn(BLANK_A, r3c1="V", r4c1="V", r6c6="M")
LIMITED = ((3, 1, "M"), (4, 1, "M"))


@pytest.mark.parametrize(
    ("locale", "width", "height", "claim", "said"),
    [
        (
            "cs-CZ",
            320,
            640,
            "To jsem já",
            "Čtečka přečetla z fotky 2 pole jako „nestvůra“ (řádek 4, sloupec 2; řádek 5, sloupec 2), "
            "ale dosud odhalené karty dovolují nejvýš 1 pole s nestvůrou: "
            "pole ukazují druhý odhad čtečky a jsou orámovaná.",
        ),
        (
            "en-US",
            390,
            844,
            "This is me",
            "The photo read 2 squares as “monster” (row 4, column 2; row 5, column 2), but the cards "
            "revealed so far allow at most 1 monster space: they show the reader's second guesses, outlined.",
        ),
    ],
)
def test_the_note_says_which_limit_chose_a_square(
    app: Flask,
    server: str,
    browser: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    width: int,
    height: int,
    claim: str,
    said: str,
) -> None:
    reading = dataclasses.replace(sure_reading("A", GRID), limited=LIMITED)
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: reading)
    t = make_table(app, ["Ann", "Ben"], side="A")
    assert [r.name for r in t.deal.seasons[0].turns[0].reveals] == ["Rift Lands"]
    t.set_taps(1)
    page = photo_sent(server, browser, tmp_path, t, touch_phone(browser, width, height, locale), claim)
    note = page.locator("#photo-note .limit-said")
    note.wait_for()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"limits_note_{locale}_{width}.png"))
    assert note.inner_text() == said
    # the two squares are outlined, the kept monster is not, and nothing runs off the phone
    outlined = page.locator("#board .cell.doubtful")
    assert sorted(int(outlined.nth(k).get_attribute("data-i")) for k in range(outlined.count())) == [34, 45]
    box = note.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == []
