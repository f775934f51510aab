"""Stage 4: straighten the grid into a square canvas, cell by cell.

A homography from the four corners straightens a flat sheet. A sheet that
curls or bows on the table bends the grid lines, so the reader then finds
each grid line's actual position in every row and column band and fits a
smooth correction field through them (a cubic in both directions); the
picture is resampled once, through the homography and the correction.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.pixels import channel_max

S = 32
"""Canvas pixels per grid square."""
MARGIN = 1.5
"""Squares of sheet kept all round the grid on the canvas: the paper the light is judged by."""


def canonical(size_px: float) -> NDArray[np.float32]:
    """Grid corners TL, TR, BR, BL in a canvas with ``MARGIN`` all round."""
    a, b = MARGIN * size_px, (MARGIN + SIZE) * size_px
    return np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)


def canvas_side(size_px: float) -> int:
    return round((SIZE + 2 * MARGIN) * size_px)


SEARCH = 6
"""How far, in canvas pixels, a grid line may sit from where the homography puts it."""


@dataclass(frozen=True)
class Rectified:
    canvas: NDArray[np.uint8]
    """RGB, the grid plus ``MARGIN`` squares all round, ``S`` px per square."""
    corners: NDArray[np.float32]
    """The grid's outer corners in source pixels, TL, TR, BR, BL."""
    bend: float
    """Largest local correction applied, in canvas pixels."""
    inside: NDArray[np.bool_]
    """Canvas pixels that come from inside the photo."""


_POWERS = ((0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))
"""The powers of x and y of the cubic correction surface's terms, in order."""


