"""The strips a comb's slide and the cloth check read (``lattice._strip_fits``)
are measured in one pass over the ink: each strip is the ink whose position
across lies in it, and its fit is the ink on the other comb's twelve lines
less the ink halfway between them. Checked against the plain reading, strip
by strip, of the same definition."""

from __future__ import annotations

import numpy as np
import pytest

from referee.rules.geometry import SIZE
from referee.vision.lattice import Comb, _strip_fits


def _one_strip(across, along, weight, strips: Comb, j: int, bands: Comb) -> float:
    lo = strips.offset + j * strips.spacing
    inside = (across >= lo) & (across < lo + strips.spacing)
    t = (along[inside] - bands.offset) / bands.spacing
    w = weight[inside]
    tol = min(0.12, max(0.06, 2.5 / bands.spacing))
    on = (np.abs(t - np.rint(t)) < tol) & (np.rint(t) >= 0) & (np.rint(t) <= SIZE)
    mid = (np.abs(t - np.floor(t) - 0.5) < tol) & (t > 0) & (t < SIZE)
    return float(w[on].sum() - w[mid].sum())


@pytest.mark.parametrize("seed", range(5))
def test_each_strip_is_read_as_on_its_own(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 20_000
    across = rng.uniform(-50, 700, n).round(2)
    along = rng.uniform(-50, 700, n).round(2)
    # ink on the lines of a grid 40 px a square, plus noise all over
    on_line = rng.random(n) < 0.5
    along[on_line] = 30 + 40 * rng.integers(0, SIZE + 1, on_line.sum()) + rng.normal(0, 1, on_line.sum())
    weight = rng.uniform(0.05, 0.6, n)
    strips = Comb(float(rng.uniform(10, 60)), float(rng.uniform(35, 45)), 1.0)
    bands = Comb(30.0, 40.0, 1.0)
    got = _strip_fits(across, along, weight, strips, bands)
    want = [_one_strip(across, along, weight, strips, j, bands) for j in range(-1, SIZE + 1)]
    assert got.shape == (SIZE + 2,)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    assert (got[1 : SIZE + 1] > 0).all()  # every strip inside the grid is crossed by its lines


def test_a_pair_of_combs_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lattice's slides and its check for running on ask for the same
    pair of combs again whenever a comb does not move: the answer is the
    same, measured once."""
    from referee.vision import lattice

    rng = np.random.default_rng(0)
    ink = (rng.uniform(0, 500, 5000), rng.uniform(0, 500, 5000), rng.uniform(0.1, 0.5, 5000))
    calls: list[tuple[Comb, Comb]] = []
    real = lattice._crossings

    def counted(strips: Comb, bands: Comb, cut: tuple[np.ndarray, ...]) -> tuple[list[float], float]:
        calls.append((strips, bands))
        return real(strips, bands, cut)

    monkeypatch.setattr(lattice, "_crossings", counted)
    crossings = lattice._measured_once(ink)
    a, b = Comb(20.0, 40.0, 1.0), Comb(25.0, 41.0, 1.0)
    first = crossings(a, b)
    assert crossings(Comb(20.0, 40.0, 1.0), b) == first == real(a, b, lattice._in_strips(*ink, a))
    assert first[0] == _strip_fits(*ink, a, b).tolist()
    assert crossings(b, a) != first
    assert calls == [(a, b), (b, a)]
