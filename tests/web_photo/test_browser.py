"""Photograph my sheet in real headless Chromium at phone size: the photo is
chosen with the file input (as the camera would hand it over), the editor
opens pre-filled with the doubtful squares outlined, the player fixes a square
by tapping, saves, and the stored map is the reading with that fix. A
screenshot of the pre-filled editor goes to /tmp/shots/."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from referee.rules import heroes
from referee.rules.sheet import MapSheet
from referee.store.models import GameTable
from referee.store.sheets import SeasonSheet
from referee.web import photo
from referee.web.database import get_session
from referee.web.offload import ReaderBusy, off_the_loop
from tests.browser import ARGS, CHROMIUM, LiveServer, playwright_or_skip
from tests.web_photo.conftest import SAMPLE, SAMPLES, sample, stored_sheets, table_reading
from tests.web_sheets.conftest import as_host, make_table, save, score

SHOTS = Path("/tmp/shots")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture()
def server(app: Flask) -> Iterator[str]:
    live = LiveServer(app)
    yield live.url
    live.stop()


def _phone(
    browser: Any, server: str, code: str, width: int = 390, height: int = 844
) -> tuple[Any, list[str]]:
    """A phone (``width`` x ``height``) that claimed seat 1 and shows its editor."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/t/{code}/sheets")
    page.locator(".seat").nth(0).locator("text=This is me").click()
    page.wait_for_selector("#photo-form")
    page.wait_for_load_state("load")  # the editor's scripts listen for the photo from here
    return page, errors


def _photographed(
    browser: Any, server: str, code: str, photo: Path = SAMPLES / f"{SAMPLE}.jpg"
) -> tuple[Any, list[str]]:
    """Seat 1's phone (``_phone``) with ``photo`` sent and its reading shown."""
    page, errors = _phone(browser, server, code)
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#photo-note")
    return page, errors


def _villages(page: Any, *squares: int) -> None:
    """Tap ``squares`` (numbered row by row) with the village brush."""
    page.click('.brush[data-brush="V"]')
    for i in squares:
        page.locator(f'#board .cell[data-i="{i}"]').tap()


def _classes(page: Any, i: int) -> str:
    return page.locator(f'#board .cell[data-i="{i}"]').get_attribute("class") or ""


def test_photograph_fix_and_save(app: Flask, server: str) -> None:
    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    reading = table_reading(t, data)
    codes = "".join(reading.grid)
    true_codes = "".join(truth["grid"])
    wrong = [i for i in range(121) if codes[i] != true_codes[i]]
    doubtful = [r * 11 + c for r, c in reading.doubtful()]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        before = stored_sheets(app, t)
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
        page.wait_for_selector("#photo-note")
        assert "not saved yet" in page.locator("#photo-note").inner_text()
        assert page.locator(".photo-figure img").evaluate("img => img.naturalWidth") == 448

        # The editor shows the reading, with every doubtful square outlined.
        shown = "".join(
            page.locator("#board .cell").evaluate_all(
                "cells => cells.map(c => { const k = [...c.classList].find(x => x.startsWith('t-')).slice(2);"
                " return {mtn: '^', waste: '#', empty: '.'}[k] || k; })"
            )
        )
        assert shown == codes
        outlined = page.locator("#board .cell.doubtful").evaluate_all("cells => cells.map(c => +c.dataset.i)")
        assert set(doubtful) <= set(outlined)
        assert page.locator(".photo-marks span:not([hidden])").count() == len(outlined)
        page.screenshot(path=str(SHOTS / "photo-390x844.png"))
        page.screenshot(path=str(SHOTS / "photo-390x844-full.png"), full_page=True)
        assert stored_sheets(app, t) == before  # nothing saved yet

        # Fix one square by tapping: the reader's mistake if it made one this
        # table has a brush for (a base table has no Destroyed brush), else a doubtful square.
        brushes = set(page.locator(".brush").evaluate_all("bs => bs.map(b => b.dataset.brush)"))
        fixable = [i for i in wrong if true_codes[i] in brushes]
        paintable = [i for i in doubtful if codes[i] not in "^#"] + [i for i in range(121) if codes[i] == "."]
        fix = (fixable or paintable)[0]
        want = true_codes[fix] if fixable else ("F" if codes[fix] == "." else ".")
        page.click(f'.brush[data-brush="{want}"]')
        page.locator(f'#board .cell[data-i="{fix}"]').tap()
        assert "doubtful" not in _classes(page, fix)
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert page.locator("#photo-note").is_hidden()
        assert errors == []
        browser.close()

    expected = codes[:fix] + want + codes[fix + 1 :]
    [(_, _, stored, coins, revision)] = stored_sheets(app, t)
    assert stored.replace("\n", "") == expected
    assert revision == before[0][4] + 1
    if reading.coins is not None:
        assert coins == reading.coins
    if len(wrong) == 1 and fixable:
        assert stored.replace("\n", "") == true_codes


