"""Stage 2a: the thin printed lines in the photo, grouped by where they meet.

Every Cartographers sheet, whatever its design, prints the map as thin lines
on lighter paper. A morphological black-hat keeps exactly what is darker
than its surroundings and thinner than a few pixels: grid lines between two
coloured squares as well as on bare paper, in black, grey, brown or sepia
alike. A thick decorative frame, a dark table or a checked cloth's large
squares give no answer, because they are wider than the kernel. Dividing by
the local paper brightness makes a dim or shadowed corner count as much as a
bright one.

Long straight lines are then found with a Hough transform and split into
the two directions of the grid. Under perspective each direction's lines
meet at a vanishing point; finding both points lets the next stage undo the
perspective up to an affine map, after which the grid is two sets of
parallel, evenly spaced lines. A cloth's stripes may run within a few
degrees of the sheet's lines and outvote them, so the last search looks
for lines among the pixels that do not point at each direction's
strongest vanishing point.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

KERNEL = 7
"""Black-hat kernel in pixels at detection scale: wider than any grid line."""
LINE_ON = 0.07
"""Darkness under the paper, as a share of its brightness, that counts as line."""
SPREAD = np.deg2rad(22.0)
"""Largest angle between a line and its direction's main angle (perspective)."""
APART = np.deg2rad(35.0)
"""Least angle between the grid's two directions in the photo."""
AGREE = np.deg2rad(1.2)
"""Largest angle by which a line may miss its family's vanishing point."""
MODES = 3
"""Vanishing points looked for in each direction."""
DIRECTIONS = 5
"""Main angles looked at; those after the third only in the faint search."""
FIRST_LOOK = 3
"""Main angles whose pairs the first search looks at."""
MODE_LINES = 6
"""Lines through a vanishing point that make it worth a look, however faint."""
TOWARDS = np.deg2rad(3.0)
"""Largest angle between a line pixel's own direction and the direction to
a vanishing point for the pixel to lie on a line through that point: the
structure tensor's angle on a thin line is good to a degree or two."""
WINDOWS = 3
"""Windows each way that ``Families.windowed`` looks for lines in, each half
the picture's width and height, a quarter of it apart: a grid of a third
of the picture's side or more (a sheet photographed to be read) fills
most of one of them."""


Window = tuple[int, int, int, int]
"""A window of the picture: its top, left, bottom and right edges, in pixels."""


