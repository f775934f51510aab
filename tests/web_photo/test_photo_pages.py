"""Photograph my sheet: a photo pre-fills the editor and saves nothing until
the player confirms with Save; every kind of bad photo gets the reader's
sentence and its status, and the saved sheet stays as it was."""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient
from PIL import Image

from referee.rules.data import map_sides
from referee.rules.geometry import where_all
from referee.rules.sheet import MapSheet
from referee.vision.reader import read_sheet
from referee.web import photo
from referee.web.database import engine_of
from referee.web.offload import ReaderBusy, off_the_loop
from referee.web.photo import reading_config
from tests.deals import spring_seed
from tests.table.test_bgstats import AMBUSHES
from tests.table.test_readings import DAL
from tests.table.test_sheet_flow import BLANK_A, drawn
from tests.web_photo.conftest import (
    monsters_at_most,
    multipart,
    page_config,
    photo_error,
    post_photo,
    sample,
    stored_sheets,
    table_reading,
)
from tests.web_sheets.conftest import (
    as_host,
    claim,
    csrf_token,
    editor,
    make_table,
    save,
    score,
    sure_reading,
)


def _table(app: Flask, client: FlaskClient, side: str = "A") -> Any:
    t = make_table(app, ["Ann", "Ben"], side=side)
    claim(client, t, 1)
    editor(client, t, 1, "spring")  # opens (stores) Ann's spring sheet
    return t


# --- a good photo ---------------------------------------------------------------------------------------


