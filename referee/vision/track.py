"""Stage 3: the coin track, which says which way up the sheet is and how many coins it holds.

Every Cartographers sheet prints fourteen coins in a row below the grid; how
far below, how large and in what frame varies between printings. So the
reader looks beyond each of the grid's four sides for the thing itself: a
row of fourteen evenly spaced circles. A circle's outline is a ring of
strong brightness change whether the coin is empty, shaded, coloured in or
crossed out, so the search runs on the gradient, and on the gradient that
runs along the radius: a frame's edge or a table's is a straight line, not
a ring. A pad's frame may be decorated with a row of studs, dots or checks
as strong as the coins, but that row runs the sheet's whole width, and a
track is fourteen coins that stop. The side whose row of circles stands out
best is the bottom of the sheet.

A coin counts as filled when its inside holds clearly more pencil than the
clean coins, once what the pad prints inside every coin alike is taken
away. Coins are filled from the left, so the count is where the clean
coins after it are alike and the coin before it stands above them; when no
such place is clear, or a coin lies outside the photo, the count is
unknown, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.pixels import channel_max

COINS = 14
U = 16
"""Strip pixels per grid square, for finding the track."""
READ_U = 48
"""Strip pixels per grid square, for reading the coins: at ``U`` a coin's
inside is a few pixels across, so how much of a mark it shows depends on
where the coin's centre falls between two pixels, and coins marked alike
read a third apart."""
NEAR, FAR = 0.1, 3.2
"""Where the track may lie beyond the grid's edge, in squares."""
WIDE = 1.5
"""How far the strip reaches past the grid's sides, in squares."""
RADII = (0.22, 0.3, 0.4)
"""Coin radii looked for, in squares."""
GAP = 0.04
"""Least gap in pencil between the last inked coin and the most inked clean one."""
SPREAD = 3.0
"""That gap is at least this many times the clean coins' own spread."""
APART = 0.04
"""Least difference in median pencil between the inked and the clean coins."""
FAINT = 2
"""At most one in this many inked coins (the first aside) may be marked so
faintly that it lies nearer the clean coins than the last inked one does."""
ABOVE = 0.02
"""Least pencil by which every inked coin, the faintest too, stands above
every clean one: a run of inked coins holds no coin as clean as those after
it. ``GAP``, ``SPREAD``, ``APART``, ``FAINT`` and ``ABOVE`` were chosen
together on two training draws read through the whole reader (seeds 21000
and 22000, 1,208 tracks read), never on a measured set, as the choice with
the most exact counts less ten for each wrong one (a wrong count changes a
score unasked; an unknown one costs the player a tap): 635 exact and 13
wrong, against 616 and 23 with the constants before (``GAP`` and
``APART`` 0.08, ``SPREAD`` 2, ``FAINT`` 4, no ``ABOVE``), which left a
track uncounted for two lightly ticked coins among eight."""
INSIDE = 0.65
"""A coin's inside, where its pencil is read, as a share of its radius."""
ROWS = 6
"""Rows of the strip, those most circles line, whose rows of coins are weighed."""
MISSING = 2
"""Coins a track may have covered and still be found."""
RIM_SEEN = 0.5
"""Least edge strength on any coin's rim, as a share of the track's median
coin: every printed coin has a rim, filled or not. A place without one is
beside the track (the row read a coin off) or covered (a finger, a shadow's
edge), and a count read there is wrong more often than right. Chosen on the
held-out draws (seed 2000): it leaves out 5 of 9 wrong counts there and 1
of 16 right ones; on the second draw (seed 2500) 6 of 10 and 1 of 19."""

LIT_EVENLY = 0.4
"""Largest share by which the paper around either coin where the count
falls (the last inked one and the first clean one) may be darker on one
side than on another (``_unevenly_lit``). A shadow's edge across a coin
darkens part of its inside as pencil does, while the paper its pencil is
measured against is the lit part, so the count stops at the shadow's edge,
not at the last coin marked. Chosen on two training draws read through the
whole reader (seed 32000, 300 photos, and the all-hard seed 31000, 400),
never on a measured set, by the rule above (ten exact counts for each
wrong one): of their 8 wrong counts, 3 are left to the player, at the
cost of 2 of their 229 exact ones (0.25 and 0.3 left one exact count
more, 0.2 four more, none of them another wrong one). On a third
training draw, read only to check (all-hard seed 31500, 400 photos), one
exact count of 114 is left to the player, and its one wrong count stays."""
SECTORS = 8
"""Directions around a coin in which its paper is compared."""
PLANE_SECTORS = 4
"""Least directions round a coin whose paper is seen for a plane to be
fitted through them (``_paper_under``)."""


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


