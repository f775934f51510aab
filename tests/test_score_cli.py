"""The ``score`` command-line contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main

# Side A. Forest along row 1 columns 1-4 (4 on the edge), a monster at row 4,
# column 6 with three empty neighbours, the mountain at row 2, column 4 closed in.
MAP = """FFFF.......
..V^V......
...V.F..^..
.....M.....
...........
.....^.....
...........
...........
..^........
.......^...
...........
"""


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    path = tmp_path / "ann.txt"
    path.write_text(MAP)
    return path


def test_json_one_object_per_map_in_order(
    map_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text(Path(map_file).read_text().replace("F", ".").replace("V", ".").replace("M", "."))
    code = main(
        [
            "score",
            str(map_file),
            str(empty),
            "--side",
            "a",
            "--card",
            "SENTINEL WOOD",
            "--card",
            "ulem’s wallow",
            "--json",
        ]
    )
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["cards"] == {"Sentinel Wood": 4, "Ulem's Wallow": 0}
    assert first["monsters"] == -3
    assert first["surrounded_mountains"] == 1
    assert second["cards"] == {"Sentinel Wood": 0, "Ulem's Wallow": 0}
    assert second["monsters"] == 0 and second["surrounded_mountains"] == 0


def test_all_cards_uses_the_printed_names(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(map_file), "--side", "A", "--all-cards", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert len(cards) == 32
    assert "Ulem's Wallow" in cards and "The Broken Road" in cards
    assert all(isinstance(v, int) for v in cards.values())


def test_coins_are_checked_and_warned(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["score", str(map_file), "--side", "A", "--card", "Greenbough", "--coins", "0", "--json"]) == 0
    )
    assert "row 2, column 4" in json.loads(capsys.readouterr().out)["warning"]
    assert main(["score", str(map_file), "--side", "A", "--card", "Greenbough", "--coins", "15"]) == 2
    assert "14 coin symbols" in capsys.readouterr().err


def test_readable_table(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(map_file), "--side", "A", "--card", "Sentinel Wood"]) == 0
    out = capsys.readouterr().out
    assert "Sentinel Wood" in out and "monsters" in out


@pytest.mark.parametrize(
    ("content", "side", "cards", "message"),
    [
        (
            MAP.replace("^", ".", 1),
            "A",
            ["--card", "Greenbough"],
            "row 2, column 4: side A prints a mountain",
        ),
        (MAP.replace("M", "Z"), "A", ["--card", "Greenbough"], "row 4, column 6: 'Z' is not a map code"),
        (MAP, "B", ["--card", "Greenbough"], "side B"),
        (MAP, "A", ["--card", "Greenbow"], "no scoring card called 'Greenbow'. Did you mean Greenbough?"),
        (b"\xff\xfe\x00binary", "A", ["--all-cards"], "not a text file"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    tmp_path: Path, content: str | bytes, side: str, cards: list[str], message: str
) -> None:
    path = tmp_path / "bad.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    result = subprocess.run(
        [sys.executable, "-m", "referee", "score", str(path), "--side", side, *cards],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr


def test_missing_file_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "/nonexistent/map.txt", "--side", "A", "--all-cards"]) == 2
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main(["score", "x.txt", "--side", "A"])
    assert caught.value.code == 2
