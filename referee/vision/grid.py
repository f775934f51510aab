"""Stage 2: find the grid's outer square in the photo.

The grid's outer line is the thickest black line on the sheet and encloses
ten evenly spaced lines each way. Candidates are the dark outlines that look
like a quadrilateral; each is checked for those inner lines, which is what
tells the grid from the page edge, the season boxes or a book on the table.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.errors import NoGridError

DETECT_SIDE = 900
"""Longer side of the picture searched for the grid, in pixels."""
MIN_SCORE = 0.03
"""Least contrast between grid lines and cell middles of a real grid."""
NO_GRID = "no map grid found: fit the whole grid in the picture, with all four corners visible"

Quad = NDArray[np.float32]


def _order(quad: NDArray[np.float32]) -> Quad:
    """Corners in clockwise order as seen in the picture, starting anywhere."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    return quad[np.argsort(ang)].astype(np.float32)


def _quad_of(contour: NDArray[np.int32]) -> Quad | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return _order(approx.reshape(4, 2).astype(np.float32))
    return None


def grid_score(gray: NDArray[np.uint8], quad: Quad) -> float:
    """How much more the ten inner lines stand out than the cell middles: the
    median over each line's length of its thin-dark-line strength (a
    morphological black-hat, so that a line between two coloured squares
    counts as well as one on bare paper), relative to the paper's brightness."""
    n = 16
    size = n * SIZE
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    patch = cv2.warpPerspective(gray, m, (size, size), flags=cv2.INTER_LINEAR).astype(np.float32)
    paper = float(np.percentile(patch, 90)) + 1.0
    hat = cv2.morphologyEx(patch, cv2.MORPH_BLACKHAT, np.ones((5, 5), np.uint8)) / paper
    scores = []
    for img in (hat, hat.T):
        prof = np.median(img, axis=0)
        on = np.array([prof[k * n - 2 : k * n + 3].max() for k in range(1, SIZE)])
        off = np.array([np.median(prof[k * n + 4 : k * n + n - 4]) for k in range(SIZE)])
        contrast = on - np.maximum(off[:-1], off[1:])
        scores.append(float(np.percentile(contrast, 30)))
    return min(scores)


def find_grid(rgb: NDArray[np.uint8]) -> Quad:
    """The grid's outer corners in ``rgb`` pixels, clockwise from any corner."""
    h, w = rgb.shape[:2]
    k = min(1.0, DETECT_SIDE / max(h, w))
    small = cv2.resize(rgb, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA) if k < 1 else rgb
    # black ink: dark in every channel (coloured pencil is bright in one)
    value = small.max(axis=2)
    block = max(15, (min(small.shape[:2]) // 12) | 1)
    ink = cv2.adaptiveThreshold(value, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 18)
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_min = 0.02 * small.shape[0] * small.shape[1]
    best: tuple[float, Quad] | None = None
    for cnt in sorted(contours, key=cv2.contourArea, reverse=True)[:12]:
        if cv2.contourArea(cnt) < area_min:
            break
        quad = _quad_of(cnt)
        if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.int32)):
            continue
        score = grid_score(value, quad)
        if best is None or score > best[0]:
            best = (score, quad)
    if best is None or best[0] < MIN_SCORE:
        raise NoGridError(NO_GRID)
    return best[1] / k