def _strip_box(u: int) -> NDArray[np.float32]:
    """The strip's corners in its own pixels at ``u`` pixels per grid square."""
    w, h = round((SIZE + 2 * WIDE) * u), round((FAR - NEAR) * u)
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def _strip_in_photo(to_photo: NDArray[np.float64], side: int) -> NDArray[np.float32]:
    """The strip's corners in photo pixels; ``to_photo`` maps grid units (0..11) to photo pixels."""
    return (
        cv2.perspectiveTransform(strip_corners(side).reshape(-1, 1, 2), to_photo)
        .reshape(4, 2)
        .astype(np.float32)
    )


def _warp(
    picture: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int, u: int = U
) -> NDArray[np.uint8]:
    """The strip beyond ``side`` of ``picture``, the track's row level, at ``u``
    pixels per grid square; ``to_photo`` maps grid units (0..11) to photo pixels."""
    dst = _strip_box(u)
    w, h = int(dst[2, 0]), int(dst[2, 1])
    m = cv2.getPerspectiveTransform(_strip_in_photo(to_photo, side), dst)
    out = cv2.warpPerspective(picture, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8)


def strip(gray: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int) -> NDArray[np.float32]:
    """The strip beyond ``side`` as a float grey picture, for finding the track."""
    return _warp(gray, to_photo, side).astype(np.float32)


@cache
def _ring(r: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A ring of radius ``r`` with each pixel weighted by ``cos 2t`` and
    ``sin 2t``, ``t`` its direction from the centre."""
    k = int(np.ceil(r + 2))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1].astype(np.float64)
    d2 = np.maximum(xx * xx + yy * yy, 1e-9)
    ring = (np.abs(np.sqrt(d2) - r) < 0.9).astype(np.float64)
    ring /= ring.sum()
    return (ring * (xx * xx - yy * yy) / d2).astype(np.float32), (ring * 2 * xx * yy / d2).astype(np.float32)


def circles(picture: NDArray[np.float32], r: float) -> NDArray[np.float32]:
    """How much of a circle of radius ``r`` round each pixel is outlined:
    the brightness change on the ring, counted whole where it runs along
    the radius and against where it runs across it.

    A printed coin's rim changes brightness along the radius all the way
    round, whatever is drawn inside it. A straight edge (a frame, a table,
    a shadow) changes along the radius only where it meets the ring at a
    right angle and across it elsewhere, so it scores little, and a
    player's strokes inside a coin point every way and cancel out. (The
    gradient's strength ``g`` at angle ``p`` on the ring's point at angle
    ``t`` counts ``g cos 2(p - t)``: two filters on the squared gradient.)"""
    gx = cv2.Sobel(picture, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(picture, cv2.CV_32F, 0, 1, ksize=3)
    g = np.hypot(gx, gy) + 1e-6
    scale = float(np.percentile(picture, 90)) + 1.0  # the paper's brightness
    cos2, sin2 = _ring(r)
    along = cv2.filter2D((gx * gx - gy * gy) / g, -1, cos2) + cv2.filter2D(2 * gx * gy / g, -1, sin2)
    return np.asarray(along / scale, np.float32)


class _Rows(NamedTuple):
    """Every row of fourteen evenly spaced coins that fits in a strip."""

    spacing: NDArray[np.float64]
    """From just over a coin's width up, by 2.5 % at a time."""
    offsets: NDArray[np.int64]
    """The first coin's centre, whole pixels."""
    fits: NDArray[np.bool_]
    """Which offsets fit at each spacing."""
    teeth: NDArray[np.int64]
    """Where each row's coins fall: spacing, offset, coin."""
    gaps: NDArray[np.int64]
    """Where the gaps between them fall."""
    ends: NDArray[np.int64]
    """Where a fifteenth coin would fall before the first and after the
    last: inside the strip for every row that fits, since a track lies
    below the grid and the strip reaches beyond the grid's sides."""


