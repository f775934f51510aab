"""The Hero brush played by touch in real headless Chromium, 390 x 844 and
320 x 640: after a photo, the hero card and pattern sit right under the map,
so that the map and the selects share the screen while each photographed
hero gets its card; a new pattern turns the hero already drawn with the
chosen card at once (and a pattern wholly off the map says so); each
hero space shows which card it holds, or a "?" while it holds none; and a
hero card the map holds is not offered to draw again: a tap on its hero
chooses it.

The photo reader is replaced by a fixed reading, as in
``test_hero_card_browser.py``: these tests are about the editor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from referee.rules import data, heroes
from referee.vision.reader import SheetReading
from referee.web import photo
from tests.web_sheets.conftest import (
    TableAt,
    as_host,
    editor,
    make_table,
    save,
    score,
    sure_reading,
    touch_phone,
)
from tests.web_sheets.test_heroes_pages import drawn, with_hero_in_spring

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots")
SIZE = 11
PHONES = {390: 844, 320: 640}


def index(r: int, c: int) -> int:
    return r * SIZE + c


def phone(browser: Any, width: int) -> Any:
    return touch_phone(browser, width, PHONES[width])


def cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f'#board .cell[data-i="{index(r, c)}"]')


def classes(page: Any, r: int, c: int) -> str:
    return cell(page, r, c).get_attribute("class") or ""


def attacked(page: Any) -> set[tuple[int, int]]:
    found = page.locator("#board .cell.attacked").evaluate_all("cs => cs.map(c => Number(c.dataset.i))")
    return {divmod(i, SIZE) for i in found}


def on_screen(page: Any, selector: str) -> bool:
    """Whether ``selector`` shows whole between the screen's top and the toolbar that stays at its foot."""
    found, toolbar = page.locator(selector).bounding_box(), page.locator(".toolbar").bounding_box()
    return bool(found and toolbar and found["y"] >= 0 and found["y"] + found["height"] <= toolbar["y"])


def pattern(hero: str, at: tuple[int, int], orientation: str) -> set[tuple[int, int]]:
    """What the rules engine says the hero attacks: what the editor must mark."""
    card = next(h for h in data.hero_cards() if h.name == hero)
    return heroes.attacked_spaces(at, card, heroes.Orientation(orientation))


# --- 1. after a photo, the selects sit right under the map -------------------------------------

PHOTO_HERO = (9, 1)  # row 10, column 2: near the map's foot, the hardest to keep on the screen
PHOTO_MONSTER = (8, 1)  # above it: inside Dobrik of Lorkheim's attack pattern


def _reading(*_args: Any, **_kwargs: Any) -> SheetReading:
    """A clear photo of a sheet with a hero (its card unread) under a monster,
    and a square at row 1, column 7 read as a hero too: two hero spaces where
    one hero card is out, so neither is named after it (``table.readings``)."""
    return sure_reading("C", drawn(r8c1="M", r9c1="H", r2c2="F", r2c3="F", r0c6="H"))


def _selects_share_the_screen_with_the_map(page: Any, width: int) -> None:
    """The hero card and pattern, and the photographed hero's space, on the screen
    above the toolbar, and the map with them: whole at 390 x 844, nearly at 320 x 640."""
    toolbar = page.locator(".toolbar").bounding_box()
    grid = page.locator("#board .grid").bounding_box()
    assert toolbar and grid
    for part in ("#hero-card", "#hero-orientation", f'#board .cell[data-i="{index(*PHOTO_HERO)}"]'):
        found = page.locator(part).bounding_box()
        assert found and found["y"] >= 0 and found["y"] + found["height"] <= toolbar["y"], (
            f"{part} is not on the screen at {width} px"
        )
    shown = min(grid["y"] + grid["height"], toolbar["y"]) - max(grid["y"], 0)
    needed = grid["height"] if width == 390 else 0.85 * grid["height"]
    assert shown >= needed - 1, f"{shown:.0f} of the map's {grid['height']:.0f} px show at {width} px"


