"""Stage 2: find the map grid in the photo, by its lattice.

What every Cartographers sheet shares, whatever its frame, paper, ink or
layout, is eleven squares each way: twelve evenly spaced thin lines that
cross at right angles on the paper. The reader looks for exactly that
(``lines`` finds the thin lines and their vanishing points, ``lattice`` the
twelve-line combs; ``paper``, last, the faint lines of a blurred sheet on
its paper alone), so it needs neither the thickest outline nor black ink
nor a page that fills the picture.

Each candidate is then fitted precisely: every grid line's position is
measured square by square near where the candidate puts it, and a
homography is fitted through the crossings of the lines that were clearly
seen. A frame that swallows the outline, or a hand over a corner, costs only
those lines. Candidates are returned best first; the reader's check against
the side's printed mountains has the last word.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.rules.i18n import _
from referee.vision.errors import NoGridError
from referee.vision.lattice import crossed_beyond, lattices, parallel_lattices
from referee.vision.lines import Families, Family, line_map
from referee.vision.paper import PaperFamilies, outline

DETECT_SIDE = 1000
"""Longer side of the picture searched for the grid, in pixels."""
SMALLEST = 0.2
"""Smallest grid side looked for, as a share of the picture's shorter side."""
MIN_SUPPORT = 0.6
"""Least share of the inner lines' segments seen for a grid to be offered
as soon as its search finds it."""
QUICK_SUPPORT = 0.9
"""Least share of the inner lines' segments seen for the first look's
best scored lattice to be offered before any other is fitted
(``_Look.quick``). Most photos are plain: their grid is that lattice,
seen along nearly every line, and fitting five more lattices to rank
them (some 20 ms each) only delays the same answer. Nine in ten, so that
a lattice seen less clearly waits for the others to be ranked. Chosen on
two training draws before any measured set was read
(``tools/make_samples.py --seed 32000 --count 300 --designs train``, and
``--seed 31000 --count 400 --designs train --hard 1``)."""
FAINT_SUPPORT = 0.2
"""Least share for a grid to be offered at all, after every search's
clearer grids. A dim or blurred photo's thin lines stand out from the paper
in few segments, and a player's colour hides others, so its true grid can
be seen in only a third of them; the reader's check against the side's
printed mountains judges such a grid."""
KEEP = 3
"""Candidates each search hands to the reader's check."""
FITS = 8 * KEEP
"""Lattices, at most, that one search fits (``_Look.grids``). A lattice whose
fit is no grid a camera could see (the boards of a table or a cloth's
stripes paired with the sheet's lines) takes no candidate's place, so the
search goes on down its list; this bounds what such a picture costs, at
some 17 ms a fit."""
ONE_FIT = 0.1
"""Squares within which two fitted grids are one grid: lattices a square
apart can both be fitted onto the sheet's grid (the fit moves a lattice
onto the lines that run on past it), and the grid offered twice is read
twice, alike, each time four ways up."""
FIT_SQUARE = 32.0
"""Largest square, in pixels, at which a grid not clearly seen at the
photo's own size is fitted again (``_Look.fitted``). Chosen on 73 blurred
photos of our training draws (seeds 12000 and 13000) whose squares are over
40 px: with the coarse search, 32 found one grid more than 48."""
FAINT_GAIN = 2.0
"""How much stronger lines are seen in the searches for a blurred photo's grid."""
COARSE_SIDE = 500
"""Longer side of the picture in the last searches: blur widens a large
grid's lines past what ``line_map`` sees as thin at ``DETECT_SIDE``."""
COARSE_SMALLEST = 0.4
"""Smallest grid side the coarse searches look for, as a share of the
picture's shorter side. A smaller grid has squares under some 27 px at
``DETECT_SIDE``; blur that widens its lines past what is seen as thin there
smears a fifth of each square, too much to read it anyway."""
LOOKS = (
    (DETECT_SIDE, 1.0, SMALLEST, False),
    (DETECT_SIDE, FAINT_GAIN, SMALLEST, False),
    (COARSE_SIDE, FAINT_GAIN, COARSE_SMALLEST, False),
    (DETECT_SIDE, 1.0, SMALLEST, True),
)
"""The searches, in order: (longer side of the picture, gain on its lines,
smallest grid looked for, whether combs are found band by band). Only the
coarse one fits its grids at a smaller size too (``_Look.fitted``)."""
PAPER_LOOK = (COARSE_SIDE, FAINT_GAIN, SMALLEST, False)
"""The last search, among the lines on the sheet's paper alone (``paper``),
as ``LOOKS``: on the coarse picture, where a blurred line is narrower and a
phone's noise averaged out, but for any grid a search at full size looks
for, since a small sheet on a busy table is what it is for. Chosen on the
46 photos of four training draws whose grids the searches before it miss
(seeds 20000, 21000 and 22000, 800 photos each, and the all-hard 31000
of 400): at 500 px it finds 10 of them in place, at 1,000 px 5, at 700 px
8, and both 500 and 700 px 11."""
FOCAL_RANGE = (0.3, 5.0)
"""Focal lengths a photo may have been taken with, as a share of the
picture's longer side: from wider than any phone's main camera (about 0.7)
to a long zoom."""
UNSQUARE = 0.5
"""Largest ``unsquare`` of a grid: the map is a square on paper. The true
grids of 4,550 photos of our training draws (seeds 14000 to 16000, tilted
up to 49 degrees) score at most 0.34, nearly all under 0.2; a grid twice as
tall as wide seen head on scores 0.69. Such a grid came from a sheet's
lines under letters in every square, and passed the check on the printed
spaces by chance."""
MOVES = 5
"""Whole squares, at most, that a refused grid is moved along each of its
directions to where its lattice is seen best (``_Look.moved``): found on
our draws three and four squares off, on the coin track and season boxes."""
_MOVES = [(d, 0) for d in range(-MOVES, MOVES + 1) if d] + [(0, d) for d in range(-MOVES, MOVES + 1) if d]
OTHER_FITS = FITS // 2
"""Lattices, at most, fitted when other grids are looked for beside the one
read (``other_grids``): a fit costs some 17 ms; a sheet clearly seen is
among the best scored lattices of what is left, after a few that take a
frame's lines for the grid's and fit no grid."""
LIKE_SIZE = 2.0
"""How many times larger or smaller another sheet's squares may look than
the read grid's for it to be taken for a sheet: a tilt foreshortens one
sheet more than another, but a cloth's checks or squared paper come in
any size."""
ITS_SHEET = (2.0, 5.0, 2.0, 6.0)
"""Squares beyond a read grid's left, top, right and bottom edges, its way
up, that its own sheet may fill and that are set aside when another grid is
looked for (``other_grids``): every printing has the title and the name
lines above the grid and the coin track and the season boxes below it, and
their long lines would again outvote a smaller sheet's beside it."""
NO_GRID = _("no map grid found: fit the whole grid in the picture, with all four corners visible")
MARKED_NO_GRID = _(
    "the four points marked are not the corners of a map grid: mark the four outer corners of the grid"
)

