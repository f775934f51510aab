"""Stage 2b: find the grid as twelve evenly spaced lines each way.

With both vanishing points known (``lines``), a projective map sends them to
infinity: the grid's lines become two sets of parallel lines, and an affine
map turns those upright and level. Equal spacing survives an affine map, so
in that frame the grid is simply twelve equally spaced columns of line ink
and twelve equally spaced rows.

Each is found as a comb: for every spacing and offset, the ink under the
twelve teeth against the ink halfway between them. The teeth are judged by a
low quantile, so a comb must find ink at nearly every tooth (one or two may
be missing where a frame swallows the outer line or a hand covers a corner),
and by the gaps, so a comb of half or double the spacing loses. A comb found
is then slid by whole squares toward the strips the other direction's lines
cross, which leaves the title, the coin track and the frame out.

A checked cloth's stripes run the whole picture, and the sheet's lines only
its own part: summed over the whole picture, a cloth lying parallel to the
sheet outvotes the grid at every offset. The banded search sums each
direction's lines only over a band of the other direction, so that within
the band where the sheet lies, the sheet hides the cloth under it.

In every search, a lattice that runs on past its outline on two sides or
more is not offered: the map's lines stop at its outline, and a cloth's or
squared paper's run on. Each lattice offered costs a fit and four readings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.lines import Family, parallel

TEETH = SIZE + 1
"""Lines of the grid each way, the outline included."""
ROOM = 0.03
"""Share of the line pixels' extent searched beyond it at each end."""
MIN_SPACING = 7.0
"""Smallest square, in rectified pixels, worth looking for."""
BANDS = (2, 3, 5)
"""How many half-overlapping bands the banded search cuts the other
direction's extent into: bands of two thirds, a half and a third of it."""
BAND_KEEP = 2
"""Combs kept from each band."""


@dataclass(frozen=True)
class Comb:
    offset: float
    spacing: float
    score: float

    @property
    def end(self) -> float:
        return self.offset + SIZE * self.spacing


def _rectifier(a: Family, b: Family) -> NDArray[np.float64] | None:
    """The 3x3 map taking normalised picture coordinates to a frame where
    family ``a`` is upright and family ``b`` is level, or None when the two
    vanishing points put the horizon across the picture."""
    horizon = np.cross(a.vanishing, b.vanishing)
    if abs(horizon[2]) < 1e-9 or np.hypot(horizon[0], horizon[1]) / abs(horizon[2]) > 1.6:
        return None  # the horizon would cross (or nearly cross) the photo
    p = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], horizon / horizon[2]], np.float64)
    da, db = (p @ a.vanishing)[:2], (p @ b.vanishing)[:2]
    basis = np.column_stack([db, da])
    if abs(np.linalg.det(basis)) < 1e-9 * np.linalg.norm(da) * np.linalg.norm(db):
        return None
    m = np.eye(3)
    m[:2, :2] = np.linalg.inv(basis)
    return m @ p