@pytest.mark.parametrize("width", PHONES)
def test_after_a_photo_the_hero_selects_share_the_screen_with_the_map(
    app: Flask,
    client: FlaskClient,
    server: str,
    browser: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    width: int,
) -> None:
    """A photo read, the Hero brush tapped: the hero card and pattern are on
    the screen above the brushes, and so is the map (whole at 390 x 844, all
    but a sliver at 320 x 640) with the photographed hero, so that its card
    is given without scrolling. The photo itself comes under them."""
    monkeypatch.setattr(photo, "read_sheet", _reading)
    shot = tmp_path / "sheet.jpg"
    Image.new("RGB", (64, 64), "white").save(shot)
    t = with_hero_in_spring(app, client, "Dobrik of Lorkheim")
    as_host(client, t)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.wait_for_load_state("load")
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#photo-note")
    page.locator('.brush[data-brush="H"]').tap()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"hero-ux-photo-herobrush-{width}.png"))
    _selects_share_the_screen_with_the_map(page, width)
    # From the Score button below, refused for the hero with no card, as the sentence
    # there says to tap it with the Hero brush: the brush brings the selects up to the
    # toolbar with the map above them, not to the screen's top with the map above that.
    page.locator('.brush[data-brush="F"]').tap()
    button = page.locator("#score-form button")
    button.scroll_into_view_if_needed()
    button.tap()
    page.locator("#score-refused").wait_for()
    page.locator('.brush[data-brush="H"]').tap()
    page.screenshot(path=str(SHOTS / f"hero-ux-score-then-herobrush-{width}.png"))
    _selects_share_the_screen_with_the_map(page, width)
    # The photo comes after the selects, not between them and the map.
    card = page.locator("#hero-card").bounding_box()
    figure = page.locator(".photo-figure").bounding_box()
    assert card and figure and figure["y"] >= card["y"] + card["height"]

    # The photographed hero has no card yet: a "?" on its space says so.
    hero = cell(page, *PHOTO_HERO)
    assert hero.inner_text() == "?"
    assert hero.get_attribute("title") == "A hero with no hero card yet"
    # Its card, given where it stands: its initials replace the "?".
    assert page.locator("#hero-card").input_value() == "Dobrik of Lorkheim"
    hero.tap()
    assert hero.inner_text() == "Do"
    assert hero.get_attribute("title") == "Dobrik of Lorkheim"
    assert "t-X" in classes(page, *PHOTO_MONSTER)
    page.locator('.brush[data-brush="."]').tap()
    cell(page, 0, 6).tap()  # the square that is no hero
    assert page.locator("#hero-warning").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == []


# --- 2. a new pattern turns the hero already drawn with the chosen card ---------------------------

FREYLA = "Freyla the True"  # "Hxxx": three spaces to the right, as printed
AT = (4, 5)
ABOVE_THE_LINE = (4, 7)  # attacked as printed
BELOW = (6, 5)  # attacked once turned a quarter clockwise
EDGE = (4, 10)  # the last column: Freyla's printed pattern lies wholly off the map


def _hero_brush_with_freyla(
    app: Flask, client: FlaskClient, server: str, browser: Any, spring: list[str] | None = None
) -> tuple[TableAt, Any]:
    """The host's phone on seat 1's spring sheet, Freyla's card out and the Hero
    brush chosen; ``spring`` is a map saved there first."""
    t = with_hero_in_spring(app, client, FREYLA)
    if spring is not None:
        assert save(client, t, 1, "spring", spring).status_code == 200
    return t, _hero_brush_on_spring(client, server, browser, t)


def _hero_brush_on_spring(client: FlaskClient, server: str, browser: Any, t: TableAt) -> Any:
    """The host's phone on seat 1's spring sheet, the Hero brush chosen."""
    as_host(client, t)
    page = phone(browser, 390)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.locator('.brush[data-brush="H"]').tap()
    return page