Quad = NDArray[np.float32]


class Candidate(NamedTuple):
    """A grid the lattice search offers, and how much of its lattice is seen."""

    quad: Quad
    """Outer corners in the photo's pixels, clockwise from any corner."""
    support: float
    """``lattice_support``: the share of the inner lines' segments seen."""
    outvoted: bool = False
    """Found only among lines that stronger ones outvoted (``Families.set_aside``,
    ``Families.windowed``)."""
    marked: bool = False
    """Fitted near the corners the player marked on the photo (``marked_grids``)."""

    @property
    def clear(self) -> bool:
        """Whether the grid is clearly seen, or the player marked it. A
        lattice found only once the picture's strongest lines were set aside
        is never clear, however well its lines are seen: set aside, a
        texture's lines (a photo of something else, a cloth) make lattices
        that the first looks never offered, so the reader's stricter check
        for faint grids judges it. A grid the player marked is where the
        player says, however faint its lines in a blurred or dim photo."""
        return self.marked or self.support >= MIN_SUPPORT and not self.outvoted


C = 16
"""Canvas pixels per square while fitting."""


def _order(quad: NDArray[np.float64]) -> Quad:
    """Corners in clockwise order as seen in the picture, starting anywhere."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    return quad[np.argsort(ang)].astype(np.float32)


def _unit_square() -> NDArray[np.float32]:
    return np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)


def _on_canvas(strength: NDArray[np.float32], quad: Quad, pad: int) -> NDArray[np.float32]:
    """``strength`` straightened through ``quad``: ``C`` pixels a square, ``pad`` all round."""
    n = SIZE * C + 2 * pad
    h = cv2.getPerspectiveTransform(_unit_square(), quad)
    to_canvas = np.array([[C, 0, pad], [0, C, pad], [0, 0, 1]], np.float64)
    canvas = cv2.warpPerspective(strength, to_canvas @ np.linalg.inv(h), (n, n), flags=cv2.INTER_LINEAR)
    return np.asarray(canvas, np.float32)


def _seen(bands: NDArray[np.float32], x: int) -> NDArray[np.bool_]:
    """For each band of squares: is the upright line at ``x`` seen in it,
    with more line ink on it than halfway to the next line on both sides?"""
    on = bands[:, x - 2 : x + 3].max(axis=1)
    off = np.maximum(
        bands[:, x - C // 2 - 1 : x - C // 2 + 2].mean(axis=1),
        bands[:, x + C // 2 - 1 : x + C // 2 + 2].mean(axis=1),
    )
    return np.asarray(on > off + 0.02)


def lattice_support(strength: NDArray[np.float32], quad: Quad) -> float:
    """Share of the inner grid lines' segments (ten lines each way, one
    segment per square they pass) that are seen where ``quad`` puts them:
    more line ink on the segment than halfway to the next line on both
    sides. A real grid scores near 1 however its frame, paper or ink look.

    The ink across a segment is its median along the segment's length: a
    printed line runs the whole length, a player's mark only part of it.
    Summed, a sheet with a dark mark in every square makes a second lattice
    half a square off the grid's, and outweighs the grid's fainter lines."""
    pad = C
    canvas = _on_canvas(strength, quad, pad)
    shares = []
    for img in (canvas, np.ascontiguousarray(canvas.T)):
        bands = np.median(img[pad : pad + SIZE * C].reshape(SIZE, C, -1)[:, 3 : C - 3], axis=1)
        seen = sum(int(np.sum(_seen(bands, pad + k * C))) for k in range(1, SIZE))
        shares.append(seen / ((SIZE - 1) * SIZE))
    return min(shares)


def _line_positions(
    canvas: NDArray[np.float32], pad: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float32], NDArray[np.bool_]]:
    """Where each of the twelve upright lines in ``canvas`` lies in each band
    of squares: the bands' middle heights, each line's position in each band
    (to a tenth of a pixel), how strongly it shows there, and whether it
    shows clearly enough to count (band by line)."""
    reach = C // 3
    n = canvas.shape[1]
    bands = canvas[pad : pad + SIZE * C].reshape(SIZE, C, n)[:, 3 : C - 3].mean(axis=1)
    centres = pad + np.arange(SIZE + 1) * C
    cols = centres[:, None] + np.arange(-reach, reach + 1)[None, :]
    prof = bands[:, cols]  # band, line, position across the line
    i = prof.argmax(axis=2)
    peak = np.take_along_axis(prof, i[..., None], axis=2)[..., 0]
    base = np.median(prof, axis=2)
    left = np.take_along_axis(prof, np.clip(i - 1, 0, 2 * reach)[..., None], axis=2)[..., 0]
    right = np.take_along_axis(prof, np.clip(i + 1, 0, 2 * reach)[..., None], axis=2)[..., 0]
    den = left - 2 * peak + right
    sub = np.where(den < 0, 0.5 * (left - right) / np.where(den < 0, den, -1.0), 0.0)
    ok = (i > 0) & (i < 2 * reach) & (peak - base > 0.02)
    xs = centres[None, :] + i - reach + sub
    ys = pad + (np.arange(SIZE, dtype=np.float64) + 0.5) * C
    return ys, xs, peak - base, ok


def _line_fits(canvas: NDArray[np.float32], pad: int) -> list[tuple[float, float, float]]:
    """For each of the twelve upright lines in ``canvas``: ``x = a + b * y``
    fitted through its measured position in each band of squares, and how
    clearly it was seen (0 when too few bands saw it). A line is refitted
    up to three times, each time without the bands more than 1.5 px off the
    last fit; once a refit keeps the same bands, the next would give the
    same line, so it stops there."""
    ys, xs, strength, ok = _line_positions(canvas, pad)
    out = []
    for k in range(SIZE + 1):
        y, x, w = ys[ok[:, k]], xs[ok[:, k], k], strength[ok[:, k], k]
        a = b = 0.0
        keep = np.ones(len(y), bool)
        for _step in range(3):
            if keep.sum() < 4:
                break
            b, a = np.polyfit(y[keep], x[keep], 1, w=np.sqrt(w[keep]))
            kept, keep = keep, np.abs(a + b * y - x) < 1.5
            if np.array_equal(keep, kept):
                break
        seen = float(w[keep].sum()) if keep.sum() >= 4 else 0.0
        centre = float(pad + k * C)
        out.append((float(a), float(b), seen) if seen else (centre, 0.0, 0.0))
    return out


def refine(strength: NDArray[np.float32], quad: Quad, rounds: int = 2) -> Quad:
    """Corners (clockwise, as given) fitted to the crossings of the clearly
    seen grid lines near ``quad``."""
    pad = C
    n = SIZE * C + 2 * pad
    unit = _unit_square()
    for _round in range(rounds):
        h = cv2.getPerspectiveTransform(unit, quad)
        to_canvas = np.array([[C, 0, pad], [0, C, pad], [0, 0, 1]], np.float64)
        warp = to_canvas @ np.linalg.inv(h)
        canvas = np.asarray(cv2.warpPerspective(strength, warp, (n, n), flags=cv2.INTER_LINEAR), np.float32)
        upright = _line_fits(canvas, pad)
        level = _line_fits(np.ascontiguousarray(canvas.T), pad)
        src, dst = [], []
        for i, (a, b, wv) in enumerate(upright):
            for j, (c, d, wh) in enumerate(level):
                if wv <= 0 or wh <= 0:
                    continue
                # x = a + b y and y = c + d x
                den = 1 - b * d
                if abs(den) < 1e-6:
                    continue
                x = (a + b * c) / den
                y = c + d * x
                src.append((i, j))
                dst.append((x, y))
        if len(src) < 16:
            return quad
        pts = np.array(dst, np.float64).reshape(-1, 1, 2)
        img_pts = cv2.perspectiveTransform(pts, np.linalg.inv(warp)).reshape(-1, 2)
        fit, _ = cv2.findHomography(
            np.array(src, np.float32), img_pts.astype(np.float32), cv2.RANSAC, 2.0, maxIters=300
        )
        if fit is None:
            return quad
        quad = cv2.perspectiveTransform(unit.reshape(-1, 1, 2), fit).reshape(4, 2).astype(np.float32)
    return quad


class Lines:
    """The photo's thin-line strengths: at detection size, and at the sizes
    grids are fitted at (each made once, when first needed). The reader
    makes them once for ``find_grids`` and ``other_grids`` alike."""

    def __init__(self, rgb: NDArray[np.uint8]) -> None:
        self.rgb = rgb
        self.gray = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), np.uint8)
        self._detect: dict[int, tuple[NDArray[np.float32], float]] = {}
        self._fit: dict[int, NDArray[np.float32]] = {}
        self._families: dict[tuple[int, float], Families] = {}

    def detect(self, side: int) -> tuple[NDArray[np.float32], float]:
        """Line strengths with the picture's longer side at most ``side``
        pixels, and the scale they are at."""
        if side not in self._detect:
            h, w = self.rgb.shape[:2]
            k = min(1.0, side / max(h, w))
            small = (
                cv2.resize(self.rgb, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
                if k < 1
                else self.rgb
            )
            self._detect[side] = (line_map(np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), np.uint8)), k)
        return self._detect[side]

    def without(self, region: NDArray[np.float32]) -> Lines:
        """These lines with those inside ``region`` (a quadrilateral, photo
        pixels) set aside at detection size: the first look then finds the
        lattices elsewhere in the picture. Lines are fitted as before, near
        where a lattice is found."""
        other = Lines.__new__(Lines)
        other.rgb, other.gray = self.rgb, self.gray
        other._fit, other._families = self._fit, {}
        strength, k = self.detect(DETECT_SIDE)
        masked = strength.copy()
        cv2.fillConvexPoly(masked, np.rint(region * k).astype(np.int32), 0.0)
        other._detect = {DETECT_SIDE: (masked, k)}
        return other

    def families(self, side: int, gain: float) -> Families:
        """The line families of ``detect(side)``, ``gain`` times as strong,
        made once for each: the banded search looks at the very lines of the
        first search, and only its combs differ. Made again, its families
        (each pair of main angles' regions and Hough transforms, which keep
        what they found) cost the work done for the first search twice."""
        if (side, gain) not in self._families:
            self._families[side, gain] = Families(self.detect(side)[0] * gain)
        return self._families[side, gain]

    def at(self, square: float) -> tuple[NDArray[np.float32], float]:
        """Line strengths for fitting a grid whose squares are ``square``
        photo pixels, and the scale they are at: the photo's own size, or
        smaller by halves of an octave until a square is at most
        ``FIT_SQUARE`` pixels."""
        level = max(0, int(np.ceil(2 * np.log2(max(square, 1.0) / FIT_SQUARE))))
        scale = 2.0 ** (-level / 2)
        if level not in self._fit:
            h, w = self.gray.shape
            gray = (
                np.asarray(
                    cv2.resize(self.gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA),
                    np.uint8,
                )
                if level
                else self.gray
            )
            self._fit[level] = line_map(gray)
        return self._fit[level], scale


def _fit(lines: Lines, quad: Quad, square: float, gain: float) -> Candidate | None:
    """``quad`` fitted to the lines near it (``refine``, ``_settle``),
    ``gain`` times their strength, at the size ``Lines.at`` chooses for
    squares of ``square`` pixels, or None when the fit is no readable grid."""
    strength, scale = lines.at(square)
    strength = strength * gain
    q = refine(strength, (quad * scale).astype(np.float32))
    if not _sane(q, strength.shape):
        return None
    support, settled = _settle(strength, q, strength.shape)
    return Candidate((settled / scale).astype(np.float32), support)


class _Look:
    """One look at the photo's lines, ``gain`` times their strength, from
    which grids are searched for with or without faint line families."""

    def __init__(
        self,
        lines: Lines,
        side: int,
        gain: float,
        smallest: float,
        banded: bool,
        paper: NDArray[np.uint8] | None = None,
    ) -> None:
        self.lines, self.gain, self.smallest, self.banded = lines, gain, smallest, banded
        self.coarse = side < DETECT_SIDE
        small, self.k = lines.detect(side)
        self.strength = small * gain
        self.families: Families | PaperFamilies = (
            lines.families(side, gain) if paper is None else PaperFamilies(small, paper)
        )
        self._found: dict[bool, list[tuple[float, NDArray[np.float64]]]] = {}
        self._of_pair: dict[int, list[tuple[float, NDArray[np.float64]]]] = {}

    def _whole(self) -> Families:
        """The families of the whole picture's lines, which every look has but
        the paper's; ``quick`` and ``outvoted`` are asked of those looks only."""
        if not isinstance(self.families, Families):
            raise TypeError("a look at the paper's lines alone has no first pairs and sets none aside")
        return self.families

    def _fit_at(self, quad: Quad, square: float) -> Candidate | None:
        """``_fit`` with this look's lines and gain."""
        return _fit(self.lines, quad, square, self.gain)

    def fitted(self, quad: Quad) -> Candidate | None:
        """``quad`` fitted at the photo's own size; in the coarse search,
        where its lattice is not clearly seen there, also at the size
        ``Lines.at`` chooses for its squares, keeping the better supported
        fit. None when no fit is a readable grid. Blur widens a large grid's
        lines past what ``line_map`` sees as thin; a sharp grid's lines are
        placed best at full size. Only the coarse search, which a sharp
        photo never reaches, fits smaller: there a dense texture (cloth, a
        photo of something else) looks like thin lines everywhere, and any
        lattice laid over it seems seen."""
        full = self._fit_at(quad, 1.0)
        if not self.coarse or full is not None and full.clear:
            return full
        square = float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).max()) / SIZE
        small = self._fit_at(quad, square) if square > FIT_SQUARE else None
        if small is None or full is not None and small.support <= full.support:
            return full
        return small

    def moved(self, cand: Candidate) -> Candidate | None:
        """``cand`` moved by whole squares along one of its directions, up to
        ``MOVES``, where its lattice is seen best, if better than where it
        is; None otherwise. Asked for only once the reader has refused
        ``cand``: twelve evenly spaced lines can be found squares off the
        grid's, taking in the coin track and the season boxes below it or
        the title above, and still be seen along most of their length
        (``_settle`` moves a grid by one square only where the grid's lines
        plainly run on past one end)."""
        strength, scale = self.lines.at(1.0)
        strength = strength * self.gain
        quad = (cand.quad * scale).astype(np.float32)
        best, where = lattice_support(strength, quad), None
        for dx, dy in _MOVES:
            q = shifted(quad, dx, dy)
            if _sane(q, strength.shape):
                support = lattice_support(strength, q)
                if support > best:
                    best, where = support, q
        if where is None:
            return None
        q = refine(strength, where)
        if not _sane(q, strength.shape):
            return None
        return Candidate((q / scale).astype(np.float32), lattice_support(strength, q))

    def grids(self, faint: bool, offered: list[Quad]) -> list[Candidate]:
        """Grids from the pairs of line families with a faint one
        (``faint``) or without, best supported first, leaving out any within
        half a square of one already ``offered`` or tried: the clear ones (up
        to ``KEEP``), then up to ``KEEP`` that are only faintly seen. The
        lattices are fitted best scored first until ``2 * KEEP`` fits are
        grids, or ``FITS`` were tried: a table's boards can make a dozen
        lattices that score above the sheet's and fit no grid."""
        return self._grids(self._lattices(faint), offered)

    def _lattices(self, faint: bool) -> list[tuple[float, NDArray[np.float64]]]:
        """Every lattice of the pairs of line families with a faint one
        (``faint``) or without, best scored first (made once: ``quick`` and
        ``grids`` both start from them)."""
        if faint not in self._found:
            self._found[faint] = self._scored(self.families.pairs(faint))
        return self._found[faint]

    def _scored(self, pairs: list[tuple[Family, Family]]) -> list[tuple[float, NDArray[np.float64]]]:
        found: list[tuple[float, NDArray[np.float64]]] = []
        for pair in pairs:
            if id(pair) not in self._of_pair:  # the families keep their pairs, so an id stays theirs
                self._of_pair[id(pair)] = lattices(
                    self.strength, pair, self.smallest * min(self.strength.shape), self.banded
                )
            found += self._of_pair[id(pair)]
        found.sort(key=lambda t: -t[0])
        return found

    def parallel_lattices(self) -> list[tuple[float, NDArray[np.float64]]]:
        """The lattices of every pair of line families, faint or not, whose
        vanishing points allow no rectification, with each family's lines
        taken as parallel (``lattice.parallel_lattices``), best scored first."""
        found: list[tuple[float, NDArray[np.float64]]] = []
        for faint in (False, True):
            for pair in self.families.pairs(faint):
                found += parallel_lattices(
                    self.strength, pair, self.smallest * min(self.strength.shape), self.banded
                )
        found.sort(key=lambda t: -t[0])
        return found

    def quick(self) -> Candidate | None:
        """The best scored lattice of the first two main angles' pairs without
        a faint family (``Families.first_pairs``), fitted, if its inner
        lines' segments are seen along ``QUICK_SUPPORT`` of them; failing
        that, the same of every pair without a faint family; else None.
        ``grids`` fits that lattice first too, and ranks it first unless a
        later fit is seen better still, which a grid seen so clearly seldom
        leaves room for. On a plain photo the first two angles are the
        grid's, and the other angles' families and lattices (about a quarter
        of this look's cost on a training draw) are never made."""
        tried: list[Quad] = []
        for first in (True, False):
            found = self._scored(self._whole().first_pairs()) if first else self._lattices(False)
            if not found:
                continue
            quad = _order(found[0][1] / self.k)
            if any(_same(quad, other) for other in tried):
                continue  # the same grid, from another pair of families: fitted already
            tried.append(quad)
            cand = self.fitted(quad)
            if cand is not None and cand.support >= QUICK_SUPPORT:
                return cand
        return None

    def outvoted(self, offered: list[Quad]) -> list[Candidate]:
        """Grids, as ``grids``, from the families found once the lines
        through each direction's strongest vanishing point are set aside
        (``Families.set_aside``); none of them is clear."""
        return [
            c._replace(outvoted=True) for c in self._grids(self._scored(self._whole().set_aside()), offered)
        ]

    def windowed(self, offered: list[Quad]) -> list[Candidate]:
        """Grids, as ``outvoted``, from the families of the lines window by
        window (``Families.windowed``), of the lattices whose middle lies in
        the window whose lines gave them; none of them is clear either.
        The sheet's lattice is where its lines outvote the plaid's. A
        window's lines stop at its edges, so ``lattice._runs_on`` does not
        see the plaid's lattices within it run on: each lattice is asked
        again over the whole picture's lines (``_runs_on``)."""
        found: list[tuple[float, NDArray[np.float64]]] = []
        for (top, left, bottom, right), pair in self._whole().windowed():
            for score, quad in self._scored([pair]):
                x, y = quad.mean(axis=0)
                if left <= x < right and top <= y < bottom and not _runs_on(self.strength, quad):
                    found.append((score, quad))
        found.sort(key=lambda t: -t[0])
        return [c._replace(outvoted=True) for c in self._grids(found, offered)]

    def _grids(self, found: list[tuple[float, NDArray[np.float64]]], offered: list[Quad]) -> list[Candidate]:
        scored: list[Candidate] = []
        tried: list[Quad] = []
        for _score, quad in found:
            if len(scored) == 2 * KEEP or len(tried) == FITS:
                break
            q = _order(quad / self.k)
            if any(_same(q, other) for other in [*offered, *tried, *(c.quad for c in scored)]):
                continue
            tried.append(q)
            cand = self.fitted(q)
            if cand is None or any(_one_fit(cand.quad, other) for other in offered):
                continue
            twin = next((k for k, c in enumerate(scored) if _one_fit(cand.quad, c.quad)), None)
            if twin is None:
                scored.append(cand)
            elif cand.support > scored[twin].support:  # the better fit of the one grid
                scored[twin] = cand
        scored.sort(key=lambda c: -c.support)
        clear = [c for c in scored if c.clear][:KEEP]
        return clear + [c for c in scored if not c.clear and c.support >= FAINT_SUPPORT][:KEEP]


