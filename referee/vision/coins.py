"""Stage 6: count the filled coins on the coin track below the grid.

A coin counts as filled when its inside is clearly darker or more coloured
than the printed empty coin (shaded, coloured in, or crossed out). When part
of the track is outside the photo the count is unknown, not guessed.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision import render
from referee.vision.orient import MARGIN
from referee.vision.rectify import S

FILLED = 0.1
"""Least difference in ink between filled and empty coins."""


def _ink_ring(light: NDArray[np.float32], x: float, y: float) -> float:
    r0, r1 = 0.13 * S, 0.24 * S
    x0, y0 = int(x - r1 - 1), int(y - r1 - 1)
    patch = light[y0 : y0 + int(2 * r1) + 3, x0 : x0 + int(2 * r1) + 3]
    yy, xx = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]]
    d = np.hypot(xx + x0 - x, yy + y0 - y)
    ring = (d >= r0) & (d <= r1)
    ink = 1.0 - patch.min(axis=2)
    # the 85th percentile sees a thin X as well as a shading
    return float(np.percentile(ink[ring], 85))


def coin_positions() -> list[tuple[float, float]]:
    """Coin centres in canvas pixels."""
    return [
        ((cx - render.GRID_X + MARGIN) * S, (cy - render.GRID_Y + MARGIN) * S)
        for cx, cy in render.coin_centres()
    ]


def read_coins(light: NDArray[np.float32], inside: NDArray[np.bool_]) -> int | None:
    """How many coins are filled, or None when the track is not all in the photo."""
    pos = coin_positions()
    for x, y in pos:
        if not inside[int(y), int(x)]:
            return None
    # the paper right above the track is the reference for "empty"
    y_ref = int((MARGIN + SIZE + 0.45) * S)
    paper = float(
        np.median(1.0 - light[y_ref - 2 : y_ref + 2, int(MARGIN * S) : int((MARGIN + SIZE) * S)].min(axis=2))
    )
    ink = np.array([_ink_ring(light, x, y) - paper for x, y in pos])
    return _prefix(ink)


def _prefix(ink: NDArray[np.float64]) -> int:
    """Coins are filled from the left, so the count is where the track splits
    best (Otsu's criterion over prefixes) into an inkier left part and a
    cleaner right part; a track with no such split is all empty or all full."""
    n = len(ink)
    if ink.min() > 0.3:
        return n
    best, count = 0.0, 0
    for k in range(1, n):
        left, right = float(ink[:k].mean()), float(ink[k:].mean())
        if left - right < FILLED:
            continue
        spread = k * (n - k) * (left - right) ** 2
        if spread > best:
            best, count = spread, k
    if count == 0 and ink.min() > 0.2:
        return n
    return count
