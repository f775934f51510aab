"""``referee scan`` keeps its contract: JSON shape, exit status 2 with one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from referee.cli import main
from referee.cli.scan import RETAKE, doubt_note, table
from referee.rules.sheet import MapSheet
from referee.vision.reader import RETAKE_DOUBTFUL, SheetReading
from tests.vision.test_covered import plain_sheet

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
    for got, want in zip(out["corners"], truth["corners_px"], strict=True):
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


def truth(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((SAMPLES / f"{name}.json").read_text())
    return data


def test_map_prints_exactly_the_eleven_lines_of_a_map_file() -> None:
    side = str(truth("000")["side"])
    photo = str(SAMPLES / "000.jpg")
    as_json = json.loads(scan(photo, "--side", side, "--json").stdout)
    explicit = scan(photo, "--side", side, "--map")
    piped = scan(photo, "--side", side)  # stdout is a pipe here, so the map is the default
    assert explicit.returncode == piped.returncode == 0, explicit.stderr
    assert explicit.stdout == piped.stdout == "\n".join(as_json["grid"]) + "\n"
    assert MapSheet.parse(explicit.stdout, side).text() + "\n" == explicit.stdout


def test_scan_pipes_into_score() -> None:
    side = str(truth("000")["side"])
    reader = subprocess.Popen(
        [sys.executable, "-m", "referee", "scan", str(SAMPLES / "000.jpg"), "--side", side, "--map"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    scorer = subprocess.run(
        [sys.executable, "-m", "referee", "score", "-", "--side", side, "--all-cards", "--json"],
        stdin=reader.stdout,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert reader.stdout is not None
    reader.stdout.close()
    assert reader.wait(timeout=60) == 0
    assert scorer.returncode == 0, scorer.stderr
    assert len(json.loads(scorer.stdout)["cards"]) == 32


def test_dash_reads_the_photo_from_standard_input() -> None:
    side = str(truth("000")["side"])
    photo = SAMPLES / "000.jpg"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "scan", "-", "--side", side, "--json"],
        input=photo.read_bytes(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == scan(str(photo), "--side", side, "--json").stdout


def test_a_terminal_gets_the_table_with_doubtful_squares_marked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    side = str(truth("000")["side"])
    assert main(["scan", str(SAMPLES / "000.jpg"), "--side", side]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{SAMPLES / '000.jpg'} (side {side})"
    assert len(lines) >= 13 and lines[12].startswith("coins: ")


def reading(doubtful: int) -> SheetReading:
    """A reading of a blank side A with the first ``doubtful`` squares in doubt."""
    grid = tuple(MapSheet.blank("A").text().splitlines())
    confidence = tuple(tuple(0.5 if r * 11 + c < doubtful else 0.99 for c in range(11)) for r in range(11))
    return SheetReading("A", grid, confidence, None, (), plain_sheet())


@pytest.mark.parametrize(
    ("doubtful", "note", "footer"),
    [
        (0, None, None),
        (1, "check 1 doubtful square against the sheet: row 1, column 1", "1 doubtful square marked ?"),
        (
            2,
            "check 2 doubtful squares against the sheet: row 1, column 1; row 1, column 2",
            "2 doubtful squares marked ?",
        ),
    ],
)
def test_doubtful_squares_are_counted_in_words(doubtful: int, note: str | None, footer: str | None) -> None:
    assert doubt_note(reading(doubtful)) == note
    last = table("photo.jpg", reading(doubtful)).splitlines()[-1]
    if footer is None:
        assert last.startswith("coins: unknown (") and "count the coins" in last
    else:
        assert last.startswith(footer + ": check them")


@pytest.mark.parametrize("doubtful", [RETAKE_DOUBTFUL - 1, RETAKE_DOUBTFUL])
def test_so_many_doubtful_squares_ask_for_another_photo(doubtful: int) -> None:
    many = doubtful >= RETAKE_DOUBTFUL
    note = doubt_note(reading(doubtful))
    assert note is not None and note.startswith(f"check {doubtful} doubtful squares")
    assert note.endswith(RETAKE) == many
    last = table("photo.jpg", reading(doubtful)).splitlines()[-1]
    assert (last == RETAKE) == many
    assert last.startswith(f"{doubtful} doubtful squares marked ?") != many


def test_another_photo_is_asked_for_with_what_spoiled_this_one() -> None:
    """A dark photo with many doubtful squares: the note and the table say
    what to change, not the general advice."""
    dark = replace(reading(RETAKE_DOUBTFUL), canvas=(plain_sheet() * 0.45).astype(np.uint8))
    said = "another photo may read better: the photo is dark: take it in brighter light"
    note = doubt_note(dark)
    assert note is not None and note.endswith(said) and RETAKE not in note
    assert table("photo.jpg", dark).splitlines()[-1].endswith(said)


def test_sheet_dash_o_dash_writes_the_pdf_to_standard_output(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "sheet", "--side", "A", "-o", "-"],
        capture_output=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(SAMPLES.parent)),  # this checkout's referee, from elsewhere
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"%PDF") and done.stdout.rstrip().endswith(b"%%EOF")
    assert done.stderr == b""
    assert list(tmp_path.iterdir()) == []  # no file called "-"


def test_sheet_will_not_write_a_pdf_to_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["sheet", "--side", "A", "-o", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "-o - | lp" in err


MISSED = Path(__file__).parent / "photos" / "dim_on_pages.jpg"


def test_corners_read_a_photo_whose_grid_is_not_found() -> None:
    truth = json.loads(MISSED.with_suffix(".json").read_text())
    refused = scan(str(MISSED), "--side", truth["side"], "--map")
    assert refused.returncode == 2 and "no map grid found" in refused.stderr
    marks = " ".join(f"{x + 5:.0f},{y - 5:.0f}" for x, y in truth["corners_px"])
    done = scan(str(MISSED), "--side", truth["side"], "--map", "--corners", marks)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.split()
    assert sum(a != b for a, b in zip("".join(rows), "".join(truth["grid"]), strict=True)) <= 6


@pytest.mark.parametrize("corners", ["1,2 3,4 5,6", "a,b c,d e,f g,h", ""])
def test_corners_that_are_not_four_pairs_exit_2(corners: str) -> None:
    done = scan(str(MISSED), "--side", "B", "--corners", corners)
    assert done.returncode == 2 and "--corners" in done.stderr and done.stderr.count("\n") == 1