def _apply(
    h: NDArray[np.float64], x: NDArray[np.float64], y: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    u = h[0, 0] * x + h[0, 1] * y + h[0, 2]
    v = h[1, 0] * x + h[1, 1] * y + h[1, 2]
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    return u / w, v / w, w


def combs(profile: NDArray[np.float64], min_spacing: float, keep: int = 4) -> list[Comb]:
    """The best twelve-tooth combs along ``profile``, best first.

    A tooth counts the ink it finds up to a cap (the strength of a typical
    line), so one very strong line, a frame's edge or the table's, cannot
    make up for missing ones; the gaps halfway between the teeth count
    against the comb, so half and double the spacing lose."""
    n = len(profile)
    padded = np.pad(profile, 2, mode="edge")
    top = np.maximum.reduce([padded[i : i + n] for i in range(5)])  # a tooth may miss by 2 px
    peaks = top[top > 0]
    cap = float(np.percentile(peaks, 90)) if len(peaks) else 0.0
    if cap <= 0:
        return []
    capped = (np.minimum(top, cap) / cap).astype(np.float32)
    level = np.minimum(profile / cap, 1.0).astype(np.float32)
    spacings: list[float] = []
    s = max(min_spacing, MIN_SPACING)
    while s * SIZE < n - 2:
        spacings.append(s)
        s *= 1.012
    if not spacings:
        return []
    ss = np.array(spacings)[:, None]
    reach = [int(n - 1 - SIZE * s) for s in spacings]  # offsets 0 .. m - 1, whole pixels
    # an offset is a whole pixel, so each tooth (and each gap) is the
    # profile shifted by a fixed amount: sum shifted slices
    teeth = _shifted_sums(capped, np.rint(np.arange(TEETH) * ss).astype(int), reach[0])
    gaps = _shifted_sums(level, np.rint((np.arange(SIZE) + 0.5) * ss).astype(int), reach[0])
    scores = teeth / TEETH - 2.0 * gaps / SIZE
    out: list[Comb] = []
    for s, m, row in zip(spacings, reach, scores, strict=True):
        score = row[:m]
        for i in np.argpartition(-score, min(2, len(score) - 1))[:2]:
            out.append(Comb(float(i), s, float(score[i])))
    out.sort(key=lambda c: -c.score)
    chosen: list[Comb] = []
    for c in out:
        if c.score <= 0:
            break
        if not any(_same_comb(c, d) for d in chosen):
            chosen.append(c)
        if len(chosen) == keep:
            break
    return chosen


def _shifted_sums(profile: NDArray[np.float32], shifts: NDArray[np.intp], m: int) -> NDArray[np.float32]:
    """For each row of ``shifts``: ``profile[t : t + m]`` summed over its
    shifts t, first to last, as a row of the answer (past the profile's
    end, zeros: a row's comb of wider spacing has fewer offsets than
    ``m``, and its caller reads only those).

    Every spacing's sums at once, one column of shifts at a time: a comb
    search tries some two hundred spacings, each with 23 sums, and a
    slice added at a time (on a photo whose searches make a thousand comb
    searches, 370,000 small sums, 3.4 s) cost two and a half times as
    long. Each sum still adds the same numbers in the same order, so every
    score is the same to the last bit."""
    padded = np.zeros(int(shifts.max()) + m, np.float32)
    padded[: len(profile)] = profile[: len(padded)]
    windows = np.lib.stride_tricks.sliding_window_view(padded, m)
    out = windows[shifts[:, 0]]  # indexed by an array: a copy
    for t in shifts[:, 1:].T:
        out += windows[t]
    return out


class _Segments:
    """One direction's ink, measured against pairs of combs: for each, the
    share of the ten inner lines' segments, one per band of squares, where
    the ink lies on the line rather than between lines.

    A search weighs every comb of one direction against every comb of the
    other, so what depends on one comb alone (where each pixel falls among
    its lines, or in which band) is worked out once per comb and kept."""

    def __init__(
        self, across: NDArray[np.float64], along: NDArray[np.float64], weight: NDArray[np.float64]
    ) -> None:
        self.across, self.along, self.weight = across, along, weight
        self._lines: dict[Comb, tuple[NDArray[np.generic], ...]] = {}
        self._bands: dict[Comb, NDArray[np.intp]] = {}

    def _on_lines(self, lines: Comb) -> tuple[NDArray[np.generic], ...]:
        """The pixels between the outer lines that lie on a line, which line
        and their ink; those that lie halfway between two, which square and
        their ink."""
        if lines not in self._lines:
            t = (self.across - lines.offset) / lines.spacing
            inside = (t > 0.3) & (t < SIZE - 0.3)
            near = np.rint(t).astype(int)
            frac = t - np.floor(t)
            tol = min(0.12, max(0.06, 2.5 / lines.spacing))
            on = np.flatnonzero(inside & (np.abs(t - near) < tol))
            mid = np.flatnonzero(inside & (np.abs(frac - 0.5) < tol))
            w = self.weight
            self._lines[lines] = on, near[on], w[on], mid, np.floor(t[mid]).astype(int), w[mid]
        return self._lines[lines]

    def _in_bands(self, bands: Comb) -> NDArray[np.intp]:
        """Each pixel's band of squares, ``SIZE`` for a pixel in none: counted
        there, and that band left out, the pixels outside the grid need not
        be picked out for every pair of combs. Each band's count still adds
        the same ink in the same order."""
        if bands not in self._bands:
            band = np.floor((self.along - bands.offset) / bands.spacing).astype(int)
            self._bands[bands] = np.where((band >= 0) & (band < SIZE), band, SIZE)
        return self._bands[bands]

    def __call__(self, lines: Comb, bands: Comb) -> float:
        on, near, on_ink, mid, cell, mid_ink = self._on_lines(lines)
        band = self._in_bands(bands)
        rows = SIZE + 1  # the grid's bands, and the one for ink outside them
        counts = np.bincount(band[on] * (SIZE + 1) + near, weights=on_ink, minlength=rows * (SIZE + 1))
        inner = counts.reshape(rows, SIZE + 1)[:SIZE, 1:SIZE]
        gap = np.bincount(band[mid] * SIZE + cell, weights=mid_ink, minlength=rows * SIZE).reshape(
            rows, SIZE
        )[:SIZE]
        beside = np.maximum(gap[:, :-1], gap[:, 1:])
        typical = float(np.median(inner))
        if typical <= 0:
            return 0.0
        return float(np.mean((inner > 1.5 * beside) & (inner > 0.25 * typical)))


def _support(a: _Segments, b: _Segments, cu: Comb, cv: Comb) -> float:
    """How well the columns ``cu`` and rows ``cv`` fit both directions' ink
    (``a`` the upright lines' ink, ``b`` the level lines')."""
    return min(a(cu, cv), b(cv, cu))


def _shifted(c: Comb, by: int) -> Comb:
    return Comb(c.offset + by * c.spacing, c.spacing, c.score)


def _strip_fits(
    across: NDArray[np.float64],
    along: NDArray[np.float64],
    weight: NDArray[np.float64],
    strips: Comb,
    bands: Comb,
) -> NDArray[np.float64 | np.intp]:
    """For each strip of ``strips`` from one before the grid to one after it
    (13): how much of the other direction's ink in it lies on the twelve
    lines of ``bands`` rather than between them. High inside the grid, where
    every line crosses the strip, and low on a frame, a margin or the table.
    One pass over the ink for all thirteen strips: a checked cloth offers
    hundreds of lattices, and each is slid and checked this way."""
    return _fits_in(_in_strips(across, along, weight, strips), bands)


_Cut = tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]
"""The ink in a comb's thirteen strips (``_in_strips``): each pixel's strip,
0 to 12, its position along the strips, and its weight."""