def _same(a: Quad, b: Quad) -> bool:
    """Whether two grids' corners lie within half a square of each other."""
    return bool(np.abs(a - b).max() < 0.5 * np.linalg.norm(a[0] - a[1]) / SIZE)


def _one_fit(a: Quad, b: Quad) -> bool:
    """Whether two fitted grids' corners lie within ``ONE_FIT`` of a square
    of each other, whichever corner each starts at (``_order`` starts
    anywhere)."""
    square = float(np.linalg.norm(b[0] - b[1])) / SIZE
    return min(float(np.abs(np.roll(a, -k, axis=0) - b).max()) for k in range(4)) < ONE_FIT * square


def find_grids(rgb: NDArray[np.uint8], lines: Lines | None = None) -> Iterator[Candidate]:
    """Likely grids in ``rgb`` (whose ``Lines`` are ``lines``, made here when
    not given), best first. Raises ``NoGridError`` once none
    is left to offer and none was offered.

    The search widens only when asked for more, so a plain photo costs one
    search, and one fit: first the best lattice of the strongest lines, if
    it is seen along nearly all its lines (``QUICK_SUPPORT``); then the
    lines most of the picture agrees on, their lattices ranked; then lines that
    meet at a point far fewer lines meet at (a sheet on a checked cloth, whose
    long stripes outvote its grid), and lines at angles after the three
    strongest (a sheet beside pages of text); then both again with every
    line seen ``FAINT_GAIN`` times stronger (a blurred photo, whose thin
    lines lose their darkness); then both on a picture half as large
    (``COARSE_SIDE``: a blurred photo taken close, whose lines blur wider
    than thin); then lines summed band by band of the picture (a sheet
    lying square with a checked cloth, whose stripes outvote the grid's
    lines summed over the whole picture). Each clearly seen grid the
    reader refuses is followed by the same grid moved by whole squares to
    where its lattice is seen best (``_Look.moved``), if that is elsewhere.
    Then come the grids whose lattice every search saw only faintly (a dim
    and blurred photo), best supported first; last, the grids found only
    once the lines through each direction's strongest vanishing point are
    set aside (a small sheet on a plaid a few degrees off, whose stripes
    hide its short lines from the Hough transform). Looked for only then,
    they cost nothing to a photo read before, and cannot push its grid out
    of a search's fits or the faint grids offered. Then the same for the
    lines on the sheet's paper alone, each summed along its length
    (``paper``: a blurred sheet on a dark wooden table or a cloth, whose
    grain or weave outshines the grid's lines pixel by pixel). Last of all,
    the lines found window by window of the picture (``Families.windowed``:
    a sheet within a degree or two of a plaid's stripes, too near them for
    its lines to be set aside from theirs)."""
    offered: list[Quad] = []
    faint: list[Candidate] = []
    lines = Lines(rgb) if lines is None else lines
    looks: list[_Look] = []
    for side, gain, smallest, banded in LOOKS:
        look = _Look(lines, side, gain, smallest, banded)
        looks.append(look)
        # the coarse search offers KEEP clear grids in all: over a cloth, whose
        # lattice it sees again at other extents, each costs a reading
        budget = KEEP if look.coarse else 2 * KEEP
        # a plain photo: the strongest lines' best lattice, clearly seen, first
        quick = look.quick() if look is looks[0] else None
        if quick is not None:
            budget -= 1
            yield from _offer(look, quick, offered)
        yield from _clear_first(look, budget, offered, faint)
    yield from _best_faint(faint, offered)
    # only now, when no grid so far was the sheet: lines that stronger ones
    # outvoted, in every look but the banded one (whose case, a sheet square
    # with the cloth, has no other vanishing point to find)
    outvoted = [c for look in looks if not look.banded for c in look.outvoted(offered)]
    yield from _best_faint(outvoted, offered)
    # last, when no grid so far was the sheet: the lines on the sheet's paper alone
    paper = outline(rgb)
    if paper is not None:
        on_paper: list[Candidate] = []
        yield from _clear_first(_Look(lines, *PAPER_LOOK, paper), KEEP, offered, on_paper)
        yield from _best_faint(on_paper, offered)
    # last of all: lines window by window, in the banded look (a sheet lying
    # within a degree or two of a plaid, square with it as the bands ask)
    yield from _best_faint(next(look for look in looks if look.banded).windowed(offered), offered)
    if not offered:
        raise NoGridError(NO_GRID)