@cache
def _rows(w: int, r: float) -> _Rows:
    """The rows of coins of radius ``r`` in a strip ``w`` pixels wide: the
    same for every strip, so made once."""
    k = np.arange(COINS)
    steps = []
    step = 2.0 * r + 1.0
    while step * (COINS - 1) < w - 2 * r:
        steps.append(step)
        step *= 1.025
    spacing = np.array(steps, np.float64)
    first = int(r)
    last = np.array([int(w - r - s * (COINS - 1)) for s in steps], np.int64)
    offsets = np.arange(first, max(int(last.max()) if steps else first, first + 1))
    fits = offsets[None, :] < last[:, None]
    at = offsets[None, :, None]
    teeth = np.rint(at + k[None, None, :] * spacing[:, None, None]).astype(np.int64)
    gaps = np.rint(at + (k[None, None, :-1] + 0.5) * spacing[:, None, None]).astype(np.int64)
    ends = np.rint(at + np.array([-1, COINS])[None, None, :] * spacing[:, None, None]).astype(np.int64)
    fits &= (ends[..., 0] >= 1) & (ends[..., 1] <= w - 2)  # room beside the track to see that it stops
    return _Rows(
        spacing, offsets, fits, np.minimum(teeth, w - 1), np.minimum(gaps, w - 1), np.clip(ends, 1, w - 2)
    )


def _lined_rows(resp: NDArray[np.float32], r: float) -> list[int]:
    """The ``ROWS`` rows that the most circles line, each the strongest
    within a coin's radius, so that a frame's strong row of studs cannot
    take every place from a fainter track below it."""
    rowwise = np.sort(resp, axis=1)[:, -3 * COINS :].mean(axis=1)  # a row of many circles
    reach = max(int(r), 1)
    chosen: list[int] = []
    for y in np.argsort(-rowwise):
        if all(abs(int(y) - c) > reach for c in chosen):
            chosen.append(int(y))
            if len(chosen) == ROWS:
                break
    return chosen


def find_track(picture: NDArray[np.float32]) -> Track | None:
    """The best row of fourteen evenly spaced circles in a strip.

    A row is judged by its third weakest coin (a finger or a pencil may
    cover two), less the circles between its coins and any circle just
    beyond either end: a track holds fourteen coins and stops, where a
    frame's studs, dots or checks run on along the whole sheet."""
    best: Track | None = None
    for rr in RADII:
        r = rr * U
        rows = _rows(picture.shape[1], r)
        if not len(rows.spacing):
            continue
        resp = circles(picture, r)
        for y in _lined_rows(resp, r):
            prof = resp[y]
            cap = float(np.percentile(prof, 95))  # a typical circle; a blot counts no more
            teeth = np.partition(np.minimum(prof[rows.teeth], cap), MISSING, axis=2)[:, :, MISSING]
            gaps = np.clip(prof[rows.gaps], 0, cap).mean(axis=2)
            near_ends = np.clip(np.maximum.reduce([prof[rows.ends + d] for d in (-1, 0, 1)]), 0, cap)
            beyond = channel_max(near_ends)  # the stronger end
            score = np.where(rows.fits, teeth - gaps - np.clip(beyond - gaps, 0, None), -np.inf)
            s, i = divmod(int(np.argmax(score)), len(rows.offsets))  # the first best, narrowest spacing first
            if np.isfinite(score[s, i]) and (best is None or score[s, i] > best.score):
                best = Track(float(score[s, i]), float(rows.offsets[i]), float(rows.spacing[s]), float(y), r)
    return best


def read_coins(rgb: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int, track: Track) -> int | None:
    """Filled coins on ``track`` (found in the strip beyond ``side``), or None
    when a coin lies outside the photo, a coin's printed rim is not seen
    where the track puts it, the track does not split clearly into
    inked and clean coins, or a shadow's edge crosses a coin where the
    split falls."""
    read = _read(rgb, to_photo, side, track)
    if read is None:
        return None
    img, edges, coins = read
    rims = _rims(edges, coins)
    if rims.min() < RIM_SEEN * float(np.median(rims)):
        return None
    count = split(_ink(img, coins))
    if count is not None and max(_unevenly_lit(img, coins[k]) for k in (count - 1, count)) > LIT_EVENLY:
        return None  # a shadow's edge across the coins where the run ends
    return count


def coin_ink(
    rgb: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int, track: Track
) -> NDArray[np.float64] | None:
    """How much pencil lies inside each coin of ``track``, beyond what its
    printing puts there, from 0 (none) to 1; None when a coin lies outside
    the photo or the strip."""
    read = _read(rgb, to_photo, side, track)
    return None if read is None else _ink(read[0], read[2])


