"""``tools/train_cells.py --start``: the classifier's networks can be trained
further on photos of a newer generator, from the weights already shipped,
instead of from random ones. Going on must start where the given network
is (its weights and its input scaling), and refuse a network of another
shape rather than train something else."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from referee.vision.cells import CLASSES, forward
from tests.scripts import load_script


def _train_cells() -> ModuleType:
    return load_script("tools/train_cells.py")


def _squares(rng: np.random.Generator, n: int, shift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows whose code is told by which of the first features is largest."""
    y = rng.integers(0, len(CLASSES), n)
    x = rng.normal(0, 1, (n, 12)).astype(np.float32)
    x[np.arange(n), y] += 4.0
    return x + shift, y


def test_zero_epochs_from_a_start_is_the_start() -> None:
    tc = _train_cells()
    rng = np.random.default_rng(3)
    x, y = _squares(rng, 600)
    start = tc.train(x, y, hidden=16, layers=2, epochs=3, seed=1, balance=0.5, batch=64)
    again = tc.train(x + 5.0, y, hidden=16, layers=2, epochs=0, seed=2, balance=0.5, start=start)
    assert again.keys() == start.keys()
    for k in start:  # the input scaling too, though these rows' mean is another
        assert np.array_equal(again[k], start[k]), k


def test_going_on_learns_the_newer_photos_and_keeps_the_older() -> None:
    """A network trained on one draw, trained further on a shifted draw,
    reads the shifted one better than before and the first about as well."""
    tc = _train_cells()
    rng = np.random.default_rng(4)
    old_x, old_y = _squares(rng, 3000)
    new_x, new_y = _squares(rng, 3000, shift=1.5)
    start = tc.train(old_x, old_y, hidden=32, layers=2, epochs=6, seed=1, balance=0.5, batch=128)
    went_on = tc.train(
        new_x, new_y, hidden=32, layers=2, epochs=4, seed=2, balance=0.5, batch=128, lr=5e-4, start=start
    )

    def right(w: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
        return float(np.mean(forward(x, w).argmax(1) == y))

    test_old, test_old_y = _squares(rng, 2000)
    test_new, test_new_y = _squares(rng, 2000, shift=1.5)
    assert right(went_on, test_new, test_new_y) > right(start, test_new, test_new_y)
    assert right(went_on, test_old, test_old_y) >= right(start, test_old, test_old_y) - 0.03


def test_a_start_of_another_shape_is_refused() -> None:
    tc = _train_cells()
    rng = np.random.default_rng(5)
    x, y = _squares(rng, 300)
    start = tc.train(x, y, hidden=16, layers=2, epochs=1, seed=1, balance=0.5)
    with pytest.raises(ValueError, match="shape"):
        tc.train(x, y, hidden=32, layers=2, epochs=1, seed=1, balance=0.5, start=start)