def line_map(gray: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Thin-dark-line strength at every pixel, as a share of the local paper
    brightness (0 on bare paper, about 0.1 to 0.6 on a printed line)."""
    g = gray.astype(np.float32)
    paper = cv2.GaussianBlur(cv2.dilate(g, np.ones((15, 15), np.uint8)), (0, 0), 5.0) + 8.0
    hat = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, np.ones((KERNEL, KERNEL), np.uint8))
    return np.asarray(hat / paper, np.float32)


@dataclass(frozen=True)
class Family:
    """Lines of one direction of the grid, in coordinates centred on the
    picture and divided by its longer side (so numbers stay near 1)."""

    lines: NDArray[np.float64]
    """Homogeneous line vectors ``(a, b, c)`` with ``a x + b y + c = 0``, ``a^2 + b^2 = 1``."""
    weight: NDArray[np.float64]
    """Hough votes of each line."""
    vanishing: NDArray[np.float64]
    """Homogeneous vanishing point (third coordinate 0 when the lines are parallel)."""
    pixels: NDArray[np.float64]
    """``(x, y, strength)`` of the line pixels of this direction, in picture pixels."""
    faint: bool = False
    """Whether only the wider search looks at it: far fewer lines meet at its
    vanishing point than at its direction's first, or its direction is not
    among the ``FIRST_LOOK`` strongest."""


def parallel(family: Family) -> Family:
    """``family`` with its lines taken as parallel, at their mean direction
    (weighed by their votes): its vanishing point moved to infinity. Over a
    small sheet perspective hardly bends a direction's lines, and the
    vanishing point of a few short lines is too uncertain to undo it by: a
    degree's error can put the horizon across the picture, where no
    rectification exists (``lattice._rectifier``)."""
    along = np.arctan2(family.lines[:, 0], -family.lines[:, 1])  # the direction (-b, a)
    w = family.weight
    mean = 0.5 * np.arctan2(float((w * np.sin(2 * along)).sum()), float((w * np.cos(2 * along)).sum()))
    return replace(family, vanishing=np.array([np.cos(mean), np.sin(mean), 0.0]))


def to_lines(hough: NDArray[np.float64], shape: tuple[int, ...]) -> NDArray[np.float64]:
    h, w = shape[:2]
    f, cx, cy = float(max(h, w)), w / 2.0, h / 2.0
    rho, theta = hough[:, 0], hough[:, 1]
    a, b = np.cos(theta), np.sin(theta)
    return np.stack([a, b, (cx * a + cy * b - rho) / f], axis=1)


def _miss(lines: NDArray[np.float64], vp: NDArray[np.float64]) -> NDArray[np.float64]:
    """Angle by which each line misses ``vp``, seen from the line's point nearest the centre."""
    a, b, c = lines[:, 0], lines[:, 1], lines[:, 2]
    px, py = -c * a, -c * b
    dx, dy = vp[0] - px * vp[2], vp[1] - py * vp[2]
    along = -b * dx + a * dy
    across = a * dx + b * dy
    return np.asarray(np.abs(np.arctan2(np.abs(across), np.abs(along))), np.float64)


def _vanishing(lines: NDArray[np.float64], weight: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    """The point most lines pass through (RANSAC over pairs of the strongest
    lines, then a weighted least-squares fit over the agreeing lines), and
    the votes that agree."""
    strong = np.argsort(-weight)[:30]
    i, j = np.triu_indices(len(strong), 1)
    vps = np.cross(lines[strong[i]], lines[strong[j]])
    vps = vps[np.linalg.norm(vps, axis=1) > 1e-12]
    if len(vps) == 0:
        return np.array([-lines[0, 1], lines[0, 0], 0.0]), 0.0
    a, b, c = lines[:, 0], lines[:, 1], lines[:, 2]
    px, py = -c * a, -c * b  # each line's point nearest the centre
    dx = vps[:, 0:1] - px[None, :] * vps[:, 2:3]
    dy = vps[:, 1:2] - py[None, :] * vps[:, 2:3]
    miss = np.arctan2(np.abs(a * dx + b * dy), np.abs(-b * dx + a * dy))
    support = ((miss < AGREE) * weight[None, :]).sum(axis=1)
    best_vp, best_w = vps[int(np.argmax(support))], float(support.max())
    agree = _miss(lines, best_vp) < AGREE
    if agree.sum() >= 3:
        _, _, vt = np.linalg.svd(lines[agree] * np.sqrt(weight[agree])[:, None])
        vp = vt[-1]
        if _miss(lines[agree], vp).mean() <= _miss(lines[agree], best_vp).mean() + 1e-9:
            best_vp = vp
    return best_vp / np.linalg.norm(best_vp), best_w


def directions(theta: NDArray[np.float64], votes: NDArray[np.float64]) -> list[float]:
    """Main angles of the lines (0 to pi), strongest first, each a peak of the
    vote-weighted angle histogram, ``DIRECTIONS`` at most."""
    bins = 180
    hist = np.bincount((theta / np.pi * bins).astype(int) % bins, weights=votes, minlength=bins)
    smooth = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), np.ones(7) / 7, "same")[6:-6]
    peaks = [
        k
        for k in range(bins)
        if smooth[k] > 0 and smooth[k] >= smooth[(k - 1) % bins] and smooth[k] >= smooth[(k + 1) % bins]
    ]
    peaks.sort(key=lambda k: -smooth[k])
    out: list[float] = []
    for k in peaks:
        ang = (k + 0.5) * np.pi / bins
        if all(angle_apart(ang, a) > np.deg2rad(8) for a in out):
            out.append(ang)
        if len(out) == DIRECTIONS:
            break
    return out


def angle_apart(a: float, b: float) -> float:
    d = abs(a - b) % np.pi
    return min(d, np.pi - d)