def _terms(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.stack([x**a * y**b for a, b in _POWERS], axis=-1)


def _surface(coef: NDArray[np.float64], t: NDArray[np.float64]) -> NDArray[np.float64]:
    """``_terms(x, y) @ coef`` on the square grid ``x = t[col]``, ``y = t[row]``:
    the powers of ``t`` down the rows, times the coefficients, times the
    powers of ``t`` across the columns, two small products. Term by term,
    the same surface took thirty passes over the canvas, some 30 times as
    long; the sums differ only in the last of double precision's digits
    (some 1e-14 of a pixel)."""
    powers = np.stack([np.ones_like(t), t, t * t, t * t * t], axis=1)  # one row per canvas row
    table = np.zeros((4, 4))
    for c, (a, b) in zip(coef, _POWERS, strict=True):
        table[b, a] = c  # y to the b, x to the a
    return np.asarray(powers @ (table @ powers.T), np.float64)


def _fit(
    x: NDArray[np.float64], y: NDArray[np.float64], d: NDArray[np.float64], w: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Robust weighted least squares of a cubic surface through offsets ``d``."""
    a = _terms(x, y)
    keep = w > 0
    coef = np.zeros(a.shape[1])
    for _ in range(3):
        if keep.sum() < 12:
            return np.zeros(a.shape[1])
        sw = np.sqrt(w[keep])
        coef = np.asarray(np.linalg.lstsq(a[keep] * sw[:, None], d[keep] * sw, rcond=None)[0], np.float64)
        keep = keep & (np.abs(a @ coef - d) < 1.5)
    return np.asarray(coef)


def _line_offsets(
    dark: NDArray[np.float32], vertical: bool
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Offsets of each grid line in each band: (along, across, offset, weight),
    all bands and lines at once."""
    m = MARGIN * S
    img = dark if vertical else dark.T
    y0 = np.array([round(m + band * S + 3) for band in range(SIZE)])
    y1 = np.array([round(m + (band + 1) * S - 3) for band in range(SIZE)])
    x = np.array([round(m + k * S) for k in range(SIZE + 1)])
    rows = y0[:, None] + np.arange(int((y1 - y0).max()))[None, :]  # every band is as tall
    cols = x[:, None] + np.arange(-SEARCH, SEARCH + 1)[None, :]
    prof = img[rows][:, :, cols].mean(axis=1)  # band, line, across the line
    i = prof.argmax(axis=2)
    at = np.indices(i.shape)
    peak = prof[at[0], at[1], i]
    # a grid line is a ridge, paper on both sides of it; the pad's
    # dark frame is dark on one side all the way, and is not a line
    base = np.maximum(np.maximum(prof[..., 0], prof[..., -1]), np.median(prof, axis=2)).astype(np.float64)
    off = (i - SEARCH).astype(np.float64)
    inner = (i > 0) & (i < prof.shape[2] - 1)
    before = prof[at[0], at[1], np.clip(i - 1, 0, None)]
    after = prof[at[0], at[1], np.clip(i + 1, None, prof.shape[2] - 1)]
    den = before - 2 * peak + after
    bend = inner & (den < 0)
    off[bend] += 0.5 * (before - after)[bend].astype(np.float64) / den[bend].astype(np.float64)
    weight = np.where(np.abs(off) < SEARCH - 0.5, np.maximum(0.0, peak.astype(np.float64) - base), 0.0)
    along = np.broadcast_to(x[None, :], i.shape).astype(np.float64)
    across = np.broadcast_to(((y0 + y1) / 2)[:, None], i.shape).astype(np.float64)
    return along.ravel(), across.ravel(), off.ravel(), weight.ravel()


def rectify(rgb: NDArray[np.uint8], corners: NDArray[np.float32], local: bool = True) -> Rectified:
    """The canvas of the grid whose upright corners in ``rgb`` are ``corners``."""
    n = canvas_side(S)
    h_inv = np.asarray(cv2.getPerspectiveTransform(canonical(S), corners), np.float64)
    coarse = np.asarray(
        cv2.warpPerspective(
            rgb, h_inv, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=(128, 128, 128)
        ),
        np.uint8,
    )
    if not local:
        return Rectified(coarse, corners, 0.0, _inside(h_inv, rgb.shape, n))
    dark = 255.0 - channel_max(coarse).astype(np.float32)
    vx, vy, vd, vw = _line_offsets(dark, vertical=True)
    hx, hy, hd, hw = _line_offsets(dark, vertical=False)
    scale = float(n)
    cx = _fit(np.array(vx) / scale, np.array(vy) / scale, np.array(vd), np.array(vw))
    # horizontal lines: "along" is x, "across" is y
    cy = _fit(np.array(hy) / scale, np.array(hx) / scale, np.array(hd), np.array(hw))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float64)
    lo, hi = MARGIN * S / scale, (MARGIN + SIZE) * S / scale
    t = np.clip(np.arange(n, dtype=np.float64) / scale, lo, hi)
    dx = _surface(cx, t)
    dy = _surface(cy, t)
    bend = float(max(np.abs(dx).max(), np.abs(dy).max()))
    if bend > 2 * SEARCH:
        return Rectified(coarse, corners, bend, _inside(h_inv, rgb.shape, n))
    pts = np.stack([xx + dx, yy + dy, np.ones_like(xx)], axis=-1) @ h_inv.T
    mx = (pts[..., 0] / pts[..., 2]).astype(np.float32)
    my = (pts[..., 1] / pts[..., 2]).astype(np.float32)
    canvas = np.asarray(cv2.remap(rgb, mx, my, cv2.INTER_LINEAR, borderValue=(128, 128, 128)), np.uint8)
    c = canonical(S)
    ci = np.round(c).astype(int)
    refined = np.array([[mx[y, x], my[y, x]] for x, y in ci], np.float32)
    h, w = rgb.shape[:2]
    inside = (mx >= 0) & (mx <= w - 1) & (my >= 0) & (my <= h - 1)
    return Rectified(canvas, refined, bend, inside)


def _inside(h_inv: NDArray[np.float64], shape: tuple[int, ...], n: int) -> NDArray[np.bool_]:
    ones = np.full(shape[:2], 255, np.uint8)
    return cv2.warpPerspective(ones, h_inv, (n, n), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