def test_photo_prefills_the_editor_and_saves_nothing(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, truth = sample()
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 200, photo_error(response.text)
    reading = table_reading(t, data)
    config = page_config(response.text)
    shown = config["reading"]
    assert shown["map"] == "".join(reading.grid)
    assert shown["coins"] == reading.coins
    note = re.sub(r"<[^>]+>", "", response.text.split('id="photo-note"')[1].split("</div>")[0])
    if reading.coins is None:  # spring: the count the referee knows of, the mountains surrounded
        assert "The coin track could not be read" in note and "the count below is" in note
    else:  # a count the reader gives is right on 97 to 100 % of the sheets of every set it is measured on
        count = f"{reading.coins} filled coin{'s' if reading.coins != 1 else ''}"
        assert f"The coin track read as {count}: check them against your sheet." in note
    doubtful = [r * 11 + c for r, c in reading.doubtful()]
    assert shown["doubtful"] == doubtful
    assert set(doubtful) <= set(shown["check"])
    # The page starts from the reading but keeps the saved revision for the Save.
    assert config["revision"] == before[0][4]
    assert stored_sheets(app, t) == before
    # The squares to check are outlined on the photo too.
    assert len(re.findall(r'<span data-i="\d+" style="--r:', response.text)) == len(shown["check"])
    assert "not saved yet" in response.text


def test_no_database_connection_is_held_while_a_photo_is_read(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under gevent a worker's photos wait their turn for its one reading
    thread: each must wait without a connection of the pool, or a burst of
    photos holds them all and a host's tap waits for one. A refused photo,
    offered for marking, is decoded again the same way."""
    pool = engine_of(app).pool
    held: list[int] = []

    def watched(compute: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        held.append(pool.checkedout())
        return off_the_loop(compute, *args, **kwargs)

    monkeypatch.setattr(photo, "off_the_loop", watched)
    t = _table(app, client)
    data, _ = sample()
    assert post_photo(client, t, 1, "spring", data).status_code == 200
    assert post_photo(client, t, 1, "spring", _blank_page()).status_code == 422  # read, then marked
    assert held == [0, 0, 0]


@pytest.mark.parametrize("json_client", [False, True], ids=["page", "json"])
def test_a_photo_that_waited_too_long_for_its_turn_is_sent_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, json_client: bool
) -> None:
    """A worker's queue of photos to read grew past ``PHOTO_WAIT``: the
    photo is refused unread with 503, a sentence and ``Retry-After``, the
    saved sheet untouched, and no photo offered to mark."""
    patience: list[float | None] = []

    def queued_too_long(compute: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        patience.append(kwargs.get("patience"))
        raise ReaderBusy(kwargs["patience"] + 1.0)

    t = _table(app, client)
    assert save(client, t, 1, "spring", MapSheet.blank("A").text(), coins=2).status_code == 200
    before = stored_sheets(app, t)
    monkeypatch.setattr(photo, "off_the_loop", queued_too_long)
    headers = {"Accept": "application/json"} if json_client else {}
    response = post_photo(client, t, 1, "spring", sample()[0], headers=headers)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "60"
    assert patience == [app.config["PHOTO_WAIT"]] == [30]
    sentence = response.json["error"] if json_client else photo_error(response.text)
    assert sentence == (
        "Many photos are being read right now, and yours waited too long for its turn: "
        "send it again in a minute."
    )
    assert 'id="mark-grid"' not in response.text
    assert stored_sheets(app, t) == before


def test_the_wait_for_the_reader_is_set_in_whole_seconds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from referee.web.app import Config

    monkeypatch.setenv("REFEREE_PHOTO_WAIT", "50")
    assert Config(str(tmp_path)).PHOTO_WAIT == 50
    refused = "REFEREE_PHOTO_WAIT must be a whole number of seconds from 1 to 600"
    for wrong in ("0", "601", "2.5", "soon", ""):
        monkeypatch.setenv("REFEREE_PHOTO_WAIT", wrong)
        with pytest.raises(ValueError, match=refused):
            Config(str(tmp_path))


def test_the_photo_shown_is_a_small_picture_of_the_grid(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, _ = sample()
    response = post_photo(client, t, 1, "spring", data)
    found = re.search(r'<img src="data:image/jpeg;base64,([^"]+)"', response.text)
    assert found
    jpeg = base64.b64decode(found.group(1))
    assert len(jpeg) < 100_000 < len(data)
    picture = Image.open(io.BytesIO(jpeg))
    assert picture.format == "JPEG" and picture.size == (448, 448)


def test_confirming_with_save_stores_the_reading(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, _ = sample()
    config = page_config(post_photo(client, t, 1, "spring", data).text)
    reading = config["reading"]
    rows = [reading["map"][i : i + 11] for i in range(0, 121, 11)]
    coins = reading["coins"] if reading["coins"] is not None else 0
    response = save(client, t, 1, "spring", rows, coins=coins, revision=config["revision"])
    assert response.status_code == 200, response.text
    [(_, _, stored, stored_coins, revision)] = [s for s in stored_sheets(app, t) if s[0] == 1]
    assert stored == MapSheet.parse("\n".join(rows), "A").text()
    assert stored_coins == coins and revision == config["revision"] + 1


def test_a_stale_confirm_is_refused(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, _ = sample()
    config = page_config(post_photo(client, t, 1, "spring", data).text)
    # Meanwhile the host saves Ann's sheet from another phone.
    host = app.test_client()
    as_host(host, t)
    first = ["F" + row[1:] for row in MapSheet.blank("A").text().splitlines()[:1]]
    host_rows = first + MapSheet.blank("A").text().splitlines()[1:]
    assert save(host, t, 1, "spring", host_rows).status_code == 200
    saved = stored_sheets(app, t)
    rows = [config["reading"]["map"][i : i + 11] for i in range(0, 121, 11)]
    response = save(client, t, 1, "spring", rows, revision=config["revision"])
    assert response.status_code == 409
    assert "changed" in response.json["error"] or "another" in response.json["error"]
    assert stored_sheets(app, t) == saved
    assert saved[0][2].splitlines()[0].startswith("F")


def test_json_clients_get_the_reading(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, truth = sample()
    response = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert response.status_code == 200
    body = response.json
    reading = table_reading(t, data)
    assert body["grid"] == list(reading.grid)
    assert body["coins"] == reading.coins
    assert body["revision"] == stored_sheets(app, t)[0][4]
    # the squares the game's limits chose, with what was read there, and why, outlined
    assert body["limited"] == [list(square) for square in reading.limited] != []
    assert all([r, c] in body["check"] for r, c, _code in reading.limited)
    assert len(body["limitsSaid"]) == len({code for _r, _c, code in reading.limited})
    assert body["photo"].startswith("data:image/jpeg;base64,")


def test_a_base_reading_has_only_what_the_game_can_draw(app: Flask, client: FlaskClient) -> None:
    """Sample 005 has two heroes and three destroyed spaces, and the reader
    sees them. At a base table the reading has neither (the editor has no
    brush for them): each such square is the likeliest of what a player can
    draw there, and an empty or drawn square keeps its reading."""
    data, truth = sample("005")
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    everything = "".join(read_sheet(data, truth["side"], monsters=monsters_at_most(t)).grid)
    assert {"H", "X"} <= set(everything)
    claim(client, t, 1)
    editor(client, t, 1, "spring")
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 200, photo_error(response.text)
    shown = page_config(response.text)["reading"]["map"]
    assert set(shown) <= set("FVAWM.^#")
    assert [i for i, (a, b) in enumerate(zip(everything, shown, strict=True)) if a != b] == [
        i for i, code in enumerate(everything) if code in "HX"
    ]
    # The note says why each square the limits chose shows something else, by
    # what the networks saw there with no limit at all: no card revealed yet
    # draws a monster either, so a square that looked most like one is said as one.
    unbound = "".join(read_sheet(data, truth["side"]).grid)
    seen = {code: sum(a == code != b for a, b in zip(unbound, shown, strict=True)) for code in "HXM"}
    assert seen["H"] and seen["X"]
    said = page_config(response.text)["reading"]["limitsSaid"]
    reasons = {
        "H": ("hero", "but this game has no hero cards:"),
        "X": ("destroyed", "but nothing in this game destroys a space:"),
        "M": ("monster", "but no card revealed so far draws a monster:"),
    }
    assert len(said) == sum(1 for n in seen.values() if n)
    for code, n in seen.items():
        if not n:
            continue
        start = f"The photo read {n} {'square' if n == 1 else 'squares'} as “{reasons[code][0]}”"
        [sentence] = [s for s in said if s.startswith(start)]
        assert reasons[code][1] in sentence
        assert ("(row " in sentence) == (n <= 3)  # the places of up to three squares; more are only outlined


@pytest.mark.parametrize(("seed", "revealed"), [("sheet-test-1", 0), ("heroes-count-22", 1)])
def test_a_map_holds_no_more_heroes_than_the_deal_revealed(
    app: Flask, client: FlaskClient, seed: str, revealed: int
) -> None:
    """A player draws one hero space per hero card revealed. Sample 028 has
    two heroes and two destroyed spaces; read in spring at a Heroes table
    whose deal revealed no hero (or one) that spring, it has none (or the
    likelier of the two). Each square read as a hero beyond them is the
    likeliest of the rest, outlined for the player; the rest is unchanged."""
    data, truth = sample("028")
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side=truth["side"], seed=seed)
    spring = t.deal.seasons[0].turns
    assert sum(r.kind == "hero" for turn in spring for r in turn.reveals) == revealed
    t.set_taps(t.season_end(0))
    everything = "".join(read_sheet(data, truth["side"], monsters=monsters_at_most(t)).grid)
    heroes = [i for i, code in enumerate(everything) if code == "H"]
    assert len(heroes) == 2 and "X" in everything
    claim(client, t, 1)
    editor(client, t, 1, "spring")
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 200, photo_error(response.text)
    shown = page_config(response.text)["reading"]
    kept = [i for i in heroes if shown["map"][i] == "H"]
    dropped = [i for i in heroes if i not in kept]
    assert shown["map"].count("H") == len(kept) == revealed
    assert all(i in shown["check"] for i in dropped)
    assert [i for i, (a, b) in enumerate(zip(everything, shown["map"], strict=True)) if a != b] == dropped
    reason = (
        "but the hero cards revealed so far allow at most 1 hero space"
        if revealed
        else "but no hero card has been revealed yet"
    )
    places = where_all(divmod(i, 11) for i in dropped)
    assert f"as “hero” ({places}), {reason}" in " ".join(shown["limitsSaid"])
    # The one hero card out is the one hero space's: named, its pattern as printed.
    cards = [r.name for turn in spring for r in turn.reveals if r.kind == "hero"]
    named = [[card, [i // 11, i % 11], i in shown["doubtful"]] for card, i in zip(cards, kept, strict=True)]
    assert shown["heroNamed"] == named
    assert [h["hero"] for h in shown["heroes"]] == cards
    assert ("the one hero card out that your map did not hold" in response.text) == bool(revealed)


def test_a_map_holds_no_more_monsters_than_the_ambushes_revealed(app: Flask, client: FlaskClient) -> None:
    """This base table's deal reveals Rift Lands (one monster square at most)
    and then Gnoll Raid (five spaces) on spring's first two turns. Before
    them, sample 006's monsters are read as the likeliest of the rest, each
    outlined; after them, no more than six squares are monsters, the likeliest."""
    data, truth = sample()
    t = make_table(app, ["Ann", "Ben"], side=truth["side"])
    first_two = [r.name for turn in t.deal.seasons[0].turns[:2] for r in turn.reveals]
    assert first_two == ["Rift Lands", "Gnoll Raid"]
    unbound = "".join(read_sheet(data, truth["side"]).grid)
    monsters = [i for i, code in enumerate(unbound) if code == "M"]
    assert len(monsters) > 6
    claim(client, t, 1)
    editor(client, t, 1, "spring")
    page = post_photo(client, t, 1, "spring", data).text
    shown = page_config(page)["reading"]
    assert "M" not in shown["map"]
    assert all(i in shown["check"] for i in monsters)
    # the note says why: no card revealed yet draws a monster
    assert f"The photo read {len(monsters)} squares as" in page
    assert "but no card revealed so far draws a monster: they show the reader" in page
    t.set_taps(2)
    page = post_photo(client, t, 1, "spring", data).text
    shown = page_config(page)["reading"]
    kept = [i for i in monsters if shown["map"][i] == "M"]
    assert shown["map"].count("M") == len(kept) == 6
    assert all(i in shown["check"] for i in monsters if i not in kept)
    assert f"The photo read {len(monsters) - 6} squares as" in page
    assert "but the cards revealed so far allow at most 6 monster spaces" in page
    # Rift Lands (monster is one of its terrains) and the Gnoll Raid out: which
    # drew which is the player's to say, and in a base game, where a tag
    # changes no score, the page does not ask.
    assert (shown["monsters"], shown["untagged"]) == ([], [])


def test_a_filled_space_read_as_empty_is_outlined(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, truth = sample()
    reading = table_reading(t, data)
    codes = "".join(reading.grid)
    doubtful = {r * 11 + c for r, c in reading.doubtful()}
    i = next(i for i, code in enumerate(codes) if code == "." and i not in doubtful)
    # Spring was saved with a forest there; the photo shows the space empty.
    rows = [list(row) for row in MapSheet.blank("A").text().splitlines()]
    rows[i // 11][i % 11] = "F"
    assert save(client, t, 1, "spring", ["".join(r) for r in rows]).status_code == 200
    shown = page_config(post_photo(client, t, 1, "spring", data).text)["reading"]
    assert i in shown["changed"] and i in shown["check"]
    assert shown["map"][i] == "."


def test_reading_config_counts_what_to_check() -> None:
    """Counted by hand: a 2-square doubt, a forest read as empty, a destroyed
    forest (not a change), a hero with a card and a hero without one."""
    blank = MapSheet.blank("A").text().splitlines()
    grid = [list(row) for row in blank]
    saved = [list(row) for row in blank]
    saved[0][0] = "F"  # read as empty below: changed
    saved[0][1] = "F"
    grid[0][1] = "X"  # destroyed over the forest: allowed, not a change
    saved[2][2] = "H"
    grid[2][2] = "H"  # the saved hero, still there: keeps its card
    saved[4][4] = "H"
    grid[4][4] = "A"  # the saved hero's space reads as a farm: its card goes, and it is a change
    grid[6][6] = "H"  # a new hero with no card yet
    confidence = [[1.0] * 11 for _ in range(11)]
    confidence[9][9] = confidence[10][0] = 0.4
    reading = SimpleNamespace(
        grid=tuple("".join(r) for r in grid),
        confidence=tuple(tuple(r) for r in confidence),
        coins=20,
        doubtful=lambda: [(9, 9), (10, 0)],
        worth_retaking=lambda: False,
        retake_causes=lambda: (),
        limited=(),
    )
    sheet = SimpleNamespace(
        map_text="\n".join("".join(r) for r in saved),
        heroes=[
            {"hero": "A", "at": [2, 2], "orientation": "printed"},
            {"hero": "B", "at": [4, 4], "orientation": "printed"},
        ],
        revision=1,
        season=0,
        monsters=[],
        coins=0,
    )
    table = _fake_table()
    config = reading_config(table, sheet, reading)  # type: ignore[arg-type]
    assert config["doubtful"] == [9 * 11 + 9, 10 * 11]
    assert config["changed"] == [0, 4 * 11 + 4]
    assert config["unnamed"] == [6 * 11 + 6]
    assert config["check"] == [0, 4 * 11 + 4, 6 * 11 + 6, 9 * 11 + 9, 10 * 11]
    assert config["heroes"] == [{"hero": "A", "at": [2, 2], "orientation": "printed"}]
    assert config["coins"] == 14  # never more than the track holds
    assert config["retake"] is False


@pytest.mark.parametrize("many", [False, True])
def test_so_many_doubtful_squares_ask_for_another_photo(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, many: bool
) -> None:
    """The sample reads with few doubtful squares; with the bar at none, the
    same reading asks for another photo, on the page and to JSON clients."""
    t = _table(app, client)
    data, _ = sample()
    if many:
        monkeypatch.setattr("referee.vision.reader.RETAKE_DOUBTFUL", 0)
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 200, photo_error(response.text)
    assert page_config(response.text)["reading"]["retake"] is many
    assert page_config(response.text)["reading"]["retakeWhy"] == []  # a plain photo: nothing to name
    assert ('id="retake"' in response.text) is many
    assert ("another photo may read better: take it in bright, even light" in response.text) is many
    assert ('<a href="#photo-form">' in response.text) is many
    answer = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert answer.json["retake"] is many
    assert answer.json["retakeWhy"] == []


def test_a_dark_photo_that_asks_for_another_says_it_is_dark(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sample taken in a dark room (its light under half), read with
    the bar at no doubtful square: the player is told what to change, not
    the general advice, in English and in Czech."""
    t = _table(app, client)
    data, _ = sample()
    image = Image.open(io.BytesIO(data))
    dark = Image.fromarray((np.asarray(image, np.float32) * 0.45).astype(np.uint8))
    out = io.BytesIO()
    dark.save(out, "JPEG", quality=92)
    monkeypatch.setattr("referee.vision.reader.RETAKE_DOUBTFUL", 0)
    response = post_photo(client, t, 1, "spring", out.getvalue())
    assert response.status_code == 200, photo_error(response.text)
    assert page_config(response.text)["reading"]["retakeWhy"] == ["dark"]
    assert 'data-cause="dark">The photo is dark: take it in brighter light.</span>' in response.text
    assert "take it in bright, even light" not in response.text
    answer = post_photo(client, t, 1, "spring", out.getvalue(), headers={"Accept": "application/json"})
    assert answer.json["retakeWhy"] == ["dark"]
    czech = post_photo(client, t, 1, "spring", out.getvalue(), headers={"Accept-Language": "cs"})
    assert "Fotka je tmavá" in czech.text


# --- bad photos -----------------------------------------------------------------------------------------


def _jpeg(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(array).save(out, "JPEG", quality=85)
    return out.getvalue()


def _something_else() -> bytes:
    rng = np.random.default_rng(3)
    img = Image.fromarray((rng.random((90, 120, 3)) * 255).astype(np.uint8))
    out = io.BytesIO()
    img.resize((1200, 900), Image.Resampling.BICUBIC).save(out, "JPEG", quality=85)
    return out.getvalue()


def _blank_page() -> bytes:
    rng = np.random.default_rng(4)
    page = np.full((1000, 800, 3), 235, np.float32) + rng.normal(0, 3, (1000, 800, 3))
    return _jpeg(np.clip(page, 0, 255).astype(np.uint8))


def _black_and_white() -> bytes:
    """A sample photo with a black-and-white filter."""
    data, _ = sample()
    return _jpeg(np.asarray(Image.open(io.BytesIO(data)).convert("L").convert("RGB")))


def _bomb() -> bytes:
    out = io.BytesIO()
    Image.new("1", (12000, 8000)).save(out, "PNG")
    return out.getvalue()


def _truncated() -> bytes:
    data, _ = sample()
    return data[: len(data) // 2]


def _too_big(app: Flask) -> bytes:
    return b"\xff\xd8\xff" + b"\0" * int(app.config["MAX_CONTENT_LENGTH"])


BAD: list[tuple[str, Callable[[Flask], bytes], int, str]] = [
    ("not an image", lambda app: b"Cartographers is a map-drawing game.\n" * 50, 400, "not a picture"),
    ("truncated jpeg", lambda app: _truncated(), 400, "incomplete"),
    ("zero bytes", lambda app: b"", 400, "The file is empty"),
    ("over the size limit", _too_big, 413, "at most 16 MB"),
    ("decompression bomb", lambda app: _bomb(), 413, "send a smaller photo"),
    ("heic", lambda app: b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 500, 400, "send it as JPEG"),
    ("photo of something else", lambda app: _something_else(), 422, "No map grid found"),
    ("blank page", lambda app: _blank_page(), 422, "No map grid found"),
    ("black and white", lambda app: _black_and_white(), 422, "is in black and white"),
]


@pytest.mark.parametrize(("name", "make", "status", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_photo_gets_its_sentence_and_status(
    app: Flask, client: FlaskClient, name: str, make: Callable[[Flask], bytes], status: int, words: str
) -> None:
    t = _table(app, client)
    assert save(client, t, 1, "spring", MapSheet.blank("A").text(), coins=2).status_code == 200
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", make(app))
    assert response.status_code == status
    sentence = photo_error(response.text)
    assert sentence is not None and words in sentence, sentence
    assert sentence.endswith(".") and "\n" not in sentence
    # The editor is there again, on the saved sheet, with no reading.
    config = page_config(response.text)
    assert "reading" not in config and config["revision"] == before[0][4]
    assert stored_sheets(app, t) == before


@pytest.mark.parametrize(
    ("name", "make", "status", "words"),
    [b for b in BAD if b[0] in {"not an image", "over the size limit", "blank page"}],
)
def test_bad_photo_answers_json_clients(
    app: Flask, client: FlaskClient, name: str, make: Callable[[Flask], bytes], status: int, words: str
) -> None:
    t = _table(app, client)
    response = post_photo(client, t, 1, "spring", make(app), headers={"Accept": "application/json"})
    assert response.status_code == status
    assert response.json["status"] == status and words in response.json["error"]


def test_a_photo_of_another_side_is_refused(app: Flask, client: FlaskClient) -> None:
    """Before anyone has saved a sheet, the host can still switch the table's side."""
    t = _table(app, client, side="B")
    data, truth = sample()
    assert truth["side"] == "A"
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 422
    said = photo_error(response.text) or ""
    assert said == (  # the same pad prints side B on the back of side A
        "This looks like map side A, but this table plays side B: turn the sheet over and "
        "photograph side B. If everyone drew on side A, the host can switch the table to side A on "
        "the host page, under \u201cChange the map side\u201d, until someone saves a sheet."
    )
    assert stored_sheets(app, t) == before


def _side_switch_link(html: str) -> str | None:
    found = re.search(r'<a id="side-switch"[^>]*href="([^"]+)"', html)
    return found.group(1) if found else None


def test_the_host_is_one_tap_from_the_side_switch(app: Flask, client: FlaskClient) -> None:
    """The host, photographing a sheet of the other side on their own phone,
    is linked to the host page's side switch, opened; a player is not (the
    player's phone holds no host link), nor the host once a sheet is saved."""
    t = _table(app, client, side="B")
    host = app.test_client()
    assert host.get(f"/t/{t.code}/sheets?host={t.host}").status_code == 303  # this phone is now the host's
    data, _ = sample()
    response = post_photo(host, t, 1, "spring", data)
    assert response.status_code == 422 and "the host can switch" in (photo_error(response.text) or "")
    assert _side_switch_link(response.text) == f"/t/{t.code}/host/{t.host}#change-side"
    assert _side_switch_link(post_photo(client, t, 1, "spring", data).text) is None

    assert save(client, t, 1, "spring", MapSheet.blank(map_sides()["B"]).text()).status_code == 200
    response = post_photo(host, t, 1, "spring", data)
    assert "set up a new table" in (photo_error(response.text) or "")
    assert _side_switch_link(response.text) is None


def test_after_a_sheet_is_saved_another_side_needs_a_new_table(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client, side="B")
    other = app.test_client()
    claim(other, t, 2)
    assert save(other, t, 2, "spring", MapSheet.blank(map_sides()["B"]).text()).status_code == 200
    data, _ = sample()
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 422
    assert photo_error(response.text) == (
        "This looks like map side A, but this table plays side B: turn the sheet over and "
        "photograph side B. If everyone drew on side A, set up a new table with side A."
    )
    assert stored_sheets(app, t) == before


def test_a_photo_of_the_other_games_pad_says_so(app: Flask, client: FlaskClient) -> None:
    """Side A's sheet at a Heroes table playing side D: no turning over
    helps, a side D sheet does (or a new table, if all drew on side A: a
    Heroes table cannot switch to a side of the base game's pad)."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="D")
    claim(client, t, 1)
    data, truth = sample()
    assert truth["side"] == "A"
    response = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert response.json["error"] == (
        "This looks like map side A, from the other game's pad, but this table plays side D: "
        "photograph a side D sheet. If everyone drew on side A, set up a new table with side A."
    )


def test_a_combined_table_can_switch_to_the_other_games_side(app: Flask, client: FlaskClient) -> None:
    combined = {"season_set": "base", "explore_set": "heroes", "heroes": True, "ambushes": AMBUSHES}
    t = make_table(app, ["Ann", "Ben"], edition="combined", side="D", **combined)
    claim(client, t, 1)
    data, _ = sample()
    response = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert response.json["error"] == (
        "This looks like map side A, from the other game's pad, but this table plays side D: "
        "photograph a side D sheet. If everyone drew on side A, the host can switch the table to "
        "side A on the host page, under \u201cChange the map side\u201d, until someone saves a sheet."
    )


def test_no_file_chosen(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    response = post_photo(client, t, 1, "spring", None)
    assert response.status_code == 400
    assert photo_error(response.text) == "Choose a photo of your map sheet first."


def test_only_the_seat_or_the_host_may_send_a_photo(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    editor(client, t, 2, "spring")  # Ben's sheet, as Ann's phone sees it
    before = stored_sheets(app, t)
    data, _ = sample()
    response = post_photo(client, t, 2, "spring", data)
    assert response.status_code == 403
    assert "Only Ben or the host" in response.text
    assert stored_sheets(app, t) == before


def test_a_form_without_its_csrf_token_is_refused(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    data, _ = sample()
    response = post_photo(client, t, 1, "spring", data, token=False)
    assert response.status_code == 400
    assert "reload the page" in response.text


def test_too_large_elsewhere_says_the_limit(app: Flask, client: FlaskClient) -> None:
    response = client.post("/", data=b"x" * (int(app.config["MAX_CONTENT_LENGTH"]) + 1))
    assert response.status_code == 413
    assert "That upload is too large. The referee accepts at most 16 MB: send a smaller JPEG" in response.text


def test_the_editor_offers_the_camera(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    html, _ = editor(client, t, 1, "spring")
    form = re.search(r'<form id="photo-form".*?</form>', html, re.S)
    assert form
    assert 'enctype="multipart/form-data"' in form.group(0)
    assert 'name="csrf_token"' in form.group(0)
    assert re.search(r'<input type="file"[^>]*accept="image/\*"[^>]*capture="environment"', form.group(0))
    assert "Photograph my sheet" in form.group(0)
    # Ben's sheet, seen from Ann's phone, has no camera button.
    html, _ = editor(client, t, 2, "spring")
    assert 'id="photo-form"' not in html


def test_a_season_not_begun_cannot_be_photographed(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    html, _ = editor(client, t, 1, "spring")
    body, content_type = multipart({"csrf_token": csrf_token(html)}, sample()[0])
    response = client.post(
        f"/t/{t.code}/sheets/1/summer/photo",
        data=body,
        content_type=content_type,
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 409
    assert "Summer has not begun yet" in response.json["error"]


def test_a_later_scored_season_freezes_the_map(app: Flask, client: FlaskClient) -> None:
    t = _table(app, client)
    t.set_taps(t.season_end(0))
    assert score(client, t, 1, "spring").status_code in (302, 303)
    t.set_taps(t.season_end(1))
    assert score(client, t, 1, "summer").status_code in (302, 303)
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", sample()[0], headers={"Accept": "application/json"})
    assert response.status_code == 409
    assert "can no longer change" in response.json["error"]
    assert stored_sheets(app, t) == before


def test_coins_read_below_the_season_before_are_asked_for(app: Flask, client: FlaskClient) -> None:
    """A filled coin is never emptied: spring was scored with 9 coins, and a
    summer photo whose track reads 7 (sample 006) is not taken for 7; the
    player is told why and asked, and the editor keeps the 9."""
    t = _table(app, client)
    data, _ = sample()
    reading = table_reading(t, data)
    assert reading.coins == 7
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", MapSheet.blank("A").text(), coins=9).status_code == 200
    score(client, t, 1, "spring")
    t.set_taps(t.season_start(1))
    editor(client, t, 1, "summer")
    response = post_photo(client, t, 1, "summer", data)
    assert response.status_code == 200, photo_error(response.text)
    config = page_config(response.text)
    assert config["reading"]["coins"] is None and config["coins"] == 9
    note = re.sub(r"<[^>]+>", "", response.text.split('id="photo-note"')[1].split("</div>")[0])
    assert (
        "The coin track read as 7, fewer than the 9 coins the season before ended with, "
        "and coins are never lost: set your coins below." in note
    )


def _fake_table() -> SimpleNamespace:
    """What ``reading_config`` asks of a table with no ambush revealed yet."""
    return SimpleNamespace(
        side=SimpleNamespace(coin_track=14),
        revealed=lambda s: [],
        heroes_named=lambda s: [],
        ambush_effects=False,
    )


def test_reading_config_sets_aside_coins_below_the_season_before() -> None:
    blank = MapSheet.blank("A").text()
    reading = SimpleNamespace(
        grid=tuple(blank.splitlines()),
        confidence=tuple(tuple([1.0] * 11) for _ in range(11)),
        coins=5,
        doubtful=lambda: [],
        worth_retaking=lambda: False,
        retake_causes=lambda: (),
        limited=(),
    )
    sheet = SimpleNamespace(map_text=blank, heroes=[], revision=1, season=0, monsters=[], coins=0)
    table = _fake_table()
    for before, coins, below in ((0, 5, None), (5, 5, None), (6, None, [5, 6])):
        config = reading_config(table, sheet, reading, before)  # type: ignore[arg-type]
        assert (config["coins"], config["coinsBelow"]) == (coins, below)
    unread = SimpleNamespace(**{**vars(reading), "coins": None})
    for before, coins in ((13, None), (14, 14)):  # a full track stays full, read or not
        config = reading_config(table, sheet, unread, before)  # type: ignore[arg-type]
        assert config["coins"] == coins
        assert config["coinsFull"] == (coins is not None)  # not read: the note does not say it was
    assert reading_config(table, sheet, reading, 0)["coinsFull"] is False  # type: ignore[arg-type]


def test_a_reading_after_a_save_this_season_outlines_every_square_it_changes() -> None:
    """Once the player saved this season's map, a square they emptied by hand
    and the photo reads filled again is outlined, and an unread coin track
    keeps the count they saved; on a sheet only opened (revision 1, the
    season before's map), a newly filled square is the season's drawing."""
    blank = MapSheet.blank("A").text()
    grid = [list(r) for r in blank.splitlines()]
    grid[2][9] = "F"
    reading = SimpleNamespace(
        grid=tuple("".join(r) for r in grid),
        confidence=tuple(tuple([1.0] * 11) for _ in range(11)),
        coins=None,
        doubtful=lambda: [],
        worth_retaking=lambda: False,
        retake_causes=lambda: (),
        limited=(),
    )
    for revision, changed, kept in ((1, [], None), (2, [2 * 11 + 9], 6)):
        sheet = SimpleNamespace(map_text=blank, heroes=[], revision=revision, season=0, monsters=[], coins=6)
        config = reading_config(_fake_table(), sheet, reading)  # type: ignore[arg-type]
        assert (config["changed"], config["check"], config["coinsKept"]) == (changed, changed, kept)


def test_the_reading_address_opens_the_sheet(app: Flask, client: FlaskClient) -> None:
    """A reload, a restored tab or the language switch asks for the reading's
    address with GET: it opens the sheet as saved, not a 405."""
    t = _table(app, client)
    response = client.get(f"/t/{t.code}/sheets/1/spring/photo")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{t.code}/sheets/1/spring")
    assert client.get(f"/t/{t.code}/sheets/1/spring/photo", follow_redirects=True).status_code == 200
    switch = client.get(f"/language/cs?next=/t/{t.code}/sheets/1/spring/photo", follow_redirects=True)
    assert switch.status_code == 200 and 'lang="cs"' in switch.text


@pytest.mark.parametrize("doubted", [False, True])
def test_a_hero_named_by_the_one_card_out_is_as_sure_as_its_square(app: Flask, doubted: bool) -> None:
    """One new hero space and one hero card out: the card is the space's.
    The card is sure; where the hero lies is only as sure as the square's
    reading, so an outlined square is named with an "if"."""
    grid = [list(row) for row in MapSheet.blank("A").text().splitlines()]
    grid[7][8] = "H"
    reading = SimpleNamespace(
        grid=tuple("".join(r) for r in grid),
        confidence=tuple(tuple([1.0] * 11) for _ in range(11)),
        coins=0,
        doubtful=lambda: [(7, 8)] if doubted else [],
        worth_retaking=lambda: False,
        retake_causes=lambda: (),
        limited=(),
    )
    sheet = SimpleNamespace(
        map_text=MapSheet.blank("A").text(), heroes=[], revision=1, season=0, monsters=[], coins=0
    )
    table = _fake_table()
    table.heroes_named = lambda s: ["Dal of Jolev"]
    config = reading_config(table, sheet, reading)  # type: ignore[arg-type]
    assert config["heroNamed"] == [["Dal of Jolev", [7, 8], doubted]]
    with app.test_request_context():
        html = render_template("sheets/photo_form.html", reading=config, can_change=False)
    assert "row 8, column 9" in html and "<b>Dal of Jolev</b>" in html
    assert ("if your hero is there" in html) == doubted
    # a doubted square's hero is said surely only once the player has checked it (editor.js)
    surely = f'<p class="hero-named" data-checked="{7 * 11 + 8}" hidden>The hero at row 8, column 9 is'
    assert (surely in html) == doubted
    assert ('<p class="hero-named">The hero at row 8, column 9 is' in html) != doubted


def test_a_hero_from_an_earlier_season_read_as_a_monster_stays_with_its_card(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The play-test: Ana drew Dal of Jolev at row 9, column 9 in spring; her
    winter photo read that square as a monster. A hero stays on the map for
    the rest of the game: the reading keeps Dal there with his card, the
    square outlined, and the note says why; no ambush is asked about it."""
    t = make_table(app, ["Ana", "Ben"], edition="heroes", seed=spring_seed(DAL, "dal"))
    as_host(client, t)
    dal = [{"hero": DAL, "at": [8, 8], "orientation": "printed"}]
    spring = drawn(BLANK_A, r8c8="H")
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", spring, heroes=dal).status_code == 200
    for s, season in enumerate(("spring", "summer", "fall")):
        t.set_taps(t.season_end(s))
        editor(client, t, 1, season)
        assert score(client, t, 1, season).status_code == 303
    t.set_taps(t.season_end(3))
    monkeypatch.setattr(photo, "read_sheet", lambda *_a, **_k: sure_reading("A", drawn(BLANK_A, r8c8="M")))
    response = post_photo(client, t, 1, "winter", b"any picture: the reader is replaced")
    assert response.status_code == 200, photo_error(response.text)
    shown = page_config(response.text)["reading"]
    assert shown["map"] == "".join(spring)
    assert shown["heroes"] == dal
    assert 8 * 11 + 8 in shown["check"]
    assert shown["untagged"] == [] and shown["unnamed"] == []
    said = (
        "The square at row 9, column 9 is Dal of Jolev's hero space from an earlier season, "
        "which stays on the map; the photo read “monster” there."
    )
    assert shown["heroesKept"] == [said]
    assert f'<p class="hero-kept">{said}' in response.text.replace("&#39;", "'")
    assert "Monster spaces: tap each" not in response.text
