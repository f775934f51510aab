"""Stage 3: which way up is the sheet?

The grid is square, so its four corners fit the photo four ways. What is
printed around the grid tells them apart: the title, the side's name and the
name line above, the coin track and the season boxes below. Side A's
mountains look the same upside down, so they cannot decide. Each of the four
ways is compared with the renderer's own drawing of the sheet for up to
``LOOK`` squares around the grid, both with the light's slow changes taken
out, and only over the part of that surround the photo actually shows (the
page is often cut off). The grid's own outline is left out: it is the same
all four ways round. The reader still checks the choice against the printed
mountains and tries the next way when they disagree.
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


LOOK = 4.0
"""Units of sheet around the grid compared with the drawing: enough to take in
the title above and the coin track and season boxes below."""
SKIP = 0.4
"""Units either side of the grid's outer line left out: the line is the same
all four ways round, so it only dilutes the comparison."""


def _highpass(img: NDArray[np.float32]) -> NDArray[np.float32]:
    """Print and pencil strokes without the slow changes of the light."""
    return cv2.GaussianBlur(img, (0, 0), 0.8) - cv2.GaussianBlur(img, (0, 0), 4.0)


def _look_corners() -> NDArray[np.float32]:
    a, b = LOOK * SMALL, (LOOK + SIZE) * SMALL
    return np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)


@cache
def _template(side: str) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    u = SMALL
    sheet = np.asarray(render.render_sheet(side, u).convert("L"), np.float32)
    pad = round(LOOK * u)
    sheet = cv2.copyMakeBorder(sheet, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=128.0)
    x0 = round((render.GRID_X - LOOK) * u) + pad
    y0 = round((render.GRID_Y - LOOK) * u) + pad
    n = round((SIZE + 2 * LOOK) * u)
    crop = _highpass(sheet[y0 : y0 + n, x0 : x0 + n])
    ring = np.ones((n, n), bool)
    a, b = round((LOOK - SKIP) * u), round((LOOK + SIZE + SKIP) * u)
    ring[a:b, a:b] = False
    return crop, ring


def orientation_scores(gray: NDArray[np.uint8], quad: NDArray[np.float32], side: str) -> list[float]:
    """Correlation with the printed surroundings for each way of fitting the
    corners: entry ``k`` takes ``quad[k]`` as the sheet's top-left corner.
    Only the part of the surroundings inside the photo counts."""
    template, ring = _template(side)
    n = template.shape[0]
    ones = np.full(gray.shape, 255, np.uint8)
    out = []
    for k in range(4):
        m = cv2.getPerspectiveTransform(np.roll(quad, -k, axis=0), _look_corners())
        view = cv2.warpPerspective(gray, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        seen = cv2.warpPerspective(ones, m, (n, n), flags=cv2.INTER_NEAREST) > 0
        seen = cv2.erode(seen.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool) & ring
        if seen.sum() < 50:
            out.append(0.0)
            continue
        v = _highpass(view.astype(np.float32))[seen]
        t = template[seen]
        out.append(float((v * t).sum() / (np.sqrt((v * v).sum() * (t * t).sum()) + 1e-6)))
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
