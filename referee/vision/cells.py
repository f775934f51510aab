"""Stage 5: what is drawn in each square, with how sure the reader is.

Light first. The colour of the light is taken from the brightest part of
the canvas, the bare paper. Paper yellows towards its edges and a lamp and a
window tint a sheet in two colours, so the colour is then corrected by a
smooth surface fitted robustly through the paper of each block: smooth, so
that a large patch of yellow or blue keeps its colour instead of being taken
for paper. The brightness of the light, which shadows change sharply from
place to place, comes from the brightest pixels of each block.

Then each square's inside (its grid lines trimmed off) is described, with
the printed ruins picture divided out of every ruins space first, since
pads print pictures of their own (``_unprinted``). Pencil
lies on paper like a filter: the light it takes away, ``1 - pixel``, points
in the same direction in colour space however hard or lightly the square
was shaded, however much of it is covered and however blurred the photo is.
So the colour features are a histogram of that direction (two coordinates
across the grey axis) over the inked pixels, weighted by how much ink there
is, plus its mean and spread; graphite is the ink that takes away all three
colours alike, so the darkness common to all three channels, on a 12x12
grid, shows letters, icons and the destroyed X, even over colour, and the
directions of its strokes say which letter or icon it is. Small networks
turn that, with three convolutions over the square's own picture
(``pictures``: where each stroke lies against the others, which pooled
features only hint at), into a probability for each map code, and their
mean is the reading of each square alone (one of them, the scout, reads
every grid the reader only checks). ``tools/train_cells.py`` trains
them on synthetic photos; the reader runs them in numpy. (``agree`` then
reads the squares of a sheet together.) Their weights, and the temperature
that calibrates their confidence, ship in ``cells.npz``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules.data import MapSide
from referee.rules.geometry import SIZE
from referee.vision.pixels import channel_max, channel_min, channel_sum
from referee.vision.rectify import MARGIN, S

CLASSES = ".FVAWMHX^#"
"""The map codes the network tells apart, in output order."""
TRIM = 4
"""Pixels trimmed from each edge of a square: the grid line and most spill."""
INNER = S - 2 * TRIM
E1 = np.array([1.0, -1.0, 0.0], np.float32) / np.sqrt(2.0)
E2 = np.array([1.0, 1.0, -2.0], np.float32) / np.sqrt(6.0)
"""Two directions across the grey axis: the ink's colour, whatever its amount."""
BINS = (8, 10)
RANGE = ((-0.4, 0.4), (-0.75, 0.45))
"""Histogram of the ink's direction along ``E1`` and ``E2``; the six pencils
and graphite all fall inside these ranges."""
NOISE_SIGMA = 1.0
"""Canvas pixels over which noise is smoothed away before anything is read."""
INKED = 0.15
"""Light taken away (summed over the three channels) below which a pixel is paper."""
UNSURE = 0.85
"""The networks' own line between sure and unsure: their temperature is
calibrated so that a set share of the squares they read right falls under
it (``tools/train_cells.py``). The line at which the reader asks the
player is ``doubt.doubtful_line()``, drawn after the sheet is weighed too."""


def _paper_colour(img: NDArray[np.float32]) -> NDArray[np.float32]:
    """The paper's colour cast at every pixel, as (red/green, 1, blue/green).

    Paper yellows towards its edges, and a lamp and a window light a sheet
    in two colours, so one white for the whole canvas leaves bare squares
    tinted, and a tinted bare square reads as a faint farm or lake. Both
    change slowly across the sheet; pencil changes from square to square.
    So the cast is a smooth surface (quadratic in both directions) fitted to
    the colour of the brightest pixels of each block, robustly: blocks of
    coloured pencil, frame or ink lie far off the surface and are weighed
    out (Tukey's biweight on the residual's median spread)."""
    n = img.shape[0] // S
    blocks = img[: n * S, : n * S].reshape(n, S, n, S, 3).transpose(0, 2, 1, 3, 4).reshape(n * n, S * S, 3)
    top = np.percentile(blocks, 92, axis=1)
    logs = np.log(np.maximum(top, 1e-3))
    chroma = np.stack([logs[:, 0] - logs[:, 1], logs[:, 2] - logs[:, 1]], axis=1)
    t = (np.arange(n, dtype=np.float64) + 0.5) / n * 2 - 1
    yy, xx = np.meshgrid(t, t, indexing="ij")
    x, y = xx.ravel(), yy.ravel()
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)
    # start from the median: at least half of a sheet's blocks show bare paper
    fitted = np.broadcast_to(np.median(chroma, axis=0), chroma.shape)
    for _ in range(6):
        resid = np.linalg.norm(chroma - fitted, axis=1)
        scale = 4.685 * max(float(np.median(resid)) * 1.4826, 0.01)
        w = np.clip(1 - (resid / scale) ** 2, 0.0, None) ** 2
        if w.sum() < design.shape[1] * 2:
            break
        sw = np.sqrt(w)[:, None]
        coef, *_ = np.linalg.lstsq(design * sw, chroma * sw, rcond=None)
        fitted = design @ coef
    h, wd = img.shape[:2]
    field = np.exp(fitted.reshape(n, n, 2)).astype(np.float32)
    field = cv2.resize(field, (wd, h), interpolation=cv2.INTER_LINEAR)
    return np.stack([field[..., 0], np.ones((h, wd), np.float32), field[..., 1]], axis=-1)


