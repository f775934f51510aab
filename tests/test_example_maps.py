"""The example map files are real maps: ``score`` accepts every one, and the
README's first command-line example runs as printed."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "maps").glob("*.txt"))


def side_of(path: Path) -> str:
    """The map side is the last letter of the name: ``wilderness-a.txt`` is side A."""
    return path.stem.rsplit("-", 1)[-1].upper()


def test_the_folder_has_sides_a_and_b_and_a_heroes_map_with_destroyed_spaces() -> None:
    sides = {side_of(p): p.read_text() for p in EXAMPLES}
    assert {"A", "B"} <= set(sides)
    assert any(side in "CD" and "X" in text for side, text in sides.items())


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_score_accepts_every_example(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(path), "--side", side_of(path), "--all-cards", "--coins", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["cards"]) == 32
    assert "warning" not in result  # 3 coins cover each example's surrounded mountains
    assert path.read_text().count("\n") == 11 and len(path.read_text().split()) == 11


def test_the_readmes_first_command_line_example_uses_an_example_map(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The command line", 1)[1]
    first = next(line for line in section.splitlines() if line.startswith("referee "))
    words = shlex.split(first)
    assert any(w.startswith("examples/maps/") for w in words)
    monkeypatch.chdir(ROOT)
    assert main(words[1:]) == 0
    assert capsys.readouterr().out.startswith("examples/maps/")
