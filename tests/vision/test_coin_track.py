"""How the coin track's ink is split into inked and clean coins."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.track import COINS, split


def test_inked_coins_standing_apart_are_counted() -> None:
    ink = np.array([0.55, 0.6, 0.5, 0.58, 0.52] + [0.06, 0.08, 0.05, 0.07, 0.06, 0.05, 0.08, 0.07, 0.06])
    assert split(ink) == 5


@pytest.mark.parametrize(
    "level",
    [0.03, 0.5],
    ids=["all as light as the paper", "all dark, as a printing's solid discs are"],
)
def test_a_track_all_alike_is_left_to_the_player(level: float) -> None:
    """Nothing to compare the coins with: solid printed discs look inked and
    a track read off its place looks clean, so neither 14 nor 0 is said."""
    rng = np.random.default_rng(1)
    ink = level + rng.uniform(-0.02, 0.02, COINS)
    assert split(ink) is None
