"""``bench/retake_causes.py`` counts the causes named on the readings that
ask for another photo, and how many of them the truth says were done."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.scripts import ROOT, load_script

SAMPLES = ROOT / "sample_sheets"


def _photo(folder: Path, as_name: str, dark: bool, hard: list[str] | None) -> None:
    """Sample 003 in ``folder`` as ``as_name``, taken in a dark room if
    ``dark``, its truth saying what was done to it (``hard``) if given."""
    image = cv2.imread(str(SAMPLES / "003.jpg"))
    if dark:
        image = (image * 0.45).astype(np.uint8)
    assert cv2.imwrite(str(folder / f"{as_name}.jpg"), image)
    truth = json.loads((SAMPLES / "003.json").read_text())
    if hard is not None:
        truth["hard"] = hard
    (folder / f"{as_name}.json").write_text(json.dumps(truth))


@pytest.mark.slow
def test_causes_named_are_judged_against_what_was_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _photo(tmp_path, "a", True, ["dim"])  # dark, and the truth says so
    _photo(tmp_path, "b", True, ["blur"])  # dark, but the truth says blurred: named, not right
    _photo(tmp_path, "c", False, [])  # plain: nothing to name
    bench = load_script("bench/retake_causes.py")
    got: dict[str, Any] = bench.bench(tmp_path)
    assert got["retakes"] == 0  # read well: none asks for another photo
    assert got["others_dark"] == [2, 1]
    monkeypatch.setattr("referee.vision.reader.RETAKE_DOUBTFUL", 0)  # every reading asks
    got = bench.bench(tmp_path)
    assert (got["photos_read"], got["retakes"], got["retakes_naming_a_cause"]) == (3, 3, 2)
    assert got["retakes_dark"] == [2, 1]
    assert got["retakes_covered"] == got["others_dark"] == [0, 0]
    assert got["causes_by_retake"] == {"a.jpg": ["dark"], "b.jpg": ["dark"], "c.jpg": []}
    assert "1 of 2" in bench.show([got])


@pytest.mark.slow
def test_a_truth_that_says_nothing_of_what_was_done_is_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _photo(tmp_path, "a", True, None)
    monkeypatch.setattr("referee.vision.reader.RETAKE_DOUBTFUL", 0)
    bench = load_script("bench/retake_causes.py")
    got: dict[str, Any] = bench.bench(tmp_path)
    assert not got["judged"]
    assert got["retakes_dark"] == [1, 0]
    assert "asked, dark" in bench.show([got])