def _in_strips(
    across: NDArray[np.float64], along: NDArray[np.float64], weight: NDArray[np.float64], strips: Comb
) -> _Cut:
    """The ink in the strips of ``strips`` from one before the grid to one
    after it, for ``_fits_in``: what ``_strip_fits`` measures that depends on
    ``strips`` alone, a pass over all the ink, where the rest is a pass over
    the ink in the strips."""
    j = np.floor((across - strips.offset) / strips.spacing)
    keep = (j >= -1) & (j <= SIZE)
    return j[keep].astype(int) + 1, along[keep], weight[keep]


def _fits_in(cut: _Cut, bands: Comb) -> NDArray[np.float64 | np.intp]:
    """``_strip_fits`` of the ink ``cut`` to a comb's strips (``_in_strips``)."""
    j, along, w = cut
    t = (along - bands.offset) / bands.spacing
    tol = min(0.12, max(0.06, 2.5 / bands.spacing))
    near = np.rint(t)
    frac = t - np.floor(t)
    on = (np.abs(t - near) < tol) & (near >= 0) & (near <= SIZE)
    mid = (np.abs(frac - 0.5) < tol) & (t > 0) & (t < SIZE)
    # weighed counts are float64, but a bincount of nothing is integer zeros
    # whatever its weights: no ink on the lines or between them gives integers
    on_lines = np.bincount(j[on], weights=w[on], minlength=SIZE + 2)
    return on_lines - np.bincount(j[mid], weights=w[mid], minlength=SIZE + 2)


