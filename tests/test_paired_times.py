"""``bench/paired_times.py`` compares two readers photo by photo: the ratio
is the median of each photo's own ratio, over the photos both read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts import load_script


def test_each_photo_is_compared_with_itself(tmp_path: Path) -> None:
    pt = load_script("bench/paired_times.py")
    before = {"a.jpg": 1.0, "b.jpg": 2.0, "c.jpg": 4.0, "gone.jpg": 9.0}
    after = {"a.jpg": 0.9, "b.jpg": 1.6, "c.jpg": 4.4, "new.jpg": 0.1}
    p = pt.paired(before, after)
    assert p["photos"] == 3
    assert p["ratio"] == pytest.approx(0.9)  # of 0.9, 0.8 and 1.1
    assert p["before"] == 2.0 and p["after"] == pytest.approx(1.6)
    with pytest.raises(ValueError, match="no photo"):
        pt.paired({"a.jpg": 1.0}, {"b.jpg": 1.0})


def test_the_runs_are_read_from_the_bench_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pt = load_script("bench/paired_times.py")
    for name, times in (("before", {"x.jpg": 1.0, "y.jpg": 1.0}), ("after", {"x.jpg": 0.5, "y.jpg": 0.7})):
        line = {"folder": "/somewhere/holdout", "seconds_by_photo": times}
        (tmp_path / f"{name}.json").write_text(json.dumps(line) + "\n")
    monkeypatch.setattr(
        "sys.argv", ["paired_times.py", str(tmp_path / "before.json"), str(tmp_path / "after.json")]
    )
    pt.main()
    out = capsys.readouterr().out
    assert out.startswith("holdout: 2 photos") and "median 0.600" in out
