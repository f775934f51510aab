"""Which other side a refused photo is said to show: any grid, clear or
faint, names another side only as surely as a faint grid passes for the
chosen one (four in five of its printed spaces), since the name is the best
match of every grid tried against three sides."""

from __future__ import annotations

import numpy as np

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES
from referee.vision.reader import FAINT_SEEN, _looks_like, _printed_seen


def _reading(letter: str, mountains_seen: int) -> np.ndarray:
    """Every square read as a forest, except the first ``mountains_seen`` of
    side ``letter``'s printed mountains, read surely as mountains."""
    probs = np.full((SIZE * SIZE, len(CLASSES)), 0.02, np.float32)
    probs[:, CLASSES.index("F")] = 0.82
    for r, c in sorted(map_sides()[letter].mountains)[:mountains_seen]:
        probs[r * SIZE + c] = 0.02
        probs[r * SIZE + c, CLASSES.index("^")] = 0.82
    return probs


def test_three_of_five_mountains_name_no_side_four_do() -> None:
    """Three of five is enough for a clear grid to pass as the chosen side,
    and by chance a wrong grid matches that much of some other side."""
    chosen = map_sides()["B"]
    chance, four = _reading("C", 3), _reading("C", 4)
    assert _printed_seen(chance, map_sides()["C"]) == 0.6
    assert _printed_seen(four, map_sides()["C"]) == FAINT_SEEN
    assert _looks_like([chance], chosen) is None
    assert _looks_like([chance, _reading("D", 3), _reading("A", 3)], chosen) is None
    assert _looks_like([chance, four], chosen) == "C"


def test_the_side_matched_best_is_named() -> None:
    chosen = map_sides()["B"]
    assert _looks_like([_reading("C", 4), _reading("D", 5)], chosen) == "D"
    assert _looks_like([_reading("C", 5)], map_sides()["C"]) is None  # never the side chosen


def test_no_reading_names_no_side() -> None:
    """The search may end before any grid was seen clearly enough to name
    a side early: that names none, it does not fail."""
    assert _looks_like([], map_sides()["A"]) is None
