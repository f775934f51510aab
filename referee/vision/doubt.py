"""Stage 7: how sure the reader is of each square, weighed with its sheet.

The networks' probability for a square is calibrated square by square, on
photos like the ones they learned from. On a photo unlike those (a paper,
a stain or a light they never saw) they can be sure and wrong: bare
squares at the edge of a yellowed sheet read as farms at 0.9. A person
checking the reading would look at more than the one square, and so does
this stage. Its clues, for each square a player can draw on:

- the square's own reading: the confidence ``reader._decide`` gives it, the
  networks' likeliest code and its lead over the next, how much they hesitate
  (entropy), the sheet's agreed reading of the code, and the least sure of
  the networks (where they part, one of them is likely wrong);
- its fellows: how far it lies, in the networks' last hidden layer
  (``Squares.looks``), from the sheet's squares read as the same code, and
  from those read as another, each against the sheet's usual distance
  between likest squares. A farm that looks like no other farm of its
  sheet, and like its bare squares, is likely no farm;
- its neighbours on the grid: how sure the reader is of the squares around
  it (a hand or a shadow covers several squares at once);
- the sheet: how sure the reader is of its squares as a whole (a blurred or
  dim photo is doubtful everywhere);
- its grid lines: how plainly the faintest of its four sides shows, against
  the sheet's usual line (``covered``): a hand or a pencil lying on the
  sheet hides the lines under it, and the networks still name something
  there;
- its shape: how many of its four neighbours on the map are read as its
  code. A player draws each explore card's shape, two to five squares of
  one terrain but for the one-square shapes, and shapes of one terrain
  meet, so a square read as a code that no neighbour shares is more
  often misread (on the weighing's draws, 51 % of the squares read wrong
  as a drawn code, against 11 % of those read right);
- the code read (a bare square read as drawn is the likeliest mistake).

A small network over these clues (one hidden layer of ``HIDDEN`` units),
fitted by ``tools/train_doubt.py`` on training draws read by the reader
(never a measured set), gives the chance that the square is read right:
that is the confidence shown. A network, not a logistic regression,
because the clues do not simply add up: on the first draw, cross-validated
photo by photo, the network flags nine in ten of the wrong squares for
2.5 % of the right ones, where the regression needed 3.0 % (on the photos
whose grid is found in place). Its weights, and the line under which a
square is shown as doubtful, ship in ``doubt.json``. The
line is drawn on those draws too, never on a set that is measured: where as
many of their right squares are flagged as the target allows (3 %), or
higher if that flags fewer than the nine in ten of their wrong squares the
target asks for. A wrong square not flagged reaches a score unseen; a
right one flagged costs the player a glance.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from referee.rules import terrain
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES, UNSURE, Squares

DRAWN = tuple(CLASSES.index(c) for c in CLASSES if c == terrain.EMPTY or c in terrain.DRAWN)
"""The codes a player can draw (and empty), as indices into ``CLASSES``."""
CLUES = (
    "shown",
    "likeliest",
    "lead",
    "hesitation",
    "agreed",
    "least_network",
    "like_own",
    "like_other",
    "near_mean",
    "near_least",
    "sheet_mean",
    "sheet_unsure",
    "faintest_line",
    "same_around",
    *(f"code_{CLASSES[k]}" for k in DRAWN),
)
"""The clues, in the order of a row of ``clues`` and of the weights."""
LIKEST = 3
"""Squares of the sheet over which a square's distance to its own code's
squares, and to other codes', is averaged."""
FAR = 5.0
"""Distance (in units of the sheet's usual likest-square distance) given to
a square with no fellow of its code, and the most any distance counts."""
HIDDEN = 16
"""Units in the weighing's hidden layer: chosen on the first fitting draw
by photo-grouped cross-validation (8 flagged a little more right squares
for nine in ten of the wrong, 32 no fewer), and 32 again no better on
three draws; a few hundred weights for some 270,000 squares."""
LINE_RANGE = (0.05, 5.0)
"""The least and the most a square's faintest line counts, in units of the
sheet's usual line, before its log: past these a line is hidden, or as
plain as lines come."""
EDGE = 1e-4
"""Probabilities are kept this far from 0 and 1 before their log-odds."""


def _logit(p: NDArray[np.float64]) -> NDArray[np.float64]:
    q = np.clip(p, EDGE, 1 - EDGE)
    return np.asarray(np.log(q / (1 - q)))


def _drawn(probs: NDArray[np.float32]) -> NDArray[np.float64]:
    """Probabilities over the drawable codes only, summing to one (last axis)."""
    p = probs[..., list(DRAWN)].astype(np.float64)
    return np.asarray(p / np.maximum(p.sum(axis=-1, keepdims=True), 1e-9))


def _fellows(
    looks: NDArray[np.float32], codes: NDArray[np.int64], free: Sequence[int]
) -> NDArray[np.float64]:
    """For each free square, its mean distance to the ``LIKEST`` likest free
    squares read as its own code, and to those read as another, both in
    units of the sheet's median distance from a square to its likest one."""
    at = np.asarray(free, int)
    v = looks[at].astype(np.float64)
    sq = (v * v).sum(axis=1)
    d = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * v @ v.T, 0.0))
    np.fill_diagonal(d, np.inf)
    usual = max(float(np.median(d.min(axis=1))), 1e-6) if len(at) > 1 else 1.0
    same = codes[at][:, None] == codes[at][None, :]
    out = np.full((len(at), 2), FAR)
    for j, kind in enumerate((same, ~same)):
        dist = np.sort(np.where(kind, d, np.inf), axis=1)[:, :LIKEST]
        seen = np.isfinite(dist)
        n = seen.sum(axis=1)
        mean = np.where(seen, dist, 0.0).sum(axis=1) / np.maximum(n, 1)
        out[:, j] = np.where(n > 0, np.minimum(mean / usual, FAR), FAR)
    return out


