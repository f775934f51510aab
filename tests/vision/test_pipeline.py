"""The whole reader over photos with known truth.

Two sets: the committed samples from our own generator (``sample_sheets/``),
and the photos of the official-style sheet from another renderer
(``../shared/sheet_photos``), which nothing in the reader was trained or
tuned on. Thresholds sit slightly under the figures that
``bench/scan_bench.py`` measured on each, so a regression fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.vision.errors import WrongSheetError
from referee.vision.grid import find_grid, find_grids
from referee.vision.load import load_photo
from referee.vision.reader import _ways_up, read_sheet
from tests.scripts import load_script

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_sheets"
PHOTOS = ROOT.parent / "shared" / "sheet_photos"

# measured by: python bench/scan_bench.py sample_sheets ../shared/sheet_photos
# (samples: grid 100 %, colour 99.98 %, graphite 100 %, sheets without error 98.4 %, wrong flagged
# 100 % of 1, right flagged 0.25 %, coins exact 50.0 % and wrong 1.6 %; sheet_photos: grid 100 %,
# colour 99.96 %, graphite 99.17 %, sheets without error 87.5 %, wrong flagged 5 of 5 (4 of 5
# before the weighing's clue of the neighbours, the one not flagged the same since the ruins
# layers), right flagged 3.28 % (3.52 % before that clue; with the weighing before the networks'
# ruins layers, fitted on another machine's draws, 3.11 %; with the three networks before the
# five, 100 % of 8 flagged, 3.56 % of the right; see the README), coins exact 79.2 % and wrong
# 0 %). Floors and
# ceilings sit just beyond them; a share of five wrong squares moves by a fifth with one, so the
# squares not flagged are bounded by their count too.
FLOORS = {
    "sample_sheets": {
        "grid_found": 0.98,
        "color": 0.996,
        "graphite": 0.997,
        "sheets_without_error": 0.96,
        "wrong_cells_flagged": 0.5,
        "wrong_cells_not_flagged": 2,
        "coins_exact": 0.42,
        "coins_wrong": 0.032,
        "right_cells_flagged": 0.0075,
    },
    "sheet_photos": {
        "grid_found": 0.95,
        "color": 0.997,
        "graphite": 0.985,
        "sheets_without_error": 0.78,
        "wrong_cells_flagged": 0.75,
        "wrong_cells_not_flagged": 1,
        "coins_exact": 0.75,
        "coins_wrong": 0.05,
        "right_cells_flagged": 0.035,
    },
}


def _bench_module() -> Any:
    return load_script("bench/scan_bench.py")


def _folder(name: str) -> Path:
    folder = SAMPLES if name == "sample_sheets" else PHOTOS
    if not folder.is_dir():
        pytest.skip(f"{folder} is not beside this checkout")
    return folder


@pytest.fixture(scope="module", params=sorted(FLOORS))
def figures(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    result: dict[str, Any] = _bench_module().bench(_folder(request.param))
    return request.param, result


@pytest.mark.slow
def test_grids_found(figures: tuple[str, dict[str, Any]]) -> None:
    name, got = figures
    assert got["photos"] >= 20
    assert got["grid_found"] >= FLOORS[name]["grid_found"], got["failures"]
    assert got["another_side_named"] == 0, got["failures"]  # no player sent to a side their sheet is not


@pytest.mark.slow
def test_squares_read(figures: tuple[str, dict[str, Any]]) -> None:
    name, got = figures
    assert got["cells"]["color"] >= FLOORS[name]["color"], got["failures"]
    assert got["cells"]["graphite"] >= FLOORS[name]["graphite"], got["failures"]
    assert got["sheets_without_error"] >= FLOORS[name]["sheets_without_error"], got["failures"]


@pytest.mark.slow
def test_doubt_points_at_the_mistakes(figures: tuple[str, dict[str, Any]]) -> None:
    name, got = figures
    flagged = got["wrong_cells_flagged"]
    assert flagged is None or flagged >= FLOORS[name]["wrong_cells_flagged"]
    assert got["wrong_cells_not_flagged"] <= FLOORS[name]["wrong_cells_not_flagged"]
    assert got["right_cells_flagged"] <= FLOORS[name]["right_cells_flagged"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FLOORS))
def test_a_sheet_read_as_the_other_side_of_its_pad_names_its_own(name: str) -> None:
    """Read as the side on the back of its sheet (``bench/side_bench.py``),
    every photo of both sets named its own side when measured (64 of 64 and
    24 of 24): none may name another side or be read as the side asked, and
    at most one in twenty may be refused without a name."""
    got: dict[str, Any] = load_script("bench/side_bench.py").bench(_folder(name))
    assert got["another side named"] == 0 and got["read as the side asked"] == 0, got["by_photo"]
    assert got["own side named"] >= 0.95 * got["photos"], got["by_photo"]


@pytest.mark.slow
def test_coins_are_read_or_left_unknown(figures: tuple[str, dict[str, Any]]) -> None:
    """A coin count is either right or said to be unknown; a wrong count is
    rare, and no fewer tracks are counted than were measured."""
    name, got = figures
    assert got["coins_wrong"] <= FLOORS[name]["coins_wrong"], got["failures"]
    assert got["coins_exact"] >= FLOORS[name]["coins_exact"], got["failures"]


@pytest.mark.slow
def test_the_coin_track_tells_which_way_up() -> None:
    """The row of fourteen circles below the grid picks the upright corner on
    the committed photos, before the printed mountains are consulted."""
    wrong = []
    for path in sorted(SAMPLES.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        photo = load_photo(path.read_bytes())
        quad = find_grid(photo.rgb)
        top_left = np.array(truth["corners_px"][0]) / photo.scale
        k = int(np.argmin(np.linalg.norm(quad - top_left, axis=1)))
        ways = _ways_up(cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY), quad)
        if ways[0][0] != k:
            wrong.append(path.name)
    assert len(wrong) <= 2, wrong


def test_side_a_is_read_the_right_way_up_when_the_track_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Side A's printed mountains and ruins look the same upside down, and on
    some printings the network finds the mountains upside down too. When the
    coin track puts the upside-down way first and the printed spaces pass
    either way (forced here), the reader still keeps the upright reading,
    the one its network is surer of."""
    from referee.rules.data import map_sides
    from referee.vision import reader

    assert reader._half_turn_alike(map_sides()["A"])
    assert not any(reader._half_turn_alike(map_sides()[s]) for s in "BCD")
    real = reader._ways_up

    def upside_down_first(gray, quad):  # type: ignore[no-untyped-def]
        ways = real(gray, quad)
        k = ways[0][0]
        return sorted(ways, key=lambda kt: kt[0] != (k + 2) % 4)

    monkeypatch.setattr(reader, "_ways_up", upside_down_first)
    monkeypatch.setattr(reader, "_printed_seen", lambda probs, side: 1.0)
    checked = 0
    for path in sorted(SAMPLES.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        if truth["side"] != "A" or checked == 4:
            continue
        checked += 1
        got = read_sheet(path.read_bytes(), "A")
        corners = np.array(got.corners)
        assert np.abs(corners - np.array(truth["corners_px"])).max() < 0.05 * np.ptp(corners[:, 0]), path.name
    assert checked == 4


@pytest.mark.slow
@pytest.mark.parametrize("name", ["000", "001", "002", "003"])
def test_the_wrong_side_is_named(name: str) -> None:
    """A side A sheet read as side B (or the other way) is refused with the
    side it looks like, not read as garbage."""
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    data = (SAMPLES / f"{name}.jpg").read_bytes()
    other = "B" if truth["side"] == "A" else "A"
    with pytest.raises(WrongSheetError, match=f"looks like map side {truth['side']}"):
        read_sheet(data, other)


def test_a_wrong_side_ends_the_search_at_the_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a grid reads surely as another side, the reader says so without
    widening its search for other grids (each costs a reading)."""
    from referee.vision import reader

    asked: list[int] = []

    def counted(rgb: np.ndarray, lines: Any = None) -> Any:
        for quad in find_grids(rgb, lines):
            asked.append(1)
            yield quad

    monkeypatch.setattr(reader, "find_grids", counted)
    truth = json.loads((SAMPLES / "000.json").read_text())
    other = "B" if truth["side"] == "A" else "A"
    with pytest.raises(WrongSheetError, match=f"looks like map side {truth['side']}"):
        read_sheet((SAMPLES / "000.jpg").read_bytes(), other)
    assert len(asked) == 1


def test_a_printed_space_is_never_outlined_for_the_player() -> None:
    """The side decides its printed mountains and wastelands, and the editor
    does not let a player draw on them; however unsure the network is of a
    printed picture it does not know, the square is not outlined, while a
    drawn square the network is unsure of is."""
    from referee.rules import terrain
    from referee.rules.data import map_sides
    from referee.vision.cells import CLASSES, UNSURE
    from referee.vision.reader import _decide

    side = map_sides()["B"]
    probs = np.full((121, len(CLASSES)), 1.0 / len(CLASSES), np.float32)  # sure of nothing
    grid, conf = _decide(probs, probs, side)
    for r in range(11):
        for c in range(11):
            if side.printed(r, c) != terrain.EMPTY:
                assert grid[r][c] == side.printed(r, c) and conf[r][c] >= UNSURE
            else:
                assert conf[r][c] < UNSURE