Crossings = Callable[[Comb, Comb], tuple[list[float], float]]
"""``_crossings`` over one direction's ink: the strips of a comb crossed by
the lines of another, and half a typical row's."""


def _slide(strips: Comb, bands: Comb, crossings: Crossings) -> Comb:
    """Move ``strips`` by whole squares toward the side where the other
    direction's lines cross it: a comb that took a frame's edge or a line of
    the margin for the grid's outline is one square off. The strip beyond
    must be crossed as a row of the grid is, at least half as much as the
    typical row; the ink of a title or a coin track beyond a grid whose
    first row is crowded with a player's drawings must not pull it a
    square off the sheet's true grid."""
    for _ in range(2):
        fit, half = crossings(strips, bands)
        before, first, last, after = fit[0], fit[1], fit[SIZE], fit[SIZE + 1]
        if after >= half > first and after - first >= before - last:
            strips = _shifted(strips, 1)
        elif before >= half > last:
            strips = _shifted(strips, -1)
        else:
            break
    return strips


def _runs_on(cols: Comb, rows: Comb, by_cols: Crossings, by_rows: Crossings) -> bool:
    """Whether the lattice of ``cols`` and ``rows`` runs on beyond its
    outline on at least two sides: the strip a square beyond is crossed by
    its lines at least half as much as its typical row or column. The map's
    lines stop at its outline, so at most the title or the coin track beyond
    one side may happen to be crossed; a patch of cloth in a corner of the
    picture runs on towards the other two. ``by_cols`` measures the columns'
    strips (crossed by the level lines), ``by_rows`` the rows'."""
    return crossed_beyond(
        crossings(strips, bands)[0]
        for strips, bands, crossings in ((cols, rows, by_cols), (rows, cols, by_rows))
    )


def crossed_beyond(both_ways: Iterable[Sequence[float]]) -> bool:
    """Whether, of the strips a square beyond a grid's outline on its four
    sides, two or more are crossed by its lines at least half as much as
    its typical row or column; ``both_ways``: for each direction's strips,
    from the one before the grid to the one after it, how much each is
    crossed (``_strip_fits``, or ``grid``'s bands of a fitted grid)."""
    crossed = 0
    for fit in both_ways:
        half = _half_a_row(fit)
        crossed += int(fit[0] >= half) + int(fit[SIZE + 1] >= half)
    return crossed >= 2


def _half_a_row(fit: Sequence[float]) -> float:
    """Half the median of ``fit`` inside the grid (a typical row's)."""
    return 0.5 * float(np.median(fit[1 : SIZE + 1]))


def _crossings(strips: Comb, bands: Comb, cut: _Cut) -> tuple[list[float], float]:
    """``_strip_fits`` of ``strips``, from the ink ``cut`` to them
    (``_in_strips``), and half a typical row's (``_half_a_row``)."""
    fit = _fits_in(cut, bands).tolist()
    return fit, _half_a_row(fit)


def _measured_once(cross: tuple[NDArray[np.float64], ...]) -> Crossings:
    """``_crossings`` over the ink ``cross``, each pair of combs measured
    once: a lattice's slides and its check for running on ask for the same
    pair again whenever a comb does not move, as it mostly does not. The
    ink is cut to a comb's strips once too: every comb of one direction is
    slid against every comb of the other (up to twenty of them in a
    banded search), and cutting the ink, a pass over all of it, cost as
    long as measuring the strips."""
    memo: dict[tuple[Comb, Comb], tuple[list[float], float]] = {}
    cuts: dict[Comb, _Cut] = {}
    across, along, weight = cross

    def crossings(strips: Comb, bands: Comb) -> tuple[list[float], float]:
        if (strips, bands) not in memo:
            if strips not in cuts:
                cuts[strips] = _in_strips(across, along, weight, strips)
            memo[strips, bands] = _crossings(strips, bands, cuts[strips])
        return memo[strips, bands]

    return crossings


