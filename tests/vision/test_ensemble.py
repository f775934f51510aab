"""The square classifier may ship as several networks whose mean is the
reading: the weights file names each member's arrays ``m0.w1``, ``m1.w1``,
..., a file of one network keeps its plain names, and the mean is taken of
the members' calibrated probabilities."""

from __future__ import annotations

import numpy as np

from referee.vision.cells import _weights, ensemble, forward, members


def _net(rng: np.random.Generator, inputs: int = 5, hidden: int = 4, out: int = 3) -> dict[str, np.ndarray]:
    return {
        "mean": rng.normal(size=inputs).astype(np.float32),
        "std": rng.uniform(0.5, 2, inputs).astype(np.float32),
        "w1": rng.normal(size=(inputs, hidden)).astype(np.float32),
        "b1": rng.normal(size=hidden).astype(np.float32),
        "w2": rng.normal(size=(hidden, out)).astype(np.float32),
        "b2": rng.normal(size=out).astype(np.float32),
    }


def test_members_are_read_from_their_prefixes() -> None:
    rng = np.random.default_rng(0)
    a, b = _net(rng), _net(rng)
    stored = {**{f"m0.{k}": v for k, v in a.items()}, **{f"m1.{k}": v for k, v in b.items()}}
    stored["temperature"] = np.float32(1.5)
    got = members(stored)
    assert len(got) == 2
    for want, net in zip((a, b), got, strict=True):
        assert net.keys() == want.keys()
        assert all(np.array_equal(net[k], want[k]) for k in want)
    # a file of one network, as before ensembles
    [single] = members({**a, "temperature": np.float32(1.5)})
    assert single.keys() == a.keys()


def test_the_reading_is_the_mean_of_the_members() -> None:
    rng = np.random.default_rng(1)
    nets = [_net(rng) for _ in range(3)]
    x = rng.normal(size=(7, 5)).astype(np.float32)
    mean = ensemble(x, nets, 1.3)
    assert np.allclose(mean, np.mean([forward(x, w, 1.3) for w in nets], axis=0), atol=1e-6)
    assert np.allclose(mean.sum(axis=1), 1.0, atol=1e-5)
    # the temperature is each member's: a very hot one leaves them all, and so the mean, undecided
    assert np.allclose(ensemble(x, nets, 1e6), 1 / 3, atol=1e-4)


def test_the_shipped_weights_load() -> None:
    nets, temperature = _weights()
    assert nets and temperature > 0
    for net in nets:
        assert {"mean", "std", "w1", "b1"} <= net.keys()
        assert net["w1"].shape[0] == net["mean"].shape[0]