def other_grids(rgb: NDArray[np.uint8], quad: Quad, lines: Lines | None = None) -> list[Candidate]:
    """Grids in ``rgb`` clearly seen beside the grid at ``quad`` (found and
    read, its top left corner first), best supported first: other map
    sheets in the picture, such as a neighbour's at the table. The first
    look's best scored lattices on the photo's lines, with those of the
    sheet of the grid at ``quad`` set aside (``ITS_SHEET``), those of the
    pairs without a faint family first, as the search ranks them, then
    those whose lines must be taken as parallel (``_then_parallel``), fitted
    (``OTHER_FITS`` at most); kept when clearly seen, reaching nowhere into
    that sheet, with squares of about that grid's size (``LIKE_SIZE``: the
    sheets lie on one table, at about one distance from the camera); at
    most ``KEEP``. ``lines``: the photo's ``Lines``, made here when
    not given. The reader checks the printed spaces of each, as of
    any grid."""
    region = around(quad, ITS_SHEET)
    look = _Look((Lines(rgb) if lines is None else lines).without(region), *LOOKS[0])
    size = _square_size(quad)
    fits: list[Candidate] = []
    tried = 0
    for _score, lattice in _then_parallel(look):
        if tried == OTHER_FITS:
            break
        q = _order(lattice / look.k)
        if _inside(q.mean(axis=0), region) or _inside(quad.mean(axis=0), q):
            continue
        tried += 1
        fit = look.fitted(q)
        if (
            fit is not None
            and fit.clear
            and 1 / LIKE_SIZE <= _square_size(fit.quad) / size <= LIKE_SIZE
            and not _inside(fit.quad.mean(axis=0), region)
            and not any(_same(fit.quad, other.quad) for other in fits)
        ):
            fits.append(fit)
    return sorted(fits, key=lambda c: -c.support)[:KEEP]


