"""Stage 3: the coin track, which says which way up the sheet is and how many coins it holds.

Every Cartographers sheet prints fourteen coins in a row below the grid; how
far below, how large and in what frame varies between printings. So the
reader looks beyond each of the grid's four sides for the thing itself: a
row of fourteen evenly spaced circles. A circle's outline is a ring of
strong brightness change whether the coin is empty, shaded, coloured in or
crossed out, so the search runs on the gradient. The side whose row of
circles stands out best is the bottom of the sheet.

A coin counts as filled when its inside is clearly darker or more coloured
than the paper beside the track. Coins are filled from the left, so the
count is where the row splits best into inked and clean; when no split is
clear the count is unknown, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE

COINS = 14
U = 16
"""Strip pixels per grid square."""
NEAR, FAR = 0.1, 3.2
"""Where the track may lie beyond the grid's edge, in squares."""
WIDE = 1.5
"""How far the strip reaches past the grid's sides, in squares."""
RADII = (0.2, 0.27, 0.35, 0.43)
"""Coin radii looked for, in squares."""
FILLED = 0.12
"""Least difference in ink between the filled and the clean part of the track."""
CLEAR = 0.5
"""Least share of the ink difference that the best split must leave between its two parts."""


@dataclass(frozen=True)
class Track:
    """A row of fourteen circles in a strip beyond one side of the grid."""

    score: float
    x0: float
    """Centre of the first coin, strip pixels."""
    step: float
    y: float
    r: float


def strip_corners(side: int) -> NDArray[np.float32]:
    """Where a strip beyond ``side`` (0 bottom, 1 left, 2 top, 3 right of the
    upright grid, in grid units with the grid at 0..11) has its corners, in
    the order the strip's own TL, TR, BR, BL."""
    a, b = -WIDE, SIZE + WIDE
    n0, n1 = SIZE + NEAR, SIZE + FAR
    bottom = np.array([[a, n0], [b, n0], [b, n1], [a, n1]], np.float32)
    c = SIZE / 2
    out = []
    for x, y in bottom:
        dx, dy = x - c, y - c
        for _ in range(side):
            dx, dy = -dy, dx
        out.append((c + dx, c + dy))
    return np.array(out, np.float32)


def strip(gray: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int) -> NDArray[np.float32]:
    """The strip beyond ``side`` as a float picture, the track's row level.
    ``to_photo`` maps grid units (0..11) to photo pixels."""
    w, h = round((SIZE + 2 * WIDE) * U), round((FAR - NEAR) * U)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    src = cv2.perspectiveTransform(strip_corners(side).reshape(-1, 1, 2), to_photo).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    out = cv2.warpPerspective(gray, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return out.astype(np.float32)


@cache
def _ring(r: float) -> NDArray[np.float32]:
    k = int(np.ceil(r + 2))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    d = np.hypot(xx, yy)
    ring = (np.abs(d - r) < 0.9).astype(np.float32)
    inner = (d < r - 1.8).astype(np.float32)
    ring /= ring.sum()
    if inner.sum():
        ring -= 0.5 * inner / inner.sum()
    return ring


def find_track(picture: NDArray[np.float32]) -> Track | None:
    """The best row of fourteen evenly spaced circles in a strip."""
    gx = cv2.Sobel(picture, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(picture, cv2.CV_32F, 0, 1, ksize=3)
    grad = np.hypot(gx, gy) / (float(np.percentile(picture, 90)) + 1.0)
    best: Track | None = None
    w = picture.shape[1]
    k = np.arange(COINS)[None, :]
    for rr in RADII:
        r = rr * U
        resp = cv2.filter2D(grad, -1, _ring(r))
        for y in np.argsort(-resp.max(axis=1))[:3]:
            prof = resp[y]
            step = 2.0 * r + 1.0
            while step * (COINS - 1) < w - 2 * r:
                offsets = np.arange(int(r), int(w - r - step * (COINS - 1)))[:, None]
                teeth = prof[np.rint(offsets + k * step).astype(int)]
                low = np.partition(teeth, 2, axis=1)[:, 2]
                gaps = prof[np.rint(offsets + (k[:, :-1] + 0.5) * step).astype(int)]
                score = low - np.maximum(np.median(gaps, axis=1), 0.0)
                i = int(np.argmax(score))
                if best is None or score[i] > best.score:
                    best = Track(float(score[i]), float(offsets[i, 0]), step, float(y), r)
                step *= 1.02
    return best


def read_coins(rgb: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int, track: Track) -> int | None:
    """Filled coins on ``track`` (found in the strip beyond ``side``), or None
    when the track does not split clearly into inked and clean coins."""
    w, h = round((SIZE + 2 * WIDE) * U), round((FAR - NEAR) * U)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    src = cv2.perspectiveTransform(strip_corners(side).reshape(-1, 1, 2), to_photo).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    colour = cv2.warpPerspective(rgb, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    img = colour.astype(np.float32) / 255.0
    paper = np.percentile(img.reshape(-1, 3), 90, axis=0) + 1e-3
    taken = np.clip(1.0 - img / paper, 0.0, 1.0)
    ink = []
    yy, xx = np.mgrid[0:h, 0:w]
    for c in range(COINS):
        cx = track.x0 + c * track.step
        inside = np.hypot(xx - cx, yy - track.y) < 0.6 * track.r
        if inside.sum() < 3:
            return None
        px = taken[inside]
        ink.append(float(np.percentile(px.max(axis=1), 75)))
    return split(np.array(ink))


def split(ink: NDArray[np.float64]) -> int | None:
    """Where the coins split into an inked left part and a clean right part
    (the split that leaves each part most alike), or None when the two parts
    overlap: a smudge, a shadow or a coin shaded by half."""
    n = len(ink)
    lo, hi = float(ink.min()), float(ink.max())
    if hi - lo < FILLED:
        # all alike: all clean when as light as the paper's own grain, else all filled
        return 0 if hi < 2 * FILLED else n
    def spread(part: NDArray[np.float64]) -> float:
        return float(((part - part.mean()) ** 2).sum()) if len(part) else 0.0
    count = min(range(1, n), key=lambda k: spread(ink[:k]) + spread(ink[k:]))
    left, right = ink[:count], ink[count:]
    if float(left.min() - right.max()) < CLEAR * (hi - lo) * 0.5 or left.mean() < right.mean():
        return None
    return count
