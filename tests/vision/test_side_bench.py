"""``bench/side_bench.py`` reads each photo as the other side of its pad and
puts each answer where it belongs: the photo's own side named, a map read
as the side asked, a refusal that names no side."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.scripts import ROOT, load_script

SAMPLES = ROOT / "sample_sheets"


def _copy(folder: Path, name: str, as_name: str, side: str | None = None) -> None:
    """Sample ``name`` in ``folder`` as ``as_name``, its truth's side set to
    ``side`` if given."""
    shutil.copy(SAMPLES / f"{name}.jpg", folder / f"{as_name}.jpg")
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    truth["side"] = side or truth["side"]
    (folder / f"{as_name}.json").write_text(json.dumps(truth))


@pytest.mark.slow
def test_each_answer_is_counted_where_it_belongs(tmp_path: Path) -> None:
    _copy(tmp_path, "000", "a", None)  # side A, read as B: names A
    _copy(tmp_path, "003", "b", None)  # side C, read as D: names C
    _copy(tmp_path, "001", "c", "A")  # side B said to be A: read as B, the side asked
    paper = np.full((900, 1200, 3), (214, 226, 233), np.uint8)  # bare paper: no grid at all
    assert cv2.imwrite(str(tmp_path / "d.jpg"), paper)
    (tmp_path / "d.json").write_text(json.dumps({"side": "B"}))
    bench = load_script("bench/side_bench.py")
    got: dict[str, Any] = bench.bench(tmp_path)
    assert got["photos"] == 4
    assert got["own side named"] == 2, got["by_photo"]
    assert got["read as the side asked"] == 1
    assert got["refused, no side named"] == 1
    assert got["another side named"] == 0
    assert got["by_photo"]["c.jpg"] == "read as the side asked"
    assert got["by_photo"]["d.jpg"].startswith("refused, no side named: no map grid found")
    assert got["own_side_interval"] == bench.wilson(2, 4)
    table = bench.show([got])
    assert table.splitlines()[2].split()[-1] == "2"  # own side named
    assert "95 % interval" in table
