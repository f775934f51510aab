"""Which other side a refused photo is said to show: a faintly seen grid
names another side only as surely as it would pass for the chosen one."""

from __future__ import annotations

import numpy as np

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES
from referee.vision.reader import _looks_like, _printed_seen


def _reading(letter: str, mountains_seen: int) -> np.ndarray:
    """Every square read as a forest, except the first ``mountains_seen`` of
    side ``letter``'s printed mountains, read surely as mountains."""
    probs = np.full((SIZE * SIZE, len(CLASSES)), 0.02, np.float32)
    probs[:, CLASSES.index("F")] = 0.82
    for r, c in sorted(map_sides()[letter].mountains)[:mountains_seen]:
        probs[r * SIZE + c] = 0.02
        probs[r * SIZE + c, CLASSES.index("^")] = 0.82
    return probs


def test_three_of_five_mountains_name_a_side_on_a_clear_grid_only() -> None:
    chosen = map_sides()["B"]
    chance = _reading("C", 3)
    assert _printed_seen(chance, map_sides()["C"]) == 0.6
    assert _looks_like([(chance, True)], chosen) == "C"
    assert _looks_like([(chance, False)], chosen) is None


def test_a_faint_grid_that_shows_another_side_surely_names_it() -> None:
    chosen = map_sides()["B"]
    sure = _reading("C", 5)
    assert _looks_like([(_reading("C", 3), False), (sure, False)], chosen) == "C"
