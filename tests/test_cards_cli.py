"""``referee cards``: every scoring card, its set, edict family and rule, in
words a person can grep and in JSON lines."""

from __future__ import annotations

import json

import pytest

from referee.cli import main
from referee.rules.cards import all_cards, card_named


def test_one_line_per_card_with_set_family_and_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 32
    assert lines[0].split("  ")[0] == "Sentinel Wood"
    sentinel = " ".join(lines[0].split())
    assert sentinel == (
        "Sentinel Wood Cartographers forest "
        "Earn one reputation star for each forest space adjacent to the edge of the map."
    )
    wallow = next(line for line in lines if line.startswith("Ulem's Wallow"))
    assert " Heroes " in wallow
    # Every column starts at the same place on every line.
    starts = {
        line.index("Cartographers") if "Cartographers" in line else line.index("Heroes") for line in lines
    }
    assert len(starts) == 1


def test_json_lines_name_every_card_score_accepts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--json"]) == 0
    cards = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [c["name"] for c in cards] == [card.name for card in all_cards()]
    assert all(set(c) == {"name", "set", "family", "rule", "solo"} for c in cards)
    assert {c["set"] for c in cards} == {"base", "heroes"}
    assert {c["family"] for c in cards} == {"forest", "village", "farm and water", "spatial"}
    canal = next(c for c in cards if c["name"] == "Canal Lake")
    assert (canal["set"], canal["family"]) == ("base", "farm and water")
    assert canal["rule"].startswith("Earn one reputation star for each water space")
    for c in cards:
        assert card_named(c["name"]).name == c["name"]