def _then_parallel(look: _Look) -> Iterator[tuple[float, NDArray[np.float64]]]:
    """``look``'s lattices of the pairs without a faint family, then of those
    with one, as the search ranks them; then, only if the fits are not used
    up by then, those of the pairs that allow no rectification, with their
    lines taken as parallel (``_Look.parallel_lattices``). Another sheet
    beside the one read may be small, and its few short lines' vanishing
    points can put the horizon across the picture: on a training draw of
    two sheets in one picture, that is how the neighbour's sheet was read
    without a word while the player's went unseen. Last, so that they take
    no fit from a lattice seen in perspective."""
    yield from look._lattices(False) + look._lattices(True)
    yield from look.parallel_lattices()


def _square_size(quad: Quad) -> float:
    """A grid's mean side, in squares of the picture's pixels."""
    return float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).mean()) / SIZE


def around(quad: Quad, reach: tuple[float, float, float, float]) -> Quad:
    """The grid ``quad`` (top left corner first) grown by ``reach`` squares
    beyond its left, top, right and bottom edges, along its own
    (perspective) directions, corners in the same order."""
    h = cv2.getPerspectiveTransform(_unit_square(), quad)
    left, top, right, bottom = reach
    far_x, far_y = SIZE + right, SIZE + bottom
    square = np.array([[-left, -top], [far_x, -top], [far_x, far_y], [-left, far_y]], np.float32)
    return cv2.perspectiveTransform(square.reshape(-1, 1, 2), h).reshape(4, 2).astype(np.float32)