class _Coin(NamedTuple):
    """One coin in the strip read at ``READ_U``."""

    x: float
    y: float
    """Its centre, strip pixels, centred on its printed rim."""
    r: float
    reach: float
    """Where the ring of paper around the coin ends."""


def _read(
    rgb: NDArray[np.uint8], to_photo: NDArray[np.float64], side: int, track: Track
) -> tuple[NDArray[np.float32], NDArray[np.float32], list[_Coin]] | None:
    """The strip at ``READ_U``, its brightness change, and the coins of
    ``track`` in it, or None when
    a coin's centre falls outside the strip or the photo: beyond the
    photo's edge the strip repeats it, which may read as any number of
    coins. (A coin cut by the edge is read: the edge repeated over its
    missing part shows its pencil or its paper.)"""
    img = _warp(rgb, to_photo, side, READ_U).astype(np.float32) / 255.0
    grey = img.mean(axis=2)
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))
    coins = _coins(edges, track)
    if coins is None:
        return None
    h, w = rgb.shape[:2]
    from_strip = cv2.getPerspectiveTransform(_strip_box(READ_U), _strip_in_photo(to_photo, side))
    centres = np.array([(c.x, c.y) for c in coins], np.float32)
    at = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), from_strip).reshape(-1, 2)
    if at.min() < 0 or at[:, 0].max() > w - 1 or at[:, 1].max() > h - 1:
        return None
    return img, edges, coins


def _coins(edges: NDArray[np.float32], track: Track) -> list[_Coin] | None:
    """The coins of ``track`` in the strip read at ``READ_U`` (``edges``, its
    brightness change), each moved onto its own printed rim, or None when a
    coin falls outside the strip.

    The track is found at ``U``, a third of this size, and its spacing is
    the same for all fourteen: a coin at the far end may sit a pixel or two
    off its rim, and its rim then reads as ink inside it."""
    k = READ_U / U
    h, w = edges.shape[:2]
    r = track.r * k
    reach = 1.3 * r + 3 * k
    cy = (track.y + 0.5) * k - 0.5
    out = []
    for c in range(COINS):
        cx = (track.x0 + c * track.step + 0.5) * k - 0.5
        if not (r <= cx <= w - 1 - r and r <= cy <= h - 1 - r):
            return None
        x, y = _on_rim(edges, cx, cy, r)
        out.append(_Coin(x, y, r, reach))
    return out


@cache
def _annulus(r: float, half: int) -> NDArray[np.float32]:
    """A disc ``2 half + 1`` pixels across, 1 from 0.8 r to 1.2 r from its centre."""
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    d = np.hypot(xx, yy)
    ring: NDArray[np.float32] = ((d > 0.8 * r) & (d < 1.2 * r)).astype(np.float32)
    return ring


def _on_rim(edges: NDArray[np.float32], x: float, y: float, r: float) -> tuple[float, float]:
    """The centre within a quarter of a radius of (x, y) whose ring of radius
    ``r`` holds the most brightness change: the printed rim's centre."""
    m = max(1, round(0.25 * r))
    half = int(np.ceil(1.2 * r)) + 1
    size = 2 * (half + m) + 1
    around = cv2.getRectSubPix(edges, (size, size), (x, y))
    resp = cv2.matchTemplate(around, _annulus(r, half), cv2.TM_CCORR)
    dy, dx = np.unravel_index(int(np.argmax(resp)), resp.shape)
    return x + float(dx) - m, y + float(dy) - m


def _around(
    img: NDArray[np.float32], c: _Coin
) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.float64]]:
    """The strip's pixels around coin ``c`` out to its paper ring, and each
    one's offset from the coin's centre, across and down."""
    h, w = img.shape[:2]
    x0, x1 = max(int(c.x - c.reach), 0), min(int(c.x + c.reach) + 2, w)
    y0, y1 = max(int(c.y - c.reach), 0), min(int(c.y + c.reach) + 2, h)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return img[y0:y1, x0:x1], xx - c.x, yy - c.y


def _box(img: NDArray[np.float32], c: _Coin) -> tuple[NDArray[np.float32], NDArray[np.float64]]:
    """The strip's pixels around coin ``c`` out to its paper ring, and each
    one's distance from the coin's centre."""
    box, dx, dy = _around(img, c)
    return box, np.hypot(dx, dy)


