"""The whole reader: photo bytes and a map side in, the map and its doubts out.

Stages, each its own module: ``load`` (bytes to an upright picture), ``grid``
(find the grid's outer square), ``orient`` (which way up), ``rectify``
(straighten, square by square), ``cells`` (what is in each square) and
``coins`` (the coin track). The reader then checks itself: the side's
printed mountains and wastelands must be seen where the side prints them,
or the photo, the side or the orientation is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules import terrain
from referee.rules.data import MapSide, map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES, classify, even_light
from referee.vision.coins import read_coins
from referee.vision.errors import VisionError, WrongSheetError
from referee.vision.grid import find_grid
from referee.vision.load import load_photo
from referee.vision.orient import orientation_scores
from referee.vision.rectify import Rectified, rectify

DOUBTFUL = 0.85
"""Below this confidence a square is shown to the player as doubtful."""
PRINTED_SEEN = 0.6
"""Share of the side's printed mountains and wastelands that must be seen."""


@dataclass(frozen=True)
class SheetReading:
    """What the reader saw on one photographed map sheet."""

    side: str
    grid: tuple[str, ...]
    """11 strings of 11 map codes, printed ``^`` and ``#`` included."""
    confidence: tuple[tuple[float, ...], ...]
    """11 rows of 11 numbers from 0 to 1."""
    coins: int | None
    """Filled coins on the coin track, or None when it could not be read."""
    corners: tuple[tuple[float, float], ...]
    """The grid's outer corners in photo pixels (as displayed), TL, TR, BR, BL."""
    canvas: NDArray[np.uint8]
    """The straightened grid and its surroundings, RGB, for showing beside the editor."""

    def doubtful(self, threshold: float = DOUBTFUL) -> list[tuple[int, int]]:
        """The squares (row, col) the player should look at."""
        return [(r, c) for r in range(SIZE) for c in range(SIZE) if self.confidence[r][c] < threshold]

    def to_json(self) -> dict[str, object]:
        return {
            "grid": list(self.grid),
            "confidence": [list(row) for row in self.confidence],
            "coins": self.coins,
            "corners": [list(c) for c in self.corners],
        }


def _printed_seen(probs: NDArray[np.float32], side: MapSide) -> float:
    """Share of printed spaces where the printed thing is the likeliest code:
    over the mountains and wastelands, or over the mountains alone when that
    is higher (a wasteland's fine hatching fades to grey in a blurred photo;
    a mountain stays a mountain)."""

    def share(spaces: frozenset[tuple[int, int]]) -> float:
        want = [(r * SIZE + c, CLASSES.index(side.printed(r, c))) for r, c in spaces]
        return float(np.mean([probs[i].argmax() == k for i, k in want])) if want else 0.0

    if not side.mountains | side.wastelands:
        return 1.0
    return max(share(side.mountains | side.wastelands), share(side.mountains))


def _decide(
    probs: NDArray[np.float32], side: MapSide
) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
    codes, conf = [], []
    drawn = [CLASSES.index(c) for c in CLASSES if c not in terrain.PRINTED]
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        printed = side.printed(r, c)
        if printed != terrain.EMPTY:
            codes.append(printed)
            conf.append(round(float(probs[i, CLASSES.index(printed)]), 3))
            continue
        p = probs[i, drawn] / max(float(probs[i, drawn].sum()), 1e-6)
        k = int(p.argmax())
        codes.append(CLASSES[drawn[k]])
        conf.append(round(float(p[k]), 3))
    grid = tuple("".join(codes[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
    return grid, tuple(tuple(conf[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))


def read_sheet(data: bytes, side: str) -> SheetReading:
    """Read a photographed map sheet of ``side`` (A to D).

    Raises a ``VisionError`` with a sentence for the player when the photo
    cannot be read."""
    sides = map_sides()
    if side.upper() not in sides:
        raise VisionError(f"there is no map side {side!r}: choose A, B, C or D")
    map_side = sides[side.upper()]
    photo = load_photo(data)
    quad = find_grid(photo.rgb)
    gray = cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY)
    scores = orientation_scores(gray, quad, map_side.letter)
    order = sorted(range(4), key=lambda k: -scores[k])
    best: tuple[float, Rectified, NDArray[np.float32], NDArray[np.float32]] | None = None
    for k in order:
        rect = rectify(photo.rgb, np.roll(quad, -k, axis=0))
        light = even_light(rect.canvas)
        probs = classify(light, map_side)
        seen = _printed_seen(probs, map_side)
        if best is None or seen > best[0]:
            best = (seen, rect, light, probs)
        if seen >= PRINTED_SEEN:
            break
    assert best is not None
    seen, rect_obj, light, probs = best
    if seen < PRINTED_SEEN:
        raise WrongSheetError(
            f"the printed mountains do not match map side {map_side.letter}: check the side, "
            "and photograph the sheet from above in good light"
        )
    grid, conf = _decide(probs, map_side)
    coins = read_coins(light, rect_obj.inside)
    corners = tuple(
        (round(float(x) * photo.scale, 1), round(float(y) * photo.scale, 1)) for x, y in rect_obj.corners
    )
    return SheetReading(map_side.letter, grid, conf, coins, corners, rect_obj.canvas)
