"""A photo that shows two map sheets of the side (a neighbour's beside the
player's) is not read as whichever the search found first: the reader says
so, and the player sends a photo of their own sheet alone or marks its
grid. A photo of one sheet reads as before."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision.errors import TwoSheetsError, WrongSheetError
from referee.vision.grid import ITS_SHEET, around, other_grids
from referee.vision.lines import Family, parallel
from referee.vision.load import load_photo
from referee.vision.reader import TWO_SHEETS, read_sheet
from tests.scripts import load_script

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"
PHOTOS = Path(__file__).resolve().parent / "photos"


def _side_by_side(first: str, second: str) -> tuple[bytes, dict[str, object], dict[str, object], float]:
    """Two sample photos joined side by side at one height, as one JPEG: the
    photo's bytes, each half's truth, and how much the right half was scaled."""
    a, b = (cv2.imread(str(SAMPLES / f"{n}.jpg")) for n in (first, second))
    h = min(a.shape[0], b.shape[0])
    ka, kb = h / a.shape[0], h / b.shape[0]
    a = cv2.resize(a, (round(a.shape[1] * ka), h))
    b = cv2.resize(b, (round(b.shape[1] * kb), h))
    ok, jpeg = cv2.imencode(".jpg", np.hstack([a, b]), [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    truths = [json.loads((SAMPLES / f"{n}.json").read_text()) for n in (first, second)]
    for truth, k, dx in ((truths[0], ka, 0), (truths[1], kb, a.shape[1])):
        truth["corners_px"] = (np.array(truth["corners_px"]) * k + [dx, 0]).tolist()
    return jpeg.tobytes(), truths[0], truths[1], kb


@pytest.mark.parametrize(("first", "second"), [("006", "007"), ("014", "015")])
def test_two_sheets_of_the_side_are_not_read_as_one(first: str, second: str) -> None:
    data, left, right, _ = _side_by_side(first, second)
    assert left["side"] == right["side"]
    with pytest.raises(TwoSheetsError) as refused:
        read_sheet(data, str(left["side"]))
    assert str(refused.value) == str(TWO_SHEETS)
    assert isinstance(refused.value, WrongSheetError)  # so the photo page offers to mark the grid
    # both grids, for the player to choose theirs: each half's, once
    grids = refused.value.grids
    assert len(grids) == 2
    assert sorted(_which(grid, [left, right]) for grid in grids) == [0, 1]


def _which(corners: object, truths: list[dict[str, object]]) -> int:
    """The index of the truth whose grid ``corners`` (photo pixels) lies on,
    its four corners within half a square of the truth's, in any order."""
    quad = np.array(corners, np.float64)
    assert quad.shape == (4, 2)
    for i, truth in enumerate(truths):
        want = np.array(truth["corners_px"], np.float64)
        half = np.linalg.norm(want[0] - want[1]) / 22
        if all(np.linalg.norm(want - corner, axis=1).min() < half for corner in quad):
            return i
    raise AssertionError(f"{quad.tolist()} lies on neither grid")


def test_the_grid_the_player_marks_is_read_alone() -> None:
    """Marked corners say which sheet is the player's: no question then."""
    data, left, _right, _ = _side_by_side("006", "007")
    got = read_sheet(data, str(left["side"]), corners=[tuple(c) for c in left["corners_px"]])
    wrong = sum(a != b for a, b in zip("".join(got.grid), "".join(left["grid"]), strict=True))
    assert wrong <= 2


def test_the_sheet_read_is_set_aside_whole_when_looking_beside_it() -> None:
    """The other grids looked for lie beside the read sheet: on a photo of
    one sheet, its own lines (the title's, the coin track's, the season
    boxes') offer none, and on two sheets the one found is the other's."""
    truth = json.loads((SAMPLES / "006.json").read_text())
    photo = load_photo((SAMPLES / "006.jpg").read_bytes())
    quad = np.array(truth["corners_px"], np.float32) / photo.scale
    assert other_grids(photo.rgb, quad) == []
    data, left, right, _ = _side_by_side("006", "007")
    both = load_photo(data)
    read = np.array(right["corners_px"], np.float32) / both.scale
    found = other_grids(both.rgb, read)
    assert found, "the left sheet's grid is beside the right one's"
    want = np.array(left["corners_px"], np.float32) / both.scale
    centre = found[0].quad.mean(axis=0)
    assert np.linalg.norm(centre - want.mean(axis=0)) < np.linalg.norm(want[0] - want[1]) / 11
    region = around(read, ITS_SHEET)
    assert cv2.pointPolygonTest(region.reshape(-1, 1, 2), tuple(map(float, centre)), False) < 0


