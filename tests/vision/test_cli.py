"""``referee scan`` keeps its contract: JSON shape, exit status 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).parents[2] / "sample_sheets"


def scan(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "scan", *args], capture_output=True, text=True, timeout=60
    )


def test_json_contract() -> None:
    truth = json.loads((SAMPLES / "000.json").read_text())
    done = scan(str(SAMPLES / "000.jpg"), "--side", truth["side"], "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"grid", "confidence", "coins", "corners"}
    assert len(out["grid"]) == 11 and all(len(row) == 11 for row in out["grid"])
    assert len(out["confidence"]) == 11 and all(len(row) == 11 for row in out["confidence"])
    assert all(0 <= v <= 1 for row in out["confidence"] for v in row)
    assert out["coins"] is None or 0 <= out["coins"] <= 14
    assert len(out["corners"]) == 4
    for got, want in zip(out["corners"], truth["corners"], strict=True):
        assert abs(got[0] - want[0]) < 15 and abs(got[1] - want[1]) < 15


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"", "empty"), (b"hello, not a photo", "not a picture")],
)
def test_bad_file_exits_2_with_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(content)
    done = scan(str(photo), "--side", "A")
    assert done.returncode == 2
    assert words in done.stderr and done.stderr.count("\n") == 1


def test_missing_file(tmp_path: Path) -> None:
    done = scan(str(tmp_path / "nope.jpg"), "--side", "B")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_sheet_command_writes_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "sheet", "--side", "C", "--paper", "letter", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")
