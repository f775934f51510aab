"""``bench/scan_bench.py`` tells the wrong squares on ruins spaces from the
rest, the hard photos' sheets from the normal ones', and counts the sheets
with a wrong square the player is not asked about.

Three sample photos the reader reads without a wrong square, each with its
truth changed where the test needs a wrong square: the bench must put each
one where it lies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from referee.rules.data import map_sides
from tests.scripts import ROOT, load_script

SAMPLES = ROOT / "sample_sheets"


def _copy(folder: Path, name: str, square: tuple[int, int] | None, difficulty: str) -> None:
    """Sample ``name`` and its truth in ``folder``, the truth's code at
    ``square`` changed (to one the sheet's reading cannot hold there) and its
    difficulty set."""
    shutil.copy(SAMPLES / f"{name}.jpg", folder / f"{name}.jpg")
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    if square is not None:
        r, c = square
        row = truth["grid"][r]
        truth["grid"][r] = row[:c] + ("F" if row[c] != "F" else "W") + row[c + 1 :]
    truth["difficulty"] = difficulty
    (folder / f"{name}.json").write_text(json.dumps(truth))


def _side(name: str) -> str:
    return str(json.loads((SAMPLES / f"{name}.json").read_text())["side"])


def test_wrong_squares_on_ruins_spaces_and_hard_photos_are_counted_apart(tmp_path: Path) -> None:
    ruins = sorted(map_sides()[_side("000")].ruins)[0]
    _copy(tmp_path, "000", ruins, "normal")  # wrong only on a ruins space
    _copy(tmp_path, "001", (0, 0), "hard")  # wrong on a bare square
    _copy(tmp_path, "003", None, "normal")  # read right
    assert (0, 0) not in map_sides()[_side("001")].ruins
    bench = load_script("bench/scan_bench.py")
    got: dict[str, Any] = bench.bench(tmp_path)
    assert got["wrong_cells"] == 2, got["failures"]
    assert got["wrong_cells_on_ruins"] == 1
    assert got["sheets_wrong_only_on_ruins"] == 1 / 3
    assert got["sheets_without_error_by_difficulty"] == {"hard": 0.0, "normal": 0.5}
    # the reader is sure of both squares, which it reads as the photo shows them
    assert got["wrong_cells_not_flagged"] == 2
    assert got["sheets_wrong_not_flagged"] == 2 / 3
    table = bench.show([got])
    assert "1 of 2" in table and "50% / 0%" in table
    assert got["intervals"]["sheets_without_error"] == bench.wilson(1, 3)
    assert "95 % interval" in table


def test_a_share_of_sheets_comes_with_wilsons_interval() -> None:
    """Counted by hand from Wilson's formula, z = 1.96: 20 of 24 sheets
    gives (20 + 1.921) / 27.841 = 0.787, plus or minus
    1.96 * sqrt(20 * 4 / 24 + 0.960) / 27.841 = 0.146."""
    bench = load_script("bench/scan_bench.py")
    low, high = bench.wilson(20, 24)
    assert (round(low, 3), round(high, 3)) == (0.641, 0.933)
    low, high = bench.wilson(24, 24)  # every sheet right: still not certain
    assert round(low, 3) == 0.862 and high == 1.0
    assert bench.wilson(0, 10)[0] == 0.0
    assert bench.wilson(0, 0) is None


def test_photos_read_side_by_side_give_the_same_figures(tmp_path: Path) -> None:
    """``--jobs``: read in two processes at once, in order, a refusal among
    them (a photo of one side told it is another's), every figure but the
    times is as read one after the other."""
    _copy(tmp_path, "000", (0, 0), "normal")
    _copy(tmp_path, "003", None, "hard")
    truth = json.loads((tmp_path / "003.json").read_text())
    truth["side"] = next(s for s in "ABCD" if s != truth["side"])
    shutil.copy(tmp_path / "003.jpg", tmp_path / "002.jpg")
    (tmp_path / "002.json").write_text(json.dumps(truth))
    bench = load_script("bench/scan_bench.py")
    alone, together = bench.bench(tmp_path), bench.bench(tmp_path, jobs=2)
    assert any(f.startswith("002.jpg: this looks like map side") for f in together["failures"]), together[
        "failures"
    ]
    assert together["another_side_named"] == 1  # its truth says it is of a side it is not
    assert list(together["seconds_by_photo"]) == ["000.jpg", "002.jpg", "003.jpg"]
    timed = {"seconds_median", "seconds_p95", "seconds_by_photo"}
    assert {k: v for k, v in alone.items() if k not in timed} == {
        k: v for k, v in together.items() if k not in timed
    }