def test_a_small_neighbours_sheet_is_seen_with_its_lines_taken_as_parallel() -> None:
    """A training-draw photo (seed 70000, photo 107) of two sheets of side B
    on a dark table, the player's small and far off the picture's centre.
    The neighbour's grid is found first; the player's few short lines put
    their vanishing points' horizon across the picture, so no lattice of
    theirs was made, and the neighbour's map was read as the player's
    without a word. Taken as parallel, they are seen, and the reader asks."""
    path = PHOTOS / "small_neighbour.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    assert truth["neighbour"]["in_picture"] == 1.0
    photo = load_photo(path.read_bytes())
    read = np.array(truth["neighbour"]["corners_px"], np.float32) / photo.scale
    mine = np.array(truth["corners_px"], np.float32) / photo.scale
    found = other_grids(photo.rgb, read)
    assert found, "the player's grid is beside the neighbour's"
    square = np.linalg.norm(mine[0] - mine[1]) / 11
    assert np.linalg.norm(found[0].quad.mean(axis=0) - mine.mean(axis=0)) < square
    with pytest.raises(TwoSheetsError) as refused:
        read_sheet(path.read_bytes(), str(truth["side"]))
    # the neighbour's grid, read first, then the player's
    assert [_which(grid, [truth["neighbour"], truth]) for grid in refused.value.grids] == [0, 1]


def test_a_family_taken_as_parallel_keeps_its_mean_direction() -> None:
    """``lines.parallel`` moves a family's vanishing point to infinity along
    its lines' mean direction, weighed by their votes, whichever way each
    line's normal points."""
    angles = np.deg2rad([88.0, 90.0, 93.0])  # the lines' directions, about upright
    normals = np.stack([np.sin(angles), -np.cos(angles)], axis=1) * np.array([[1.0], [-1.0], [1.0]])
    lines = np.column_stack([normals, [0.1, -0.2, 0.3]])
    family = Family(lines, np.array([1.0, 2.0, 1.0]), np.array([0.0, 5.0, 1.0]), np.zeros((0, 3)))
    flat = parallel(family)
    assert flat.vanishing[2] == 0.0
    direction = np.degrees(np.arctan2(flat.vanishing[1], flat.vanishing[0])) % 180
    assert direction == pytest.approx(90.25, abs=0.01)  # (88 + 2 * 90 + 93) / 4
    assert flat.lines is family.lines and flat.pixels is family.pixels


def test_the_bench_pairs_photos_of_one_side_and_joins_them(tmp_path: Path) -> None:
    """``bench/two_sheets.py`` joins two photos of the same side, beside or
    above each other, into a photo no longer than a phone's."""
    bench = load_script("bench/two_sheets.py")
    found = bench.pairs(SAMPLES, 4)
    assert len(found) == 4
    for side, first, second in found:
        for path in (first, second):
            assert json.loads(path.with_suffix(".json").read_text())["side"].upper() == side
    side, first, second = found[0]
    for beside in (True, False):
        picture = cv2.imdecode(np.frombuffer(bench.joined(first, second, beside), np.uint8), cv2.IMREAD_COLOR)
        a, b = (cv2.imread(str(p)) for p in (first, second))
        assert max(picture.shape[:2]) <= bench.LONGEST
        wide = picture.shape[1] / picture.shape[0]
        assert (wide > max(a.shape[1] / a.shape[0], b.shape[1] / b.shape[0])) == beside


def test_the_bench_reads_photos_drawn_with_a_neighbours_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench/two_sheets.py --as-drawn`` reads a draw made with
    ``make_samples.py --neighbour`` as it is, and says what the reader did
    by where the neighbour's sheet lies; ``_off`` tells which grid was read."""
    import sys

    sys.path.insert(0, str(SAMPLES.parent / "tools"))
    import make_samples

    bench = load_script("bench/two_sheets.py")
    make_samples.write_sample((tmp_path, 0, 5151, {"max_mp": 2.0, "neighbour": 1.0, "hard_share": 0.0}))
    truth = json.loads((tmp_path / "000.json").read_text())
    assert truth["neighbour"]["in_picture"] == 1.0  # this seed frames both grids
    mine = np.array(truth["corners_px"], float)
    assert bench._off(np.roll(mine, 1, axis=0), truth["corners_px"]) == 0.0
    assert bench._off(np.array(truth["neighbour"]["corners_px"], float), truth["corners_px"]) > 2
    bench.as_drawn(tmp_path, 1)
    said = capsys.readouterr().out
    assert said.startswith("neighbour's grid whole in the picture (normal): 1 photos: ")
    assert "two sheets 1 (100%)" in said