KING_STEPS = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
"""The eight squares around a square, as (row, column) steps."""
ROOK_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The four squares beside a square, as (row, column) steps."""


def _around(values: NDArray[Any], outside: float, steps: Sequence[tuple[int, int]]) -> NDArray[Any]:
    """For each square of the map (``values``, 121, row by row), the values
    of the squares ``steps`` away (one row per step), ``outside`` beyond
    the map's edge."""
    grid = np.full((SIZE + 2, SIZE + 2), outside, values.dtype)
    grid[1:-1, 1:-1] = values.reshape(SIZE, SIZE)
    return np.stack([grid[1 + dy : SIZE + 1 + dy, 1 + dx : SIZE + 1 + dx].ravel() for dy, dx in steps])


def _near(shown: NDArray[np.float64], free: Sequence[int]) -> NDArray[np.float64]:
    """For each free square, the mean and the least confidence of the free
    squares around it (eight at most); a square with none around it gets 1."""
    inner = np.full(SIZE * SIZE, np.nan)
    inner[list(free)] = shown[list(free)]
    around = _around(inner, np.nan, KING_STEPS)[:, list(free)]
    seen = ~np.isnan(around)
    n = seen.sum(axis=0)
    mean = np.where(seen, around, 0.0).sum(axis=0) / np.maximum(n, 1)
    least = np.where(seen, around, np.inf).min(axis=0)
    return np.stack([np.where(n > 0, mean, 1.0), np.where(n > 0, least, 1.0)], axis=1)


def _same_around(codes: NDArray[np.int64], free: Sequence[int]) -> NDArray[np.float64]:
    """For each free square, the share of its neighbours on the map (four,
    or fewer at the edge) read as its own code; printed spaces never are."""
    at = np.asarray(free, int)
    around = _around(codes, -1, ROOK_STEPS)[:, at]
    same = (around == codes[at]).sum(axis=0)
    return np.asarray(same / (around >= 0).sum(axis=0), np.float64)


def clues(
    squares: Squares,
    agreed: NDArray[np.float32],
    grid: Sequence[str],
    shown: NDArray[np.float64],
    free: Sequence[int],
    sides: NDArray[np.float32],
) -> NDArray[np.float64]:
    """One row of ``CLUES`` for each of the ``free`` squares, in that order:
    ``squares`` as the networks read them, ``agreed`` the sheet's reading,
    ``grid`` the codes chosen, ``shown`` (121) their confidence so far and
    ``sides`` (121 x 4) how plainly each square's grid lines show
    (``covered.line_contrast``)."""
    at = np.asarray(free, int)
    codes = np.array([CLASSES.index(ch) for ch in "".join(grid)], np.int64)
    k = np.array([DRAWN.index(c) if c in DRAWN else 0 for c in codes[at]])
    rows = np.arange(len(at))
    alone = _drawn(squares.probs)[at]
    top = np.sort(alone, axis=1)
    each = _drawn(squares.each)[:, at]
    mine = shown[at]
    near = _near(shown, free)
    sheet = np.array([mine.mean(), (mine < UNSURE).mean()]) if len(at) else np.ones(2)
    lines = sides[at]
    usual = max(float(np.median(lines)), 1e-3) if len(at) else 1.0
    faintest = np.clip(lines.min(axis=1) / usual, *LINE_RANGE)
    return np.column_stack(
        [
            _logit(mine),
            _logit(top[:, -1]),
            top[:, -1] - top[:, -2],
            -(alone * np.log(alone + 1e-9)).sum(axis=1),
            _logit(_drawn(agreed)[at][rows, k]),
            _logit(each[:, rows, k].min(axis=0)),
            _fellows(squares.looks, codes, free),
            _logit(near[:, 0]),
            _logit(near[:, 1]),
            np.broadcast_to(sheet, (len(at), 2)),
            np.log(faintest),
            _same_around(codes, free),
            np.eye(len(DRAWN))[k],
        ]
    )


@cache
def _model() -> dict[str, object]:
    with resources.files("referee.vision").joinpath("doubt.json").open("rb") as f:
        model: dict[str, object] = json.load(f)
    names = model["clues"]
    if not isinstance(names, list) or names != list(CLUES):
        raise RuntimeError("doubt.json was fitted on other clues: fit it again with tools/train_doubt.py")
    return model


def chance_right(rows: NDArray[np.float64], model: dict[str, object] | None = None) -> NDArray[np.float64]:
    """The chance that each square is read right, from its row of ``CLUES``:
    the clues scaled, a hidden layer of rectified units, and a logistic output."""
    m = _model() if model is None else model

    def arr(key: str) -> NDArray[np.float64]:
        return np.asarray(m[key], np.float64)

    z = (rows - arr("mean")) / arr("scale")
    h = np.maximum(z @ arr("hidden_weights") + arr("hidden_bias"), 0.0)
    logit = h @ arr("weights") + arr("bias")
    return np.asarray(1.0 / (1.0 + np.exp(-logit)))


def doubtful_line() -> float:
    """The confidence under which a square is shown to the player as doubtful."""
    line = _model()["doubtful"]
    if not isinstance(line, int | float):
        raise RuntimeError("doubt.json has no doubtful line: fit it again with tools/train_doubt.py")
    return float(line)
