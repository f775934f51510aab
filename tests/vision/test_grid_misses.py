"""``bench/grid_misses.py`` says, for each grid the reader misses, whether
the search never offered it or the check refused it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from referee.vision.grid import shifted
from tests.scripts import ROOT, load_script

PHOTO = ROOT / "sample_sheets" / "001.jpg"


def _copy(tmp_path: Path, corners: list[list[float]] | None = None) -> Path:
    """``PHOTO`` and its truth in ``tmp_path``, with ``corners`` as its true corners if given."""
    photo = tmp_path / PHOTO.name
    shutil.copy(PHOTO, photo)
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    if corners is not None:
        truth["corners_px"] = corners
    photo.with_suffix(".json").write_text(json.dumps(truth))
    return photo


def test_corners_are_compared_from_any_start_and_either_way_round() -> None:
    gm = load_script("bench/grid_misses.py")
    want = np.array([[0.0, 0.0], [110.0, 0.0], [110.0, 110.0], [0.0, 110.0]])
    assert gm.squares_off(np.roll(want, 1, axis=0), want) == 0.0
    assert gm.squares_off(want[::-1], want) == 0.0
    assert gm.squares_off(want + [20.0, 0.0], want) == pytest.approx(2.0)


def test_a_grid_found_in_place_is_no_miss(tmp_path: Path) -> None:
    gm = load_script("bench/grid_misses.py")
    assert gm.miss(_copy(tmp_path), most=3) is None


def test_a_grid_the_search_never_offers_is_the_search_s_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A truth two squares away from the printed grid: the reader's grid is
    then off, and no grid the search offers lies near that truth."""
    gm = load_script("bench/grid_misses.py")
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    moved = shifted(np.array(truth["corners_px"], np.float32), 2, 0)
    photo = _copy(tmp_path, moved.tolist())
    kind, line = gm.miss(photo, most=3)
    assert kind == "search"
    assert line.startswith(f"{photo.name} [search] grid off by ")
    first = line.split("offered: ")[1].split()[0]
    # the printed grid, about two squares from that truth (the squares
    # shrink along the grid under the photo's perspective), clearly seen
    assert 1.8 < float(first[:4]) < 2.5 and first[4] == "C"
    monkeypatch.setattr("sys.argv", ["grid_misses.py", str(tmp_path), "--offers", "3"])
    gm.main()
    assert capsys.readouterr().out.endswith("1 photos, 1 grids missed: search 1, check 0\n")
