"""A photo with no colour at all (a black-and-white filter, a grey scan) is
refused with a sentence: coloured pencils cannot be told apart in it. A
photo in colour reads as before, however plain its sheet."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision.errors import BlackAndWhiteError, NoGridError, VisionError
from referee.vision.reader import BLACK_AND_WHITE, GREY_SPREAD, read_sheet

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"


def _photo(name: str) -> tuple[np.ndarray, dict[str, object]]:
    return cv2.imread(str(SAMPLES / f"{name}.jpg")), json.loads((SAMPLES / f"{name}.json").read_text())


def _jpeg(bgr: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def _grey(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize("name", ["000", "006"])
def test_a_grey_photo_of_a_sheet_is_refused_with_the_sentence(name: str) -> None:
    bgr, truth = _photo(name)
    with pytest.raises(BlackAndWhiteError) as refused:
        read_sheet(_jpeg(_grey(bgr)), str(truth["side"]))
    assert str(refused.value) == str(BLACK_AND_WHITE)
    assert str(refused.value).startswith("the photo is in black and white")


def test_a_grey_photo_with_the_players_corners_is_refused_too() -> None:
    """Marking the grid cannot bring the pencils' colours back."""
    bgr, truth = _photo("000")
    corners = [tuple(c) for c in truth["corners_px"]]  # type: ignore[attr-defined]
    with pytest.raises(BlackAndWhiteError):
        read_sheet(_jpeg(_grey(bgr)), str(truth["side"]), corners=corners)


def test_a_grey_photo_without_a_grid_still_says_no_grid() -> None:
    """The no-grid sentence is the scan's contract: a blank grey picture keeps it."""
    blank = np.full((900, 1200, 3), 200, np.uint8)
    with pytest.raises(NoGridError):
        read_sheet(_jpeg(blank), "A")


def test_a_faint_tint_is_colour_enough() -> None:
    """A sheet whose colours are all but gone, yet spread a little wider than
    JPEG's rounding over a share of the photo, is read, not refused."""
    bgr, truth = _photo("000")
    grey = _grey(bgr).astype(np.int16)
    faint = grey.copy()
    faint[..., 2] += GREY_SPREAD * 3  # a warm light: red a few levels above blue
    faint = np.clip(faint, 0, 255).astype(np.uint8)
    try:
        read_sheet(_jpeg(faint), str(truth["side"]))
    except VisionError as error:  # its colours gone, it may fail otherwise, never as grey
        assert not isinstance(error, BlackAndWhiteError), "a photo with a tint was taken for black and white"
