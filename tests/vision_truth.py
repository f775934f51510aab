"""Photos with their true grids (``tests/vision/photos``, each beside its
JSON truth in the samples' format), and how close a reading comes to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from referee.rules.geometry import SIZE
from referee.vision.reader import SheetReading, read_sheet

PHOTOS = Path(__file__).parent / "vision" / "photos"
IN_PLACE = 0.03
"""Largest corner error, as a share of the grid's side, of a grid found in
place: the bench's bound (``bench/scan_bench.py``)."""


def truth(photo: Path) -> dict[str, Any]:
    """The truth stored beside ``photo``."""
    data: dict[str, Any] = json.loads(photo.with_suffix(".json").read_text())
    return data


def squares_off(quad: np.ndarray, want: np.ndarray) -> float:
    """How far the corners ``quad`` are from ``want``, in squares, whichever
    corner ``quad`` starts at and whichever way round it runs."""
    square = float(np.linalg.norm(want[0] - want[1])) / SIZE
    return (
        min(float(np.abs(np.roll(q, -k, axis=0) - want).max()) for q in (quad, quad[::-1]) for k in range(4))
        / square
    )


def read_in_place(photo: Path, side: str) -> SheetReading:
    """``photo`` read as ``side``, after checking its grid was found in place
    and the right way up (corners in the truth's order)."""
    reading = read_sheet(photo.read_bytes(), side)
    want = np.array(truth(photo)["corners_px"], float)
    side_px = float(np.linalg.norm(want[0] - want[1]))
    assert np.abs(np.array(reading.corners) - want).max() < IN_PLACE * side_px
    return reading


def squares_right(reading: SheetReading, photo: Path) -> int:
    """How many of the 121 squares ``reading`` reads as the truth has them."""
    cells = "".join(reading.grid)
    return sum(a == b for a, b in zip(cells, "".join(truth(photo)["grid"]), strict=True))
