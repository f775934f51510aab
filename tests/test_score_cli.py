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


def score_stdin(text: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    data = text.encode() if isinstance(text, str) else text
    return subprocess.run(
        [sys.executable, "-m", "referee", "score", *args], input=data, capture_output=True, timeout=60
    )


def test_dash_reads_the_map_from_standard_input(map_file: Path) -> None:
    piped = score_stdin(MAP, "-", "--side", "A", "--card", "Sentinel Wood", "--json")
    named = score_stdin(b"", str(map_file), "--side", "A", "--card", "Sentinel Wood", "--json")
    assert piped.returncode == named.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout
    assert json.loads(piped.stdout)["cards"] == {"Sentinel Wood": 4}


def test_dash_among_files_and_its_name_in_the_table(map_file: Path) -> None:
    done = score_stdin(MAP, str(map_file), "-", "--side", "A", "--card", "Greenbough")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().count("(side A)") == 2
    assert "standard input (side A)" in done.stdout.decode()


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        ("", ["-"], "referee score: standard input: it is empty; a map is 11 lines of 11 map codes"),
        ("...........\n", ["-"], "standard input: a map has 11 rows of 11 spaces; this one has 1 row\n"),
        (MAP, ["-", "-"], "standard input (-) can be read only once"),
    ],
)
def test_bad_standard_input_exits_2_with_one_line(stdin: str, args: list[str], message: str) -> None:
    done = score_stdin(stdin, *args, "--side", "A", "--all-cards")
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert message in err and err.count("\n") == 1


def test_sentinal_wood_gets_a_suggestion(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(map_file), "--side", "A", "--card", "Sentinal Wood"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "referee score: there is no scoring card called 'Sentinal Wood'. Did you mean Sentinel Wood? "
        "referee cards lists them all.\n"
    )


def test_table_rows_are_aligned_and_end_with_the_total(
    map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["score", str(map_file), "--side", "A", "--card", "Sentinel Wood", "--card", "Greenbough"]
    assert main([*args, "--coins", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{map_file} (side A)"
    # Sentinel Wood 4; Greenbough rows 1, 3 and columns 1-4, 6 = 7; 1 coin; 3 empty spaces beside the monster.
    assert lines[1:] == [
        "  Sentinel Wood          4",
        "  Greenbough             7",
        "  coins                  1",
        "  monsters              -3",
        "  surrounded mountains   1",
        "  total                  9  (11 from 2 cards, 1 coin, -3 for monsters)",
    ]


def test_total_without_coins_says_so(map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(map_file), "--side", "A", "--card", "Sentinel Wood"]) == 0
    out = capsys.readouterr().out
    assert "  total                  1  (4 from 1 card, coins not given, -3 for monsters)" in out
    assert "  coins " not in out
