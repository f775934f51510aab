"""Stage 3: which way up is the sheet?

The grid is square, so its four corners fit the photo four ways. What is
printed around the grid tells them apart: the name line and the side's name
above, the coin track below. Side A's mountains look the same upside down,
so they cannot decide; the frame around the grid can. Each of the four ways
is compared with the renderer's own drawing of the sheet around the grid.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision import render

MARGIN = 1.5
"""Units of sheet around the grid that the reader looks at."""
SMALL = 8
"""Pixels per unit for the comparison."""


def canonical(size_px: float) -> NDArray[np.float32]:
    """Grid corners TL, TR, BR, BL in a canvas with ``MARGIN`` all round."""
    a, b = MARGIN * size_px, (MARGIN + SIZE) * size_px
    return np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)


def canvas_side(size_px: float) -> int:
    return round((SIZE + 2 * MARGIN) * size_px)


@cache
def _template(side: str) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    u = SMALL
    sheet = np.asarray(render.render_sheet(side, u).convert("L"), np.float32)
    x0 = round((render.GRID_X - MARGIN) * u)
    y0 = round((render.GRID_Y - MARGIN) * u)
    n = canvas_side(u)
    crop = cv2.GaussianBlur(sheet[y0 : y0 + n, x0 : x0 + n], (0, 0), 1.0)
    ring = np.ones((n, n), bool)
    a, b = round((MARGIN + 0.3) * u), round((MARGIN + SIZE - 0.3) * u)
    ring[a:b, a:b] = False
    t = crop[ring]
    return (t - t.mean()) / (t.std() + 1e-6), ring


def orientation_scores(gray: NDArray[np.uint8], quad: NDArray[np.float32], side: str) -> list[float]:
    """Correlation with the printed surroundings for each way of fitting the
    corners: entry ``k`` takes ``quad[k]`` as the sheet's top-left corner."""
    template, ring = _template(side)
    n = canvas_side(SMALL)
    out = []
    for k in range(4):
        m = cv2.getPerspectiveTransform(np.roll(quad, -k, axis=0), canonical(SMALL))
        view = cv2.warpPerspective(gray, m, (n, n), flags=cv2.INTER_AREA, borderValue=128)
        v = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.0)[ring]
        v = (v - v.mean()) / (v.std() + 1e-6)
        out.append(float((v * template).mean()))
    return out


def upright(
    gray: NDArray[np.uint8], quad: NDArray[np.float32], side: str
) -> tuple[NDArray[np.float32], float]:
    """The corners reordered TL, TR, BR, BL of the upright sheet, and how
    clearly that way beat the next best (0..2)."""
    scores = orientation_scores(gray, quad, side)
    k = int(np.argmax(scores))
    runner = max(s for i, s in enumerate(scores) if i != k)
    return np.roll(quad, -k, axis=0), scores[k] - runner