def test_a_big_photo_is_made_smaller_before_it_is_sent(app: Flask, server: str, tmp_path: Path) -> None:
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    big = Image.open(io.BytesIO(data)).convert("RGB")
    big = big.resize((big.width * 3, big.height * 3), Image.Resampling.BICUBIC)
    path = tmp_path / "big.jpg"
    big.save(path, "JPEG", quality=98)
    assert path.stat().st_size > 2 * 2**20 and max(big.size) > 2400
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        sent: list[int] = []
        page.on("request", lambda r: r.method == "POST" and sent.append(len(r.post_data_buffer or b"")))
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(path))
        page.wait_for_selector("#photo-note")
        assert errors == []
        browser.close()
    assert sent and sent[0] < path.stat().st_size / 2


def test_a_photo_of_too_many_pixels_is_made_smaller_however_small_its_file(
    app: Flask, server: str, tmp_path: Path
) -> None:
    """A 94-megapixel picture in a 1.8 MB file: more pixels than the reader
    opens (64 megapixels), in fewer bytes than the size the page shrinks
    photos above. It is made smaller by the page, and read."""
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    small = Image.open(io.BytesIO(data)).convert("RGB")
    huge = small.resize((small.width * 7, small.height * 7), Image.Resampling.BILINEAR)
    path = tmp_path / "huge.jpg"
    huge.save(path, "JPEG", quality=20)
    assert huge.width * huge.height > 64_000_000 and path.stat().st_size < 2 * 2**20
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        sent: list[bytes] = []
        page.on("request", lambda r: r.method == "POST" and sent.append(r.post_data_buffer or b""))
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(path))
        page.wait_for_selector("#photo-note")
        assert errors == []
        browser.close()
    assert sent and len(sent[0]) < path.stat().st_size


def _not_a_picture(folder: Path) -> Path:
    """A file named as a JPEG that holds text: the reader cannot open it."""
    path = folder / "notes.jpg"
    path.write_bytes(b"Cartographers is a map-drawing game.\n" * 50)
    return path


