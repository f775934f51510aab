"""A hero read from a photo has no hero card yet, in real headless Chromium
on a 390 x 844 touch phone.

The editor's Hero brush always draws a hero with the card chosen in its
select; a photo is how a hero space without its card reaches a sheet (the
reader sees the hero's square, not which card it was). A photo whose one
new hero space can only be the one hero card out is named after it
(``referee.table.readings``); here two spaces read as heroes where one card
is out, so neither is named. The reader is replaced by a fixed reading, so
the test is about the editor, not the reader: a hero at row 6, column 6
below a monster, and a square at row 9, column 9 read as a hero too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from referee.rules import deck
from referee.vision.reader import SheetReading
from referee.web import photo
from tests.deals import revealed_in_spring, spring_seed
from tests.web_sheets.conftest import make_table, photo_sent, sure_reading, touch_phone
from tests.web_sheets.test_heroes_pages import drawn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HERO = 5 * 11 + 5
MONSTER = 4 * 11 + 5  # above the hero: inside Dobrik of Lorkheim's attack pattern
OTHER = 8 * 11 + 8
BOTH = (
    "The heroes at row 6, column 6; row 9, column 9 have no hero card yet, so they attack nothing: "
    "choose the Hero brush and each one's card, then tap each."
)
WARNING = (
    "The hero at row 6, column 6 has no hero card yet, so it attacks nothing: "
    "choose the Hero brush and its card, then tap it."
)
REFUSED = (
    "The hero at row 6, column 6 has no hero card, so it attacks nothing: "
    "tap it with the Hero brush to say which hero card it is, save, then score."
)


def _reading(*_args: Any, **_kwargs: Any) -> SheetReading:
    """What the reader would give for a clear photo of the sheet: every square sure."""
    return sure_reading("C", drawn(r4c5="M", r5c5="H", r8c8="H"))


def _photographed(app: Flask, server: str, browser: Any, tmp_path: Path) -> Any:
    """Seat 1's phone on a Heroes table (side C) whose spring, now over,
    revealed Dobrik, with a photo sent: ``photo.read_sheet`` is replaced by
    the test, so the photo is any picture."""
    t = make_table(
        app, ["Ann", "Ben"], edition="heroes", side="C", seed=spring_seed("Dobrik of Lorkheim", "hero")
    )
    t.set_taps(t.season_end(0))
    return photo_sent(server, browser, tmp_path, t)


def _save(page: Any) -> None:
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")


def _score(page: Any) -> None:
    """Score spring: the score page opens."""
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    assert page.url.endswith("/sheets/1/spring/score")


def _on_screen(locator: Any) -> bool:
    box = locator.bounding_box()
    return (
        box is not None and -1 <= box["y"] and box["y"] + box["height"] <= 844 + 1
    )  # scrolled to a fraction


def test_a_photographed_hero_needs_its_card_before_the_score(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(photo, "read_sheet", _reading)
    shot = tmp_path / "sheet.jpg"
    Image.new("RGB", (64, 64), "white").save(shot)
    seed = spring_seed("Dobrik of Lorkheim", "hero")
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C", seed=seed)
    t.set_taps(t.season_end(0))  # spring is over, and Dobrik has come out
    page = touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/sheets")
    page.locator(".seat").nth(0).locator("text=This is me").tap()
    page.wait_for_selector("#photo-form")
    page.wait_for_load_state("load")
    warning = page.locator("#hero-warning")
    assert warning.is_hidden()  # a blank map holds no hero

    with page.expect_navigation():
        page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#photo-note")
    assert page.locator(f'#board .cell[data-i="{HERO}"]').get_attribute("class").startswith("cell t-H")
    assert warning.inner_text() == BOTH
    # The square that is no hero, emptied: one hero is left without a card.
    page.locator('.brush[data-brush="."]').tap()
    page.locator(f'#board .cell[data-i="{OTHER}"]').tap()
    assert warning.inner_text() == WARNING

    # A draft may be saved with the hero's card still to choose...
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    assert warning.inner_text() == WARNING
    # ... but Score says why not, beside the button, and stays on the sheet.
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    button.tap()
    refused = page.locator("#score-refused")
    assert refused.inner_text() == REFUSED
    assert _on_screen(refused)
    assert page.url.endswith("/sheets/1/spring")

    # The Hero brush with Dobrik's card, tapped on the hero: the warning goes,
    # the monster above him is destroyed, and the season scores.
    page.locator('.brush[data-brush="H"]').tap()
    assert page.locator("#hero-card").input_value() == "Dobrik of Lorkheim"
    assert _on_screen(page.locator("#hero-card"))
    page.locator(f'#board .cell[data-i="{HERO}"]').tap()
    assert warning.is_hidden()
    assert "t-X" in (page.locator(f'#board .cell[data-i="{MONSTER}"]').get_attribute("class") or "")
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    assert refused.is_hidden()
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    assert page.url.endswith("/sheets/1/spring/score")
    assert page.errors == []


def test_the_one_hero_card_out_names_the_one_hero_photographed(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spring has revealed Dobrik alone, and the photo shows one hero space:
    it is Dobrik, his pattern as printed, and the season scores with no tap
    on the hero (his pattern destroys the monster above him)."""
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: sure_reading("C", drawn(r4c5="M", r5c5="H")))
    page = _photographed(app, server, browser, tmp_path)
    note = page.locator("#photo-note").inner_text()
    assert "The hero at row 6, column 6 is Dobrik of Lorkheim, the one hero card out" in note
    hero = page.locator(f'#board .cell[data-i="{HERO}"]')
    assert (hero.inner_text(), hero.get_attribute("title")) == ("Do", "Dobrik of Lorkheim")
    assert page.locator("#hero-warning").is_hidden()
    monster = page.locator(f'#board .cell[data-i="{MONSTER}"]')
    assert "attacked" in (monster.get_attribute("class") or "")
    # Hatched, not outlined: an outline is how the reading marks a square to check.
    beside = page.locator(f'#board .cell[data-i="{HERO + 1}"]')
    assert "attacked" in (beside.get_attribute("class") or "")
    look = beside.evaluate("el => [getComputedStyle(el).outlineStyle, getComputedStyle(el).backgroundImage]")
    assert look[0] == "none" and look[1].startswith("repeating-linear-gradient")
    _save(page)
    assert "t-X" in (monster.get_attribute("class") or "")  # the save applies his attack
    _score(page)
    assert page.errors == []