def _inside(point: NDArray[np.float32], quad: Quad) -> bool:
    """Whether ``point`` lies inside the quadrilateral ``quad``."""
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def marked_grids(rgb: NDArray[np.uint8], corners: NDArray[np.float64]) -> Iterator[Candidate]:
    """Grids at the four ``corners`` (``rgb`` pixels, in any order) that the
    player marked on a photo in which the search found no grid that was the
    sheet. A blurred or dim photo's search cannot find the grid's lines
    among the table's, but a fit can follow them once it knows where to
    look.

    First the grid fitted to the lines near the marks, as each search fits
    its lattices (``_fit``, at the photo's size and at a blurred grid's),
    best supported first: with the lines as seen, then ``FAINT_GAIN``
    times stronger (where more segments pass as seen, so the two supports
    do not compare). Each fit starts from the marks and from the marks
    moved to where the lattice is seen best (``_nudged``): a fingertip can
    be further off than ``refine`` looks, but a blurred lattice is seen
    about as well half a square away, so that start alone leads some grids
    astray. A fit that moved a corner half a square from its mark went to
    other lines (the frame's, the coin track's) and is left out. Last, the
    marks themselves. The reader reads each and keeps the surest reading.
    Raises ``NoGridError`` when the marks are no grid a camera could see."""
    quad = _order(np.asarray(corners, np.float64))
    if not _sane(quad, rgb.shape):
        raise NoGridError(MARKED_NO_GRID)
    lines = Lines(rgb)
    square = float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).max()) / SIZE
    sizes = (1.0, square) if square > FIT_SQUARE else (1.0,)
    starts = {size: (quad, _nudged(lines, quad, size)) for size in sizes}
    fits = []
    for gain in (1.0, FAINT_GAIN):  # supports compare only at one gain: stronger lines seem seen more
        fits += sorted(
            (
                fit
                for size in sizes
                for start in starts[size]
                if (fit := _fit(lines, start, size, gain)) is not None and _same(fit.quad, quad)
            ),
            key=lambda c: -c.support,
        )
    offered: list[Quad] = []
    for cand in [*fits, Candidate(quad, 0.0)]:
        if not any(_same(cand.quad, other) for other in offered):
            offered.append(cand.quad)
            yield cand._replace(marked=True)