def _paper_ring(c: _Coin, d: NDArray[np.float64]) -> NDArray[np.bool_]:
    """The pixels at distances ``d`` from coin ``c``'s centre that lie on
    the paper around it: past its printed rim, within its reach."""
    return (d > 1.3 * c.r) & (d < c.reach)


def _rims(edges: NDArray[np.float32], coins: list[_Coin]) -> NDArray[np.float64]:
    """How strongly brightness changes (``edges``) on each coin's rim (a printed circle)."""
    out = []
    for c in coins:
        box, d = _box(edges, c)
        out.append(float(box[(d > 0.8 * c.r) & (d < 1.2 * c.r)].mean()))
    return np.array(out)


def _unevenly_lit(img: NDArray[np.float32], c: _Coin) -> float:
    """How much darker the paper around coin ``c`` is in its darkest
    direction than in its brightest, as a share of the brightest: 0.03 at
    the median on a training draw's coins, more where a shadow's edge
    crosses the coin.

    The paper is the brighter part (the upper quartile) of the ring
    around the coin in each of ``SECTORS`` directions, so the printed
    outlines nearby do not count, as in ``_paper_under``."""
    box, dx, dy = _around(img, c)
    ring = _paper_ring(c, np.hypot(dx, dy))
    sector = _sectors(dx[ring], dy[ring])
    n = np.bincount(sector, minlength=SECTORS)
    paper = _upper_quartiles(box.mean(axis=2)[ring][:, None], sector, n)[n > 3, 0]
    if len(paper) < 2:
        return 0.0
    return float((paper.max() - paper.min()) / max(float(paper.max()), 1e-3))


def _sectors(dx: NDArray[np.float64], dy: NDArray[np.float64]) -> NDArray[np.int64]:
    """Which of ``SECTORS`` directions round a coin each pixel, at offsets
    ``dx``, ``dy`` from its centre, lies in."""
    turn = (np.arctan2(dy, dx) + np.pi) / (2 * np.pi)  # 0 to 1 round the coin
    return np.asarray((turn * SECTORS).astype(np.int64) % SECTORS)


def _paper_under(
    img: NDArray[np.float32], c: _Coin, xx: NDArray[np.int64], yy: NDArray[np.int64]
) -> NDArray[np.float64]:
    """The paper's colour under coin ``c`` at offsets ``xx``, ``yy`` from its
    centre, as if the coin were not printed there.

    Around the coin, the paper is the brighter part (the upper quartile) of
    the ring beyond its rim, so the printed outlines nearby do not count.
    Under it, it is a plane through that paper in each of ``SECTORS``
    directions, colour by colour: paper browned in clouds or a lamp's
    fall-off darken one side of a coin more than the other, and measured
    against the ring's lit side alone, the clean paper on the dark side
    reads as pencil. The plane is never taken brighter than the ring's
    upper quartile as a whole: across a shadow's sharp edge it runs on
    brighter than the shadowed paper. (On five training draws read through
    the whole reader, seeds 20000 to 22000, 31000 and 32000, 3,054 photos:
    36 more exact counts and 3 fewer wrong ones, of 1,154 and 24, than the
    ring's upper quartile alone; unclipped, 32 and 3.) With fewer than
    ``PLANE_SECTORS`` directions seen, the ring's upper quartile."""
    box, dx, dy = _around(img, c)
    ring = _paper_ring(c, np.hypot(dx, dy))
    sector = _sectors(dx[ring], dy[ring])
    n = np.bincount(sector, minlength=SECTORS)
    seen = n > 3
    flat = np.percentile(box[ring], 75, axis=0) + 1e-3
    if seen.sum() < PLANE_SECTORS:
        return np.asarray(np.broadcast_to(flat, (*xx.shape, len(flat))))
    at = np.column_stack(
        [np.ones(SECTORS)]
        + [np.bincount(sector, weights=d[ring], minlength=SECTORS) / np.maximum(n, 1) for d in (dx, dy)]
    )
    paper = _upper_quartiles(box[ring], sector, n)
    plane = np.linalg.lstsq(at[seen], paper[seen], rcond=None)[0]  # 3 x colours
    under = plane[0] + xx[..., None] * plane[1] + yy[..., None] * plane[2]
    return np.asarray(np.clip(under, 1e-3, flat))