def _profile(pos: NDArray[np.float64], weight: NDArray[np.float64], length: int) -> NDArray[np.float64]:
    keep = (pos >= 0) & (pos < length)
    return np.bincount(pos[keep].astype(int), weights=weight[keep], minlength=length).astype(np.float64)


def _extent(pos: NDArray[np.float64]) -> tuple[float, float]:
    """Where the line pixels lie along one axis, from their 0.5th to their
    99.5th percentile and ``ROOM`` of that beyond each end."""
    lo, hi = np.percentile(pos, [0.5, 99.5])
    room = ROOM * (hi - lo)
    return float(lo - room), float(hi + room)


def _banded_combs(
    across: NDArray[np.float64],
    along: NDArray[np.float64],
    weight: NDArray[np.float64],
    n: int,
    n_along: int,
    min_spacing: float,
) -> list[Comb]:
    """The best combs of each band along the other direction (``BANDS``),
    each found from the line pixels in its band alone, without repeats.

    A cloth beside the sheet, within the band, makes as good a comb at
    every whole stripe it is shifted by; those are one lattice, and only
    the best of them is kept, so that the sheet's comb is kept too."""
    out: list[Comb] = []
    for count in BANDS:
        length = 2.0 * n_along / (count + 1)
        if length < min_spacing * SIZE:
            continue
        for k in range(count):
            lo = k * length / 2
            keep = (along >= lo) & (along < lo + length)
            mine: list[Comb] = []
            for c in combs(_profile(across[keep], weight[keep], n), min_spacing, keep=3 * BAND_KEEP):
                if len(mine) < BAND_KEEP and not any(_repeats(c, d) for d in mine):
                    mine.append(c)
            out += [c for c in mine if not any(_same_comb(c, d) for d in out)]
    return out


def _same_spacing(c: Comb, d: Comb) -> bool:
    """Whether combs ``c`` and ``d`` are about as finely spaced (within 5 %)."""
    return abs(c.spacing - d.spacing) <= d.spacing * 0.05


def _same_comb(c: Comb, d: Comb) -> bool:
    """Whether comb ``c`` is ``d``: about the same spacing and offset."""
    return abs(c.offset - d.offset) <= d.spacing / 2 and _same_spacing(c, d)


def _repeats(c: Comb, d: Comb) -> bool:
    """Whether comb ``c`` is ``d`` again: about the same spacing, over more
    than half of ``d``'s span (the same lattice, shifted by whole lines)."""
    overlap = min(c.end, d.end) - max(c.offset, d.offset)
    return _same_spacing(c, d) and overlap > 0.5 * SIZE * d.spacing


