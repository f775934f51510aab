"""Stage 2c: the grid's lines looked for on the sheet's paper alone.

``lines`` counts a pixel as part of a line when it is darker than the paper
around it by ``LINE_ON`` of the paper's light. A blurred sheet's thin lines
spread their darkness over several pixels and stand far less above the paper
than that, while a wooden table's grain, a cloth's weave or a phone's noise
in a dark room stands more: no threshold keeps the one and leaves the other.
A person still sees the grid, because its lines run straight and long across
a lighter sheet.

So the last search first finds the sheet: the largest region lighter than
the rest of the picture in all three colours (a red or blue table is light
in one), within its convex outline. Only the line strength on that paper
counts, as far as it stands above the paper's usual strength. Each line is
then found by summing that strength along it (a Hough transform weighted by
strength, not by pixels over a threshold), every pixel voting only for lines
along its own direction: a faint line long enough is found however little
each of its pixels stands out, and the noise, whose pixels point every way,
adds up to no line. The lines found are grouped by vanishing point as
``lines`` groups its own, and the lattices looked for among them as for any
other search's.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.vision.lines import (
    APART,
    FIRST_LOOK,
    SPREAD,
    Family,
    angle_apart,
    directions,
    distinct,
    modes,
    orientation,
    to_lines,
)

PAPER_SIDE = 200
"""Longer side of the picture the sheet's paper is looked for on, in
pixels: a square of the map is a few pixels there, a sheet some fifty."""
PAPER_SHARE = (0.02, 0.8)
"""Least and largest share of the picture the paper's outline may take for
the search to look within it: a sheet that fills the picture leaves no table
to leave out, and the searches before this one looked at all of it."""
ALONG = np.deg2rad(2.0)
"""Largest angle between a pixel's own direction and a line it votes for:
the structure tensor's angle on a thin line is good to a degree or two."""
COHERENT = 0.3
"""Least coherence (``lines.orientation``) for a pixel to vote: how clearly
it lies on a line rather than in a speck of noise or a pencil's stroke.
Lower than ``lines.Families`` asks (0.5), since blur rounds a line's edges:
on the 46 training-draw photos ``grid.PAPER_LOOK`` was chosen on, 0.3
finds 10 grids in place and 0.5 finds 3."""
LINES_KEPT = 60
"""Lines kept each way, strongest first: the grid's twelve, the frame's and
the coin track's, and room for the paper's other lines."""
CELLS_A_LINE = 60
"""Accumulator cells, strongest first, looked through for each line kept:
a line's votes spread over its width and the angles next to its own."""