UNTOLD = (
    "Which monsters did Giant Troll Ravage draw? Tap them with the Monster brush, its ambush chosen, "
    "save, then score: its effect acts on them. If its shape could not be drawn on this map, "
    "tick that under the Score button."
)


def _score_waits_for_the_troll(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Spring revealed the Giant Troll Ravage and Kethra's Gates (whose
    terrains include monster): a monster read from a photo may be either's,
    so it is outlined, and once saved untagged, Score waits for the troll's."""
    spring = revealed_in_spring(deck.Setup(edition="heroes", seed=spring_seed("Dobrik of Lorkheim", "hero")))
    assert "Giant Troll Ravage" in spring and "Kethra's Gates" in spring
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: sure_reading("C", drawn(r2c2="M")))
    page = _photographed(app, server, browser, tmp_path)
    assert "tap each with the Monster brush" in page.locator("#photo-note").inner_text()
    monster = page.locator(f'#board .cell[data-i="{2 * 11 + 2}"]')
    assert "doubtful" in (monster.get_attribute("class") or "")
    _save(page)
    shapeless = page.locator("label.shapeless")
    assert shapeless.is_hidden()
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    button.tap()
    assert page.locator("#score-refused").inner_text() == UNTOLD
    assert _on_screen(shapeless)  # the box the sentence speaks of, under it
    return page


def test_a_photographed_monster_is_tagged_before_the_score(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tagged the troll's, the season scores and the troll's ravage waits on the score page."""
    page = _score_waits_for_the_troll(app, server, browser, tmp_path, monkeypatch)
    page.locator('.brush[data-brush="M"]').tap()
    assert page.locator("#ambush-tag").input_value() == "Giant Troll Ravage"
    page.locator(f'#board .cell[data-i="{2 * 11 + 2}"]').tap()
    _save(page)
    _score(page)
    assert "Giant Troll Ravage" in page.locator("main").inner_text()
    assert page.errors == []


def test_an_ambush_shape_that_did_not_fit_scores_without_its_tag(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The troll's shape could not be drawn on this map, so its neighbour
    drew a 1x1 monster with no initial: ticked under Score, the season
    scores with the monster untagged, and no ravage waits."""
    page = _score_waits_for_the_troll(app, server, browser, tmp_path, monkeypatch)
    page.locator("label.shapeless").tap()
    assert page.locator("label.shapeless input").is_checked()
    assert page.locator("#score-refused").is_hidden()  # answered
    _score(page)
    assert "Giant Troll Ravage" not in page.locator("main").inner_text()
    assert page.errors == []