def lattices(
    strength: NDArray[np.float32], pair: tuple[Family, Family], min_grid: float, banded: bool = False
) -> list[tuple[float, NDArray[np.float64]]]:
    """Grid candidates for one pair of families: (score, corners in
    ``strength`` pixels, clockwise from any corner), best first, none that
    runs on past its outline (``_runs_on``). ``banded``: each direction's
    combs found band by band of the other (a sheet lying parallel to a
    checked cloth), not over the whole picture."""
    h_norm = _rectifier(*pair)
    if h_norm is None:
        return []
    hgt, wid = strength.shape
    f, cx, cy = float(max(hgt, wid)), wid / 2.0, hgt / 2.0
    to_norm = np.array([[1 / f, 0, -cx / f], [0, 1 / f, -cy / f], [0, 0, 1.0]])
    h = h_norm @ to_norm
    # scale each axis so that a pixel at the centre of the photo stays about a pixel
    u0, v0, _ = _apply(h, np.array([cx]), np.array([cy]))
    ux, vx, _ = _apply(h, np.array([cx + 1.0]), np.array([cy]))  # one pixel right
    uy, vy, _ = _apply(h, np.array([cx]), np.array([cy + 1.0]))  # one pixel down
    su = 1.0 / max(float(np.hypot(ux - u0, uy - u0)[0]), 1e-12)
    sv = 1.0 / max(float(np.hypot(vx - v0, vy - v0)[0]), 1e-12)
    pa, pb = pair[0].pixels, pair[1].pixels
    ua, va, wa = _apply(h, pa[:, 0], pa[:, 1])
    ub, vb, wb = _apply(h, pb[:, 0], pb[:, 1])
    ka, kb = wa > 0, wb > 0
    ua, va, sa = ua[ka] * su, va[ka] * sv, pa[ka, 2]
    ub, vb, sb = ub[kb] * su, vb[kb] * sv, pb[kb, 2]
    if len(ua) < 50 or len(ub) < 50:
        return []
    # the lines' extent, a stray far pixel left out, and a little room beyond
    # it: a grid filling the picture has its outline among the last pixels
    lo_u, hi_u = _extent(np.concatenate([ua, ub]))
    lo_v, hi_v = _extent(np.concatenate([va, vb]))
    if hi_u - lo_u > 6 * f or hi_v - lo_v > 6 * f:
        return []
    ua, ub, va, vb = ua - lo_u, ub - lo_u, va - lo_v, vb - lo_v
    nu, nv = int(hi_u - lo_u) + 2, int(hi_v - lo_v) + 2
    found: list[tuple[float, NDArray[np.float64]]] = []
    if banded:
        cols = _banded_combs(ua, va, sa, nu, nv, min_grid / SIZE)
        rows = _banded_combs(vb, ub, sb, nv, nu, min_grid / SIZE)
    else:
        cols = combs(_profile(ua, sa, nu), min_grid / SIZE, keep=4)
        rows = combs(_profile(vb, sb, nv), min_grid / SIZE, keep=4)
    fa, fb = _Segments(ua, va, sa), _Segments(vb, ub, sb)
    pairs = sorted(((_support(fa, fb, cu, cv), cu, cv) for cu in cols for cv in rows), key=lambda t: -t[0])
    back = np.linalg.inv(h)
    by_cols, by_rows = _measured_once((ub, vb, sb)), _measured_once((va, ua, sa))
    kept = 0
    for support, cu, cv in pairs:
        if kept == 3:
            break
        for _ in range(2):
            cu, cv = _slide(cu, cv, by_cols), _slide(cv, cu, by_rows)
        if _runs_on(cu, cv, by_cols, by_rows):
            continue  # a cloth's or squared paper's lattice runs on past any twelve lines; the map's stops
        kept += 1
        support = _support(fa, fb, cu, cv)
        corners_r = np.array(
            [[cu.offset, cv.offset], [cu.end, cv.offset], [cu.end, cv.end], [cu.offset, cv.end]]
        )
        x, y, _ = _apply(back, (corners_r[:, 0] + lo_u) / su, (corners_r[:, 1] + lo_v) / sv)
        quad = np.stack([x, y], axis=1)
        if np.all(np.isfinite(quad)):
            found.append((support, quad))
    found.sort(key=lambda t: -t[0])
    return found


def parallel_lattices(
    strength: NDArray[np.float32], pair: tuple[Family, Family], min_grid: float, banded: bool = False
) -> list[tuple[float, NDArray[np.float64]]]:
    """``lattices`` of ``pair`` with each family's lines taken as parallel
    (``lines.parallel``), for a pair whose vanishing points allow no
    rectification; none for a pair that does, whose own lattices are those.
    A small sheet's few short lines are what put the horizon across the
    picture, and over a small sheet the lines are all but parallel."""
    if _rectifier(*pair) is not None:
        return []
    return lattices(strength, (parallel(pair[0]), parallel(pair[1])), min_grid, banded)
