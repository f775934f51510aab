"""Stage 6: the squares of one sheet read together.

A player draws every farm of their sheet alike, in one pencil and one hand,
and the official pad and our printable sheet print every ruins space alike.
Neither need look like the photos the networks learned from, and a hand or
a printing they never saw is read less surely square by square, sometimes
wrongly. Read together, a sheet says more than its squares one by one: a
square that looks like three others of the same sheet, which the networks
read surely as farms, is most likely a farm too.

So each square a player can draw on takes part of its reading from the
squares of the same sheet it most resembles, and that most resemble it.
Resemblance is measured in the networks' last hidden layer
(``Squares.looks``), where squares of one code lie close together whatever
the light or the pencil's pressure; in the raw features, light and shading
weigh as much as the drawing, and on a training draw that mended fewer
squares. The printed spaces take no part: the side decides them.

Both ways, because a code drawn once or twice on a sheet (a hero, a
destroyed space) has no fellows: its likest squares are of other codes.
Taken one way only, a held-out draw's heroes took the reading of the farms
beside them and sheets read clean before were no longer. Its likest
squares each have likelier ones of their own, so a lone square is nobody's
neighbour and keeps the networks' reading.

Mixing the readings of squares that agree makes them surer, and a square
that looks like its fellows may still differ: a destroyed space's cross over
a forest reads as forest, surer for the forests beside it. So the agreement
chooses the code, but the reader's confidence in it is never more than the
square's own (``reader._decide``): a square the networks doubt alone is still
shown to the player, and so is every square the sheet changed.

The constants were chosen on a training draw that no network was fitted on
(``tools/make_samples.py --seed 14000 --designs train``, 200 photos, read as
the reader finds them): wrong squares 532 -> 497, sheets without error 50.5
-> 53.5 %, wrong squares outlined 78.6 -> 80.1 %, right ones 2.86 -> 3.19 %.

Then each code the sheet shows surely is given its likeness (``kin``): the
mean look of the squares the networks read as that code at ``SURE`` or
surer. Two squares that are each other's likest are few, and a sheet may
hold a dozen forests, so a forest drawn a little apart from the others
(lighter, or half hidden under a shadow) is nobody's fellow and hears
nothing from them; it is still nearer the sheet's forests, taken
together, than its farms. Each square's reading is weighed by how near
it lies to each likeness, against how near the sheet's squares lie to
their nearest. Only between codes that have a likeness: a code the sheet
shows surely nowhere (a hero drawn once) has no evidence either way, so
it keeps its odds against the nearest likeness, and a lone hero in the
farms' yellow is not read as a farm.

Chosen on two training-design draws no network was fitted on nor any
constant chosen on (``--seed 32000 --count 300 --designs train``, and the
all-hard ``--seed 31000 --count 400 --designs train --hard 1``, 685 grids
found in place), read as the reader finds them, with the game's default
limits: 2,019 wrong squares with the fellows alone, 1,898 with the
likenesses after them (255 mended, 134 spoiled), sheets without a wrong
square 357 -> 371. Weighing every code, a hero's too, against the
likenesses mended more (1,873 wrong) but spoiled 16 of the draws' heroes.
Whether the likenesses come before the fellows or after changed one
square.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from numpy.typing import NDArray

from referee.vision.cells import Squares

NEIGHBOURS = 5
"""Each square's likest squares on the sheet; two squares are read together
when each is among the other's. Few, so that a code drawn only a handful of
times on a sheet still counts."""
PULL = 0.25
"""Share of a square's reading taken from the squares it is read with; the
rest stays its own, so that a clear drawing is never outvoted."""
ROUNDS = 2
"""Times the mixing is repeated: a square also hears its neighbours' neighbours."""
SURE = 0.9
"""A square the networks read at least this surely lends its look to its
code's likeness on the sheet (``kin``); one read less surely might be of
another code, and would pull the likeness towards that one's."""
LEAST = 2
"""Squares read surely that a code needs for a likeness: one square alone is
a drawing, not a hand."""


def agree(squares: Squares, free: Collection[int]) -> NDArray[np.float32]:
    """Each square's probabilities (121 x 10), those of the ``free`` squares
    (the ones a player can draw on) mixed with their fellows'.

    In log-probabilities, so that a square sure of its code keeps it unless
    its fellows are as sure of another; each fellow weighs by how close it
    is, against the distance to the farthest of the square's ``NEIGHBOURS``.
    """
    probs = squares.probs.copy()
    idx = np.array(sorted(free), dtype=int)
    if len(idx) <= NEIGHBOURS:
        return probs
    looks = squares.looks[idx].astype(np.float64)
    sq = (looks * looks).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2 * looks @ looks.T, 0.0)
    np.fill_diagonal(d2, np.inf)
    near = np.argsort(d2, axis=1)[:, :NEIGHBOURS]
    likest = np.zeros(d2.shape, bool)
    np.put_along_axis(likest, near, True, axis=1)
    fellows = likest & likest.T
    reach = np.take_along_axis(d2, near[:, -1:], axis=1)
    weight = np.where(fellows, np.exp(-np.where(fellows, d2, 0.0) / (reach + 1e-9)), 0.0)
    total = weight.sum(axis=1, keepdims=True)
    mix = weight / np.maximum(total, 1e-12)
    share = np.where(total > 0, PULL, 0.0)
    alone = probs[idx].astype(np.float64)
    own = np.log(np.maximum(alone, 1e-6))
    mixed = own
    for _ in range(ROUNDS):
        mixed = (1 - share) * own + share * (mix @ mixed)
    mixed += kin(looks, alone)
    mixed -= mixed.max(axis=1, keepdims=True)
    e = np.exp(mixed)
    probs[idx] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return probs


def kin(looks: NDArray[np.float64], alone: NDArray[np.float64]) -> NDArray[np.float64]:
    """How near each square (a row of ``looks``) lies to each code's likeness
    on the sheet, as log-weights to add to its log-probabilities (``alone``
    the networks' own, one row a square).

    A likeness is the mean look of the squares read as its code at ``SURE``
    or surer, when there are ``LEAST`` of them. The weights are a softmax
    over the likenesses of minus the squared distance, in units of the
    median squared distance of the sheet's squares to their nearest
    likeness (how tightly this hand draws); a
    code without a likeness takes the weight of the square's nearest one,
    so that it neither gains nor loses against it. All zero when the sheet
    shows fewer than two codes surely: then there is nothing to tell apart."""
    weights = np.zeros_like(alone)
    read, sure = alone.argmax(axis=1), alone.max(axis=1) >= SURE
    codes = [k for k in np.unique(read[sure]) if (sure & (read == k)).sum() >= LEAST]
    if len(codes) < 2:
        return weights
    centres = np.stack([looks[sure & (read == k)].mean(axis=0) for k in codes])
    d2 = ((looks[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    unit = float(np.median(d2.min(axis=1))) + 1e-9
    near = -d2 / unit
    near -= near.max(axis=1, keepdims=True)
    near -= np.log(np.exp(near).sum(axis=1, keepdims=True))
    weights[:] = near.max(axis=1, keepdims=True)
    weights[:, codes] = near
    return weights
