"""A lattice's support (``lattice._Segments``) keeps what depends on one
comb alone, so that a search weighing every comb of one direction against
every comb of the other works each out once. The share it gives must be
the plain reading of its definition, pair by pair: of the ten inner lines'
segments, one per band of squares, those with more ink on the line than
halfway to either neighbour (and at least a quarter of a typical one)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.rules.geometry import SIZE
from referee.vision.lattice import Comb, _Segments


def _plain(across, along, weight, lines: Comb, bands: Comb) -> float:
    tol = min(0.12, max(0.06, 2.5 / lines.spacing))
    on = np.zeros((SIZE, SIZE + 1))
    gap = np.zeros((SIZE, SIZE))
    for a, b, w in zip(across, along, weight, strict=True):
        t = (a - lines.offset) / lines.spacing
        band = int(np.floor((b - bands.offset) / bands.spacing))
        if not (0 <= band < SIZE and 0.3 < t < SIZE - 0.3):
            continue
        if abs(t - np.rint(t)) < tol:
            on[band, int(np.rint(t))] += w
        if abs(t - np.floor(t) - 0.5) < tol:
            gap[band, int(np.floor(t))] += w
    inner = on[:, 1:SIZE]
    beside = np.maximum(gap[:, :-1], gap[:, 1:])
    typical = float(np.median(inner))
    if typical <= 0:
        return 0.0
    return float(np.mean((inner > 1.5 * beside) & (inner > 0.25 * typical)))


@pytest.mark.parametrize("seed", range(4))
def test_every_pair_is_read_as_on_its_own(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 3000
    across = rng.uniform(-40, 600, n)
    along = rng.uniform(-40, 600, n)
    # ink on the upright lines of a grid 40 px a square, some lines missing, and noise all over
    drawn = rng.random(n) < 0.6
    line = rng.choice([k for k in range(SIZE + 1) if k not in (3, 7)], drawn.sum())
    across[drawn] = 20 + 40 * line + rng.normal(0, 1.5, drawn.sum())
    weight = rng.uniform(0.05, 0.6, n)
    segments = _Segments(across, along, weight)
    combs = [Comb(20.0 + d, 40.0 * s, 1.0) for d in (0.0, 13.0, -20.0) for s in (1.0, 0.97)]
    shares = []
    for lines in combs:
        for bands in combs:
            want = _plain(across, along, weight, lines, bands)
            assert segments(lines, bands) == pytest.approx(want, abs=1e-12)
            assert segments(lines, bands) == segments(lines, bands)  # asked again, the same
            shares.append(want)
    assert max(shares) > 0.6 and min(shares) < 0.3  # the true lattice stands out; half a square off does not
