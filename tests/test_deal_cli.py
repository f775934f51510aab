"""The ``deal`` command-line contract: the JSON shape, byte-identical output,
and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.rules.deck import MAX_SEED_LENGTH

DEALS = Path(__file__).parent / "data" / "deals"
FROZEN = [
    ("base", "amber-fox-417", DEALS / "base-amber-fox-417.json"),
    ("heroes", "Kethra's winter \u2603", DEALS / "heroes-kethras-winter.json"),
]


def run(*args: str, hashseed: str = "0") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run([sys.executable, "-m", "referee", "deal", *args], capture_output=True, env=env)


@pytest.mark.parametrize(("edition", "seed", "path"), FROZEN, ids=["base", "heroes"])
def test_json_output_is_the_frozen_bytes(
    edition: str, seed: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deal", "--seed", seed, "--edition", edition, "--json"]) == 0
    assert capsys.readouterr().out.encode("utf-8") == path.read_bytes()


def test_output_is_byte_identical_across_processes() -> None:
    first = run("--seed", "Kethra's winter \u2603", "--edition", "heroes", "--json", hashseed="1")
    second = run("--seed", "Kethra's winter \u2603", "--edition", "heroes", "--json", hashseed="2")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout == FROZEN[1][2].read_bytes()
    assert "\u2603".encode() in first.stdout  # ensure_ascii=False


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "shape", "--edition", "heroes", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    deal = json.loads(out)
    assert {"seed", "edition", "edicts", "seasons"} <= set(deal)
    assert (deal["seed"], deal["edition"]) == ("shape", "heroes")
    assert list(deal["edicts"]) == ["A", "B", "C", "D"]
    assert [s["name"] for s in deal["seasons"]] == ["spring", "summer", "fall", "winter"]
    assert [s["threshold"] for s in deal["seasons"]] == [8, 7, 7, 6]
    for season in deal["seasons"]:
        assert {"name", "threshold", "revealed", "time"} <= set(season)
        assert season["time"] == sum(r["time"] for r in season["revealed"]) >= season["threshold"]
        for card in season["revealed"]:
            assert {"name", "kind", "time"} <= set(card)
            assert card["kind"] in ("explore", "ruins", "ambush", "hero")


def test_readable_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "amber-fox-417", "--edition", "base"]) == 0
    out = capsys.readouterr().out
    frozen = json.loads(FROZEN[0][2].read_text(encoding="utf-8"))
    assert out.startswith("Cartographers, seed 'amber-fox-417'")
    assert f"A {frozen['edicts']['A']}" in out
    # Spring opens with Temple Ruins revealing Hamlet at once, on ruins.
    assert (
        "   1. Temple Ruins (ruins: the next explore card must overlap ruins) -> Hamlet (1, on ruins)" in out
    )
    for season in frozen["seasons"]:
        assert f"{season['name'].capitalize()} ends at time {season['time']}." in out


@pytest.mark.parametrize("seed", ["", "   ", "x" * (MAX_SEED_LENGTH + 1)])
def test_bad_seeds_exit_2_with_one_line(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", seed, "--edition", "base"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee deal: ")


@pytest.mark.parametrize(
    "args", [["--seed", "x", "--edition", "combined"], ["--edition", "base"], ["--seed", "x"]]
)
def test_usage_errors_exit_2_with_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["deal", *args])
    assert exit_.value.code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
