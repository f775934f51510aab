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


def test_a_grid_the_search_never_offers_is_the_lattice_s_miss_when_its_lines_are_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A truth two squares along the printed grid: the reader's grid is then
    off, no grid the search offers lies near that truth, and yet its lines
    meet where the printed grid's do (two squares along a grid, in its own
    perspective, share its vanishing points): the lattice stage is at fault."""
    gm = load_script("bench/grid_misses.py")
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    moved = shifted(np.array(truth["corners_px"], np.float32), 2, 0)
    photo = _copy(tmp_path, moved.tolist())
    kind, lines = gm.miss(photo, most=3)
    assert kind == "lattice"
    said, offered, stage, along = lines.split("\n")
    assert said.startswith(f"{photo.name} [lattice] grid off by ")
    first = offered.split("offered: ")[1].split()[0]
    # the printed grid, about two squares from that truth (the squares
    # shrink along the grid under the photo's perspective), clearly seen
    assert 1.8 < float(first[:4]) < 2.5 and first[4] == "C"
    assert float(stage.split("vanishing points ")[1].split()[0]) < gm.VANISHING_NEAR
    assert along.startswith("    along the true corners: ")
    monkeypatch.setattr("sys.argv", ["grid_misses.py", str(tmp_path), "--offers", "3"])
    gm.main()
    out = capsys.readouterr().out
    assert out.endswith("1 photos, 1 grids missed: search (lines) 0, search (lattice) 1, check 0\n")


def test_a_pair_of_families_far_from_the_grid_s_directions_is_far_off() -> None:
    """The error of a pair of line families is how far the grid's lines miss
    their vanishing points: small for the printed grid's own, large for a
    grid turned a sixth of a turn."""
    gm = load_script("bench/grid_misses.py")
    from referee.vision.load import load_photo

    photo = load_photo(PHOTO.read_bytes())
    want = np.array(json.loads(PHOTO.with_suffix(".json").read_text())["corners_px"]) / photo.scale
    assert gm.vanishing_error(photo.rgb, want) < 0.5
    centre = want.mean(axis=0)
    turn = np.deg2rad(30.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    assert gm.vanishing_error(photo.rgb, (want - centre) @ rot.T + centre) > 10.0
