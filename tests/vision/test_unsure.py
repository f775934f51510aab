"""What spoiled a photo, named from its straightened grid (``referee.vision.unsure``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision import reader
from referee.vision.reader import SheetReading, read_sheet
from referee.vision.rectify import MARGIN, S
from referee.vision.unsure import Cause, causes

SAMPLE = Path(__file__).resolve().parents[2] / "sample_sheets" / "003.jpg"


@pytest.fixture(scope="module")
def reading() -> SheetReading:
    """A sample photo of a drawn map, read well: a canvas with pencil on it."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    return read_sheet(SAMPLE.read_bytes(), truth["side"])


def _dark(canvas: np.ndarray) -> np.ndarray:
    return (canvas * 0.45).astype(np.uint8)


def _uneven(canvas: np.ndarray) -> np.ndarray:
    """A shadow falling from the left: the light rises from a third to all of it."""
    ramp = np.linspace(0.3, 1.0, canvas.shape[1])[None, :, None]
    return (canvas * ramp).astype(np.uint8)


def _blurred(canvas: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(canvas, (0, 0), 3.0)


def _covered(canvas: np.ndarray) -> np.ndarray:
    """A hand over three rows of four squares, and a little beyond."""
    out = canvas.copy()
    m = round(MARGIN * S)
    out[m + 6 * S - 6 : m + 9 * S + 6, m + 2 * S - 6 : m + 6 * S + 6] = (205, 160, 130)
    return out


def test_a_photo_read_well_names_no_cause(reading: SheetReading) -> None:
    assert causes(reading.canvas) == ()


@pytest.mark.parametrize(
    ("spoil", "cause"),
    [(_dark, Cause.DARK), (_uneven, Cause.UNEVEN), (_blurred, Cause.BLURRED), (_covered, Cause.COVERED)],
)
def test_each_spoiling_names_its_cause_alone(
    reading: SheetReading, spoil: Callable[[np.ndarray], np.ndarray], cause: Cause
) -> None:
    assert causes(spoil(reading.canvas)) == (cause,)


def test_causes_come_in_their_order(reading: SheetReading) -> None:
    """A hand over the sheet in a dark room: both named, the hand first."""
    assert causes(_dark(_covered(reading.canvas))) == (Cause.COVERED, Cause.DARK)


def test_a_pencil_across_a_row_is_something_lying_there_and_a_few_faint_squares_are_not(
    reading: SheetReading,
) -> None:
    """A pencil lying along a row hides eight squares side by side; the
    same number of hidden squares scattered over the sheet (faint print or
    spots of blur) do not say that anything lies on it."""
    m = round(MARGIN * S)
    pencil = reading.canvas.copy()
    pencil[m + 5 * S - 5 : m + 6 * S + 5, m + 1 * S - 5 : m + 9 * S + 5] = (60, 110, 40)
    assert Cause.COVERED in causes(pencil)
    spots = reading.canvas.copy()
    for k in range(8):
        r, c = (k * 3) % SIZE, (k * 5 + 1) % SIZE
        if (r, c) == (0, 1):
            continue
        spots[m + r * S - 5 : m + (r + 1) * S + 5, m + c * S - 5 : m + (c + 1) * S + 5] = (60, 110, 40)
    assert Cause.COVERED not in causes(spots)


def test_only_a_reading_that_asks_for_another_photo_names_its_causes(
    reading: SheetReading, monkeypatch: pytest.MonkeyPatch
) -> None:
    dark = replace(reading, canvas=_dark(reading.canvas))
    assert not dark.worth_retaking()
    assert dark.retake_causes() == ()
    monkeypatch.setattr(reader, "RETAKE_DOUBTFUL", 0)
    assert dark.retake_causes() == (Cause.DARK,)
    assert replace(reading, canvas=reading.canvas).retake_causes() == ()


def test_a_sides_printed_wastelands_hide_their_lines_but_cover_nothing() -> None:
    """A pad may print side B's wastelands solid, lines and all: on every
    photo of the side their lines are hidden and their paper dark. Three
    squares hidden beside them are not a patch of eight, though with the
    wastelands they would be, and the light is even."""
    path = SAMPLE.with_name("001.jpg")
    truth = json.loads(path.with_suffix(".json").read_text())
    assert truth["side"] == "B"
    read = read_sheet(path.read_bytes(), "B")
    canvas = read.canvas.copy()
    m = round(MARGIN * S)
    for r, c in map_sides()["B"].wastelands:
        canvas[m + r * S - 2 : m + (r + 1) * S + 2, m + c * S - 2 : m + (c + 1) * S + 2] = (40, 35, 30)
    # a finger beside them, over the two lines that part three squares of a column
    canvas[m + 5 * S - 6 : m + 6 * S + 6, m + 3 * S + 4 : m + 4 * S - 4] = (205, 160, 130)
    printed = replace(read, canvas=canvas)
    assert causes(canvas) == (Cause.COVERED, Cause.UNEVEN)  # were they not known
    assert printed.causes_seen() == ()
