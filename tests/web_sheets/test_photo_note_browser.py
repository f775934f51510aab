"""The note over a photo's reading, in real headless Chromium on a 390 x 844
touch phone: what it asks is what is left to do, and it says only what the
referee knows.

A Heroes table on side A whose spring revealed the Giant Troll Ravage (its
one ambush) and Dobrik of Lorkheim, and no explore card that offers monster
terrain. The reader is replaced by a fixed reading, so the tests are about
the page, not the reader. Screenshots go to /tmp/shots/."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee.rules import deck
from referee.table.deal import explore_cards
from referee.web import photo
from tests.deals import troll_and_dobrik_seed
from tests.table.test_sheet_flow import BLANK_A, drawn
from tests.web_sheets.conftest import as_host, editor, make_table, photo_sent, save, score, sure_reading

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots")
ASK_MONSTERS = "Monster spaces: tap each with the Monster brush"
ASK_HEROES = "Hero spaces: tap each with the Hero brush"


def troll_and_dobrik_deal() -> deck.Deal:
    return deck.deal(deck.Setup(edition="heroes", seed=troll_and_dobrik_seed(rift=False)).check())


def _photographed(
    app: Flask,
    server: str,
    browser: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    grid: list[str],
    reader: bool = True,
) -> Any:
    """Seat 1's phone with a photo of ``grid`` read for spring's sheet, spring
    over (every square sure, the coins read as 0), unless the test has set
    the ``reader`` already."""
    if reader:
        monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: sure_reading("A", grid))
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="A", seed=troll_and_dobrik_seed(rift=False))
    t.set_taps(t.season_end(0))
    page = photo_sent(server, browser, tmp_path, t)
    page.wait_for_selector("#photo-note")
    return page


def _cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f'#board .cell[data-i="{r * 11 + c}"]')


def _save_and_score(page: Any) -> None:
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    assert page.url.endswith("/sheets/1/spring/score")


def test_a_troll_that_a_hero_half_destroyed_is_tagged_from_the_photo(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The troll's four spaces, two of them destroyed by Dobrik drawn below its
    left end (the play-test's spring): the photo tags all four with the troll,
    as painting the same map does, so nothing is asked, and the season scores
    with the troll's ravage waiting."""
    grid = drawn(BLANK_A, r6c5="X", r6c6="M", r6c7="M", r7c6="X", r7c5="H")
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid)
    note = page.locator("#photo-note").inner_text()
    assert ASK_MONSTERS not in note
    assert "The hero at row 8, column 6 is Dobrik of Lorkheim" in note
    troll = [(6, 5), (6, 6), (6, 7), (7, 6)]
    assert [_cell(page, r, c).inner_text() for r, c in troll] == ["T"] * 4
    assert [_cell(page, r, c).get_attribute("class").split()[1] for r, c in troll] == [
        "t-X",
        "t-M",
        "t-M",
        "t-X",
    ]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "photo-troll-half-destroyed-390x844.png"))
    _save_and_score(page)
    assert "Giant Troll Ravage" in page.locator("main").inner_text()
    assert page.errors == []