NUDGES = [(dx / 4, dy / 4) for dx in range(-2, 3) for dy in range(-2, 3)]
"""Where a marked grid is also tried before it is fitted, in squares along
its own rows and columns: up to half a square each way, by quarters; then
an eighth of a square each way round the best of those."""


def _nudged(lines: Lines, quad: Quad, square: float) -> Quad:
    """``quad`` moved by up to half a square (``NUDGES``) to where its
    lattice is seen best, at the size ``Lines.at`` chooses for squares of
    ``square`` pixels. ``refine`` looks for each line only a third of a
    square either side of where the grid puts it; a fingertip on a phone's
    screen, over a photo whose squares are a few millimetres, can be off by
    more."""
    strength, scale = lines.at(square)
    q = (quad * scale).astype(np.float32)

    def seen(t: Quad) -> float:
        return lattice_support(strength, t) if _sane(t, strength.shape) else -1.0

    best = max((shifted(q, dx, dy) for dx, dy in NUDGES), key=seen)
    best = max((shifted(best, dx / 2, dy / 2) for dx, dy in NUDGES if max(abs(dx), abs(dy)) < 0.5), key=seen)
    return (best / scale).astype(np.float32)


def _clear_first(
    look: _Look, budget: int, offered: list[Quad], faint: list[Candidate]
) -> Iterator[Candidate]:
    """The clear grids of ``look``'s searches without a faint family and with
    one, up to ``budget``, each followed by its move (``_offer``); its faint
    grids are kept in ``faint``, for after every search's clear ones."""
    for faint_families in (False, True):
        for cand in look.grids(faint_families, offered):
            if not cand.clear:
                faint.append(cand)
            elif budget:
                budget -= 1
                yield from _offer(look, cand, offered)