def test_a_bad_file_shows_the_sentence(app: Flask, server: str, tmp_path: Path) -> None:
    sync_playwright = playwright_or_skip()
    path = _not_a_picture(tmp_path)
    t = make_table(app, ["Ann", "Ben"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(path))
        assert "not a picture the reader can open" in page.locator("#photo-error").inner_text()
        assert page.locator("#photo-note").count() == 0
        assert errors == []
        browser.close()


def test_a_photo_sent_in_a_surge_is_asked_for_again(
    app: Flask, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hall's season end: the photo waited past ``PHOTO_WAIT`` for its
    worker's reading thread. The phone shows the sentence on the editor,
    the map as saved, nothing to mark, at 320 px as at 390."""
    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)

    def queued_too_long(compute: Any, *args: Any, **kwargs: Any) -> Any:
        if "patience" in kwargs:
            raise ReaderBusy(kwargs["patience"] + 1.0)
        return off_the_loop(compute, *args, **kwargs)

    monkeypatch.setattr(photo, "off_the_loop", queued_too_long)
    t = make_table(app, ["Ann", "Ben"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        _villages(page, 0)
        page.locator("#save").tap()
        page.wait_for_selector("#status:text-is('Saved.')")
        editor = page.url
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(editor)
            with page.expect_navigation():
                page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
            sentence = page.locator("#photo-error").inner_text()
            assert sentence.startswith("Many photos are being read right now, and yours waited too long")
            assert "t-V" in _classes(page, 0)  # the map as saved
            assert page.locator("#photo-note").count() == 0 and page.locator("#mark-grid").count() == 0
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(SHOTS / f"photo-busy-{width}.png"))
        assert errors == []
        browser.close()
    assert stored_sheets(app, t)[0][2].startswith("V")


def _decline_photo(page: Any) -> tuple[list[str], list[str]]:
    """Choose the sample photo and decline the question it asks: the
    questions asked, and the POSTs the page sends from then on."""
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
    page.wait_for_timeout(300)
    return asked, posts


def _accept_photo(page: Any) -> None:
    """Choose the sample photo again, agree, and wait for its reading."""
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
    page.wait_for_selector("#photo-note")


def test_a_photo_over_unsaved_changes_asks_first(app: Flask, server: str) -> None:
    sync_playwright = playwright_or_skip()
    t = make_table(app, ["Ann", "Ben"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        _villages(page, 0)
        asked, posts = _decline_photo(page)
        assert asked and "not saved" in asked[0]
        assert posts == [] and "t-V" in _classes(page, 0)  # kept, nothing sent
        _accept_photo(page)
        assert len(posts) == 1 and errors == []
        browser.close()


def test_a_photo_on_an_earlier_seasons_page_asks_first(app: Flask, server: str) -> None:
    """Spring is scored, summer has begun, and this phone is on spring's page
    (opened before): the sheet photographed now is summer's, so the photo
    asks before it is read as spring's map; declined, nothing is sent."""
    sync_playwright = playwright_or_skip()
    t = make_table(app, ["Ann", "Ben"])
    t.set_taps(t.season_end(0))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        assert page.url.endswith("/sheets/1/spring")
        host = app.test_client()
        as_host(host, t)
        assert score(host, t, 1, "spring").status_code == 303  # the sheet this phone opened
        t.set_taps(t.season_start(1))
        page.reload()
        page.wait_for_load_state("load")
        assert page.locator("#later-season").is_visible()
        asked, posts = _decline_photo(page)
        assert asked == ["Summer has begun: this photo will be read as the spring map. Go on?"]
        assert posts == []
        _accept_photo(page)
        assert len(posts) == 1 and errors == []
        assert page.locator("#later-season").is_visible()  # the reading's page says it too,
        assert page.locator("#photo-form").get_attribute("data-text-earlier")  # and its next photo asks
        browser.close()


def test_a_refused_photo_over_unsaved_changes_keeps_them(app: Flask, server: str, tmp_path: Path) -> None:
    """The player agreed that the photo would replace the changes not yet
    saved; it was refused, so nothing replaced them: they are back on the
    map, unsaved, and Undo goes back to the saved sheet. Once the page is
    left for another, they are not brought back again."""
    sync_playwright = playwright_or_skip()
    path = _not_a_picture(tmp_path)
    t = make_table(app, ["Ann", "Ben"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        _villages(page, 0, 1)
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(path))
        assert "not a picture the reader can open" in page.locator("#photo-error").inner_text()
        assert "t-V" in _classes(page, 0) and "t-V" in _classes(page, 1)
        assert page.locator("#banner").inner_text() == "Your changes not yet saved are back on the map."
        assert page.locator("#save").inner_text() == "Save"  # not saved yet
        assert "attention" in (page.locator("#save").get_attribute("class") or "")
        page.locator("#undo").tap()
        assert "t-V" not in _classes(page, 0) and "t-V" not in _classes(page, 1)
        # back to the sheet as opened, which was never saved: nothing to save, nor saved yet
        assert page.locator("#save").inner_text() == "Save"
        assert "attention" not in (page.locator("#save").get_attribute("class") or "")
        page.locator("#redo").tap()
        assert page.locator("#save").inner_text() == "Save"
        page.locator("#undo").tap()
        page.goto(f"{server}/t/{t.code}/sheets/1/spring")
        assert "t-V" not in _classes(page, 0)
        assert errors == []
        browser.close()


def test_back_after_saving_a_reading_shows_the_saved_sheet(app: Flask, server: str) -> None:
    """The reading is the answer to a POST: once saved, Back from another page
    leads to the sheet as saved, not to the reading as it came."""
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _photographed(browser, server, t.code)
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert page.url.endswith(f"/t/{t.code}/sheets/1/spring")
        page.goto(f"{server}/t/{t.code}/sheets")
        page.go_back()
        page.wait_for_selector("#board")
        assert page.url.endswith(f"/t/{t.code}/sheets/1/spring")
        assert page.locator("#photo-note").count() == 0 or page.locator("#photo-note").is_hidden()
        [(_, _, stored, _, _)] = stored_sheets(app, t)
        shown = "".join(
            page.locator("#board .cell").evaluate_all(
                "cells => cells.map(c => { const k = [...c.classList].find(x => x.startsWith('t-')).slice(2);"
                " return {mtn: '^', waste: '#', empty: '.'}[k] || k; })"
            )
        )
        assert shown == stored.replace("\n", "")
        assert errors == []
        browser.close()


def test_reloading_a_reading_shows_the_sheet_another_phone_saved(
    app: Flask, server: str, client: FlaskClient
) -> None:
    """Two phones photograph one sheet; the host's saves first. The player's
    save is refused, and the reload that sentence asks for shows the host's
    sheet: it does not send the photo again, whose reading a save would then
    lay over the host's."""
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _photographed(browser, server, t.code)
        assert page.url.endswith(f"/t/{t.code}/sheets/1/spring")  # not the photo's POST address
        as_host(client, t)
        hosts = MapSheet.blank(truth["side"]).text().replace(".", "F", 1)
        assert save(client, t, 1, "spring", hosts, coins=2).status_code == 200
        page.locator("#coin-minus").tap()
        page.locator("#coin-plus").tap()
        page.click("#save")
        page.wait_for_selector("#banner:has-text('reload to see the saved sheet')")
        page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question
        page.reload()
        page.wait_for_selector("#board")
        assert page.locator("#photo-note").count() == 0
        assert page.locator("#coin-count").inner_text() == "2"
        [(_, _, stored, coins, revision)] = stored_sheets(app, t)
        assert (stored, coins, revision) == (hosts, 2, 2)
        assert errors == []
        browser.close()


def test_the_host_taps_from_a_wrong_side_photo_to_the_side_switch(app: Flask, server: str) -> None:
    """The host's phone at 320 px sends a side A sheet to a side B table:
    under the sentence, a button leads to the host page with its side switch
    open, side A's button a full tap target on the screen."""
    sync_playwright = playwright_or_skip()
    SHOTS.mkdir(exist_ok=True)
    t = make_table(app, ["Ann", "Ben"], side="B")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 320, "height": 700}, has_touch=True, is_mobile=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
        page.goto(f"{server}/t/{t.code}/sheets/1/spring")
        page.wait_for_load_state("load")
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
        assert "the host can switch the table to side A" in page.locator("#photo-error").inner_text()
        page.screenshot(path=str(SHOTS / "wrong-side-host-320.png"))
        with page.expect_navigation():
            page.locator("#side-switch").tap()
        assert page.locator("#change-side").evaluate("d => d.open") is True
        button = page.locator('#change-side button[value="A"]')
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 320
        page.screenshot(path=str(SHOTS / "side-switch-open-320.png"))
        with page.expect_navigation():
            button.tap()
        assert f"Table {t.code} now plays map side A." in page.locator(".flash").inner_text()
        assert errors == []
        browser.close()


def _surrounded_mountains(grid: list[str]) -> int:
    """Mountains with no empty square beside them, counted as the editor does."""
    count = 0
    for r in range(11):
        for c in range(11):
            around = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            inside = [(y, x) for y, x in around if 0 <= y < 11 and 0 <= x < 11]
            count += grid[r][c] == "^" and all(grid[y][x] != "." for y, x in inside)
    return count


def test_unread_coins_are_asked_for_before_saving(app: Flask, server: str) -> None:
    """A reading whose coin track could not be read asks for the coins in its
    note and again by the coins, in place of the warning that the track shows
    too few, until the player has set a count: the saved 0 is nobody's answer
    yet, and Save waits for one rather than score it."""
    sync_playwright = playwright_or_skip()
    photo = SAMPLES / "008.jpg"  # side D: its coin track reads as unknown
    t = make_table(app, ["Ann", "Ben"], side="D")
    reading = table_reading(t, photo.read_bytes())
    surrounded = _surrounded_mountains(reading.grid)
    assert reading.coins is None and surrounded >= 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        note = page.locator("#photo-note").inner_text()
        # Spring: the count starts at the coins of the mountains the map surrounds, and no
        # card has come out yet to offer a shape with a coin.
        assert (
            f"The coin track could not be read: the count below is {surrounded}, one for each mountain "
            "your map surrounds (row " in note
        )
        assert "No explore card this season offered a shape with a coin." in note
        assert page.locator("#coin-count").inner_text() == str(surrounded)
        warning = page.locator("#coin-warning")
        unread = "Set your coins before you save: tap your last filled coin, or − if none is filled."
        assert unread in warning.inner_text()
        page.click("#save")
        assert unread in page.locator("#banner").inner_text()
        assert stored_sheets(app, t)[0][4] == 1  # nothing saved
        page.locator('#coin-track .coin[data-n="1"]').tap()
        assert warning.is_visible()
        assert f"surrounds {surrounded} mountains" in warning.inner_text()
        assert "shows only 1" in warning.inner_text()
        page.locator(f'#coin-track .coin[data-n="{surrounded}"]').tap()
        assert warning.is_hidden()
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert stored_sheets(app, t)[0][3] == surrounded
        assert errors == []
        browser.close()


def _summer_from_three_coins(app: Flask, client: FlaskClient) -> Any:
    """A side D table whose first seat scored spring with 3 coins, and summer begun."""
    t = make_table(app, ["Ann", "Ben"], side="D")
    t.set_taps(t.season_end(0))
    as_host(client, t)
    assert save(client, t, 1, "spring", MapSheet.blank("D").text(), coins=3).status_code == 200
    assert score(client, t, 1, "spring").status_code in (200, 303)
    t.set_taps(t.season_end(0) + 1)
    return t


def _summer_start(t: Any, photo: Path) -> int:
    """Where summer's unread track starts after ``_summer_from_three_coins``:
    spring's 3 coins, and one for each mountain the photo's map surrounds
    that spring's blank map did not."""
    grid = table_reading(t, photo.read_bytes(), season=1).grid
    return 3 + _surrounded_mountains(grid) - _surrounded_mountains(MapSheet.blank("D").text().splitlines())


def test_the_count_left_on_an_unread_track_is_set_by_tapping_its_last_coin(
    app: Flask, server: str, client: FlaskClient
) -> None:
    """Summer's track starts with spring's 3 coins and those of the mountains
    surrounded since. Tapping the last filled coin empties it, except while
    a photo's track is unread: then it is the player's answer "this is my
    count", and Save goes through."""
    sync_playwright = playwright_or_skip()
    photo = SAMPLES / "008.jpg"
    t = _summer_from_three_coins(app, client)
    start = _summer_start(t, photo)
    assert start > 3
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        assert "/summer" in page.url
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        note = page.locator("#photo-note").inner_text()
        assert (
            "The coin track could not be read: the count below is the 3 coins carried from the season "
            f"before, plus {start - 3} for the mountain" in note
        )
        assert page.locator("#coin-count").inner_text() == str(start)  # nobody's answer yet
        last = page.locator(f'#coin-track .coin[data-n="{start}"]')
        last.tap()
        assert page.locator("#coin-count").inner_text() == str(start)
        assert page.locator("#coin-warning").is_hidden()
        last.tap()  # answered: now it empties
        assert page.locator("#coin-count").inner_text() == str(start - 1)
        last.tap()
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert [c for _, s, _, c, _ in stored_sheets(app, t) if s == 1] == [start]
        # Summer saved: another photo keeps the count saved, and asks nothing more.
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        note = page.locator("#photo-note").inner_text()
        assert f"The coin track could not be read: the {start} filled coins you saved stay" in note
        assert page.locator("#coin-warning").is_hidden()
        page.locator("#board .cell.t-empty").first.tap()  # a change, so that Save has one to save
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert errors == []
        browser.close()


def test_the_count_kept_on_an_unread_track_is_confirmed_in_one_tap(
    app: Flask, server: str, client: FlaskClient
) -> None:
    """A play-test's players tapped Save under an unread track showing the
    right count, and the page only pointed at the coins: a button beside
    the sentence says the count kept is right, and Save then goes through."""
    sync_playwright = playwright_or_skip()
    photo = SAMPLES / "008.jpg"  # side D: its coin track reads as unknown
    t = _summer_from_three_coins(app, client)
    start = _summer_start(t, photo)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        assert page.locator("#coins-right").is_hidden()  # nothing unread yet
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        right = page.locator("#coins-right")
        assert right.is_visible() and right.inner_text() == f"{start} coins are right"
        right.tap()
        assert right.is_hidden() and page.locator("#coin-warning").is_hidden()
        assert page.locator("#coin-count").inner_text() == str(start)
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert [c for _, s, _, c, _ in stored_sheets(app, t) if s == 1] == [start]
        assert errors == []
        browser.close()


def test_minus_on_an_unread_track_is_the_players_answer(app: Flask, server: str) -> None:
    """Tapping − on an unread track is the player's answer: the count goes
    down from where it started (a coin for each mountain the map surrounds),
    and the warning that the track shows too few comes back, at 0 too."""
    sync_playwright = playwright_or_skip()
    photo = SAMPLES / "008.jpg"
    t = make_table(app, ["Ann", "Ben"], side="D")
    surrounded = _surrounded_mountains(table_reading(t, photo.read_bytes()).grid)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        with page.expect_navigation():
            page.set_input_files("#photo-input", str(photo))
        assert "Set your coins before you save" in page.locator("#coin-warning").inner_text()
        page.locator("#coin-minus").tap()
        assert f"shows only {surrounded - 1}" in page.locator("#coin-warning").inner_text()
        for _ in range(surrounded):  # the last tap, at 0, changes nothing
            page.locator("#coin-minus").tap()
        assert page.locator("#coin-count").inner_text() == "0"
        assert "shows only 0" in page.locator("#coin-warning").inner_text()
        assert errors == []
        browser.close()


def test_a_long_read_says_it_is_still_at_work(app: Flask, server: str) -> None:
    """While the referee has not answered the photo after some seconds (a
    slow connection, or a photo whose grid takes long to find), the page
    says it is still reading, so that nobody takes it for stuck."""
    sync_playwright = playwright_or_skip()
    t = make_table(app, ["Ann", "Ben"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code)
        held: list[Any] = []
        page.route("**/photo", lambda route: held.append(route))  # answered only after 7 s
        # What the status line says, kept where the next page can read it
        # (Playwright reads no page while a navigation waits for its answer).
        page.evaluate(
            """() => { const s = document.getElementById('photo-status');
            new MutationObserver(() => sessionStorage.setItem('said',
              (sessionStorage.getItem('said') || '') + '|' + s.textContent))
              .observe(s, {childList: true, characterData: true, subtree: true}); }"""
        )
        with page.expect_request("**/photo"):
            page.set_input_files("#photo-input", str(SAMPLES / f"{SAMPLE}.jpg"))
        page.wait_for_timeout(7000)
        with page.expect_navigation():
            held[0].continue_()
        said = page.evaluate("() => sessionStorage.getItem('said')").split("|")[1:]
        assert said[-2:] == [
            "Reading your photo…",
            "Still reading your photo: a hard one can take half a minute. Keep this page open.",
        ]
        page.wait_for_selector("#photo-note")  # the photo read as usual once answered
        assert errors == []
        browser.close()


def _one_ambush_out(app: Flask, side: str, ambush: str) -> Any:
    """A Heroes table at the first point of a deal (seeds ``photo-tags-0``,
    ...) where spring has revealed ``ambush`` and no other card that draws
    monsters."""
    for k in range(300):
        t = make_table(app, ["Ann", "Ben"], edition="heroes", side=side, seed=f"photo-tags-{k}")
        turns = t.deal.seasons[0].turns
        drawing = [[r for r in turn.reveals if heroes.draws_monsters(r)] for turn in turns]
        first = next((i for i, cards in enumerate(drawing) if cards), None)
        if first is not None and [r.name for r in drawing[first]] == [ambush]:
            t.set_taps(first + 1)
            return t
    raise AssertionError(f"no deal of 300 opens spring with {ambush} alone")


def _monsters(grid: list[str]) -> list[list[int]]:
    return sorted([r, c] for r, row in enumerate(grid) for c, code in enumerate(row) if code == "M")


def test_monsters_read_from_a_photo_are_saved_with_their_ambush(app: Flask, server: str) -> None:
    """The Heroes ambushes act by their monsters, and a photo shows no card:
    the monsters read where one ambush alone has come out, in its shape
    (sample 021's four monsters, a T), are saved as its."""
    sync_playwright = playwright_or_skip()
    data, truth = sample("021")
    t = _one_ambush_out(app, truth["side"], "Giant Troll Ravage")
    reading = table_reading(t, data)
    read = _monsters(reading.grid)
    assert read == _monsters(truth["grid"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _photographed(browser, server, t.code, SAMPLES / "021.jpg")
        assert page.locator("#board .cell.t-M.doubtful").count() == 0  # nothing asked of them
        page.locator("#coin-minus").tap()  # the count, however the track was read
        page.locator("#coin-plus").tap()
        page.click("#save")
        page.wait_for_selector("#status:text-is('Saved.')")
        assert errors == []
        browser.close()
    assert _stored_monsters(app, t) == [{"ambush": "Giant Troll Ravage", "spaces": read}]


def _stored_monsters(flask_app: Flask, t: Any) -> list[dict[str, Any]]:
    """Seat 1's spring monster tags as stored."""
    with flask_app.app_context():
        session = get_session()
        table = session.query(GameTable).filter_by(code=t.code).one()
        [sheet] = session.query(SeasonSheet).filter_by(seat_id=table.seats[0].id, season=0)
        return list(sheet.monsters)


@pytest.mark.parametrize("width", [320, 390])
def test_a_saved_photo_can_be_chosen_instead_of_the_camera(app: Flask, server: str, width: int) -> None:
    """The camera button's input opens a phone's camera alone (``capture``);
    "Saved photo" beside it opens the gallery, a full tap target in the
    camera button's row, and its photo is read as the camera's would be."""
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _phone(browser, server, t.code, width=width, height=640)
        assert page.locator("#photo-input").get_attribute("capture") == "environment"
        assert page.locator("#photo-pick").get_attribute("capture") is None
        link = page.locator("#photo-pick-label")
        link.scroll_into_view_if_needed()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"photo-pick-{width}.png"))
        box = link.bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= width
        camera = page.locator(".photo-button").bounding_box()
        assert camera and abs(camera["y"] - box["y"]) < 1  # one row: the map keeps its room
        cut = page.locator(".photo-buttons label").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())"
        )
        assert cut == [], f"cut at {width} px"
        with page.expect_navigation():
            page.set_input_files("#photo-pick", str(SAMPLES / f"{SAMPLE}.jpg"))
        page.wait_for_selector("#photo-note")
        assert "not saved yet" in page.locator("#photo-note").inner_text()
        assert errors == []
        browser.close()


def test_the_count_of_squares_to_check_goes_down_to_a_sentence_without_one(app: Flask, server: str) -> None:
    """Each outlined square the player taps is checked: the note counts the
    rest down, and once none is left it asks to check the map, not "the 0
    outlined squares"."""
    sync_playwright = playwright_or_skip()
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page, errors = _photographed(browser, server, t.code)
        outlined = page.locator("#board .cell.doubtful").evaluate_all("cells => cells.map(c => +c.dataset.i)")
        assert outlined, "the sample's reading outlines no square: choose a photo that does"
        assert page.locator("#check-none").is_hidden()
        page.click('.brush[data-brush="F"]')
        for left, i in reversed(list(enumerate(outlined))):
            page.locator(f'#board .cell[data-i="{i}"]').tap()
            if left:
                assert page.locator("#check-count").inner_text().startswith(f"{left} outlined square")
        assert page.locator("#check-some").is_hidden()
        assert page.locator("#check-none").is_visible()
        assert page.locator("#check-none").inner_text().startswith("Check the map against your sheet")
        assert errors == []
        browser.close()
