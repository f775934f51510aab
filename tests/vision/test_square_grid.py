"""The map is a square on paper: a grid the search offers must be one a
camera could see a square as (``grid.unsquare``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision.grid import UNSQUARE, unsquare
from tests.vision_truth import PHOTOS, read_in_place

ROOT = Path(__file__).parents[2]
NARROW = PHOTOS / "narrow_grid.jpg"
"""A graphite side B sheet of the box's pad with a letter in nearly every
square, on a checked cloth, from our generator (draw of seed 16000, photo
1521). The reader once read it along a grid twice as tall as wide, six
squares across, whose reading passed the check on the printed spaces."""


def _camera(tilt: float, turn: float, focal: float, size: tuple[int, int]) -> np.ndarray:
    """The corners of a square lying on a table, as a pinhole camera with
    its principal point at the picture's centre sees it: tilted ``tilt``
    degrees from looking straight down, turned ``turn`` degrees, with a
    focal length of ``focal`` times the picture's longer side."""
    w, h = size
    t, r = np.deg2rad(tilt), np.deg2rad(turn)
    square = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], float) * 0.5
    turned = square @ np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]]).T
    tilted = turned @ np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]]).T
    seen = tilted + [0.0, 0.0, 2.5]
    f = focal * max(w, h)
    return np.stack([f * seen[:, 0] / seen[:, 2] + w / 2, f * seen[:, 1] / seen[:, 2] + h / 2], axis=1)


@pytest.mark.parametrize("tilt", [0, 20, 45, 60])
@pytest.mark.parametrize("focal", [0.7, 1.0, 2.0])
def test_a_square_seen_by_a_camera_is_square(tilt: float, focal: float) -> None:
    quad = _camera(tilt, 30, focal, (3000, 4000)).astype(np.float32)
    assert unsquare(quad, (4000, 3000)) < 0.02


def test_a_grid_twice_as_tall_as_wide_is_no_square() -> None:
    quad = np.array([[1000, 1000], [1500, 1000], [1500, 2000], [1000, 2000]], np.float32)
    assert unsquare(quad, (3000, 2500)) > UNSQUARE
    sheared = np.array([[1000, 1000], [2000, 1000], [2600, 2000], [1600, 2000]], np.float32)
    assert unsquare(sheared, (3000, 2500)) > UNSQUARE


@pytest.mark.parametrize(
    "truth", sorted([*(ROOT / "sample_sheets").glob("*.json"), *PHOTOS.glob("*.json")]), ids=lambda p: p.stem
)
def test_every_true_grid_we_have_is_square(truth: Path) -> None:
    data = json.loads(truth.read_text())
    img = cv2.imread(str(truth.with_suffix(".jpg")))
    assert img is not None
    assert unsquare(np.array(data["corners_px"], np.float32), img.shape) < UNSQUARE / 2


def test_a_narrow_grid_through_the_letters_is_not_read() -> None:
    read_in_place(NARROW, "B")
