"""``bench/nets_bench.py`` counts, network by network, the squares a player
draws on that the networks read wrong along the true corners: a network
that reads every square bare is wrong on exactly the drawn squares of the
truth, and an ensemble's line names each network and their mean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from referee.rules import terrain
from referee.rules.data import map_sides
from referee.rules.geometry import SIZE
from referee.vision.cells import CLASSES
from tests.scripts import ROOT, load_script

SAMPLES = ROOT / "sample_sheets"
NAMES = ("000", "001")


def _drawn(folder: Path) -> tuple[int, int]:
    """Squares a player drew on in the truths of ``folder`` (not bare, not
    printed), and how many of them are ruins spaces."""
    count = ruins = 0
    for truth_file in folder.glob("*.json"):
        truth = json.loads(truth_file.read_text())
        side = map_sides()[truth["side"]]
        codes = "".join(truth["grid"])
        for i, code in enumerate(codes):
            if side.printed(*divmod(i, SIZE)) == terrain.EMPTY and code != terrain.EMPTY:
                count += 1
                ruins += divmod(i, SIZE) in side.ruins
    return count, ruins


def test_the_networks_wrong_squares_are_counted_on_the_drawn_squares(tmp_path: Path) -> None:
    for name in NAMES:
        for suffix in (".jpg", ".json"):
            shutil.copy(SAMPLES / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    bench = load_script("bench/nets_bench.py")
    sq = bench.gather([tmp_path], 1)
    shipped = bench.wrong_squares(sq, bench.SHIPPED)
    stored = dict(np.load(bench.SHIPPED))
    networks = len(bench.members(stored))
    assert networks > 1  # an ensemble: each network, then their mean
    assert list(shipped) == [f"network {k + 1}" for k in range(networks)] + ["mean"]
    assert shipped["mean"][0] <= 2  # the samples read all but a few squares right
    bare = {k: v for k, v in stored.items() if k.startswith("m0.") or k == "temperature"}
    bare_code = np.arange(len(CLASSES)) == CLASSES.index(terrain.EMPTY)
    for layer in ("", "r"):  # its output layer, and its ruins spaces' (cells.RUINS_HEAD)
        bare[f"m0.{layer}w2"] = np.zeros_like(bare["m0.w2"])
        bare[f"m0.{layer}b2"] = np.where(bare_code, 9.0, 0.0).astype(np.float32)
    np.savez(tmp_path / "bare.npz", **bare)
    drawn = _drawn(tmp_path)
    assert bench.wrong_squares(sq, tmp_path / "bare.npz") == {"network 1": drawn}
    assert drawn[0] > 40
    assert drawn[1] > 0  # the bare network is wrong on ruins spaces drawn on, and counts them


def test_a_folder_read_once_is_read_back_from_where_it_is_kept(tmp_path: Path) -> None:
    """``--cache-dir``: the second run reads the kept squares, not the
    photos, and counts the same wrong squares."""
    photos = tmp_path / "draw"
    photos.mkdir()
    for suffix in (".jpg", ".json"):
        shutil.copy(SAMPLES / f"000{suffix}", photos / f"000{suffix}")
    bench = load_script("bench/nets_bench.py")
    kept = tmp_path / "kept"
    first = bench.wrong_squares(bench.gather([photos], 1, kept), bench.SHIPPED)
    assert (kept / "draw.npz").exists()
    (photos / "000.jpg").write_bytes(b"not a photo any more")
    again = bench.gather([photos], 1, kept)
    assert len(again.y) == SIZE * SIZE
    assert bench.wrong_squares(again, bench.SHIPPED) == first