def orientation(
    strength: NDArray[np.float32], where: NDArray[np.bool_]
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Each line pixel's angle (0 to pi, the angle of the line's normal, as
    Hough measures it) and how clearly it is a line (structure tensor
    coherence, 0 to 1), at the pixels ``where`` (0 elsewhere: a fifth of a
    photo's pixels are on a line, and the angles cost more than the tensor)."""
    gx = cv2.Sobel(strength, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(strength, cv2.CV_32F, 0, 1, ksize=3)
    jxx = cv2.GaussianBlur(gx * gx, (0, 0), 2.0)[where]
    jyy = cv2.GaussianBlur(gy * gy, (0, 0), 2.0)[where]
    jxy = cv2.GaussianBlur(gx * gy, (0, 0), 2.0)[where]
    normal = np.zeros(strength.shape, np.float32)
    coherence = np.zeros(strength.shape, np.float32)
    normal[where] = (0.5 * np.arctan2(2 * jxy, jxx - jyy)) % np.pi
    coherence[where] = np.sqrt((jxx - jyy) ** 2 + 4 * jxy**2) / (jxx + jyy + 1e-9)
    return normal, coherence


def modes(lines: NDArray[np.float64], weight: NDArray[np.float64]) -> list[tuple[NDArray[np.float64], bool]]:
    """Up to ``MODES`` vanishing points for one direction, each with whether
    it is faint: the one most lines agree on, then the best among the lines
    that do not, and so on. A checked cloth's weave or the table's boards can
    outvote the sheet's shorter lines many times over, so a third point, or
    a second with under 0.4 of the first one's votes, is still offered, as
    faint, when ``MODE_LINES`` lines pass through it."""
    out: list[tuple[NDArray[np.float64], bool]] = []
    rest = np.ones(len(lines), bool)
    first = 0.0
    for _ in range(MODES):
        if rest.sum() < 4:
            break
        vp, w = _vanishing(lines[rest], weight[rest])
        agree = rest & (_miss(lines, vp) < AGREE)
        faint = len(out) >= 2 or (bool(out) and w < 0.4 * first)
        if faint and agree.sum() < MODE_LINES:
            break
        out.append((vp, faint))
        first = max(first, w)
        rest &= ~agree
    return out


def _hough_family(mask: NDArray[np.uint8], d: float, min_votes: int) -> NDArray[np.float64]:
    """(rho, theta, votes) of the lines within ``SPREAD`` of angle ``d``, strongest first."""
    lo, hi = d - SPREAD, d + SPREAD
    ranges = (
        [(lo, hi)]
        if lo >= 0 and hi <= np.pi
        else [
            (max(lo, 0.0), min(hi, np.pi)),
            (lo + np.pi, np.pi) if lo < 0 else (0.0, hi - np.pi),
        ]
    )
    found = []
    for a, b in ranges:
        got = cv2.HoughLinesWithAccumulator(mask, 1, np.pi / 360, min_votes, min_theta=a, max_theta=b)
        if got is not None:
            found.append(got.reshape(-1, 3))
    if not found:
        return np.zeros((0, 3))
    hough = np.concatenate(found).astype(np.float64)
    hough = hough[np.argsort(-hough[:, 2])][:400]
    return hough[distinct(hough, 80)]


def distinct(hough: NDArray[np.float64], most: int) -> list[int]:
    """The rows of ``hough`` ((rho, theta, votes), strongest first) kept as
    one answer per printed line, not one per pixel of its width: a line is
    kept unless a stronger one kept is within 4 px and 1.5 degrees; ``most``
    at most."""
    kept: list[int] = []
    rho, theta = np.zeros(most), np.zeros(most)
    for n, (r, t, _votes) in enumerate(hough):
        apart = np.abs(t - theta[: len(kept)]) % np.pi
        apart = np.minimum(apart, np.pi - apart)
        if np.all((np.abs(r - rho[: len(kept)]) > 4) | (apart > np.deg2rad(1.5))):
            rho[len(kept)], theta[len(kept)] = r, t
            kept.append(n)
            if len(kept) == most:
                break
    return kept


PERCENTILE_SAMPLE = 16
"""Every how many pixels ``high_percentile`` samples for its bound."""


def high_percentile(values: NDArray[np.float32], q: float) -> float:
    """``np.percentile(values, q)`` to the bit, for ``values`` without NaN
    and a ``q`` near 100, found among the largest values alone: ``_crossed``
    asks it of a whole picture several times a photo, and ordering every
    pixel to find the highest half percent took as long as both of its
    blurs.

    The linear percentile lies between the sorted values at the two places
    either side of ``(n - 1) * q / 100``, weighed by the fraction between
    them, so those two values and that fraction fix it. The two are found
    among the values at or above a bound read off every
    ``PERCENTILE_SAMPLE``-th value, where about twice as many lie as the
    two need (checked: when too few do, all are searched), and the
    fraction is applied by ``np.quantile`` itself, to those two alone."""
    flat = values.ravel()
    n = flat.size
    place = (n - 1) * (q / 100)  # np.percentile's own arithmetic, in double precision
    lo = int(np.floor(place))
    if n < 1000 or lo >= n - 1:  # too few values to be worth sampling, or the largest alone
        return float(np.percentile(values, q))
    need = n - lo  # the values from the lower place up
    sample = flat[::PERCENTILE_SAMPLE]
    under = len(sample) - 1 - min(len(sample) - 1, 2 * need // PERCENTILE_SAMPLE + 1)
    bound = np.partition(sample, under)[under]
    top = flat[flat >= bound]
    if len(top) < need:
        top = flat
    at = len(top) - need
    two = np.partition(top, [at, at + 1])[at : at + 2]
    return float(np.quantile(two, place - lo))


def _crossed(da: NDArray[np.float32], db: NDArray[np.float32], window: int) -> NDArray[np.bool_]:
    """Where lines of both directions are dense together: a grid, not the
    grain of a table or the lines of text, which run one way only. ``da``
    and ``db``: each direction's line pixels' share of the ``window``
    around each pixel (``Families.density``)."""
    both = np.sqrt(da * db)
    top = high_percentile(both, 99.5)
    if top <= 0:
        return np.zeros(da.shape, bool)
    region = (both > 0.3 * top).astype(np.uint8)
    return cv2.dilate(region, np.ones((window, window), np.uint8)).astype(bool)


class Families:
    """The photo's line families, paired one per grid direction, made only
    when asked for. Each pair of main angles is looked at only where lines
    of both angles are dense together. More than one pair is offered
    because a checked cloth can make a lattice too; the lattice check
    decides."""

    def __init__(self, strength: NDArray[np.float32]) -> None:
        self.strength = strength
        on = strength > LINE_ON
        normal, coherence = orientation(strength, on)
        on &= coherence > 0.5
        self.min_votes = max(30, min(strength.shape) // 10)
        self.window = max(15, min(strength.shape) // 16)
        self.dirs = directions(normal[on].astype(np.float64), strength[on].astype(np.float64))
        self._at = np.flatnonzero(on)
        self._normal = normal.ravel()[self._at]
        self._near: dict[int, NDArray[np.bool_]] = {}
        self._density: dict[int, NDArray[np.float32]] = {}
        self._made: dict[tuple[int, int], list[tuple[Family, Family]]] = {}
        self._aside: dict[tuple[int, int], list[tuple[Family, Family]]] = {}
        self._windowed: list[tuple[Window, tuple[Family, Family]]] | None = None
        self._regions: dict[tuple[int, int], NDArray[np.bool_]] = {}

    def near(self, k: int) -> NDArray[np.bool_]:
        """The line pixels within ``SPREAD`` of main angle ``k`` (made when first asked for)."""
        if k not in self._near:
            off = np.abs((self._normal - self.dirs[k] + np.pi / 2) % np.pi - np.pi / 2)
            near = np.zeros(self.strength.size, bool)
            near[self._at[off < SPREAD]] = True
            self._near[k] = near.reshape(self.strength.shape)
        return self._near[k]

    def density(self, k: int) -> NDArray[np.float32]:
        """The share of line pixels of main angle ``k`` (``near``) in the
        ``window`` around each pixel, made once: every pair of main angles
        that ``k`` is in asks for it (``_crossed``)."""
        if k not in self._density:
            self._density[k] = np.asarray(
                cv2.blur(self.near(k).astype(np.float32), (self.window, self.window)), np.float32
            )
        return self._density[k]

    def _families(self, mine: NDArray[np.bool_], k: int) -> list[Family]:
        """The families of main angle ``k`` among the line pixels ``mine``."""
        hough = _hough_family(mine.astype(np.uint8) * 255, self.dirs[k], self.min_votes)
        if len(hough) < 4:
            return []
        lines = to_lines(hough, self.strength.shape)
        ys, xs = np.nonzero(mine)
        px = np.stack([xs, ys, self.strength[ys, xs]], axis=1).astype(np.float64)
        late = k >= FIRST_LOOK
        return [Family(lines, hough[:, 2], vp, px, faint or late) for vp, faint in modes(lines, hough[:, 2])]

    def _region(self, i: int, j: int) -> NDArray[np.bool_]:
        """Where lines of main angles ``i`` and ``j`` are dense together."""
        if (i, j) not in self._regions:
            self._regions[i, j] = _crossed(self.density(i), self.density(j), self.window)
        return self._regions[i, j]

    def _pair(self, i: int, j: int) -> list[tuple[Family, Family]]:
        """Every pairing of the families of main angles ``i`` and ``j``."""
        if (i, j) not in self._made:
            region = self._region(i, j)
            fams = [self._families(self.near(k) & region, k) for k in (i, j)]
            self._made[i, j] = [(a, b) for a in fams[0] for b in fams[1]]
        return self._made[i, j]

    def _towards(self, mine: NDArray[np.bool_], vp: NDArray[np.float64]) -> NDArray[np.bool_]:
        """The pixels of ``mine`` that lie along a line through ``vp``: their
        own direction (``orientation``) points at it."""
        h, w = self.strength.shape
        f = float(max(h, w))
        at = np.flatnonzero(mine)  # all line pixels, so among ``_at``, which is sorted
        own = self._normal[np.searchsorted(self._at, at)]
        ys, xs = np.divmod(at, w)
        x, y = (xs - w / 2.0) / f, (ys - h / 2.0) / f
        to_vp = np.arctan2(vp[1] - y * vp[2], vp[0] - x * vp[2])
        off = np.abs((own - (to_vp + np.pi / 2) + np.pi / 2) % np.pi - np.pi / 2)
        out = np.zeros_like(mine)
        out[ys[off < TOWARDS], xs[off < TOWARDS]] = True
        return out

    def _set_aside(self, i: int, j: int) -> list[tuple[Family, Family]]:
        """The pairings of families found once each direction's strongest
        vanishing point has had its lines taken away, pixel by pixel.

        A checked cloth's stripes run the whole picture and can lie within a
        few degrees of the sheet's lines: they outvote the sheet's short
        lines in the Hough transform, so its lines are not among those
        found, and the weave's pixels swamp the sheet's in the combs. The
        sheet's lines point at another vanishing point, so taking away every
        pixel whose own direction points at the cloth's leaves the sheet's
        lines to be found by themselves."""
        if (i, j) not in self._aside:
            made = self._pair(i, j)
            both: list[list[Family]] = [[], []]
            for n, k in enumerate((i, j)):
                if made:  # made[0] pairs each direction's strongest point
                    rest = self.near(k) & self._region(i, j)
                    both[n] = self._families(rest & ~self._towards(rest, made[0][n].vanishing), k)
            self._aside[i, j] = [(a, b) for a in both[0] for b in both[1]]
        return self._aside[i, j]

    def _angle_pairs(self) -> list[tuple[int, int]]:
        """The pairs of main angles (by index) at least ``APART`` apart."""
        d = self.dirs
        every = [(i, j) for i in range(len(d)) for j in range(i + 1, len(d))]
        return [(i, j) for i, j in every if angle_apart(d[i], d[j]) >= APART]

    def pairs(self, faint: bool) -> list[tuple[Family, Family]]:
        """The pairs without a faint family, or (``faint``) those with one:
        a vanishing point far fewer lines meet at, or a main angle after
        the first ``FIRST_LOOK`` (a sheet beside printed pages, whose lines
        of text make the strongest angles)."""
        out = []
        for i, j in self._angle_pairs():
            if faint or j < FIRST_LOOK:
                out += [p for p in self._pair(i, j) if (p[0].faint or p[1].faint) == faint]
        return out

    def first_pairs(self) -> list[tuple[Family, Family]]:
        """The pairs without a faint family of the first two main angles
        apart enough: on a plain photo, the grid's own two directions.
        Made alone, so that ``pairs`` makes the other angles' pairs only
        when asked for."""
        first = self._angle_pairs()[:1]
        return [
            p for i, j in first if j < FIRST_LOOK for p in self._pair(i, j) if not (p[0].faint or p[1].faint)
        ]

    def set_aside(self) -> list[tuple[Family, Family]]:
        """The pairs of every two main angles apart enough (``_set_aside``)."""
        return [p for i, j in self._angle_pairs() for p in self._set_aside(i, j)]

    def windowed(self) -> list[tuple[Window, tuple[Family, Family]]]:
        """For each window of the picture (``WINDOWS`` each way) and each
        two of the first ``FIRST_LOOK`` main angles apart enough, the pair
        of the strongest families of the lines within the window alone.

        A sheet lying within a degree or two of a plaid's stripes meets
        the whole picture's lines at no vanishing point of its own: the
        plaid's long stripes outvote its short lines, which miss the
        plaid's points by too little for their pixels to be told from the
        plaid's and set aside (``TOWARDS``). But the sheet hides the plaid
        under it: in a window that the sheet fills most of, the strongest
        lines are the sheet's, and so is their vanishing point."""
        if self._windowed is None:
            h, w = self.strength.shape
            pairs = [(i, j) for i, j in self._angle_pairs() if j < FIRST_LOOK]
            self._windowed = []
            for row, col in np.ndindex(WINDOWS, WINDOWS):
                top, left = row * h // (WINDOWS + 1), col * w // (WINDOWS + 1)
                edges = (top, left, top + 2 * h // (WINDOWS + 1), left + 2 * w // (WINDOWS + 1))
                window = np.zeros((h, w), bool)
                window[edges[0] : edges[2], edges[1] : edges[3]] = True
                # each main angle's strongest family here once, whichever pairs it is in
                mine = {
                    k: self._families(self.near(k) & window, k)[:1] for k in {k for p in pairs for k in p}
                }
                self._windowed += [(edges, (x, y)) for i, j in pairs for x in mine[i] for y in mine[j]]
        return self._windowed