def outline(rgb: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
    """The sheet's paper at ``PAPER_SIDE``, 1 inside its outline: the convex
    hull of the largest region lighter than the rest of the picture in all
    three colours (Otsu's threshold on the darkest channel). None when that
    outline takes less or more of the picture than ``PAPER_SHARE``."""
    h, w = rgb.shape[:2]
    k = min(1.0, PAPER_SIDE / max(h, w))
    small = cv2.resize(rgb, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA)
    darkest = cv2.GaussianBlur(np.ascontiguousarray(small.min(axis=2)), (0, 0), 2.0)
    _, light = cv2.threshold(darkest, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    n, label, stats, _ = cv2.connectedComponentsWithStats(light.astype(np.uint8))
    if n < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    hull = cv2.convexHull(np.argwhere(label == largest)[:, ::-1].astype(np.int32))
    mask = np.zeros(darkest.shape, np.uint8)
    cv2.fillConvexPoly(mask, hull, 1)
    if not PAPER_SHARE[0] <= float(mask.mean()) <= PAPER_SHARE[1]:
        return None
    # the table's edge beside the paper looks like a dark line: keep off it
    return np.asarray(cv2.erode(mask, np.ones((3, 3), np.uint8)), np.uint8)


def _weighted_hough(
    xs: NDArray[np.float64],
    ys: NDArray[np.float64],
    votes: NDArray[np.float64],
    own: NDArray[np.float64],
    d: float,
) -> NDArray[np.float64]:
    """(rho, theta, votes) of the ``LINES_KEPT`` strongest lines within
    ``SPREAD`` of angle ``d`` (in OpenCV's convention: theta 0 to pi), each
    pixel adding its ``votes`` to the lines within ``ALONG`` of its own
    direction ``own``, one answer per line (``lines.distinct``)."""
    thetas = np.arange(d - SPREAD, d + SPREAD, np.deg2rad(0.5))
    reach = int(np.hypot(xs.max(initial=0), ys.max(initial=0))) + 2
    acc = np.zeros((len(thetas), 2 * reach + 1))
    for i, t in enumerate(thetas):
        mine = np.abs((own - t + np.pi / 2) % np.pi - np.pi / 2) < ALONG
        rho = np.rint(xs[mine] * np.cos(t) + ys[mine] * np.sin(t)).astype(int) + reach
        acc[i] = np.bincount(rho, weights=votes[mine], minlength=2 * reach + 1)
    order = np.argsort(-acc, axis=None)[: CELLS_A_LINE * LINES_KEPT]
    order = order[acc.ravel()[order] > 0]
    ti, ri = np.divmod(order, acc.shape[1])
    cells = np.stack([ri - reach, thetas[ti], acc[ti, ri]], axis=1).astype(np.float64)
    hough = cells[distinct(cells, LINES_KEPT)]
    # OpenCV's convention: theta in [0, pi), rho signed
    flip = (hough[:, 1] < 0) | (hough[:, 1] >= np.pi)
    hough[flip, 0] *= -1
    hough[:, 1] %= np.pi
    return hough


class PaperFamilies:
    """The line families of the sheet's paper alone (``paper``, 1 on the
    paper, at any size), paired one per grid direction, as
    ``lines.Families`` pairs its own: the strength of every pixel on the
    paper above the paper's median, each pixel's vote capped at the
    strongest tenth's (a pencil's stroke or the title's ink counts no more
    than a line's) and weighed by its coherence."""

    def __init__(self, strength: NDArray[np.float32], paper: NDArray[np.uint8]) -> None:
        h, w = strength.shape
        on_paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_NEAREST).astype(bool)
        usual = float(np.median(strength[on_paper])) if on_paper.any() else 0.0
        above = np.where(on_paper, np.maximum(strength - usual, 0.0), 0.0).astype(np.float32)
        normal, coherence = orientation(above, above > 0)
        ys, xs = np.nonzero((above > 0) & (coherence > COHERENT))
        self._pairs: list[tuple[Family, Family]] = []
        if len(xs) < 50:
            return
        seen = above[ys, xs].astype(np.float64)
        capped: NDArray[np.float64] = np.minimum(seen, np.percentile(seen, 90))
        votes = capped * coherence[ys, xs]
        own = normal[ys, xs].astype(np.float64)
        dirs = directions(own, votes)[:FIRST_LOOK]  # as the first search looks
        fams: list[list[Family]] = []
        for d in dirs:
            near = np.abs((own - d + np.pi / 2) % np.pi - np.pi / 2) < SPREAD
            hough = _weighted_hough(xs[near], ys[near], votes[near], own[near], d)
            if len(hough) < 4:
                fams.append([])
                continue
            lines = to_lines(hough, strength.shape)
            px = np.stack([xs[near], ys[near], seen[near]], axis=1).astype(np.float64)
            fams.append(
                [Family(lines, hough[:, 2], vp, px, faint) for vp, faint in modes(lines, hough[:, 2])]
            )
        for i in range(len(dirs)):
            for j in range(i + 1, len(dirs)):
                if angle_apart(dirs[i], dirs[j]) >= APART:
                    self._pairs += [(a, b) for a in fams[i] for b in fams[j]]

    def pairs(self, faint: bool) -> list[tuple[Family, Family]]:
        """The pairs without a faint family, or (``faint``) those with one."""
        return [p for p in self._pairs if (p[0].faint or p[1].faint) == faint]
