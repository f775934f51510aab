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


MIXED = ["--ambush", "Goblin Attack", "--ambush", "gnoll raid", "--ambush", "Dragon Inferno"]
MIXED += ["--ambush", "Gorgon Gaze", "--explore-cards", "heroes"]


@pytest.mark.parametrize(("edition", "seed", "path"), FROZEN, ids=["base", "heroes"])
def test_json_output_is_the_frozen_bytes(
    edition: str, seed: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deal", "--seed", seed, "--edition", edition, "--json"]) == 0
    assert capsys.readouterr().out.encode("utf-8") == path.read_bytes()


def test_combined_game_deals_the_frozen_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    # The web's defaults for a combined game: the base game's season cards, hero cards in.
    assert main(["deal", "--seed", "mixed table 7", "--edition", "combined", *MIXED, "--json"]) == 0
    out = capsys.readouterr().out.encode("utf-8")
    assert out == (DEALS / "combined-mixed-table-7.json").read_bytes()
    spelled = [*MIXED, "--season-cards", "base", "--heroes", "--edicts", "random"]
    assert main(["deal", "--seed", "mixed table 7", "--edition", "combined", *spelled, "--json"]) == 0
    assert capsys.readouterr().out.encode("utf-8") == out


def test_combined_game_is_the_same_bytes_in_every_process() -> None:
    args = ["--seed", "mixed table 7", "--edition", "combined", *MIXED, "--no-heroes", "--json"]
    first, second = run(*args, hashseed="1"), run(*args, hashseed="2")
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    deal = json.loads(first.stdout)
    assert deal["options"]["heroes"] is False
    assert all(r["kind"] != "hero" for s in deal["seasons"] for r in s["revealed"])


def test_combined_listing_names_the_chosen_sets(capsys: pytest.CaptureFixture[str]) -> None:
    chosen = ["Sentinel Wood", "Craylund", "Shieldgate", "Starlit Sigil"]
    args = ["deal", "--seed", "s", "--edition", "combined", *MIXED, "--chosen", *chosen]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Cartographers and Cartographers Heroes combined, seed 's' (dealer version 1)"
    assert lines[1] == (
        "Season cards: base; explore cards: heroes; hero cards: yes; "
        "ambushes: Goblin Attack, Gnoll Raid, Dragon Inferno, Gorgon Gaze"
    )
    assert lines[2] == "Edicts: A Sentinel Wood, B Craylund, C Shieldgate, D Starlit Sigil"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--edition", "combined", "--ambushes", "chosen"],
            "a combined game with chosen ambushes needs four --ambush NAME options, not 0: choose any four",
        ),
        (["--edition", "combined", "--ambushes", "random", *MIXED[:2]], "but --ambushes is random"),
        (["--edition", "heroes", "--ambushes", "random"], "--ambushes is for --edition combined"),
        (["--edition", "combined", *MIXED[:2]], "not 1"),
        (["--edition", "combined", *MIXED, "--ambush", "Goblin Attack"], "not 5"),
        (
            ["--edition", "combined", *MIXED[:6], "--ambush", "Dragon"],
            "There is no ambush card called 'Dragon'",
        ),
        (["--edition", "base", "--explore-cards", "heroes"], "Cartographers uses its own explore cards"),
        (["--edition", "base", "--heroes"], "Hero cards are always in Cartographers Heroes"),
        (["--edition", "base", *MIXED[:8]], "uses its own four ambush cards"),
        (["--edition", "base", "--edicts", "first-game"], "names no scoring cards for a first game"),
        (["--edition", "base", "--edicts", "chosen"], "Choose four scoring cards"),
        (["--edition", "base", "--edicts", "random", "--chosen", "a", "b", "c", "d"], "--edicts is random"),
    ],
)
def test_setups_the_dealer_refuses_exit_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deal", "--seed", "x", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("referee deal: ") and err.count("\n") == 1
    assert message in err


def test_first_game_edicts_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "x", "--edition", "heroes", "--edicts", "first-game", "--json"]) == 0
    edicts = json.loads(capsys.readouterr().out)["edicts"]
    assert edicts == {
        "A": "Faunlost Thicket",
        "B": "Gnomish Colony",
        "C": "Ulem's Wallow",
        "D": "Dwarvenholds",
    }


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
    "args",
    [
        ["--seed", "x", "--edition", "chess"],
        ["--edition", "base"],
        ["--seed", "x"],
        ["--seed", "x", "--edition", "base", "--edicts", "sometimes"],
        ["--seed", "x", "--edition", "base", "--season-cards", "elves"],
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["deal", *args])
    assert exit_.value.code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_combined_ambushes_at_random_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.rules.deck import ambushes_at_random

    assert main(["deal", "--seed", "s", "--edition", "combined"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[1].endswith("ambushes: " + ", ".join(ambushes_at_random("s")))
    assert main(["deal", "--seed", "s", "--edition", "combined", "--ambushes", "random"]) == 0
    assert capsys.readouterr().out.splitlines() == listing
