"""The square classifier may ship as several networks whose mean is the
reading: the weights file names each member's arrays ``m0.w1``, ``m1.w1``,
..., a file of one network keeps its plain names, and the mean is taken of
the members' calibrated probabilities."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision import reader
from referee.vision.cells import (
    CLASSES,
    CONVOLUTIONS,
    INNER,
    PICTURE_GAIN,
    SCOUT,
    _weights,
    convolve,
    ensemble,
    features,
    first_convolutions,
    flushed,
    forward,
    glance,
    hidden,
    members,
    pictures,
    pooled,
    read_fully,
)
from referee.vision.rectify import S, canvas_side


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
        assert {"mean", "std", "w1", "b1", "k1", "kb1"} <= net.keys()
        assert net["k1"].shape[0] == 9 * 3  # the pictures' three colours
        side = INNER // 2**CONVOLUTIONS
        assert net["w1"].shape[0] == net["k3"].shape[1] * side * side + net["mean"].shape[0]


def test_the_convolutions_compute_what_they_say() -> None:
    """A network with convolutions, against the same sums written out one
    pixel at a time: each output pixel the ReLU of its 3x3 neighbourhood
    (zeros beyond the edge) times the kernel, then the largest of each 2x2
    block, three times; what they leave, channel by channel, beside the
    scaled features, into the dense layers."""
    rng = np.random.default_rng(2)
    channels = (3, 4, 5, 2)
    net = _net(rng, inputs=3, hidden=6, out=4)
    side = INNER // 2**CONVOLUTIONS
    net["w1"] = rng.normal(size=(channels[-1] * side * side + 3, 6)).astype(np.float32)
    for i in range(1, CONVOLUTIONS + 1):
        net[f"k{i}"] = rng.normal(0, 0.5, (9 * channels[i - 1], channels[i])).astype(np.float32)
        net[f"kb{i}"] = rng.normal(0, 0.1, channels[i]).astype(np.float32)
    pics = rng.uniform(0, 1, (2, INNER, INNER, 3)).astype(np.float32)
    x = rng.normal(size=(2, 3)).astype(np.float32)

    def by_hand(pic: np.ndarray, i: int) -> np.ndarray:
        h, w, c = pic.shape
        out = np.zeros((h, w, channels[i]))
        kernel = net[f"k{i}"].reshape(3, 3, c, -1)
        for r in range(h):
            for col in range(w):
                total = net[f"kb{i}"].astype(np.float64).copy()
                for dy in range(3):
                    for dx in range(3):
                        rr, cc = r + dy - 1, col + dx - 1
                        if 0 <= rr < h and 0 <= cc < w:
                            total += pic[rr, cc] @ kernel[dy, dx]
                out[r, col] = np.maximum(total, 0)
        return out.reshape(h // 2, 2, w // 2, 2, -1).max(axis=(1, 3))

    for n in range(2):
        z = pics[n] * PICTURE_GAIN
        for i in range(1, CONVOLUTIONS + 1):
            z = by_hand(z, i)
        seen = np.concatenate([z.transpose(2, 0, 1).ravel(), (x[n] - net["mean"]) / net["std"]])
        want = np.maximum(seen @ net["w1"] + net["b1"], 0)
        assert np.allclose(hidden(x[n : n + 1], net, pics[n : n + 1])[0], want, atol=1e-4)
    with pytest.raises(ValueError, match="pictures"):
        hidden(x, net)


def test_the_networks_first_convolutions_made_at_once_are_each_networks_own() -> None:
    """``read_fully`` makes its networks' first convolutions in one product;
    each must be what that network's own ``convolve`` makes, ``pooled``, and
    the last hidden layer built on it the same as built from the pictures."""
    rng = np.random.default_rng(5)
    nets, _temperature = _weights()
    pics = rng.uniform(0, 1, (7, INNER, INNER, 3)).astype(np.float32)
    x = rng.normal(size=(7, nets[0]["mean"].shape[0])).astype(np.float32)
    firsts = first_convolutions(pics, nets)
    assert len(firsts) == len(nets)
    for net, first in zip(nets, firsts, strict=True):
        own = pooled(convolve(pics * PICTURE_GAIN, net["k1"]), net["kb1"])
        assert first.shape == own.shape
        assert np.allclose(first, own, atol=1e-5)
        assert np.allclose(hidden(x, net, pics, first), hidden(x, net, pics), atol=1e-4)


def test_the_scout_reads_alone_and_every_network_reads_the_reading_kept() -> None:
    """The reader checks its grids with one network (``glance``) and has
    every network read only the reading it keeps (``read_fully``), which
    keeps the scout's work: the whole reading must be the mean of all the
    networks, the scout's own probabilities that network's alone, and the
    networks in the order the weights file holds them."""
    rng = np.random.default_rng(6)
    nets, temperature = _weights()
    side = map_sides()["B"]
    light = rng.uniform(0.3, 1.0, (canvas_side(S),) * 2 + (3,)).astype(np.float32)
    x, pics = features(light, side), pictures(light, side)
    seen = glance(light, side)
    scout = nets[min(SCOUT, len(nets) - 1)]
    # the checks read no ruins layer (tests/vision/test_ruins_heads.py)
    checks = {k: v for k, v in scout.items() if k not in ("rw2", "rb2")}
    assert np.allclose(seen.probs, forward(x, checks, temperature, pics), atol=1e-5)
    full = read_fully(seen)
    assert np.allclose(full.probs, ensemble(x, nets, temperature, pics), atol=1e-5)
    assert full.each.shape == (len(nets), SIZE * SIZE, len(CLASSES))
    for net, each in zip(nets, full.each, strict=True):
        assert np.allclose(each, forward(x, net, temperature, pics), atol=1e-5)


def test_only_the_weights_under_the_dead_line_are_set_to_zero() -> None:
    """``flushed`` sets only the weights under ``DEAD_WEIGHT`` to zero."""
    w = np.array([0.5, -3e-4, 2e-21, -7e-39, 0.0, 1e-19], np.float32)
    assert flushed(w).tolist() == pytest.approx([0.5, -3e-4, 0.0, 0.0, 0.0, 1e-19], rel=1e-6, abs=0)
    assert flushed(w).dtype == np.float32


def test_the_networks_read_a_photographed_sheet_to_the_bit_without_their_dead_weights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The networks load without the weights that decayed to nothing in
    training (``flushed``), which made the wider networks' convolutions twice
    as slow or worse. Every square of a photographed sheet, each way the
    reader straightens it, must read to the bit as with every weight the
    file stores: the weights left out are too small to change a sum."""
    with resources.files("referee.vision").joinpath("cells.npz").open("rb") as f:
        data = np.load(f)
        stored = members({name: data[name].astype(np.float32) for name in data.files})
    nets, _temperature = _weights()
    dead = sum(
        int(np.count_nonzero(s[k])) - int(np.count_nonzero(n[k]))
        for s, n in zip(stored, nets, strict=True)
        for k in n
    )
    assert dead > 0  # the shipped file has dead weights, and they are left out
    lights: list[np.ndarray] = []
    real_glance = reader.glance

    def kept(light: np.ndarray, side: object) -> object:
        lights.append(light)
        return real_glance(light, side)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "glance", kept)
    photo = Path(__file__).parents[2] / "sample_sheets" / "006.jpg"
    side = json.loads(photo.with_suffix(".json").read_text())["side"]
    reader.read_sheet(photo.read_bytes(), side)
    assert lights
    for light in lights:
        x, pics = features(light, map_sides()[side]), pictures(light, map_sides()[side])
        for all_weights, net in zip(stored, nets, strict=True):
            assert np.array_equal(hidden(x, all_weights, pics), hidden(x, net, pics))