def _offer(look: _Look, cand: Candidate, offered: list[Quad]) -> Iterator[Candidate]:
    """``cand``; then, if the reader refused it, the same grid moved by whole
    squares to where ``look`` sees its lattice best, if that is elsewhere and
    not yet ``offered`` (the lattice may be squares off the grid)."""
    offered.append(cand.quad)
    yield cand
    moved = look.moved(cand)
    if moved is not None and not any(_same(moved.quad, other) for other in offered):
        offered.append(moved.quad)
        yield moved


def _best_faint(faint: list[Candidate], offered: list[Quad]) -> Iterator[Candidate]:
    """The ``KEEP`` best supported of ``faint``, leaving out any within half
    a square of one already ``offered`` (and adding them to it)."""
    shown = 0
    for cand in sorted(faint, key=lambda c: -c.support):
        if shown < KEEP and not any(_same(cand.quad, other) for other in offered):
            offered.append(cand.quad)
            shown += 1
            yield cand


def shifted(quad: Quad, dx: float, dy: float) -> Quad:
    """``quad`` moved by ``dx`` and ``dy`` squares along its own (perspective) grid."""
    h = cv2.getPerspectiveTransform(_unit_square(), quad)
    moved = _unit_square() + np.array([dx, dy], np.float32)
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2), h).reshape(4, 2).astype(np.float32)


def _crossed_bands(
    strength: NDArray[np.float32], quad: Quad
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For the bands of squares from one before the grid to one after it
    (13 each way): the share of the grid's twelve lines across the band
    that are seen in it, for row bands (crossed by the upright lines) and
    column bands (crossed by the level ones)."""
    pad = 2 * C
    canvas = _on_canvas(strength, quad, pad)
    out = []
    for img in (canvas, np.ascontiguousarray(canvas.T)):
        rows = img[pad - C : pad + (SIZE + 1) * C].reshape(SIZE + 2, C, -1)[:, 3 : C - 3].mean(axis=1)
        seen = sum(_seen(rows, pad + k * C).astype(np.float64) for k in range(SIZE + 1))
        out.append(np.asarray(seen) / (SIZE + 1))
    return out[0], out[1]


def _runs_on(strength: NDArray[np.float32], quad: NDArray[np.float64]) -> bool:
    """Whether the grid ``quad`` (in ``strength``'s pixels, clockwise from
    any corner) runs on beyond its outline on at least two sides, as
    ``lattice._runs_on`` asks of a lattice (``lattice.crossed_beyond``),
    over the bands of squares around it. A map's lines stop at its
    outline; a cloth's run on."""
    return crossed_beyond(b.tolist() for b in _crossed_bands(strength, _order(quad).astype(np.float32)))


def _settle(strength: NDArray[np.float32], quad: Quad, shape: tuple[int, ...]) -> tuple[float, Quad]:
    """``quad`` and its support, moved by a square where the grid's lines
    run on beyond one end and stop short of the other. Under a steep tilt
    the even combs of ``lattice`` can sit a square off, on the frame or the
    coin track; in the photo's own perspective the lines show where the
    grid ends: they cross every band of squares inside it, none outside."""
    rows, cols = _crossed_bands(strength, quad)
    dy = int(rows[0] - rows[SIZE] >= 0.5) * -1 + int(rows[SIZE + 1] - rows[1] >= 0.5)
    dx = int(cols[0] - cols[SIZE] >= 0.5) * -1 + int(cols[SIZE + 1] - cols[1] >= 0.5)
    support = lattice_support(strength, quad)
    if dx or dy:
        moved = refine(strength, shifted(quad, dx, dy))
        if _sane(moved, shape):
            gain = lattice_support(strength, moved)
            if gain >= support:
                return gain, moved
    return support, quad


def unsquare(quad: Quad, shape: tuple[int, ...]) -> float:
    """How far ``quad`` is from any square a camera could see so: over
    focal lengths from ``FOCAL_RANGE``, with the principal point at the
    picture's centre, the least of the larger of the log ratio of the
    square's two sides and the cosine of its corner angle, once the camera
    is undone (0 for a square seen by such a camera)."""
    h, w = shape[:2]
    f = float(max(h, w))
    q = ((quad.astype(np.float64) - [w / 2.0, h / 2.0]) / f).astype(np.float32)
    hom = cv2.getPerspectiveTransform(_unit_square() / SIZE, q).astype(np.float64)
    focal = np.geomspace(*FOCAL_RANGE, 64)[:, None]
    a = np.concatenate([hom[None, :2, 0] / focal, np.full_like(focal, hom[2, 0])], axis=1)
    b = np.concatenate([hom[None, :2, 1] / focal, np.full_like(focal, hom[2, 1])], axis=1)
    na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    cosine = np.abs((a * b).sum(axis=1)) / (na * nb)
    return float(np.maximum(np.abs(np.log(na / nb)), cosine).min())


def _sane(quad: Quad, shape: tuple[int, ...]) -> bool:
    """A convex quadrilateral mostly inside the picture, big enough to read,
    that a camera could see a square as (``unsquare``)."""
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.float32)):
        return False
    h, w = shape[:2]
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    x, y = quad[:, 0], quad[:, 1]
    inside = (x > -0.05 * w) & (x < 1.05 * w) & (y > -0.05 * h) & (y < 1.05 * h)
    return bool(
        inside.all()
        and sides.min() > 5 * SIZE
        and sides.max() < 4 * sides.min()
        and unsquare(quad, shape) < UNSQUARE
    )


def find_grid(rgb: NDArray[np.uint8]) -> Quad:
    """The likeliest grid's outer corners in ``rgb`` pixels, clockwise from any corner."""
    return next(find_grids(rgb)).quad
