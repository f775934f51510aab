"""A photo with no colour at all (a black-and-white filter, a grey scan) is
refused with a sentence: coloured pencils cannot be told apart in it. A
photo in colour reads as before, however plain its sheet."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from referee.vision.errors import BlackAndWhiteError, NoGridError, VisionError
from referee.vision.load import load_photo
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


def _deep_grey(bgr: np.ndarray, mode: str) -> bytes:
    """The photo in grey as a scanner may save it: 16-bit PNG, or TIFF of 32-bit
    integers or of floating-point levels from 0 to 1."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    out = io.BytesIO()
    if mode == "I;16":
        Image.fromarray(grey.astype(np.uint16) * 257).save(out, "PNG")
    elif mode == "I":
        Image.fromarray(grey.astype(np.int32) * 257, "I").save(out, "TIFF")
    else:
        Image.fromarray(grey.astype(np.float32) / 255, "F").save(out, "TIFF")
    return out.getvalue()


@pytest.mark.parametrize("mode", ["I;16", "I", "F"])
def test_a_deep_grey_scan_keeps_its_levels(mode: str) -> None:
    """Pillow clips a 16-bit grey picture at 255 when it converts it to RGB,
    and the scan came out a white page: "no map grid found", where the player
    needs to hear that the photo has no colour. Its levels are scaled down
    to 8 bits instead, as the same scan saved in 8 bits reads."""
    bgr, truth = _photo("000")
    deep = load_photo(_deep_grey(bgr, mode)).rgb
    assert Image.open(io.BytesIO(_deep_grey(bgr, mode))).mode == mode
    eight = cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2RGB)
    small = cv2.resize(eight, (deep.shape[1], deep.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(deep.astype(int) - small.astype(int)).mean() < 2
    with pytest.raises(BlackAndWhiteError):
        read_sheet(_deep_grey(bgr, mode), str(truth["side"]))
