"""Mark the grid yourself: where the search found no grid that was the
sheet, the player's four marked corners, a fingertip off, are fitted to the
grid's lines near them and read; marks that are no grid get a sentence."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from referee.vision.errors import NoGridError, WrongSheetError
from referee.vision.grid import MARKED_NO_GRID, marked_grids
from referee.vision.load import load_photo
from referee.vision.reader import read_sheet
from tests.vision_truth import PHOTOS

MISSED = PHOTOS / "dim_on_pages.jpg"
"""A dim, blurred and tilted photo of a pad-style sheet with a thick frame,
lying on printed pages (a training draw of ``tools/make_samples.py``, seed
21000, photo 601), whose grid no search finds."""
SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"


def _truth(path: Path) -> tuple[bytes, dict[str, object], np.ndarray, float]:
    truth = json.loads(path.with_suffix(".json").read_text())
    corners = np.array(truth["corners_px"], float)
    return path.read_bytes(), truth, corners, float(np.linalg.norm(corners[0] - corners[1])) / 11


def _off(got: object, want: np.ndarray) -> np.ndarray:
    """Each true corner's distance to the nearest corner read."""
    return np.linalg.norm(np.array(got, float)[:, None] - want[None], axis=2).min(axis=0)


def _wrong(grid: tuple[str, ...], truth: dict[str, object]) -> int:
    return sum(a != b for a, b in zip("".join(grid), "".join(truth["grid"]), strict=True))  # type: ignore[arg-type]


def test_the_search_misses_this_grid() -> None:
    """What the marks are for: without them, this photo is refused."""
    data, truth, _, _ = _truth(MISSED)
    with pytest.raises(NoGridError):
        read_sheet(data, str(truth["side"]))


WAYS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def _marked_off(way: tuple[int, int], by: float) -> tuple[dict[str, object], np.ndarray, float, object]:
    """The photo read with every corner marked ``by`` of a square off, each
    its own way round (``way`` turns the pattern)."""
    data, truth, corners, square = _truth(MISSED)
    spread = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * np.array(way)
    marks = corners + by * square * spread
    reading = read_sheet(data, str(truth["side"]), corners=[(float(x), float(y)) for x, y in marks])
    return truth, corners, square, reading


@pytest.mark.parametrize("way", WAYS)
def test_marks_a_tenth_of_a_square_off_read_the_grid(way: tuple[int, int]) -> None:
    truth, corners, square, reading = _marked_off(way, 0.1)
    assert _off(reading.corners, corners).max() < square / 3  # type: ignore[attr-defined]
    assert _wrong(reading.grid, truth) <= 6  # type: ignore[attr-defined]


def test_marks_a_quarter_of_a_square_off_read_the_grid() -> None:
    """A fingertip's error over this photo's squares: every
    way round the grid is read within half a square of its place, and three
    ways in four with about as few wrong squares as the true corners give (3)."""
    wrong = []
    for way in WAYS:
        truth, corners, square, reading = _marked_off(way, 0.25)
        assert _off(reading.corners, corners).max() < square / 2  # type: ignore[attr-defined]
        wrong.append(_wrong(reading.grid, truth))  # type: ignore[attr-defined]
    assert sorted(wrong)[2] <= 6, wrong


def test_marks_in_any_order_are_one_grid() -> None:
    data, truth, corners, square = _truth(MISSED)
    a = read_sheet(data, str(truth["side"]), corners=[tuple(c) for c in corners])
    b = read_sheet(data, str(truth["side"]), corners=[tuple(c) for c in corners[[2, 0, 3, 1]]])
    assert a.grid == b.grid and np.allclose(a.corners, b.corners)


def test_a_plain_photo_marked_reads_as_found() -> None:
    data, truth, corners, square = _truth(SAMPLES / "001.jpg")
    found = read_sheet(data, str(truth["side"]))
    marked = read_sheet(data, str(truth["side"]), corners=[tuple(c + 0.2 * square) for c in corners])
    assert marked.grid == found.grid
    assert _off(marked.corners, np.array(found.corners)).max() < 0.05 * square


@pytest.mark.parametrize(
    "marks",
    [
        [(10, 10), (20, 20), (30, 30), (40, 40)],  # on one line
        [(100, 100), (300, 100), (300, 300)],  # three
        [(-900, -900), (5000, -900), (5000, 5000), (-900, 5000)],  # round the photo
        [(100, 100), (110, 100), (110, 110), (100, 110)],  # too small to read
        [(float("nan"), 1), (2, 3), (4, 5), (6, 7)],
        [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 2, 3)],
    ],
    ids=["a line", "three", "outside", "tiny", "nan", "triples"],
)
def test_marks_that_are_no_grid_get_a_sentence(marks: list[tuple[float, ...]]) -> None:
    data, truth, _, _ = _truth(MISSED)
    with pytest.raises(NoGridError) as refused:
        read_sheet(data, str(truth["side"]), corners=marks)  # type: ignore[arg-type]
    assert str(refused.value) == str(MARKED_NO_GRID)


def test_a_fit_that_leaves_the_marks_is_not_offered() -> None:
    """Marks on the frame's outline, a square outside the grid: every
    candidate stays within half a square of them, the marks themselves last."""
    data, truth, corners, square = _truth(MISSED)
    photo = load_photo(data)
    centre = corners.mean(axis=0)
    outside = centre + (corners - centre) * 13 / 11  # a square beyond the grid all round
    found = list(marked_grids(photo.rgb, outside / photo.scale))
    assert found and all(c.marked and c.clear for c in found)
    for c in found:
        assert _off(c.quad * photo.scale, outside).max() < 0.5 * square
    assert np.allclose(np.sort(found[-1].quad, axis=0), np.sort(outside / photo.scale, axis=0), atol=1e-3)


def test_marks_off_the_grid_say_so() -> None:
    """Marks a square and a half inside the grid all round: the printed
    mountains are not where the side has them, and the sentence says that
    the marks, not the search, are what to check."""
    data, truth, corners, _ = _truth(MISSED)
    centre = corners.mean(axis=0)
    inside = centre + (corners - centre) * 8 / 11
    with pytest.raises(WrongSheetError) as refused:
        read_sheet(data, str(truth["side"]), corners=[tuple(c) for c in inside])
    assert "inside the marked corners" in str(refused.value)
