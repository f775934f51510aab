"""The check that needs no network: a side's printed mountains are each other's kin."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.likeness import likeness
from referee.vision.rectify import MARGIN, S

SAMPLES = Path(__file__).parents[2] / "sample_sheets"


def _turned(spaces: frozenset[tuple[int, int]], k: int) -> set[tuple[int, int]]:
    out = set(spaces)
    for _ in range(k):
        out = {(c, SIZE - 1 - r) for r, c in out}
    return out


def _canvas(side: str, seed: int) -> np.ndarray:
    """A straightened sheet of ``side``: its mountains printed in a picture
    no network has seen (a random scrawl, the same on every mountain, a
    pixel off here and there), the other squares bare or marked by a
    player's hatching in pencil of many colours."""
    rng = np.random.default_rng(seed)
    n = round((SIZE + 2 * MARGIN) * S)
    canvas = np.full((n, n, 3), 228, np.uint8)
    m = round(MARGIN * S)
    picture = rng.integers(6, S - 6, size=(7, 2))
    mountains = map_sides()[side].mountains
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = m + c * S, m + r * S
            if (r, c) in mountains:
                dx, dy = rng.integers(-1, 2, size=2)
                pts = (picture + [x + dx, y + dy]).reshape(-1, 1, 2).astype(np.int32)
                cv2.polylines(canvas, [pts], False, (60, 50, 40), 2)
            elif rng.random() < 0.6:
                colour = tuple(int(v) for v in rng.integers(40, 200, 3))
                for _ in range(int(rng.integers(4, 12))):
                    a = rng.integers(3, S - 3, 2) + [x, y]
                    b = rng.integers(3, S - 3, 2) + [x, y]
                    cv2.line(canvas, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), colour, 1)
    for k in range(SIZE + 1):
        cv2.line(canvas, (m + k * S, m), (m + k * S, m + SIZE * S), (70, 60, 50), 1)
        cv2.line(canvas, (m, m + k * S), (m + SIZE * S, m + k * S), (70, 60, 50), 1)
    noise = rng.normal(0, 4, canvas.shape)
    return np.clip(canvas + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("side", ["A", "B", "C", "D"])
def test_mountains_in_an_unknown_picture_find_their_kin(side: str) -> None:
    """On the right side the right way up the five are each other's kin;
    on any other side or turn (side A's half turn aside, which prints its
    mountains on the same squares) they are not."""
    canvas = _canvas(side, seed=ord(side))
    assert likeness(canvas, map_sides()[side].mountains) >= 0.8
    for other, spaces in map_sides().items():
        for k in range(4):
            turned = _turned(spaces.mountains, k)
            if turned == set(map_sides()[side].mountains):
                continue
            assert likeness(canvas, turned) < 0.8, (other, k)


def test_a_checked_cloth_gives_no_kin() -> None:
    """Squares that are all alike, a cloth's checks under a wrong grid, give
    the five spaces no more kin than any other squares."""
    n = round((SIZE + 2 * MARGIN) * S)
    yy, xx = np.mgrid[0:n, 0:n]
    cloth = (((xx // 8) + (yy // 8)) % 2 * 120 + 80).astype(np.uint8)
    rng = np.random.default_rng(3)
    canvas = np.clip(np.stack([cloth] * 3, axis=2) + rng.normal(0, 6, (n, n, 3)), 0, 255).astype(np.uint8)
    for side in map_sides().values():
        assert likeness(canvas, side.mountains) < 0.8


@pytest.mark.slow
def test_a_sheet_whose_mountains_the_network_does_not_see_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A printing whose mountain picture the network does not know (forced:
    it sees none) is still found and read on its right side, and refused on
    the wrong one with the side it shows."""
    from referee.vision import reader
    from referee.vision.errors import WrongSheetError

    monkeypatch.setattr(reader, "_printed_seen", lambda probs, side: 0.0)
    truth = json.loads((SAMPLES / "001.json").read_text())
    data = (SAMPLES / "001.jpg").read_bytes()
    got = reader.read_sheet(data, truth["side"])
    corners = np.array(got.corners)
    assert np.abs(corners - np.array(truth["corners_px"])).max() < 0.02 * np.ptp(corners[:, 0])
    other = "B" if truth["side"] == "A" else "A"
    with pytest.raises(WrongSheetError, match=f"looks like map side {truth['side']}"):
        reader.read_sheet(data, other)
