"""Each grid line's fit (``grid._line_fits``) is refitted up to three times,
each time without the bands that lie more than 1.5 px off the last fit.
When a refit keeps the same bands, the next would give the same line, so
the search stops there: the lines must be the ones three refits give."""

from __future__ import annotations

import numpy as np
import pytest

from referee.rules.geometry import SIZE
from referee.vision.grid import C, _line_fits, _line_positions


def _three_refits(canvas: np.ndarray, pad: int) -> list[tuple[float, float, float]]:
    """The fits as three refits give them, always."""
    ys, xs, strength, ok = _line_positions(canvas, pad)
    fits = []
    for k in range(SIZE + 1):
        y, x, w = ys[ok[:, k]], xs[ok[:, k], k], strength[ok[:, k], k]
        a = b = 0.0
        keep = np.ones(len(y), bool)
        for _step in range(3):
            if keep.sum() < 4:
                break
            b, a = np.polyfit(y[keep], x[keep], 1, w=np.sqrt(w[keep]))
            keep = np.abs(a + b * y - x) < 1.5
        seen = float(w[keep].sum()) if keep.sum() >= 4 else 0.0
        fits.append((float(a), float(b), seen) if seen else (float(pad + k * C), 0.0, 0.0))
    return fits


@pytest.mark.parametrize("seed", range(6))
def test_the_lines_are_those_three_refits_give(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pad = C
    n = SIZE * C + 2 * pad
    canvas = rng.uniform(0, 0.05, (n, n)).astype(np.float32)
    yy = np.arange(n)[:, None]
    for k in range(SIZE + 1):  # slightly slanted, bent lines, some faint
        x = (
            pad
            + k * C
            + rng.uniform(-3, 3)
            + rng.uniform(-0.02, 0.02) * (yy - n / 2)
            + rng.uniform(0, 4e-5) * (yy - n / 2) ** 2
        )
        cols = np.arange(n)[None, :]
        canvas += (rng.uniform(0.05, 0.4) * np.exp(-((cols - x) ** 2) / 2.0)).astype(np.float32)
    for _ in range(40):  # a player's marks and smudges near the lines
        r, c = rng.integers(pad, n - pad - 6, 2)
        canvas[r : r + rng.integers(2, 12), c : c + 3] += rng.uniform(0.1, 0.6)
    got = _line_fits(canvas, pad)
    want = _three_refits(canvas, pad)
    assert got == want
    assert sum(seen > 0 for _a, _b, seen in got) >= SIZE  # the lines are seen
