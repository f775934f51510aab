"""Stage 5: what is drawn in each square, with how sure the reader is.

Light is evened out first (paper is the brightest thing in each part of the
canvas), then each square's inside (its grid lines trimmed off) is described
by its colours (a hue histogram weighted by saturation), its darkness on a
12x12 grid (letters, icons and the destroyed X) and a few overall figures.
A small two-layer network, written in numpy and trained by
``tools/train_cells.py`` on synthetic photos, turns that into a probability
for each map code. Its weights ship in ``cells.npz`` beside this module.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.data import MapSide
from referee.rules.geometry import SIZE
from referee.vision.orient import MARGIN
from referee.vision.rectify import S

CLASSES = ".FVAWMHX^#"
"""The map codes the network tells apart, in output order."""
TRIM = 4
"""Pixels trimmed from each edge of a square: the grid line and most spill."""
HUE_BINS = 12


def even_light(canvas: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The canvas as float RGB with the paper brought to about 1.0 everywhere,
    whatever the colour of the light or the shadows across the sheet."""
    img = canvas.astype(np.float32) / 255.0
    n = img.shape[0] // S
    blocks = img[: n * S, : n * S].reshape(n, S, n, S, 3)
    paper = np.percentile(blocks, 92, axis=(1, 3)).astype(np.float32)
    # a square filled with colour is not paper: let brighter neighbours speak
    paper = cv2.dilate(paper, np.ones((3, 3), np.uint8))
    paper = cv2.GaussianBlur(paper, (0, 0), 0.8)
    full = cv2.resize(paper, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_CUBIC)
    return np.clip(img / np.maximum(full, 0.05), 0.0, 1.2)


def features(light: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """One row of features per square, row by row from the top left."""
    m = round(MARGIN * S)
    g = light[m : m + SIZE * S, m : m + SIZE * S]
    cells = g.reshape(SIZE, S, SIZE, S, 3).transpose(0, 2, 1, 3, 4)[:, :, TRIM:-TRIM, TRIM:-TRIM]
    cells = cells.reshape(SIZE * SIZE, S - 2 * TRIM, S - 2 * TRIM, 3)
    v = cells.max(axis=3)
    mn = cells.min(axis=3)
    sat = (v - mn) / np.maximum(v, 1e-3)
    r, gr, b = cells[..., 0], cells[..., 1], cells[..., 2]
    hue = (np.degrees(np.arctan2(np.sqrt(3) * (gr - b), 2 * r - gr - b)) % 360) / 360.0
    weight = np.clip(sat - 0.12, 0, None)
    k = SIZE * SIZE
    bins = np.minimum((hue * HUE_BINS).astype(int), HUE_BINS - 1)
    hist = np.zeros((k, HUE_BINS), np.float32)
    flat_w = weight.reshape(k, -1)
    flat_b = bins.reshape(k, -1)
    for j in range(HUE_BINS):
        hist[:, j] = (flat_w * (flat_b == j)).mean(axis=1)
    c = S - 2 * TRIM
    dark = (1.0 - v).reshape(k, c // 2, 2, c // 2, 2).mean(axis=(2, 4)).reshape(k, -1)
    satg = sat.reshape(k, 4, c // 4, 4, c // 4).mean(axis=(2, 4)).reshape(k, -1)
    gray_dark = ((sat < 0.25) & (v < 0.7)).reshape(k, -1).mean(axis=1)
    stats = np.stack(
        [
            v.reshape(k, -1).mean(1),
            v.reshape(k, -1).std(1),
            sat.reshape(k, -1).mean(1),
            (sat > 0.25).reshape(k, -1).mean(1),
            (v < 0.6).reshape(k, -1).mean(1),
            gray_dark,
        ],
        axis=1,
    )
    ruins = np.array([[1.0 if divmod(i, SIZE) in side.ruins else 0.0] for i in range(k)], np.float32)
    return np.concatenate([hist * 4, dark, satg, stats, ruins], axis=1).astype(np.float32)


@cache
def _weights() -> dict[str, NDArray[np.float32]]:
    with resources.files("referee.vision").joinpath("cells.npz").open("rb") as f:
        data = np.load(f)
        return {name: data[name].astype(np.float32) for name in data.files}


def forward(x: NDArray[np.float32], w: dict[str, NDArray[np.float32]]) -> NDArray[np.float32]:
    """Class probabilities for feature rows ``x``."""
    z = (x - w["mean"]) / w["std"]
    h = np.maximum(z @ w["w1"] + w["b1"], 0.0)
    logits = h @ w["w2"] + w["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def classify(light: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """Probabilities (121 x 10, order ``CLASSES``) for every square."""
    return forward(features(light, side), _weights())
