"""The whole reader over the committed sample photos (``sample_sheets/``).

Thresholds sit slightly under the figures measured by ``bench/scan_bench.py``
on the same photos, so a regression fails here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

# measured on sample_sheets/ (python bench/scan_bench.py sample_sheets):
# grid 100 %, colour cells 98.24 %, pencil cells 99.76 %, wrong cells flagged 58.6 %, coins 56.2 %
GRID_FOUND = 0.98
COLOUR_CELLS = 0.975
PENCIL_CELLS = 0.993
FLAGGED = 0.45
COINS = 0.45

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_sheets"


def _bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("scan_bench", ROOT / "bench" / "scan_bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    result: dict[str, Any] = _bench_module().bench(SAMPLES)
    return result


@pytest.mark.slow
def test_grid_found(figures: dict[str, Any]) -> None:
    assert figures["photos"] >= 50
    assert figures["grid_found"] >= GRID_FOUND


@pytest.mark.slow
def test_cell_accuracy(figures: dict[str, Any]) -> None:
    assert figures["by_style"]["colour"]["cell_accuracy"] >= COLOUR_CELLS
    assert figures["by_style"]["pencil"]["cell_accuracy"] >= PENCIL_CELLS


@pytest.mark.slow
def test_doubt_points_at_the_mistakes(figures: dict[str, Any]) -> None:
    assert figures["wrong_cells_flagged"] >= FLAGGED


@pytest.mark.slow
def test_coins(figures: dict[str, Any]) -> None:
    assert figures["coins_right_when_read"] >= COINS