def even_light(canvas: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The canvas as float RGB with the paper brought to about 1.0 everywhere,
    whatever the colour of the light or the shadows across the sheet."""
    # sensor noise and paper grain vary from pixel to pixel; pencil does not:
    # its colour and coverage are read over areas much larger than a pixel.
    # Unsmoothed, noise alone lifts bare paper over ``INKED`` and gives it a colour.
    img = np.asarray(cv2.GaussianBlur(canvas.astype(np.float32) / 255.0, (0, 0), NOISE_SIGMA), np.float32)
    # the paper is the brightest part of the grid and its margin: the margin
    # alone may be a dark printed frame, and the grid may be mostly coloured
    px = img.reshape(-1, 3)[::7]
    bright = channel_max(px)
    paper_px = px[bright >= np.percentile(bright, 85)]
    white = np.median(paper_px / np.maximum(channel_max(paper_px)[:, None], 1e-3), axis=0)
    white = np.maximum(white / max(float(white.max()), 1e-3), 0.2).astype(np.float32)
    img /= white
    img /= _paper_colour(img)
    # no pencil darkens its own brightest channel much, so the brightest
    # channel's high percentile in each block is the paper's brightness there.
    # A block darker than most of its neighbours is a dark fill (forest,
    # monster, graphite) and borrows their paper; any other block keeps its
    # own, so mottled or stained paper is not read as a light shading.
    n = img.shape[0] // S
    v = channel_max(img)
    blocks = v[: n * S, : n * S].reshape(n, S, n, S).transpose(0, 2, 1, 3).reshape(n, n, S * S)
    own = np.percentile(blocks, 92, axis=2, overwrite_input=True).astype(np.float32)  # a copy already
    paper = np.maximum(own, cv2.medianBlur(own, 3))
    paper = cv2.GaussianBlur(paper, (0, 0), 0.8)
    full = cv2.resize(paper, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_CUBIC)
    return np.asarray(np.clip(img / np.maximum(full, 0.05)[..., None], 0.0, 1.2), np.float32)


def _cells(light: NDArray[np.float32]) -> NDArray[np.float32]:
    m = round(MARGIN * S)
    g = light[m : m + SIZE * S, m : m + SIZE * S]
    cells = g.reshape(SIZE, S, SIZE, S, 3).transpose(0, 2, 1, 3, 4)[:, :, TRIM:-TRIM, TRIM:-TRIM]
    return cells.reshape(SIZE * SIZE, INNER, INNER, 3)


def _pool(a: NDArray[np.float32], k: int) -> NDArray[np.float32]:
    """Mean over ``k`` x ``k`` blocks of each square, flattened."""
    n = a.shape[0]
    return np.asarray(a.reshape(n, INNER // k, k, INNER // k, k).mean(axis=(2, 4)).reshape(n, -1), np.float32)


ORIENTS = 8
"""Stroke directions told apart, over half a turn."""
STROKE_CELLS = 3
"""The square's inside is cut into this many bands each way for stroke directions."""


def _strokes(common: NDArray[np.float32]) -> NDArray[np.float32]:
    """Which way the graphite's strokes run, and where in the square.

    Letters and icons are told apart by their strokes more than by exactly
    which pixels they cover: a player's tree or house sits a little higher
    or smaller than the one the network learned, but its trunk is still
    upright and its roof still slants. So, as in a histogram of oriented
    gradients, each band of the square (``STROKE_CELLS`` each way) gets a
    histogram of edge directions weighted by edge strength, scaled by the
    square's whole stroke energy so that light and dark pencil look alike;
    the energy itself is kept as one more feature."""
    gy, gx = np.gradient(common, axis=(1, 2))
    mag = np.hypot(gx, gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi) / np.pi * ORIENTS
    lo = np.floor(angle).astype(int) % ORIENTS
    frac = angle - np.floor(angle)
    k, n = common.shape[0], INNER // STROKE_CELLS
    band = (np.arange(INNER) // n).clip(0, STROKE_CELLS - 1)
    where = band[:, None] * STROKE_CELLS + band[None, :]
    bins = STROKE_CELLS * STROKE_CELLS * ORIENTS
    base = (np.arange(k) * bins)[:, None, None] + where[None] * ORIENTS
    hist = np.bincount((base + lo).ravel(), weights=(mag * (1 - frac)).ravel(), minlength=k * bins)
    hist += np.bincount((base + (lo + 1) % ORIENTS).ravel(), weights=(mag * frac).ravel(), minlength=k * bins)
    hist = hist.reshape(k, bins)
    energy = hist.sum(axis=1, keepdims=True)
    return np.concatenate([hist / (energy + 1.0), np.log1p(energy)], axis=1).astype(np.float32)


PRINT_SHIFT = 1
"""Canvas pixels by which the print of one ruins space may sit off another's
after the grid's local correction; the print is widened by as much."""
PRINT_PAPER = 90
"""Percentile of a ruins picture's pixels, colour by colour, taken for its paper."""
PRINT_ALIKE = 0.06
"""Largest difference in light, as a share of the paper, between the two
brightest ruins spaces at a pixel for both to show the same there."""
PRINT_SEEN_TWICE = 0.9
"""Share of the pixels at which the two brightest ruins spaces must show
the same (``PRINT_ALIKE``) for the print to be taken in its own colours:
two spaces that hold the print alone, where a drawing on either would
leave them apart."""


def _own_light(squares: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each square's own light (k x 1 x 1 x 1): the value a tenth of its
    pixels exceed in their lightest colour, as ``_print_of_ruins`` takes
    the paper. The light is evened block by block (``even_light``), and a
    ruins space whose print lays a tinted ground over it is a block darker
    than its neighbours, so two spaces holding the print alone may come
    out a few hundredths apart in light; compared pixel by pixel, they
    would not show the same. A colour pencil leaves at least one colour
    of the light, so a shaded space keeps its light here, and its colour."""
    lightest = channel_max(squares).reshape(len(squares), -1)
    level = np.percentile(lightest, PRINT_PAPER, axis=1)
    return np.asarray(np.maximum(level, 0.05)[:, None, None, None], np.float32)


def _print_of_ruins(squares: NDArray[np.float32]) -> NDArray[np.float32]:
    """The sheet's printed ruins picture (its light, colour by colour or one
    value a pixel for all three), from the sheet's ruins spaces ``squares``.

    A drawing covers a different part of each ruins space, or none of it;
    the print is under every one. So, pixel by pixel and colour by colour,
    the brightest of the ruins spaces shows the print alone, wherever at
    least one of them has no pencil there. Each pixel then takes the
    darkest of its neighbours, so that a print that sits a pixel off in
    another space is still covered.

    Each colour is measured against its own paper (the value a tenth of the
    pixels exceed; the picture's lines cover much less than nine tenths of a
    space), so that cream paper is white, and each space is first taken at
    its own light (``_own_light``). When the two brightest spaces
    show the same nearly everywhere (``PRINT_SEEN_TWICE``), both hold the
    print alone, and it is taken in its own colours (INNER x INNER x 3): a
    slate or brown print taken as grey leaves its tint on its lines, which
    the networks, having seen no such print, read as water or a tree
    drawn there (on the held-out draws, half the printed ruins read as a
    drawing were of the slate print).

    Otherwise the print is taken as grey (INNER x INNER x 1). Where every
    ruins space is shaded, the brightest is still tinted, in patches, by
    the shadings (yellow where green and red lie, say): blue is taken by all
    of them. Dividing by the tint would turn a space's colour, green to
    blue. A colour pencil leaves at least one colour of the light, and a
    print takes all three, so each pixel is taken as light as its lightest
    colour. Measuring the ink's own proportions was tried: with every space
    shaded, the tint under the lines skews them. A brown print taken so
    leaves a faint tint on its lines, not its shape."""
    ordered = np.sort(squares / _own_light(squares), axis=0)
    size = 2 * PRINT_SHIFT + 1
    widened = np.ones((size, size), np.uint8)
    picture = cv2.erode(ordered[-1], widened)
    paper = np.maximum(np.percentile(picture.reshape(-1, picture.shape[-1]), PRINT_PAPER, axis=0), 0.05)
    coloured = np.minimum(picture / paper, 1.0)
    second = np.minimum(cv2.erode(ordered[-2], widened) / paper, 1.0)
    if float((np.abs(coloured - second).max(axis=-1) < PRINT_ALIKE).mean()) >= PRINT_SEEN_TWICE:
        return np.asarray(coloured, np.float32)
    return np.asarray(coloured.max(axis=-1, keepdims=True), np.float32)


def _ruins_spaces(side: MapSide) -> list[int]:
    """The side's ruins spaces, as square numbers row by row from the top left."""
    return [r * SIZE + c for r, c in side.ruins]


def _unprinted(squares: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """The squares' insides with the printed ruins picture divided out of
    every ruins space.

    Pads print ruins in pictures of their own, and a network that learned
    the pictures it was shown reads one it never saw as a tree or a letter
    drawn in pencil: a held-out draw's dome read wrong on a quarter of its
    graphite sheets' ruins spaces. Pencil lies on the print as a filter, so
    dividing the print's light out leaves what the player drew, on bare
    paper, and a ruins space reads like any other square."""
    idx = _ruins_spaces(side)
    if len(idx) < 2:
        return squares
    out = squares.copy()
    printed = np.maximum(_print_of_ruins(squares[idx]), 0.05)
    out[idx] = squares[idx] / printed
    return out


@dataclass(frozen=True)
class _Ink:
    """How much light pencil and print take away in each pixel of some
    squares' insides, and in which direction of colour."""

    total: NDArray[np.float32]
    """Light taken away, summed over the three channels (k x INNER x INNER)."""
    common: NDArray[np.float32]
    """Light taken away from all three channels alike: graphite (k x INNER x INNER)."""
    c1: NDArray[np.float64]
    c2: NDArray[np.float64]
    """The taken light's direction along ``E1`` and ``E2`` (k x INNER**2)."""
    weight: NDArray[np.float32]
    """How much each pixel counts as ink (k x INNER**2): none for paper."""

    @classmethod
    def of(cls, squares: NDArray[np.float32]) -> _Ink:
        taken: NDArray[np.float32] = np.clip(1.0 - squares, 0.0, 1.0)
        k = taken.shape[0]
        total = channel_sum(taken)
        safe = np.maximum(total, 1e-3)
        return cls(
            total=total,
            common=channel_min(taken),
            c1=((taken @ E1) / safe).reshape(k, -1),
            c2=((taken @ E2) / safe).reshape(k, -1),
            weight=np.clip(total - INKED, 0.0, None).reshape(k, -1),
        )

    def colour(self) -> NDArray[np.float32]:
        """How much coloured (not grey) ink each square holds."""
        coloured = (self.weight * np.hypot(self.c1, self.c2)).sum(axis=1)
        return np.asarray(coloured / (INNER * INNER), np.float32)


RUIN_POOL = 8
"""Pixels per block when a ruins space is compared with the sheet's plainest one."""


RUINS_CONTEXT = 6 + 2 * (INNER // RUIN_POOL) ** 2
"""Features ``_ruins_context`` gives each space."""
RUINS_COLUMN = -1 - RUINS_CONTEXT
"""The column of ``features`` that is 1 on a ruins space, 0 elsewhere."""


def on_ruins(x: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Which rows of feature rows ``x`` (``features``) are ruins spaces."""
    return np.asarray(x[:, RUINS_COLUMN] > 0.5)


def _ruins_context(squares: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """How each ruins space, print and all, differs from the sheet's
    plainest ruins space.

    The squares' own features have the print divided out (``_unprinted``),
    which may take some pencil with it where the pencil sits on the print,
    or take a drawing that every ruins space shares for print. So each ruins
    space also gets, as photographed, the ruins space with the least ink
    (often an empty one, showing the print alone): its ink, its colour and
    graphite, and where and how much this space has more; every other space
    gets zeros. ``squares``: the insides of all the squares, as photographed."""
    k = squares.shape[0]
    out = np.zeros((k, RUINS_CONTEXT), np.float32)
    idx = _ruins_spaces(side)
    if len(idx) < 2:
        return out
    ink = _Ink.of(squares[idx])
    total, common, colour = ink.total, ink.common, ink.colour()
    ref = int(np.argmin(total.mean(axis=(1, 2))))
    for j, i in enumerate(idx):
        out[i] = np.concatenate(
            [
                [
                    total[ref].mean(),
                    common[ref].mean(),
                    colour[ref],
                    total[j].mean() - total[ref].mean(),
                    common[j].mean() - common[ref].mean(),
                    colour[j] - colour[ref],
                ],
                _pool(np.clip(common[j : j + 1] - common[ref], 0.0, None), RUIN_POOL)[0],
                _pool(np.clip(total[j : j + 1] - total[ref], 0.0, None) / 3, RUIN_POOL)[0],
            ]
        )
    return out


def pictures(light: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """Each square's inside as the light pencil took away from each colour
    (k x INNER x INNER x 3, from 0 for bare paper to 1), the printed ruins
    picture divided out, in steps of 1/255 as the training photos store it.

    The networks' convolutions read these: where the strokes lie against
    each other, which pooled features (``features``) only hint at."""
    taken = np.clip(1.0 - _unprinted(_cells(light), side), 0.0, 1.0)
    return np.asarray(np.round(taken * 255.0) / 255.0, np.float32)


def features(light: NDArray[np.float32], side: MapSide) -> NDArray[np.float32]:
    """One row of features per square, row by row from the top left."""
    squares = _cells(light)
    ink = _Ink.of(_unprinted(squares, side))
    k = squares.shape[0]
    total, common, c1, c2, weight = ink.total, ink.common, ink.c1, ink.c2, ink.weight
    (lo1, hi1), (lo2, hi2) = RANGE
    b1 = np.clip(((c1 - lo1) / (hi1 - lo1) * BINS[0]).astype(int), 0, BINS[0] - 1)
    b2 = np.clip(((c2 - lo2) / (hi2 - lo2) * BINS[1]).astype(int), 0, BINS[1] - 1)
    nb = BINS[0] * BINS[1]
    flat = (b1 * BINS[1] + b2) + (np.arange(k) * nb)[:, None]
    # weighed counts are float64 (NumPy's stubs type every bincount as integers)
    hist = np.asarray(
        np.bincount(flat.ravel(), weights=weight.ravel(), minlength=k * nb), np.float64
    ).reshape(k, nb)
    hist /= INNER * INNER
    inked = weight.sum(axis=1) + 1e-3
    m1 = (c1 * weight).sum(axis=1) / inked
    m2 = (c2 * weight).sum(axis=1) / inked
    s1 = np.sqrt(((c1 - m1[:, None]) ** 2 * weight).sum(axis=1) / inked)
    s2 = np.sqrt(((c2 - m2[:, None]) ** 2 * weight).sum(axis=1) / inked)
    tf = total.reshape(k, -1)
    cf = common.reshape(k, -1)
    stats = np.stack(
        [
            tf.mean(axis=1),
            tf.std(axis=1),
            (tf > 0.3).mean(axis=1),
            (tf > 0.8).mean(axis=1),
            (tf > 1.5).mean(axis=1),
            cf.mean(axis=1),
            (cf > 0.35).mean(axis=1),
            m1,
            m2,
            s1,
            s2,
            np.sqrt(inked / (INNER * INNER)),
        ],
        axis=1,
    )
    ruins = np.zeros(k, np.float32)
    ruins[_ruins_spaces(side)] = 1.0
    # the whole sheet, the same for every square: whether this player shades
    # in colour or writes in graphite. On a coloured sheet a grey drawing is
    # the printed ruins' picture, not a tree drawn in pencil.
    colour = ink.colour()
    graphite = cf.mean(axis=1)
    sheet = np.array(
        [colour.mean(), np.percentile(colour, 90), graphite.mean(), np.percentile(graphite, 90)], np.float32
    )
    return np.concatenate(
        [
            hist * 8,
            _pool(common, 2),
            _pool(total / np.float32(3), 4),
            _strokes(common) * 4,
            stats,
            np.broadcast_to(sheet * 4, (k, len(sheet))),
            ruins[:, None],
            _ruins_context(squares, side) * 4,
        ],
        axis=1,
    ).astype(np.float32)


Net = dict[str, NDArray[np.float32]]

PICTURE_GAIN = 3.0
"""Scale of ``pictures`` as the convolutions take them: light pencil takes
a third or less of the light, so this brings their inputs near unit size."""
CONVOLUTIONS = 3
"""Convolution layers (3x3, ReLU, then the largest of each 2x2) that read a
network's pictures, ``k1``/``kb1`` to ``k3``/``kb3`` in its weights."""


def members(weights: dict[str, NDArray[np.float32]]) -> list[Net]:
    """The networks stored in one weights file: ``m0.w1``, ``m0.b1``, ...
    ``m1.w1``, ... for an ensemble, or ``w1``, ``b1``, ... for one network."""
    names = sorted({k.split(".", 1)[0] for k in weights if "." in k}, key=lambda m: int(m[1:]))
    if not names:
        return [{k: v for k, v in weights.items() if k != "temperature"}]
    return [{k.split(".", 1)[1]: v for k, v in weights.items() if k.startswith(m + ".")} for m in names]


DEAD_WEIGHT = 1e-20
"""Weights smaller than this are set to zero when the networks are loaded
(``flushed``): twenty orders of magnitude under the weights that read."""


def flushed(weights: NDArray[np.float32]) -> NDArray[np.float32]:
    """``weights`` with every weight under ``DEAD_WEIGHT`` set to zero.

    Training leaves tens of thousands of weights that have decayed to
    nothing (38,000 of the shipped 1.5 million, most of them 1e-38 to
    1e-34). A processor may multiply a number that small, or make one,
    many times slower than any other: on the machine where this was found,
    they made each wider network take twice as long. Their products with
    the networks' inputs (about 100 at the most, on 30 photos) are some
    1e-18, far less than half the last digit of any sum they join, so the
    networks read the same numbers without them (on the squares of 83
    grids, every network's every probability and hidden value was the same
    to the bit)."""
    return np.where(np.abs(weights) < DEAD_WEIGHT, np.float32(0.0), weights).astype(np.float32)


@cache
def _weights() -> tuple[tuple[Net, ...], float]:
    with resources.files("referee.vision").joinpath("cells.npz").open("rb") as f:
        data = np.load(f)
        weights = {name: data[name].astype(np.float32) for name in data.files}
    # the weights that multiply (``k1``, ``w1``, ...), not the biases or the scaling
    weights = {
        name: flushed(v) if re.fullmatch(r"r?[kw]\d+", name.rsplit(".", 1)[-1]) else v
        for name, v in weights.items()
    }
    return tuple(members(weights)), float(weights.get("temperature", np.float32(1.0)))


def _layers(w: Net) -> int:
    return sum(1 for name in w if name.startswith("w"))


RUINS_HEAD = "rw"
"""The name, before its layer's number, of a network's second output layer
(``rw2`` and its bias ``rb2``), which reads the ruins spaces alone from the
same last hidden layer (``tools/fit_ruins_heads.py``). A pencil drawing on
a ruins space lies over a printed picture divided out of it, and is left
fainter than on bare paper, so what the hidden layer shows there means
something else than elsewhere; ruins spaces are one square in twenty of
what the networks were fitted on, and their one output layer is fitted to
the other nineteen. Left out of ``glance``: the scout only checks the
printed mountains, which no ruins space holds."""


def convolve(z: NDArray[np.float32], kernel: NDArray[np.float32]) -> NDArray[np.float32]:
    """The sums of a 3x3 convolution of pictures ``z`` (k x h x w x c, zeros
    beyond the edge), before its bias: ``kernel`` holds the weights of the
    nine neighbours, row by row, each over the input channels (9c x out).
    Added up one neighbour at a time, which takes half the time of laying
    all nine side by side first."""
    k, h, w, c = z.shape
    padded = np.zeros((k, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = z
    taps = kernel.reshape(9, c, -1)
    out = np.zeros((k * h * w, taps.shape[2]), np.float32)
    for j in range(9):
        dy, dx = divmod(j, 3)
        out += padded[:, dy : dy + h, dx : dx + w].reshape(-1, c) @ taps[j]
    return out.reshape(k, h, w, -1)


def _halve(z: NDArray[np.float32]) -> NDArray[np.float32]:
    """The largest value of each 2x2 block of each channel (k x h x w x c)."""
    rows = np.maximum(z[:, 0::2], z[:, 1::2])
    return np.maximum(rows[:, :, 0::2], rows[:, :, 1::2])


def pooled(sums: NDArray[np.float32], bias: NDArray[np.float32]) -> NDArray[np.float32]:
    """A convolution layer's output from its ``sums`` (``convolve``): the
    ReLU of each sum plus its channel's ``bias``, then the largest of each
    2x2 block. It takes the largest first: adding one bias to a channel's
    values and the ReLU never reorder them, so the numbers are the same,
    and the bias and the ReLU touch a quarter of the values."""
    out = _halve(sums)
    out += bias
    return np.maximum(out, 0.0, out=out)


def first_convolutions(pics: NDArray[np.float32], nets: Sequence[Net]) -> list[NDArray[np.float32]]:
    """Every network's first convolution layer over the same pictures
    (``pooled``), in one product: each of the nine neighbours of every pixel
    laid side by side once (k x h x w x 9c), against all the networks'
    kernels at once. The networks share their input, and with three colour
    channels a neighbour at a time is a product too thin to be quick, so
    this takes some 40 % of the time of three ``convolve`` calls for the
    same sums."""
    z = pics * np.float32(PICTURE_GAIN)
    k, h, w, c = z.shape
    padded = np.zeros((k, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = z
    taps = np.empty((k, h, w, 9, c), np.float32)
    for j in range(9):
        dy, dx = divmod(j, 3)
        taps[:, :, :, j] = padded[:, dy : dy + h, dx : dx + w]
    kernel = np.concatenate([net["k1"] for net in nets], axis=1)
    out = pooled(
        (taps.reshape(-1, 9 * c) @ kernel).reshape(k, h, w, -1), np.concatenate([net["kb1"] for net in nets])
    )
    edges = np.cumsum([0] + [net["k1"].shape[1] for net in nets])
    return [out[..., a:b] for a, b in zip(edges[:-1], edges[1:], strict=True)]


def _convolved(
    pics: NDArray[np.float32], w: Net, first: NDArray[np.float32] | None = None
) -> NDArray[np.float32]:
    """What one network's convolutions see in each picture, flattened channel
    by channel, as ``tools/train_cells.py`` lays them out; ``first``, its
    first convolution already made (``first_convolutions``)."""
    z = first if first is not None else pooled(convolve(pics * np.float32(PICTURE_GAIN), w["k1"]), w["kb1"])
    for i in range(2, CONVOLUTIONS + 1):
        z = pooled(convolve(z, w[f"k{i}"]), w[f"kb{i}"])
    return z.transpose(0, 3, 1, 2).reshape(len(z), -1)


def hidden(
    x: NDArray[np.float32],
    w: Net,
    pics: NDArray[np.float32] | None = None,
    first: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """One network's last hidden layer for feature rows ``x`` (and, for a
    network with convolutions, the squares' ``pictures``, with its first
    convolution of them if already made): what it tells the codes apart
    by, before it names one."""
    z = (x - w["mean"]) / w["std"]
    if "k1" in w:
        if pics is None:
            raise ValueError("this network reads the squares' pictures too")
        z = np.concatenate([_convolved(pics, w, first), z], axis=1)
    for i in range(1, _layers(w)):
        z = np.maximum(z @ w[f"w{i}"] + w[f"b{i}"], 0.0)
    return z.astype(np.float32)


def _softmax(
    z: NDArray[np.float32], w: Net, temperature: float, ruins: NDArray[np.bool_] | None = None
) -> NDArray[np.float32]:
    """The output layer on hidden activations ``z``, logits divided by
    ``temperature``; on the rows ``ruins`` marks, the network's ruins
    output layer if it has one (``RUINS_HEAD``)."""
    last = _layers(w)
    logits = z @ w[f"w{last}"] + w[f"b{last}"]
    head = f"{RUINS_HEAD}{last}"
    if ruins is not None and head in w and ruins.any():
        logits[ruins] = z[ruins] @ w[head] + w[f"rb{last}"]
    logits /= temperature
    logits -= logits.max(axis=1, keepdims=True)
    e: NDArray[np.float32] = np.exp(logits)
    total: NDArray[np.float32] = e.sum(axis=1, keepdims=True)
    return (e / total).astype(np.float32)


def forward(
    x: NDArray[np.float32], w: Net, temperature: float = 1.0, pics: NDArray[np.float32] | None = None
) -> NDArray[np.float32]:
    """Class probabilities for feature rows ``x`` from one network: its
    convolutions over ``pics``, if it has any, beside ``x``, then ReLU layers
    ``w1``, ``w2``, ... then a softmax, its logits divided by ``temperature``."""
    return _softmax(hidden(x, w, pics), w, temperature, on_ruins(x) if _has_ruins_head(w) else None)


def ensemble(
    x: NDArray[np.float32], nets: Sequence[Net], temperature: float, pics: NDArray[np.float32] | None = None
) -> NDArray[np.float32]:
    """The mean of the networks' probabilities. Networks trained alike from
    other random starts err on different squares and agree where a square is
    plain, so their mean is right more often than any one of them and, above
    all, less sure where it is wrong: the doubtful squares shown to the
    player catch more of the mistakes, for no more false alarms."""
    ruins = on_ruins(x) if any(_has_ruins_head(w) for w in nets) else None
    return mean_of([hidden(x, w, pics) for w in nets], nets, temperature, ruins)


def mean_of(
    layers: Sequence[NDArray[np.float32]],
    nets: Sequence[Net],
    temperature: float,
    ruins: NDArray[np.bool_] | None = None,
) -> NDArray[np.float32]:
    """The networks' mean probabilities from their last hidden layers
    ``layers``, the rows ``ruins`` marks read by the ruins output layers."""
    return np.asarray(_each(layers, nets, temperature, ruins).mean(axis=0), np.float32)


def _each(
    layers: Sequence[NDArray[np.float32]],
    nets: Sequence[Net],
    temperature: float,
    ruins: NDArray[np.bool_] | None = None,
) -> NDArray[np.float32]:
    """Each network's probabilities from its last hidden layer, stacked."""
    return np.stack([_softmax(z, w, temperature, ruins) for z, w in zip(layers, nets, strict=True)])


def _has_ruins_head(w: Net) -> bool:
    return f"{RUINS_HEAD}{_layers(w)}" in w


@dataclass(frozen=True)
class Squares:
    """What the networks make of each square of one straightened grid, row
    by row from the top left."""

    probs: NDArray[np.float32]
    """121 x 10: the networks' mean probability of each code, order ``CLASSES``."""
    looks: NDArray[np.float32]
    """121 rows: each network's last hidden layer, scaled to unit length, side
    by side. Squares drawn alike lie close here whatever the light."""
    each: NDArray[np.float32]
    """networks x 121 x 10: each network's own probabilities, whose mean is
    ``probs``; where they part, the square is less surely read."""


SCOUT = 0
"""The network (its place in ``cells.npz``) that alone reads a straightened
grid for the reader's checks (``glance``): the first, one of the three
narrower. The reader reads each grid it finds each way up, and a grid it
keeps again the other way up and half a square away. Those readings only
answer two questions: are the side's printed mountains the likeliest
mountains of all, and are they surer mountains this way up or the other?
One network answers them as five do, and every network reads only the
reading the reader keeps (``read_fully``).
Chosen on the held-out draws: with the first network or with the first
wider one as the scout, the reader read all 500 photos exactly as with
all five reading everything, and the first costs the least."""


@dataclass(frozen=True)
class Glance:
    """What one network (``SCOUT``) makes of the squares of one straightened
    grid, with what every network reads from them, so that the rest can
    finish the reading if the reader keeps it (``read_fully``)."""

    probs: NDArray[np.float32]
    """121 x 10: the scout's probability of each code, order ``CLASSES``."""
    x: NDArray[np.float32]
    """The squares' ``features``."""
    pics: NDArray[np.float32] | None
    """The squares' ``pictures``, for networks with convolutions."""
    layer: NDArray[np.float32]
    """The scout's last hidden layer."""


def glance(light: NDArray[np.float32], side: MapSide) -> Glance:
    """The scout's reading of every square (``SCOUT``): a fifth of the
    networks' cost, for a reading the reader may only check and drop."""
    nets, temperature = _weights()
    scout = nets[min(SCOUT, len(nets) - 1)]
    x = features(light, side)
    pics = pictures(light, side) if "k1" in scout else None
    first = first_convolutions(pics, [scout])[0] if pics is not None else None
    layer = hidden(x, scout, pics, first)
    return Glance(_softmax(layer, scout, temperature), x, pics, layer)


def read_fully(seen: Glance) -> Squares:
    """Every network's reading of the squares the scout read (``glance``),
    and how each square looks to them: the scout's own work is kept."""
    nets, temperature = _weights()
    scout = min(SCOUT, len(nets) - 1)
    rest = [w for i, w in enumerate(nets) if i != scout]
    pics = seen.pics if any("k1" in w for w in rest) else None
    convolved = all("k1" in w for w in rest)
    firsts = first_convolutions(pics, rest) if convolved and pics is not None else [None] * len(rest)
    layers = [hidden(seen.x, w, pics, first) for w, first in zip(rest, firsts, strict=True)]
    layers.insert(scout, seen.layer)
    looks = np.concatenate([z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-6) for z in layers], axis=1)
    each = _each(layers, nets, temperature, on_ruins(seen.x))
    return Squares(each.mean(axis=0).astype(np.float32), looks.astype(np.float32), each)