def test_a_new_pattern_turns_the_hero_drawn_with_that_card(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    _, page = _hero_brush_with_freyla(app, client, server, browser, drawn(r4c7="M", r6c5="M"))
    orientation = page.locator("#hero-orientation")
    hint = page.locator("#hero-hint")
    assert page.locator("#hero-card").input_value() == FREYLA
    assert hint.is_hidden()  # Freyla is not on the map yet

    cell(page, *AT).tap()
    assert attacked(page) == pattern(FREYLA, AT, "printed")
    assert "t-X" in classes(page, *ABOVE_THE_LINE)
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")

    # A new pattern: Freyla turns where she stands, at once, without a tap on the map.
    orientation.select_option("rotated 90")
    page.screenshot(path=str(SHOTS / "hero-ux-new-pattern-390.png"))
    assert attacked(page) == pattern(FREYLA, AT, "rotated 90")
    assert "t-X" in classes(page, *BELOW)
    # A line under the selects says why, on the screen.
    assert page.locator("#hero-placed").inner_text() == (
        "Freyla the True is on the map: a new pattern turns it there at once."
    )
    assert on_screen(page, "#hero-hint")
    # The monster her printed pattern destroyed on this page lives again, out of every pattern.
    assert "t-M" in classes(page, *ABOVE_THE_LINE)
    assert "attention" in (page.locator("#save").get_attribute("class") or "")  # not saved
    # Undo takes the turn back, Redo brings it again, and the select follows.
    page.locator("#undo").tap()
    assert attacked(page) == pattern(FREYLA, AT, "printed")
    assert orientation.input_value() == "printed"
    page.locator("#redo").tap()
    assert attacked(page) == pattern(FREYLA, AT, "rotated 90")
    assert orientation.input_value() == "rotated 90"
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    page.reload()
    assert attacked(page) == pattern(FREYLA, AT, "rotated 90")
    assert page.errors == []


def test_a_new_pattern_brings_back_the_monsters_a_saved_pattern_destroyed(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    """Freyla saved with her printed pattern destroyed the tagged monster at
    ABOVE_THE_LINE (the server did, on that save). On a later visit the
    player corrects her pattern: that monster lives again, and the one the
    new pattern reaches is destroyed."""
    t = with_hero_in_spring(app, client, FREYLA)
    tags = [{"ambush": "Zombie Plague", "spaces": [[4, 7], [6, 5]]}]
    hero = [{"hero": FREYLA, "at": list(AT), "orientation": "printed"}]
    spring = drawn(r4c7="M", r6c5="M", r4c5="H")
    saved = save(client, t, 1, "spring", spring, monsters=tags, heroes=hero)
    assert saved.status_code == 200 and saved.json["map"][index(*ABOVE_THE_LINE)] == "X"
    page = _hero_brush_on_spring(client, server, browser, t)
    page.locator("#hero-card").select_option(FREYLA)
    page.locator("#hero-orientation").select_option("rotated 90")
    assert "t-M" in classes(page, *ABOVE_THE_LINE)  # out of every pattern now
    assert "t-X" in classes(page, *BELOW)
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    page.reload()
    assert "t-M" in classes(page, *ABOVE_THE_LINE) and "t-X" in classes(page, *BELOW)
    assert page.errors == []


def test_a_pattern_wholly_off_the_map_says_so(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    _, page = _hero_brush_with_freyla(app, client, server, browser, drawn(r4c7="M"))
    assert pattern(FREYLA, EDGE, "printed") == set()
    cell(page, *EDGE).tap()
    page.screenshot(path=str(SHOTS / "hero-ux-off-the-map-390.png"))
    off = page.locator("#hero-off-map")
    assert off.inner_text() == (
        "Turned this way, its attack pattern lies wholly off the map: it attacks nothing."
    )
    assert attacked(page) == set()
    assert on_screen(page, "#hero-off-map")
    assert on_screen(page, f'#board .cell[data-i="{index(*EDGE)}"]')
    # Mirrored, the pattern points back onto the map: the sentence goes, and the monster is destroyed.
    page.locator("#hero-orientation").select_option("flipped")
    assert off.is_hidden()
    assert attacked(page) == pattern(FREYLA, EDGE, "flipped")
    assert "t-X" in classes(page, *ABOVE_THE_LINE)
    assert page.errors == []


def test_a_destroyed_hero_keeps_its_pattern(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    """ "If a hero space is destroyed, that hero's attack pattern remains
    active": a monster drawn in it afterwards is destroyed at once, and the
    saved sheet keeps the hero's card."""
    t, page = _hero_brush_with_freyla(app, client, server, browser)
    cell(page, *AT).tap()
    page.locator('.brush[data-brush="X"]').tap()
    cell(page, *AT).tap()  # the Gorgon's gaze, say, or the troll, destroys Freyla's space
    assert "t-X" in classes(page, *AT)
    assert cell(page, *AT).inner_text() == "Fr"  # the destroyed space still says whose it was
    assert attacked(page) == pattern(FREYLA, AT, "printed")
    page.locator('.brush[data-brush="M"]').tap()
    cell(page, *ABOVE_THE_LINE).tap()
    assert "t-X" in classes(page, *ABOVE_THE_LINE)  # drawn in her pattern: destroyed at once
    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    assert [h["hero"] for h in editor(client, t, 1, "spring")[1]["heroes"]] == [FREYLA]
    page.reload()
    assert attacked(page) == pattern(FREYLA, AT, "printed")
    assert page.errors == []


def test_a_hero_drawn_again_elsewhere_moves(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    """A hero card drawn again on a space that held no hero is a mis-tap put
    right: the hero moves, and its old space is empty, with no hero left
    there without a card to hold up the score."""
    _, page = _hero_brush_with_freyla(app, client, server, browser)
    cell(page, *AT).tap()
    cell(page, *BELOW).tap()
    assert "t-empty" in classes(page, *AT) and cell(page, *AT).inner_text() == ""
    assert cell(page, *BELOW).inner_text() == "Fr"
    assert attacked(page) == pattern(FREYLA, BELOW, "printed")
    assert page.locator("#hero-warning").is_hidden()
    page.locator("#undo").tap()
    assert cell(page, *AT).inner_text() == "Fr" and "t-empty" in classes(page, *BELOW)
    assert page.errors == []


# --- 3. each hero space shows its card -------------------------------------------------------------

BOTH_D = "hero-36"  # Dobrik of Lorkheim and Dal of Jolev both come out in summer


@pytest.mark.parametrize("width", PHONES)
def test_each_hero_space_shows_its_card(
    app: Flask, client: FlaskClient, server: str, browser: Any, width: int
) -> None:
    """Dobrik of Lorkheim and Dal of Jolev share their initial: their spaces
    read "Do" and "Da", whole inside the square, with the card's full name
    as the space's title."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C", seed=BOTH_D)
    summer = {r.name for turn in t.deal.seasons[1].turns for r in turn.reveals}
    assert {"Dobrik of Lorkheim", "Dal of Jolev"} <= summer
    as_host(client, t)
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", drawn()).status_code == 200
    assert score(client, t, 1, "spring").status_code == 303  # summer opens from spring's scored map
    t.set_taps(t.season_end(1))
    # a hero with no card yet at row 10, column 10, as a photo reads one
    assert save(client, t, 1, "summer", drawn(r9c9="H")).status_code == 200
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/summer")
    assert cell(page, 9, 9).inner_text() == "?"
    page.locator('.brush[data-brush="H"]').tap()
    card = page.locator("#hero-card")
    for name, (r, c) in (("Dobrik of Lorkheim", (2, 2)), ("Dal of Jolev", (7, 7))):
        card.select_option(name)
        cell(page, r, c).tap()
    page.screenshot(path=str(SHOTS / f"hero-ux-initials-{width}.png"))
    for name, initials, (r, c) in (("Dobrik of Lorkheim", "Do", (2, 2)), ("Dal of Jolev", "Da", (7, 7))):
        space = cell(page, r, c)
        assert space.inner_text() == initials
        assert space.get_attribute("title") == name
        assert space.evaluate("c => c.scrollWidth <= c.clientWidth"), f"{initials} is cut at {width} px"
    # A tap on a hero chooses its card, to turn it, and a line says the map holds it.
    cell(page, 2, 2).tap()
    assert card.input_value() == "Dobrik of Lorkheim"
    assert page.locator("#hero-placed").inner_text().startswith("Dobrik of Lorkheim is on the map")
    # A hero card is one hero. Drawn again on a space that held no hero, it moves there (a
    # mis-tap put right): its first space is empty.
    cell(page, 2, 8).tap()
    assert cell(page, 2, 8).inner_text() == "Do"
    assert cell(page, 2, 2).inner_text() == "" and "t-empty" in classes(page, 2, 2)
    # Given to a hero already on the map with no card, it leaves its space a hero with no
    # card: both heroes were drawn on the paper, and only the card was put right.
    cell(page, 9, 9).tap()
    assert cell(page, 9, 9).inner_text() == "Do"
    assert cell(page, 2, 8).inner_text() == "?"
    assert "row 3, column 9 has no hero card yet" in page.locator("#hero-warning").inner_text()
    assert page.errors == []


# --- 4. a hero card is drawn once on a map -----------------------------------------------------------

DOBRIK, DAL = "Dobrik of Lorkheim", "Dal of Jolev"


def test_a_hero_card_on_the_map_is_not_offered_again(
    app: Flask, client: FlaskClient, server: str, browser: Any
) -> None:
    """Summer revealed Dobrik and Dal; the map holds Dobrik, and a hero a
    photo read with no card. The select opens on Dal, the card to draw, and
    offers Dobrik only as "on the map" (off): each hero card is drawn once,
    and a tap with Dobrik's card on the hero with none would have taken his
    card off his own space. Dal's card goes to the hero with none; a tap on
    Dobrik then chooses his card, to turn him, and moves nothing; and the
    save keeps each card on its own space."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C", seed=BOTH_D)
    as_host(client, t)
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", drawn()).status_code == 200
    assert score(client, t, 1, "spring").status_code == 303
    t.set_taps(t.season_end(1))
    dobrik = [{"hero": DOBRIK, "at": [2, 2], "orientation": "printed"}]
    assert save(client, t, 1, "summer", drawn(r2c2="H", r9c9="H"), heroes=dobrik).status_code == 200
    page = phone(browser, 390)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/summer")
    page.locator('.brush[data-brush="H"]').tap()
    card = page.locator("#hero-card")

    def offered() -> dict[str, tuple[str, bool]]:
        found = card.locator("option").evaluate_all("os => os.map(o => [o.value, o.textContent, o.disabled])")
        return {value: (text, off) for value, text, off in found}

    assert card.input_value() == DAL
    assert offered() == {DOBRIK: ("Dobrik of Lorkheim (on the map)", True), DAL: (DAL, False)}
    page.screenshot(path=str(SHOTS / "hero-once-offered-390.png"))

    cell(page, 9, 9).tap()  # the hero with no card is Dal
    assert (cell(page, 9, 9).inner_text(), cell(page, 2, 2).inner_text()) == ("Da", "Do")
    assert offered()[DOBRIK] == ("Dobrik of Lorkheim (on the map)", True)

    cell(page, 2, 2).tap()  # Dobrik's hero: his card is chosen, nothing moves
    assert card.input_value() == DOBRIK
    assert (cell(page, 9, 9).inner_text(), cell(page, 2, 2).inner_text()) == ("Da", "Do")
    assert page.locator("#hero-placed").inner_text() == (
        "Dobrik of Lorkheim is on the map: a new pattern turns it there at once."
    )
    assert offered() == {DOBRIK: (DOBRIK, False), DAL: ("Dal of Jolev (on the map)", True)}
    page.locator("#undo").tap()  # the tap that chose changed nothing: Undo takes back Dal's card
    assert cell(page, 9, 9).inner_text() == "?"
    page.locator("#redo").tap()

    page.locator("#save").tap()
    page.wait_for_selector("#status:text-is('Saved.')")
    stored = {h["hero"]: h["at"] for h in editor(client, t, 1, "summer")[1]["heroes"]}
    assert stored == {DOBRIK: [2, 2], DAL: [9, 9]}
    assert page.locator("#hero-warning").is_hidden()
    assert page.errors == []
