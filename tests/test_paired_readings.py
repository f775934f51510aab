"""``bench/paired_readings.py`` reads each photo with two checkouts' readers
and names what differs: its comparison and figures on hand-made records,
then whole runs on two photos (the same checkout twice, and a copy of the
package changed to read one photo's coins wrong)."""

from __future__ import annotations

import copy
import hashlib
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.scripts import ROOT, load_script

pr = load_script("bench/paired_readings.py")


def _record(seconds: float = 1.0) -> dict[str, Any]:
    """A reading as a worker answers it: an empty side A sheet."""
    return {
        "reading": {
            "grid": ["." * 11] * 11,
            "confidence": [[1.0] * 11 for _ in range(11)],
            "coins": 3,
            "corners": [[10.0, 10.0], [500.0, 10.0], [500.0, 500.0], [10.0, 500.0]],
        },
        "side": "A",
        "canvas": "ab" * 20,
        "seconds": seconds,
    }


def _changed(change: str) -> dict[str, Any]:
    after = copy.deepcopy(_record())
    reading = after["reading"]
    if change == "grid":
        reading["grid"][2] = ".....F....."
    elif change == "confidence":
        reading["confidence"][4][7] = 0.9
    elif change == "coins":
        reading["coins"] = None
    elif change == "corners":
        reading["corners"][2] = [500.5, 499.75]
    elif change == "side":
        after["side"] = "B"
    elif change == "canvas":
        after["canvas"] = "cd" * 20
    elif change == "new part":
        reading["hero"] = "Wren"
    elif change == "refusal":
        after = {"refusal": "NoGridError: No map grid was found.", "seconds": 1.0}
    return after


def test_the_same_reading_and_the_same_refusal_do_not_differ() -> None:
    assert pr.differences(_record(1.0), _record(2.0)) == []  # the time is not the reading
    refused = {"refusal": "NoGridError: No map grid was found.", "seconds": 1.0}
    assert pr.differences(refused, dict(refused, seconds=0.5)) == []


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("grid", ["1 grid square (r2c5 . -> F)"]),
        ("confidence", ["confidences of 1 square (by up to 0.1)"]),
        ("coins", ["coins 3 -> None"]),
        ("corners", ["corners (moved up to 0.5 px)"]),
        ("side", ["side A -> B"]),
        ("canvas", ["canvas"]),
        ("new part", ["hero None -> Wren"]),
        ("refusal", ["refusal: read -> NoGridError: No map grid was found."]),
    ],
)
def test_each_part_that_differs_is_named(change: str, named: list[str]) -> None:
    assert pr.differences(_record(), _changed(change)) == named


def test_several_parts_and_many_squares() -> None:
    after = _changed("coins")
    after["reading"]["grid"] = ["F" * 11] + ["." * 11] * 10
    after["canvas"] = "ef" * 20
    assert pr.differences(_record(), after) == [
        "11 grid squares (r0c0 . -> F, r0c1 . -> F, r0c2 . -> F, r0c3 . -> F, ... 7 more)",
        "coins 3 -> None",
        "canvas",
    ]


def test_a_changed_sentence_is_a_difference() -> None:
    before = {"refusal": "NoGridError: No map grid was found.", "seconds": 1.0}
    after = {"refusal": "NoGridError: No grid was found.", "seconds": 1.0}
    assert pr.differences(before, after) == [
        "refusal: NoGridError: No map grid was found. -> NoGridError: No grid was found."
    ]
    assert pr.differences(before, _record()) == ["refusal: NoGridError: No map grid was found. -> read"]


def _photo(path: str, before: float, after: float, differs: list[str] | None = None) -> Any:
    return pr.Photo(path, str(Path(path).parent), _record(before), _record(after), tuple(differs or ()))


def test_the_times_are_compared_photo_by_photo() -> None:
    photos = [_photo("s/a.jpg", 1.0, 0.9), _photo("s/b.jpg", 2.0, 1.6), _photo("s/c.jpg", 4.0, 4.4)]
    t = pr.times(photos)
    assert t["photos"] == 3
    assert t["before_median"] == 2.0 and t["after_median"] == pytest.approx(1.6)
    assert t["ratio_median"] == pytest.approx(0.9)  # of 0.9, 0.8 and 1.1
    assert t["before_p95"] == pytest.approx(3.8) and t["after_p95"] == pytest.approx(4.12)
    with pytest.raises(ValueError, match="no photo"):
        pr.times([])


def test_the_summary_counts_the_photos_that_differ_and_groups_the_times_by_folder() -> None:
    photos = [
        _photo("s/a.jpg", 1.0, 0.5),
        _photo("s/b.jpg", 3.0, 1.5, ["coins 3 -> 4"]),
        _photo("h/c.jpg", 2.0, 4.0),
        _photo("h/d.jpg", 0.5, 0.5),
    ]
    lines = pr.summary(photos, n_slowest=2)
    assert lines[0] == "4 photos compared, 1 differ"
    assert lines[1].startswith("s: 2 photos, CPU s median 2.000 -> 1.000, p95 2.900 -> 1.450;")
    assert lines[1].endswith("median 0.500")
    assert lines[2].startswith("h: 2 photos, CPU s median 1.250 -> 2.250")
    assert lines[3:] == [  # the slower of before and after ranks them
        "slowest photos, CPU s before -> after:",
        "  h/c.jpg: 2.00 -> 4.00",
        "  s/b.jpg: 3.00 -> 1.50",
    ]