def test_the_note_drops_what_the_player_has_answered(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two monsters that hold no troll (the hero near them could be any card,
    so nothing destroyed is known to be the troll's) and two hero spaces for
    the one hero card out: the note asks for both. Each request goes as the
    player answers it, tap by tap, not only once the sheet is saved."""
    grid = drawn(BLANK_A, r6c5="X", r6c6="M", r6c7="M", r7c6="X", r7c5="H", r10c10="H")
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid)
    heroes_asked = page.locator("#unnamed-note")
    monsters_asked = page.locator("#untagged-note")
    assert ASK_HEROES in heroes_asked.inner_text() and heroes_asked.is_visible()
    assert ASK_MONSTERS in monsters_asked.inner_text() and monsters_asked.is_visible()

    page.locator('.brush[data-brush="H"]').tap()
    _cell(page, 7, 5).tap()  # Dobrik, the card chosen
    assert heroes_asked.is_visible()  # the square at row 11, column 11 has no card yet
    page.locator('.brush[data-brush="."]').tap()
    _cell(page, 10, 10).tap()  # it was no hero
    assert heroes_asked.is_hidden()

    page.locator('.brush[data-brush="M"]').tap()
    assert page.locator("#ambush-tag").input_value() == "Giant Troll Ravage"
    _cell(page, 6, 6).tap()
    assert monsters_asked.is_visible()  # one monster space left untagged
    _cell(page, 6, 7).tap()
    assert monsters_asked.is_hidden()
    assert page.locator("#check-none").is_visible()  # and the count of outlined squares is gone too
    page.locator("#photo-note").scroll_into_view_if_needed()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "photo-note-answered-390x844.png"))
    assert page.errors == []


def test_an_unread_coin_track_starts_from_the_coins_the_referee_knows(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coin track could not be read, and the map surrounds the mountain at
    row 2, column 4: its coin is counted from the map, and the note says so,
    and names spring's explore cards with a coin on a shape, whose coin only
    the sheet shows (a play-test found the count one short on 3 photos of 6)."""
    grid = drawn(BLANK_A, r0c3="F", r2c3="F", r1c2="F", r1c4="F")
    unread = dataclasses.replace(sure_reading("A", grid), coins=None)
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: unread)
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid, reader=False)
    offered = [
        r.name
        for turn in troll_and_dobrik_deal().seasons[0].turns
        for r in turn.reveals
        if r.kind == "explore" and any(shape.coin for shape in explore_cards()[r.name].shapes)
    ]
    assert offered  # the deal names one at least
    said = page.locator("#coins-said").inner_text()
    assert said.startswith(
        "The coin track could not be read: the count below is 1, for the mountain your map "
        "surrounds (row 2, column 4). "
    )
    if len(offered) == 1:
        assert said.endswith(f"If you chose the shape with a coin on {offered[0]} this season, add 1.")
    else:
        assert "Add 1 for each shape with a coin you chose this season, on " in said
        assert all(name in said for name in offered)
    assert page.locator("#coin-count").inner_text() == "1"
    right = page.locator("#coins-right")
    right.scroll_into_view_if_needed()
    assert right.inner_text() == "1 coin is right"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "photo-coins-unread-track-390x844.png"))
    page.locator("#photo-note").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "photo-coins-unread-390x844.png"))
    right.tap()
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    assert page.errors == []


def _doubting(grid: list[str], doubted: list[tuple[int, int]]) -> Any:
    """``sure_reading`` of ``grid`` with the squares ``doubted`` read at 0.3, under the line."""
    sure = sure_reading("A", grid)
    confidence = tuple(
        tuple(0.3 if (r, c) in doubted else v for c, v in enumerate(row))
        for r, row in enumerate(sure.confidence)
    )
    return dataclasses.replace(sure, confidence=confidence)


def test_checking_an_outlined_monster_keeps_its_ambush(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The troll read whole, one of its spaces outlined: tapped with the
    Monster brush to check it, whatever ambush the brush holds, the space
    stays the troll's, and the page says so (a play-test's tap moved a
    Dragon space to the Gorgon, the brush's latest ambush, unseen). Tapped
    again, no longer outlined, it takes the brush's."""
    grid = drawn(BLANK_A, r6c5="M", r6c6="M", r6c7="M", r7c6="M")
    reading = _doubting(grid, [(6, 6)])
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: reading)
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid, reader=False)
    square = _cell(page, 6, 6)
    assert square.inner_text() == "T" and "doubtful" in (square.get_attribute("class") or "")
    page.locator('.brush[data-brush="M"]').tap()
    page.locator("#ambush-tag").select_option("")  # "Not tagged"
    square.tap()
    assert square.inner_text() == "T" and "doubtful" not in (square.get_attribute("class") or "")
    assert "Checked: this monster stays Giant Troll Ravage's." in page.locator("#banner").inner_text()
    square.tap()
    assert square.inner_text() == ""
    assert page.errors == []


