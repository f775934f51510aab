"""A check that a straightened grid is the chosen side's, which knows no picture.

The network that reads the squares knows the mountain pictures it was
trained on; a pad may print its mountains some other way, and then the
network does not see them, however clear the photo. But whatever the
picture, a side prints it on each of its mountain spaces alike. So, on the
right grid, the right way up, each printed mountain is among the squares
most like the other printed mountains: nothing a player draws copies a
printed picture that closely, and bare squares are alike only to each other.
A wrong side or a wrong turn puts the mountains on squares that have no
such kin, and a cloth's checks or a table give squares that are all alike,
so that the five are no more each other's kin than any others.
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.rectify import MARGIN, S

INSET = 4
"""Canvas pixels of each square's edge left out: the grid lines, alike everywhere."""
SLIDE = 2
"""Canvas pixels by which one square's picture may sit off another's after straightening."""


def likeness(canvas: NDArray[np.uint8], spaces: Collection[tuple[int, int]]) -> float:
    """Share of the pairs of ``spaces`` (row, column) in which the one is
    among the squares most like the other (as many as there are spaces, so
    one stranger may come between), in the rectified ``canvas``.

    1.0 when every printed picture finds its kin; about the number of
    spaces over the number of squares when the spaces are squares like any
    others."""
    if len(spaces) < 2:
        return 1.0
    grey = cv2.cvtColor(canvas, cv2.COLOR_RGB2GRAY).astype(np.float32)
    m = round(MARGIN * S)
    side = S - 2 * INSET
    wanted = [r * SIZE + c for r, c in spaces]
    top = m + INSET - SLIDE
    region = grey[top : m + SIZE * S + SLIDE, top : m + SIZE * S + SLIDE]
    hits = 0
    for i in wanted:
        r, c = divmod(i, SIZE)
        y, x = m + r * S + INSET, m + c * S + INSET
        template = grey[y : y + side, x : x + side]
        if float(template.std()) < 1.0:
            continue  # a bare picture finds no kin
        match = cv2.matchTemplate(region, template, cv2.TM_CCOEFF_NORMED)
        # the best place for the picture in each square, within SLIDE of its own
        grid = np.full((SIZE * S, SIZE * S), -1.0, np.float32)
        h, w = min(match.shape[0], SIZE * S), min(match.shape[1], SIZE * S)
        grid[:h, :w] = match[:h, :w]
        windows = grid.reshape(SIZE, S, SIZE, S)[:, : 2 * SLIDE + 1, :, : 2 * SLIDE + 1]
        best = windows.max(axis=(1, 3)).ravel().astype(np.float64)
        best[i] = -np.inf
        kin = set(np.argsort(-best)[: len(wanted)].tolist())
        hits += sum(j in kin for j in wanted if j != i)
    return hits / (len(wanted) * (len(wanted) - 1))
