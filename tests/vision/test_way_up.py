"""Which way up a side A sheet is, when its printed spaces pass both ways:
the printed mountains decide, not how sure the reading is elsewhere."""

from __future__ import annotations

import numpy as np

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES
from referee.vision.reader import _half_turn_alike, _upright


def _probs(mountain: float, elsewhere: float) -> np.ndarray:
    """Every square read as a forest with ``elsewhere``, except the printed
    mountains, read as mountains with ``mountain``."""
    side = map_sides()["A"]
    probs = np.full((SIZE * SIZE, len(CLASSES)), (1 - elsewhere) / (len(CLASSES) - 1), np.float32)
    probs[:, CLASSES.index("F")] = elsewhere
    for r, c in side.mountains:
        i = r * SIZE + c
        probs[i] = (1 - mountain) / (len(CLASSES) - 1)
        probs[i, CLASSES.index("^")] = mountain
    return probs


def test_the_way_whose_mountains_read_surely_is_upright() -> None:
    side = map_sides()["A"]
    assert _half_turn_alike(side)
    upright = _probs(mountain=0.9, elsewhere=0.6)
    # upside down, the coloured squares happen to read more surely, and the
    # mountains, standing on their peaks, less so
    turned = _probs(mountain=0.5, elsewhere=0.95)
    assert np.log(turned.max(axis=1)).mean() > np.log(upright.max(axis=1)).mean()
    assert _upright(upright, side) > _upright(turned, side)