def test_a_hero_named_on_an_outlined_square_is_said_surely_once_checked(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dobrik, the one hero card out, named on an outlined square: "if your
    hero is there". Checked with the Hero brush, the hero still there, the
    note says it surely; the doubt's sentence goes (a play-test found it
    stayed)."""
    grid = drawn(BLANK_A, r7c5="H")
    reading = _doubting(grid, [(7, 5)])
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: reading)
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid, reader=False)
    doubted = page.locator(f'#photo-note [data-doubted="{7 * 11 + 5}"]')
    sure = page.locator(f'#photo-note [data-checked="{7 * 11 + 5}"]')
    assert "read as a hero is outlined: if your hero is there" in doubted.inner_text()
    assert doubted.is_visible() and sure.is_hidden()
    page.locator('.brush[data-brush="H"]').tap()
    _cell(page, 7, 5).tap()
    assert doubted.is_hidden() and sure.is_visible()
    assert sure.inner_text().startswith("The hero at row 8, column 6 is Dobrik of Lorkheim")
    page.locator('.brush[data-brush="F"]').tap()
    _cell(page, 7, 5).tap()  # no hero after all
    assert doubted.is_hidden() and sure.is_hidden()
    assert page.errors == []


def test_what_a_save_did_is_brought_into_sight(
    app: Flask, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dobrik drawn beside a monster his attack pattern holds: the save
    destroys it and says so above the map, while the player tapped Save at
    the foot of the page; the sentence is scrolled into sight (a play-test's
    Dragon coins went unread)."""
    grid = drawn(BLANK_A, r6c5="M", r7c5="H")
    page = _photographed(app, server, browser, tmp_path, monkeypatch, grid)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    banner = page.locator("#banner")
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    assert "The heroes destroyed the monsters at row 7, column 6." in banner.inner_text()
    box = banner.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    assert page.errors == []


def test_a_hero_from_an_earlier_season_stays_on_the_map_the_photo_read(
    app: Flask, client: Any, server: str, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The play-test: a hero drawn in an earlier season, read by a later photo
    as an untagged monster. Dobrik, drawn in spring at row 9, column 9, stays
    on the map: summer's reading shows him there with his card, the square
    outlined, the note says so, and asks nothing about monsters; saved, he
    keeps his card and pattern."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="A", seed=troll_and_dobrik_seed(rift=False))
    as_host(client, t)
    dobrik = [{"hero": "Dobrik of Lorkheim", "at": [8, 8], "orientation": "printed"}]
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", drawn(BLANK_A, r8c8="H"), heroes=dobrik).status_code == 200
    assert score(client, t, 1, "spring").status_code == 303
    t.set_taps(t.season_end(1))
    grid = drawn(BLANK_A, r8c8="M", r0c0="F")
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: sure_reading("A", grid))
    page = photo_sent(server, browser, tmp_path, t)
    page.wait_for_selector("#photo-note")
    assert page.url.endswith("/sheets/1/summer")
    hero = _cell(page, 8, 8)
    assert (hero.get_attribute("class") or "").split()[:2] == ["cell", "t-H"]
    assert "doubtful" in (hero.get_attribute("class") or "")
    assert hero.inner_text() == "Do" and hero.get_attribute("title") == "Dobrik of Lorkheim"
    kept = page.locator("#photo-note .hero-kept")
    assert kept.inner_text() == (
        "The square at row 9, column 9 is Dobrik of Lorkheim's hero space from an earlier season, "
        "which stays on the map; the photo read “monster” there."
    )
    assert ASK_MONSTERS not in page.locator("#photo-note").inner_text()
    assert page.locator("#hero-warning").is_hidden()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "photo-hero-kept-390x844.png"))
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    _, config = editor(client, t, 1, "summer")
    assert config["heroes"] == dobrik and config["map"][8 * 11 + 8] == "H"
    assert page.errors == []
