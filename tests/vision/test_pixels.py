"""The per-pixel channel helpers give exactly what NumPy's reductions over
the last axis give: the reader's readings must not move by a bit when they
stand in for them."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.pixels import channel_max, channel_min, channel_sum


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7, 3), (5, 9, 3), (4, 6, 8, 3), (6, 2), (3, 5, 4)])
def test_the_helpers_are_the_reductions(dtype: type, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(shape))
    img = (rng.random(shape) * 200).astype(dtype)
    strided = img[::2]  # a view that is not contiguous, as the reader's samples of pixels are
    for a in (img, strided):
        assert np.array_equal(channel_max(a), a.max(axis=-1))
        assert np.array_equal(channel_min(a), a.min(axis=-1))
        if dtype is not np.uint8:  # a sum of bytes overflows either way
            assert np.array_equal(channel_sum(a), a.sum(axis=-1))
    assert channel_max(img).dtype == img.dtype


def test_the_input_is_left_as_it_was() -> None:
    img = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    before = img.copy()
    channel_max(img), channel_min(img), channel_sum(img)
    assert np.array_equal(img, before)
