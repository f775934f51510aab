"""The networks' ruins output layers (``cells.RUINS_HEAD``): the ruins
spaces, and they alone, are read by them, from the same last hidden layer;
``tools/fit_ruins_heads.py`` fits them (with torch, the train extra)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import (
    CLASSES,
    RUINS_COLUMN,
    RUINS_HEAD,
    SCOUT,
    _weights,
    ensemble,
    features,
    forward,
    glance,
    on_ruins,
    pictures,
    read_fully,
)
from referee.vision.rectify import S, canvas_side
from tests.scripts import load_script

FOREST = CLASSES.index("F")


def _plain(net: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``net`` without its ruins output layer."""
    return {k: v for k, v in net.items() if not k.startswith(RUINS_HEAD) and not k.startswith("rb")}


def _feature_net(rng: np.random.Generator, inputs: int, units: int = 8) -> dict[str, np.ndarray]:
    """A network of one hidden layer over the features alone."""
    return {
        "mean": np.zeros(inputs, np.float32),
        "std": np.ones(inputs, np.float32),
        "w1": rng.normal(size=(inputs, units)).astype(np.float32),
        "b1": np.zeros(units, np.float32),
        "w2": rng.normal(size=(units, len(CLASSES))).astype(np.float32),
        "b2": np.zeros(len(CLASSES), np.float32),
    }


def test_a_ruins_layer_reads_the_ruins_spaces_and_no_other_square() -> None:
    rng = np.random.default_rng(3)
    inputs = 1 - RUINS_COLUMN + 4
    x = rng.normal(size=(SIZE * SIZE, inputs)).astype(np.float32)
    x[:, RUINS_COLUMN] = 0.0
    ruins = np.zeros(SIZE * SIZE, bool)
    ruins[[13, 40, 41, 77, 101, 118]] = True
    x[ruins, RUINS_COLUMN] = 1.0
    assert np.array_equal(on_ruins(x), ruins)
    net = _feature_net(rng, inputs)
    bias = np.zeros(len(CLASSES), np.float32)
    bias[FOREST] = 50.0
    headed = net | {"rw2": np.zeros_like(net["w2"]), "rb2": bias}
    plain, read = forward(x, net, 1.3), forward(x, headed, 1.3)
    assert np.array_equal(read[~ruins], plain[~ruins])
    assert (read[ruins].argmax(axis=1) == FOREST).all()
    assert not (plain[ruins].argmax(axis=1) == FOREST).all()
    other = _feature_net(rng, inputs)
    assert np.allclose(ensemble(x, [headed, other], 1.3), (read + forward(x, other, 1.3)) / 2)


def test_every_shipped_network_has_a_ruins_layer_of_its_own_fitted() -> None:
    nets, _ = _weights()
    for net in nets:
        assert net["rw2"].shape == net["w2"].shape
        assert net["rb2"].shape == net["b2"].shape
        assert not np.allclose(net["rw2"], net["w2"])


def test_a_full_reading_reads_the_ruins_spaces_by_their_layers_and_the_rest_as_before() -> None:
    """The five networks' reading of a grid (``read_fully``) takes the ruins
    layers on the side's ruins spaces and the output layers everywhere
    else; the scout's checks (``glance``) take its output layer alone."""
    rng = np.random.default_rng(6)
    nets, temperature = _weights()
    side = map_sides()["B"]
    light = rng.uniform(0.3, 1.0, (canvas_side(S),) * 2 + (3,)).astype(np.float32)
    x, pics = features(light, side), pictures(light, side)
    ruins = on_ruins(x)
    assert set(np.flatnonzero(ruins).tolist()) == {r * SIZE + c for r, c in side.ruins}
    seen = glance(light, side)
    scout = nets[min(SCOUT, len(nets) - 1)]
    assert np.allclose(seen.probs, forward(x, _plain(scout), temperature, pics), atol=1e-5)
    full = read_fully(seen)
    plain = ensemble(x, [_plain(w) for w in nets], temperature, pics)
    assert np.allclose(full.probs, ensemble(x, nets, temperature, pics), atol=1e-5)
    assert np.allclose(full.probs[~ruins], plain[~ruins], atol=1e-5)
    assert np.abs(full.probs[ruins] - plain[ruins]).max() > 1e-3


def _fit_ruins_heads():  # type: ignore[no-untyped-def]
    if os.environ.get("REFEREE_REQUIRE_TORCH") != "1":
        pytest.importorskip("torch", reason="fitting needs the train extra: pip install -e '.[train]'")
    return load_script("tools/fit_ruins_heads.py")


def test_a_ruins_layer_held_hard_keeps_its_start_and_one_held_loosely_learns_the_spaces() -> None:
    fr = _fit_ruins_heads()
    rng = np.random.default_rng(9)
    layer = np.abs(rng.normal(size=(300, 8))).astype(np.float32)
    y = np.full(300, FOREST)
    start = (rng.normal(size=(8, len(CLASSES))).astype(np.float32), np.zeros(len(CLASSES), np.float32))
    held = fr.fit_head(layer, y, start, 0.8, anchor=1e6)
    assert np.allclose(held[0], start[0], atol=1e-4) and np.allclose(held[1], start[1], atol=1e-4)
    loose = fr.fit_head(layer, y, start, 0.8, anchor=1e-3)
    ruins = fr.Ruins(layer[None], y)
    before = fr.mean_probs(ruins, [start], 0.8)[:, FOREST].mean()
    after = fr.mean_probs(ruins, [loose], 0.8)[:, FOREST].mean()
    assert after > 0.9 > before
    again = fr.fit_head(layer, y, start, 0.8, anchor=1e-3)
    assert np.array_equal(again[0], loose[0]) and np.array_equal(again[1], loose[1])