def _upper_quartiles(
    pixels: NDArray[np.float32], sector: NDArray[np.int64], n: NDArray[np.int64]
) -> NDArray[np.float64]:
    """The upper quartile of ``pixels`` (k x colours) in each sector, colour
    by colour, as ``np.percentile(..., 75)`` gives it (between the two
    nearest values), for all sectors at once: one call a sector was most
    of a coin's cost. ``n`` counts each sector's pixels; a sector without
    any gets 0."""
    start = np.concatenate([[0], np.cumsum(n)[:-1]])
    pos = 0.75 * np.maximum(n - 1, 0)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(n - 1, 0))
    frac = pos - lo
    out = np.zeros((len(n), pixels.shape[1]))
    for ch in range(pixels.shape[1]):
        v = pixels[np.lexsort((pixels[:, ch], sector)), ch].astype(np.float64)
        if len(v):
            a, b = v[np.minimum(start + lo, len(v) - 1)], v[np.minimum(start + hi, len(v) - 1)]
            out[:, ch] = a + (b - a) * frac
    return np.where((n > 0)[:, None], out, 0.0)


def _ink(img: NDArray[np.float32], coins: list[_Coin]) -> NDArray[np.float64]:
    """Each coin's pencil: how much darker than the paper under it
    (``_paper_under``) its inside is where no other coin is as dark.

    Printings put rings, dots or stars inside their coins, alike in every
    coin, and a player marks a coin with a tick or a cross as often as by
    shading it. So the print is taken away first: pixel by pixel, the
    lightest of the fourteen coins shows it alone wherever one of them is
    clean (a pixel's leeway each way, for a coin placed a pixel off). What
    is left is pencil, and a thin tick counts by its strokes, not by the
    small share of the coin it covers."""
    half = int(np.ceil(0.75 * coins[0].r))
    size = 2 * half + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    inside = np.hypot(xx, yy) < INSIDE * coins[0].r
    taken = []
    for c in coins:
        paper = _paper_under(img, c, xx, yy)
        pixels = cv2.getRectSubPix(img, (size, size), (c.x, c.y))
        taken.append(np.clip(1.0 - pixels / paper, 0.0, 1.0).max(axis=2))
    dark = np.array(taken, np.float32)
    printed = cv2.dilate(dark.min(axis=0), np.ones((3, 3), np.uint8))
    pencil = np.clip(dark - printed[None], 0.0, 1.0)
    return np.array([float(np.percentile(p[inside], 90)) for p in pencil])


def split(ink: NDArray[np.float64]) -> int | None:
    """How many coins from the left are inked, or None when the track does
    not say clearly (a smudge, a shadow, a gap, or every coin alike).

    The clean coins are alike: the same print, no pencil. The inked ones are
    not: a player shades one coin hard and ticks the next. So a count is
    where the coins after it are alike and the coin before it stands clearly
    above them all (by ``GAP``, and by ``SPREAD`` times the clean coins' own
    spread), the inked coins as a whole stand above the clean (``APART``),
    only a few of them are marked so faintly that they lie nearer the clean
    coins than that last one (``FAINT``), and none of them is as clean as
    the clean coins (``ABOVE``). Where two places split so, the one with
    the larger gap is the count: shading spills onto the coin after the
    last one shaded, which then stands a little above the clean coins
    after it. One clean coin alone shows no spread, and a light falling
    unevenly along the track can leave it the only light one: a count of
    13 needs twice the gap and no faint coin. A track whose coins are all
    alike gives nothing to compare: a printing's solid discs look inked,
    and a track read a little off its place looks clean, so the player is
    asked rather than told 0 or 14."""
    best: tuple[float, int] | None = None
    for count in range(1, len(ink)):
        inked, clean = ink[:count], ink[count:]
        top = float(clean.max())
        edge = float(ink[count - 1]) - top
        alone = len(clean) == 1
        if edge < max(GAP * (2 if alone else 1), SPREAD * (top - float(clean.min()))):
            continue
        if float(np.median(inked) - np.median(clean)) < APART:
            continue
        if float(inked.min()) - top < ABOVE:
            continue
        if int((inked < top + edge / 2).sum()) > (0 if alone else (count - 1) // FAINT):
            continue
        if best is None or edge > best[0]:
            best = (edge, count)
    return None if best is None else best[1]