@pytest.fixture(scope="module")
def two_photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("photos")
    for name in ("000", "001"):
        for suffix in (".jpg", ".json"):
            shutil.copy(ROOT / "sample_sheets" / f"{name}{suffix}", folder)
    return folder


@pytest.mark.slow
def test_one_checkout_read_twice_reads_the_same(
    two_photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept.json"
    assert pr.main([str(ROOT), str(ROOT), str(two_photos), "--json", str(kept)]) == 0
    out = capsys.readouterr().out
    assert f"before: {ROOT / 'referee' / '__init__.py'}" in out
    assert "2 photos compared, 0 differ" in out
    assert f"{two_photos}: 2 photos, CPU s median" in out
    photos = json.loads(kept.read_text())["photos"]
    assert [Path(p["path"]).name for p in photos] == ["000.jpg", "001.jpg"]
    assert all(p["before"]["reading"] == p["after"]["reading"] and not p["differs"] for p in photos)


CHANGE = """

import dataclasses as _dataclasses
import hashlib as _hashlib

_read_sheet = read_sheet


def read_sheet(data, side, *args, **kwargs):  # a test's change: one photo's coins read wrong
    reading = _read_sheet(data, side, *args, **kwargs)
    if _hashlib.sha1(data).hexdigest() == "{sha}":
        return _dataclasses.replace(reading, coins=(reading.coins or 0) + 1)
    return reading
"""


@pytest.mark.slow
def test_a_reading_changed_is_named_and_fails_the_run(
    two_photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    after = tmp_path / "after"
    shutil.copytree(ROOT / "referee", after / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    sha = hashlib.sha1((two_photos / "001.jpg").read_bytes()).hexdigest()
    with (after / "referee" / "vision" / "reader.py").open("a") as f:
        f.write(CHANGE.format(sha=sha))
    assert pr.main([str(ROOT), str(after), str(two_photos)]) == 1
    out = capsys.readouterr().out
    assert f"after: {after / 'referee' / '__init__.py'}" in out
    assert "2 photos compared, 1 differ" in out
    named = [line for line in out.splitlines() if line.startswith(f"{two_photos}/")]
    assert len(named) == 1 and named[0].startswith(f"{two_photos / '001.jpg'}: coins ")


def test_a_players_marks_lie_near_the_true_corners_the_same_for_both_readers() -> None:
    """``--marks``: each true corner moved up to the error in squares along
    each axis, drawn from the photo's name alone, and kept on the photo."""
    truth = json.loads((ROOT / "sample_sheets" / "000.json").read_text())
    true = truth["corners_px"]
    square = math.dist(true[0], true[1]) / 11
    marks = pr.player_marks(truth, "000.jpg", 0.3, (2000, 2000))
    assert marks == pr.player_marks(truth, "000.jpg", 0.3, (2000, 2000))
    assert marks != pr.player_marks(truth, "001.jpg", 0.3, (2000, 2000))
    moved = [
        abs(m - c) / square
        for mark, corner in zip(marks, true, strict=True)
        for m, c in zip(mark, corner, strict=True)
    ]
    assert max(moved) <= 0.3 and max(moved) > 0.05
    assert pr.player_marks(truth, "000.jpg", 0.0, (2000, 2000)) == [tuple(c) for c in true]
    kept_on = pr.player_marks(truth, "000.jpg", 0.3, (600, 400))  # a photo smaller than the sheet's corners
    assert all(0 <= x <= 600 and 0 <= y <= 400 for x, y in kept_on)


def test_marks_a_square_or_more_off_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        pr.main([str(ROOT), str(ROOT), str(ROOT / "sample_sheets"), "--marks", "1.5"])
    assert "from 0 to under 1 square" in capsys.readouterr().err


@pytest.mark.slow
def test_one_checkout_read_twice_with_marks_reads_the_same_near_the_truth(
    two_photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept.json"
    assert pr.main([str(ROOT), str(ROOT), str(two_photos), "--marks", "0.3", "--json", str(kept)]) == 0
    out = capsys.readouterr().out
    assert "each photo read with the corners marked up to 0.3 squares off" in out
    assert "2 photos compared, 0 differ" in out
    for photo in json.loads(kept.read_text())["photos"]:
        true = json.loads(Path(photo["path"]).with_suffix(".json").read_text())["corners_px"]
        square = math.dist(true[0], true[1]) / 11
        read = photo["after"]["reading"]["corners"]  # fitted to the lines, not the marks
        assert max(min(math.dist(r, c) for c in true) for r in read) < 0.2 * square


def test_a_checkout_without_the_package_is_refused(tmp_path: Path) -> None:
    """The worker would import the installed referee instead: refused, naming it."""
    with pytest.raises(SystemExit, match="not the checkout's referee"):
        pr.Reader(tmp_path)
